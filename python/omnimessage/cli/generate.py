"""`omnimessage generate`: the files of one target, generated from the schema (the generator,
`omnimessage_codegen`, is imported when the command runs: it needs the `codegen` extra)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from omnimessage.cli.main import COMMANDS
from omnimessage.cli.usage import EXIT_OK, EXIT_USAGE
from omnimessage.extras import install_hint
from omnimessage.text.sanitize import clip_text, sanitize


def cmd_generate(args: argparse.Namespace) -> int:
    """A target that does not exist or whose extra is not installed is a usage error: exit 2, one
    line (the known targets and a "did you mean", or the pip command), before anything is written."""
    import difflib

    from omnimessage.schema.versions import versions
    from omnimessage_codegen import TARGETS, generate, load_protocol, load_schema, load_testee_protocol
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
    if args.protocol is not None and target.schema == "testee-protocol":
        sys.stderr.write(f"omnimessage generate: --target {target.name} renders the testee protocol; "
                         "--protocol does not apply\n")
        return EXIT_USAGE
    if args.protocol is not None and args.protocol not in versions():
        name = sanitize(clip_text(repr(args.protocol)))
        sys.stderr.write(f"omnimessage generate: unknown protocol {name} (known: {', '.join(versions())})\n")
        return EXIT_USAGE
    if target.schema == "testee-protocol":  # the project's own targets: the testee protocol's types
        model = load_testee_protocol()
    else:
        model = load_schema() if args.protocol is None else load_protocol(args.protocol)
    for path in generate(args.target, model, Path(args.out)):
        sys.stderr.write(f"wrote {path}\n")
    return EXIT_OK


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


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
