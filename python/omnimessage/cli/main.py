"""The `omnimessage` command line."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import errno
import importlib
import os
import signal
import stat
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NoReturn, TextIO, cast

from omnimessage._version import __version__
from omnimessage.codec.api import encode
from omnimessage.codec.errors import DecodeError
from omnimessage.extras import install_hint
from omnimessage.files.atomic import atomic_replace
from omnimessage.files.safe_open import NotReadable, open_regular
from omnimessage.files.write_errors import STDOUT, NamedStream, named
from omnimessage.reader import iter_messages
from omnimessage.text.bytes_diff import canonical_diff
from omnimessage.text.sanitize import MAX_MESSAGE_CHARS, clip_text, sanitize, sanitize_lines

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    pass


def did_you_mean(words: list[str], options: list[str]) -> str:
    """`; did you mean --profile?` for the words that look like a misspelt option (empty: none do)."""
    longs = [o for o in options if o.startswith("--")]
    hints = []
    for w in words:
        name = w.split("=", 1)[0]
        close = difflib.get_close_matches(name, longs, n=1, cutoff=0.6) if name.startswith("--") else []
        if close:
            hints.append(f"{name}: did you mean {close[0]}?")
    return "; " + "; ".join(hints) if hints else ""


class Parser(argparse.ArgumentParser):
    """`argparse.ArgumentParser` whose output is harmless: its usage errors echo arguments
    (`invalid choice: ...`, `unrecognized arguments: ...`), which are made one clipped, sanitised
    line; everything else it prints goes through `sanitize_lines`. Subcommand parsers inherit it."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments: "):  # a short usage line, and what was probably meant
            message += did_you_mean(message.split(": ", 1)[1].split(), list(self._option_string_actions))
            sys.stderr.write(f"usage: {self.prog} [OPTIONS] ... ('{self.prog} --help' lists the options)\n")
        else:
            self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {sanitize(clip_text(message, MAX_MESSAGE_CHARS))}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            super()._print_message(sanitize_lines(message), file)


def _report(err: DecodeError, name: str, out: TextIO) -> None:
    """`FILE:LINE: category: detail (at POINTER, byte N)`: the detail and the pointer quote input,
    so each is clipped (`clip_text`, `MAX_QUOTED_CHARS`) and sanitised."""
    where = []
    if err.pointer:
        where.append(f"at {clip_text(err.pointer)}")
    if err.offset is not None:
        where.append(f"byte {err.offset}")
    loc = f" ({', '.join(where)})" if where else ""
    out.write(f"{sanitize(name)}:{err.line}: {err.category}: {sanitize(clip_text(err.detail))}{sanitize(loc)}\n")


def _canonical_lines(fh: BinaryIO, name: str, args: argparse.Namespace, stats: dict[str, int]) -> Iterator[bytes]:
    """Yield output lines (with LF) for one input; report invalid lines on stderr."""
    for line in iter_messages(fh, lenient=args.lenient):
        stats["lines"] += 1
        if line.error is not None:
            stats["invalid"] += 1
            _report(line.error, name, sys.stderr)
            if args.keep_invalid and line.raw:
                yield line.raw + (b"\n" if line.terminated else b"")
            continue
        assert line.message is not None
        out = encode(line.message)
        if out != line.raw:
            stats["changed"] += 1
            if args.check:
                sys.stderr.write(f"{sanitize(name)}:{line.number}: not canonical\n")
                if stats["changed"] == 1:  # the first difference of the run, shown (the rest only named)
                    sys.stderr.write(canonical_diff(line.raw, out) + "\n")
        yield out + b"\n"


def _in_place(path: Path, args: argparse.Namespace, stats: dict[str, int]) -> None:
    """Replace the regular file `path` by its canonical form, atomically. Refused (an OSError naming
    it, the file untouched): a symbolic link, a file with other hard links, anything but a regular
    file, and a file that changed while it was read (a trace still being appended)."""
    before = stats["invalid"]
    name = str(path)
    if stat.S_ISLNK(os.lstat(name).st_mode):
        raise NotReadable(errno.ELOOP, "a symbolic link: --in-place replaces only regular files, not links "
                                       "(give the file it points to)", name)
    with open_regular(name, follow=False) as fh:
        st = os.fstat(fh.fileno())
        if st.st_nlink > 1:
            raise NotReadable(errno.EMLINK, f"has {st.st_nlink} hard links: --in-place would split them "
                                            f"(canonicalize to standard output instead)", name)
        with atomic_replace(path, st) as out:
            for chunk in _canonical_lines(fh, name, args, stats):
                out.file.write(chunk)
            if stats["invalid"] > before and not args.keep_invalid:
                sys.stderr.write(
                    f"{sanitize(name)}: left unchanged: it has invalid lines (--keep-invalid copies them through)\n"
                )
                out.discard()


def _is_url(f: str) -> bool:
    return "://" in f and not f.startswith(("http://", "https://")) and f.split("://", 1)[0].isidentifier()


def _open_source(f: str, args: argparse.Namespace) -> BinaryIO:
    """A FILE argument: a local file (a FIFO or pipe read as stdin is, never a device), or a storage
    URL (`s3://...`, `memory://...`: fsspec, streamed; --storage-option)."""
    if not _is_url(f):
        return open_regular(f, streams=True)
    from omnimessage.validate.sources.storage import StorageError, is_url, open_url, parse_storage_options

    if not is_url(f):
        return open_regular(f, streams=True)
    try:
        return open_url(f, parse_storage_options(args.storage_option))
    except (StorageError, ValueError) as exc:  # fsspec or s3fs missing (names the extra), a bad option
        raise UsageError(str(exc)) from None


def cmd_canonicalize(args: argparse.Namespace) -> int:
    stats = {"lines": 0, "invalid": 0, "changed": 0}
    if args.in_place and not args.files:
        raise UsageError("--in-place needs file arguments")
    if args.in_place and args.check:
        raise UsageError("--in-place and --check exclude each other")
    if args.in_place and any(_is_url(f) for f in args.files):
        raise UsageError("--in-place rewrites local files only, not URLs")
    if args.in_place:
        for f in args.files:
            _in_place(Path(f), args, stats)
    else:
        out = NamedStream(sys.stdout.buffer)
        sources = args.files or ["-"]
        for f in sources:
            with contextlib.ExitStack() as stack:
                # a FIFO or pipe named here is read as stdin is (`<(zcat t.gz)`); never a device
                fh = sys.stdin.buffer if f == "-" else stack.enter_context(_open_source(f, args))
                name = "<stdin>" if f == "-" else f
                for chunk in _canonical_lines(fh, name, args, stats):
                    if not args.check:
                        out.write(chunk)
        out.flush()
    if args.check:
        sys.stderr.write(
            f"{stats['lines']} lines: {stats['lines'] - stats['invalid'] - stats['changed']} canonical, "
            f"{stats['changed']} not canonical, {stats['invalid']} invalid\n"
        )
        return EXIT_INVALID if stats["invalid"] or stats["changed"] else EXIT_OK
    return EXIT_INVALID if stats["invalid"] else EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    from omnimessage.schema.file import schema_text

    if getattr(args, "protocol", None):
        import json

        from omnimessage.schema.versions import derive, versions

        if args.protocol not in versions():
            raise UsageError(f"unknown protocol {args.protocol!r}; known: {', '.join(versions())}")
        sys.stdout.write(json.dumps(derive(args.protocol), indent=2, ensure_ascii=False) + "\n")
        return EXIT_OK
    sys.stdout.write(schema_text())
    return EXIT_OK


def cmd_generate(args: argparse.Namespace) -> int:
    """A target that does not exist or whose extra is not installed is a usage error: exit 2, one
    line (the known targets and a "did you mean", or the pip command), before anything is written."""
    import difflib

    from omnimessage.schema.versions import versions
    from omnimessage_codegen import TARGETS, generate, load_protocol, load_schema
    from omnimessage_codegen.targets import DOCUMENTED

    target = TARGETS.get(args.target)
    if target is None:
        close = difflib.get_close_matches(args.target, list(DOCUMENTED), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        name = sanitize(clip_text(repr(args.target)))
        sys.stderr.write(f"omnimessage generate: unknown target {name} (targets: {', '.join(DOCUMENTED)}){hint}\n")
        return EXIT_USAGE
    missing = target.missing()
    if missing:
        what = " and ".join(m.replace("_", "-") for m in missing)
        sys.stderr.write(f"omnimessage generate: --target {target.name} needs {what}, which the '{target.extra}' "
                         f"extra installs: {install_hint(target.extra or target.name)}\n")
        return EXIT_USAGE
    if args.protocol is not None and args.protocol not in versions():
        name = sanitize(clip_text(repr(args.protocol)))
        sys.stderr.write(f"omnimessage generate: unknown protocol {name} (known: {', '.join(versions())})\n")
        return EXIT_USAGE
    model = load_schema() if args.protocol is None else load_protocol(args.protocol)
    for path in generate(args.target, model, Path(args.out)):
        sys.stderr.write(f"wrote {path}\n")
    return EXIT_OK


CANONICALIZE_DESCRIPTION = (
    "Re-encode JSON Lines in the canonical form (key order from the schema, verbatim values kept byte for byte), "
    "decoding strictly: each invalid line is reported on stderr as FILE:LINE: category: detail, valid lines are "
    "still written. Exit 0: every line valid (with --check: and canonical); 1: otherwise; 2: usage or a file "
    "refused. A FILE may be a regular file, or a FIFO or pipe (`<(zcat t.gz)`, read as stdin is); a device or a "
    "socket is refused. Pointers and details quoted from input are clipped to 200 characters."
)
CANONICALIZE_EPILOG = (
    "--in-place replaces only a regular file with a single link, keeping its mode, owner and group: a symbolic "
    "link is refused (give the file it points to; the link is never replaced by a copy), as is a file with "
    "other hard links (canonicalize to standard output instead). A file that changed while it was read (a trace "
    "still being written: its size, times or inode differ just before the rename) is left untouched, exit 2. "
    "Every refusal and write error names the file."
)
SCHEMA_DESCRIPTION = (
    "Print the canonical OmniMessage JSON Schema (draft 2020-12), the single source of truth of the protocol, "
    "to standard output: `omnimessage schema > omnimessage.schema.json`."
)


def add_canonicalize_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    c = sub.add_parser("canonicalize", help=COMMANDS["canonicalize"][1], description=CANONICALIZE_DESCRIPTION,
                       epilog=CANONICALIZE_EPILOG)
    c.add_argument("files", nargs="*", metavar="FILE",
                   help="input files or storage URLs (default: stdin; '-' is stdin)")
    c.add_argument(
        "--in-place", action="store_true",
        help="replace each file atomically (kept as is if any line is invalid or it changed while read; "
        "symbolic links and hard-linked files are refused)",
    )
    c.add_argument(
        "--keep-invalid", action="store_true", help="copy invalid lines through unchanged instead of dropping them"
    )
    c.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 unless every line is valid and canonical"
    )
    c.add_argument(
        "--lenient", action="store_true", help="pass well-formed lines the strict decoder refuses through verbatim"
    )
    c.add_argument(
        "--storage-option", action="append", default=[], metavar="KEY=VALUE",
        help="an fsspec storage option for FILE arguments that are URLs (s3://, gs://, memory://, file://); "
        "repeatable (docs/storage.md)",
    )
    add_pre_commit_option(c)
    c.set_defaults(func=cmd_canonicalize)


def add_schema_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from omnimessage.cli.schema_diff import add_diff_parser

    s = sub.add_parser("schema", help=COMMANDS["schema"][1], description=SCHEMA_DESCRIPTION)
    s.add_argument("--protocol", metavar="VERSION", help="print the schema of one protocol version (derived from "
                   "the version marks) instead of the canonical one")
    s.set_defaults(func=cmd_schema)
    add_diff_parser(s)


GENERATE_DESCRIPTION = """\
Write the files of one target, generated from the canonical schema (or, with
--protocol VERSION, from that protocol version's schema), into DIR (each
file replaced atomically, created with the usual permissions: 0666 less the umask).
The python target writes a package importing the omnimessage runtime by name, whose
decode/encode are the runtime's byte-exact codec bound to its own structs; the
typescript target writes types, builders and guards importing the omnimessage npm
package by name, whose codec is the package's decode/encode; typescript-types the
types, validators and guards alone, importing nothing. msgspec or
JSON.parse/JSON.stringify alone are not byte-exact.
Each target in a fresh project: docs/bindings.md."""

CODEGEN_EXTRA = f"generate needs jinja2, which the 'codegen' extra installs: {install_hint('codegen')}"


def cmd_generate_unavailable(args: argparse.Namespace) -> int:
    sys.stderr.write(f"omnimessage: {CODEGEN_EXTRA}\n")
    return EXIT_USAGE


def add_generate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    g = sub.add_parser("generate", help=COMMANDS["generate"][1])
    try:
        from omnimessage_codegen.targets import DOCUMENTED, TARGETS
    except ModuleNotFoundError as exc:  # the generator's templates need jinja2: the `codegen` extra
        if exc.name != "jinja2":
            raise
        g.add_argument("--target", required=True, help=f"python, typescript, markdown or pydantic ({CODEGEN_EXTRA})")
        g.add_argument("--out", required=True, metavar="DIR", help="output directory")
        g.set_defaults(func=cmd_generate_unavailable)
        return
    width = max(len(name) for name in DOCUMENTED)
    g.description = GENERATE_DESCRIPTION
    g.epilog = "targets (each in a fresh project: docs/bindings.md):\n" + "\n".join(
        f"  {t.name:<{width}}  {t.summary}\n  {'':<{width}}  writes DIR/{', DIR/'.join(t.writes)}"
        for t in (TARGETS[name] for name in DOCUMENTED)
    )
    g.formatter_class = argparse.RawDescriptionHelpFormatter  # two lines per target, as written
    g.add_argument("--target", required=True, help=f"what to generate: {', '.join(DOCUMENTED)} (see below)")
    g.add_argument("--out", required=True, metavar="DIR", help="output directory")
    g.add_argument("--protocol", metavar="VERSION", help="generate the bindings of one protocol version (a "
                   "pinned producer release: `omnimessage schema --protocol VERSION`) instead of the newest")
    g.set_defaults(func=cmd_generate)


COMMANDS: dict[str, tuple[str, str]] = {
    # name: (the module whose `add_parser(sub)` registers it, the one-line help `omnimessage --help` lists)
    "canonicalize": ("omnimessage.cli.main:add_canonicalize_parser", "re-encode JSON Lines canonically (strict)"),
    "schema": ("omnimessage.cli.main:add_schema_parser", "print the canonical JSON Schema"),
    "generate": ("omnimessage.cli.main:add_generate_parser", "generate bindings or docs from the schema"),
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


PRE_COMMIT_HELP = (
    "run as a pre-commit hook: the file names follow `--`, which must be given (end the hook's `args:` "
    "with `--`), so that a file named like an option (`--output=x.jsonl`) is read as a file"
)


def add_pre_commit_option(p: argparse.ArgumentParser) -> None:
    """`--pre-commit` (see :data:`PRE_COMMIT_HELP`); `main` refuses it without a `--`."""
    p.add_argument("--pre-commit", action="store_true", help=PRE_COMMIT_HELP)


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
