"""`omnimessage schema`: the canonical JSON Schema (or one protocol version's, `--protocol`); its
subcommand `schema diff` is :mod:`.schema_diff`."""

from __future__ import annotations

import argparse
import sys

from omnimessage.cli.main import COMMANDS
from omnimessage.cli.usage import EXIT_OK, UsageError


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
    from omnimessage.cli.schema_diff import add_diff_parser

    s = sub.add_parser("schema", help=COMMANDS["schema"][1], description=SCHEMA_DESCRIPTION)
    s.add_argument("--protocol", metavar="VERSION", help="print the schema of one protocol version (derived from "
                   "the version marks) instead of the canonical one")
    s.set_defaults(func=cmd_schema)
    add_diff_parser(s)
