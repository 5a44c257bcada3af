"""`omnimessage schema`: the canonical JSON Schema (or one protocol version's, `--protocol`); and
`omnimessage schema diff`: its arguments, its output and its exit status, apart from the comparison
(:mod:`omnimessage.schema.diff`) and the CI formats and git refs (:mod:`omnimessage.schema.diff_ci`),
both of which it uses, so that neither imports the other."""

from __future__ import annotations

import argparse
import sys

from omnimessage.cli.main import COMMANDS
from omnimessage.cli.usage import EXIT_OK, UsageError
from omnimessage.schema import diff as schema_diff
from omnimessage.schema.diff import COMPATIBLE, READER, WRITER, MalformedSchema, diff, load, render_json, render_text
from omnimessage.schema.diff_ci import load_at_ref, renderer
from omnimessage.text.sanitize import sanitize


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


SCHEMA_DESCRIPTION = (
    "Print the canonical OmniMessage JSON Schema (draft 2020-12), the single source of truth of the protocol, "
    "to standard output: `omnimessage schema > omnimessage.schema.json`."
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = sub.add_parser("schema", help=COMMANDS["schema"][1], description=SCHEMA_DESCRIPTION)
    s.add_argument("--protocol", metavar="VERSION", help="print the schema of one protocol version (derived from "
                   "the version marks) instead of the canonical one")
    s.set_defaults(func=cmd_schema)
    add_diff_parser(s)


_DOC = schema_diff.__doc__ or ""


def cmd_diff(args: argparse.Namespace) -> int:
    allowed = set(args.allow or ())
    try:
        if args.new is None and not args.against_ref:
            raise ValueError("give OLD and NEW, or --against-ref REF and the schema file")
        old_label, old = load_at_ref(args.against_ref, args.old) if args.against_ref else load(args.old)
        new_label, new = load(args.new if args.new is not None else args.old)
        changes = diff(old, new)
    except (ValueError, OSError, RecursionError) as exc:  # JSONDecodeError, MalformedSchema are ValueErrors
        return _malformed(exc)
    except (TypeError, KeyError, AttributeError) as exc:  # a shape no check above names
        return _malformed(MalformedSchema(f"malformed schema ({type(exc).__name__}: {exc})"))
    out = renderer(args.format, allowed) or (render_json if args.format == "json" else render_text)
    sys.stdout.write(out(old_label, new_label, changes))
    breaking = [c for c in changes if any(k != COMPATIBLE and k not in allowed for k in c.classes)]
    return 1 if breaking else 0


def _malformed(exc: BaseException) -> int:
    """Exit status 2 with one sanitised line (a schema that cannot be read is no verdict on it)."""
    text = "nesting too deep to read" if isinstance(exc, RecursionError) else str(exc)
    sys.stderr.write(f"omnimessage schema diff: {sanitize(' '.join(text.split()))[:500]}\n")
    return 2


def add_diff_parser(schema_parser: argparse.ArgumentParser) -> None:
    sub = schema_parser.add_subparsers(dest="schema_command", metavar="diff")
    d = sub.add_parser("diff", help="classify every change between two schema versions",
                       description=_DOC.split("\n\n", 1)[1] if _DOC else None)
    d.add_argument("old", metavar="OLD", help="a protocol version (e.g. 0.2.4) or a schema file")
    d.add_argument("new", metavar="NEW", nargs="?",
                   help="a protocol version (e.g. next) or a schema file (with --against-ref: OLD's working copy)")
    d.add_argument("--format", choices=("text", "json", "github", "junit"), default="text",
                   help="report format (default text; github: workflow annotations; junit: a test case per change)")
    d.add_argument("--against-ref", metavar="REF",
                   help="OLD is a schema file as committed at this git ref (`git show REF:OLD`); NEW defaults to "
                   "OLD's working copy: `schema diff --against-ref origin/main schema/omnimessage.schema.json`")
    d.add_argument("--allow", action="append", choices=(READER, WRITER), metavar="CLASS",
                   help="do not fail on this class of change (reader-breaking or writer-breaking); repeatable")
    d.set_defaults(func=cmd_diff)
