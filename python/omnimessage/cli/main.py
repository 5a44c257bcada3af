"""The `omnimessage` command line: the entry point (`main`), the top-level parser, and the table of
subcommands (:data:`COMMANDS`), each defined in its own module and imported only when chosen."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import TextIO, cast

from omnimessage._version import __version__
from omnimessage.cli.usage import EXIT_OK, EXIT_USAGE, Parser, UsageError
from omnimessage.files.write_errors import STDOUT, NamedStream, named
from omnimessage.text.sanitize import sanitize

COMMANDS: dict[str, tuple[str, str]] = {
    # name: (the module whose `add_parser(sub)` registers it, the one-line help `omnimessage --help` lists)
    "canonicalize": ("omnimessage.cli.canonicalize:add_parser", "re-encode JSON Lines canonically (strict)"),
    "schema": ("omnimessage.cli.schema:add_parser", "print the canonical JSON Schema"),
    "generate": ("omnimessage.cli.generate:add_parser", "generate bindings or docs from the schema"),
    "conformance": (
        "omnimessage.conformance.command:add_parser",  # the conformance runner (issue 4)
        "run the conformance suite against an implementation",
    ),
    "validate": (
        "omnimessage.cli.validate:add_parser",  # the protocol validator (issue 5)
        "check traces and streams against the protocol rules",
    ),
    "restore": (
        "omnimessage.cli.restore:add_parser",  # a session's model context from its trace (issue 37)
        "print a session's model context, restored from its trace",
    ),
}


"""Every subcommand. Only the chosen one's module is imported: `omnimessage canonicalize` loads the
codec, never the validator, the conformance runner or the generator."""


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line (the top level has no option that takes a value)."""
    for arg in argv:
        if arg == "--":
            continue
        if not arg.startswith("-"):
            return arg
    return None


class _Version(argparse.Action):
    """`--version`: the release, and which proof of canonical form strict decoding uses (issue 26),
    on two lines (argparse's own version action would fill them into one)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from omnimessage.codec.native import DESCRIPTION

        print(f"omnimessage {__version__}\ncodec: {DESCRIPTION}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser, with the full definition of `command` only (the others are listed by name and help)."""
    p = Parser(prog="omnimessage", description="OmniMessage toolkit: codec, bindings, checks.")
    p.add_argument("--version", action=_Version, nargs=0, help="show the version and the codec path in use, and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (target, help_text) in COMMANDS.items():
        if name == command:
            module, _, function = target.partition(":")
            getattr(importlib.import_module(module), function)(sub)
        else:
            sub.add_parser(name, help=help_text, add_help=False)
    return p


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Parse; an unknown option is refused with the usage of the subcommand it was given to, and
    `--pre-commit` without a `--` that ends the options before anything is parsed."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if "--pre-commit" in argv and "--" not in argv:  # before parsing: a file name may be read as an option
        chosen = subs[0]._name_parser_map.get(_chosen(argv) or "", parser) if subs else parser
        chosen.error("--pre-commit: the file names must follow `--` (end the hook's args with `--`: "
                     "args: [--profile, stream, --])")
    args, extra = parser.parse_known_args(argv)
    if extra:
        chosen = subs[0]._name_parser_map.get(args.command, parser) if subs else parser
        chosen.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # unwinds, so temporary files are removed


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; called in-process (tests, an embedding program), it gives back the SIGTERM
    handler it found, and off the main thread it leaves signals alone."""
    try:
        previous = signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread: signals are the embedding program's
        return _main(argv)
    try:
        return _main(argv)
    finally:
        if previous is not None:  # None: a handler installed from C, which cannot be put back
            signal.signal(signal.SIGTERM, previous)


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_chosen(argv))
    args = _parse(parser, argv)
    plain = sys.stdout
    wrapped = cast(TextIO, NamedStream(plain))  # print() on a full disk names <stdout>
    sys.stdout = wrapped
    try:
        return _run(args, parser)
    finally:
        if sys.stdout is wrapped:  # not replaced on the way (a closed pipe): give the caller its stream back
            sys.stdout = plain


def _run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    try:
        rc: int = args.func(args)
        with named(STDOUT):  # what stdout still buffers: a full disk is an error, not exit 0
            sys.stdout.flush()
        return rc
    except UsageError as exc:
        parser.print_usage(sys.stderr)
        sys.stderr.write(f"omnimessage: {exc}\n")
        return EXIT_USAGE
    except BrokenPipeError:  # pragma: no cover - the reader went away
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return EXIT_OK
    except OSError as exc:
        where = f"{sanitize(str(exc.filename))}: " if exc.filename else ""
        sys.stderr.write(f"omnimessage: {where}{sanitize(str(exc.strerror or exc))}\n")
        if exc.filename == STDOUT:  # what stdout still buffers cannot be written either
            with contextlib.suppress(OSError):
                sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
