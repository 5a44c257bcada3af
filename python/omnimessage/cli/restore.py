"""`omnimessage restore ROOT SESSION_ID`: a session's current model context as JSON Lines."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from omnimessage.files.write_errors import STDOUT, named
from omnimessage.providers._shared import PROVIDERS
from omnimessage.text.sanitize import clip_text, sanitize

if TYPE_CHECKING:
    from omnimessage.model_context.rebuild import Restored

__all__ = ["add_parser"]

EXIT_OK, EXIT_ERRORS = 0, 1

DESCRIPTION = """\
Print the model context a resume of SESSION_ID rebuilds from the trace root ROOT, as the reference
harness does: the newest trace file's committed history, then its carry-over input, one message per
line, each the trace line's exact bytes (fidelity included). Pairing placeholders the reference
synthesizes are printed too and named on standard error, as are skipped blank or torn lines and
lines of an older release read as their successor (a legacy trace). A context closed by a
completed compaction prints nothing and says so on standard error. Anything wrong or missing (no
such session, a line that does not decode, no session_meta) is one line on standard error naming
the file and line, exit status 1.

With --to PROVIDER the context is printed as that provider's request body instead: one line of
compact JSON (the conversation and the system prompt, as the reference's model gateway maps them),
and each thing the provider cannot carry on standard error as `loss: message N POINTER: REASON`
(N the 0-based index in the context). Losses are no error: exit status 0."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Register `restore` on the `omnimessage` command's subparsers."""
    r = sub.add_parser("restore", help="print a session's model context, restored from its trace",
                       description=DESCRIPTION)
    r.add_argument("root", metavar="ROOT", help="the trace root (<yyyy-mm-dd>/<session_id>_<NNN>.jsonl)")
    r.add_argument("session_id", metavar="SESSION_ID", help="the session to restore")
    r.add_argument("--lenient", action="store_true",
                   help="read events of a newer protocol version as opaque (they never enter the context)")
    r.add_argument("--to", choices=PROVIDERS, metavar="PROVIDER",
                   help=f"print the request body of PROVIDER ({', '.join(PROVIDERS)}) instead of the context; "
                        "what it cannot carry is listed on standard error")
    r.set_defaults(func=run)
    return r


def run(args: argparse.Namespace) -> int:
    from omnimessage.model_context.rebuild import RestoreError, restore

    try:
        ctx = restore(args.root, args.session_id, lenient=args.lenient)
    except RestoreError as exc:
        sys.stderr.write(f"omnimessage restore: {sanitize(str(exc))}\n")
        return EXIT_ERRORS
    for number in ctx.skipped:
        sys.stderr.write(f"omnimessage restore: {sanitize(ctx.path)}:{number}: skipped (a blank or torn line)\n")
    for number in ctx.retired:
        sys.stderr.write(f"omnimessage restore: {sanitize(ctx.path)}:{number}: a retired spelling, read as its "
                         "successor\n")
    if ctx.context_closed:
        where = f", the summary written from line {ctx.summary_from[-1].line}" if ctx.summary_from else ""
        sys.stderr.write(f"omnimessage restore: {sanitize(ctx.path)}: the context is closed by a completed "
                         f"compaction: the next one starts empty{where}\n")
    out = sys.stdout.buffer
    for item in ctx.messages:
        if item.line is None:
            sys.stderr.write(f"omnimessage restore: {sanitize(ctx.path)}: a placeholder output synthesized "
                             f"for a tool call with no output in the trace\n")
    with named(STDOUT):
        if args.to is not None:
            _write_projection(ctx, args.to)
        else:
            for item in ctx.messages:
                out.write(item.raw + b"\n")
        out.flush()
    return EXIT_OK


def _write_projection(ctx: Restored, provider: str) -> None:
    from omnimessage.codec.write import write_json
    from omnimessage.providers import project

    projection = project(ctx, provider)
    # `JSON.stringify`'s spelling, as the TypeScript command line writes it (numbers as
    # ECMAScript writes them, a lone surrogate as its `\\udXXX` escape): the same bytes
    sys.stdout.buffer.write((write_json(projection.body) + "\n").encode("utf-8"))
    for loss in projection.losses:  # a pointer quotes the trace's keys: clipped, as every quoted string
        sys.stderr.write(f"loss: message {loss.message} {sanitize(clip_text(loss.pointer))}: {sanitize(loss.reason)}\n")
