"""The command line of `omnimessage validate`: its description, epilog and options (the parser only;
`command.py` runs it)."""

from __future__ import annotations

import argparse
from typing import Final

from omnimessage._generated.models import DEFAULT_MAX_LINE_BYTES
from omnimessage.schema.versions import names as protocol_names
from omnimessage.validate.reporting.limit import DEFAULT_MAX_FINDINGS
from omnimessage.validate.reporting.output import FORMATS
from omnimessage.validate.reporting.progress_log import DEFAULT_EVERY

__all__ = ["DESCRIPTION", "EPILOG", "configure"]

DESCRIPTION: Final = """\
Check JSON Lines traces and streams against the OmniMessage protocol: every line decodes
strictly, and the rules over sequences of messages hold (streaming discipline, pairing, the
error vocabulary, origin chains, timestamps, trace rotation). Each finding names a rule
(docs/rules.md, or --explain RULE). Exit 0: no errors (warnings allowed); 1: errors; 2: usage.
"""

EPILOG: Final = """\
inputs:
  FILE          a trace file (--profile trace) or a captured stream (--profile stream)
  -             standard input
  URL           an object or a trace root in storage: s3://bucket/traces/, gs://..., memory://, file://
                (fsspec; --storage-option KEY=VALUE; docs/storage.md)
  DIR           a trace root laid out <yyyy-mm-dd>/<session_id>_<NNN>.jsonl: files group into
                sessions (rotation checked, subagent pointers resolved); with --profile stream,
                every .jsonl file below DIR on its own
  --sse FILE    a captured text/event-stream (always the stream profile)
  --sse-url URL a live producer, read for --duration seconds

files:
  Under a DIR only regular files and real directories are read: a symbolic link is never followed
  there (validate its target directly), a FIFO, device or socket is never opened, a directory that
  cannot be listed is not searched; each is reported once (OM806), never skipped silently. A FILE
  named here may be a FIFO or pipe (`<(zcat t.jsonl.gz)`, read as - is); a device never.

examples:
  omnimessage validate --profile trace ~/.agent/traces
  omnimessage validate --profile stream capture.jsonl --format github
  omnimessage validate --sse capture.sse --format sarif -o results.sarif
  omnimessage validate --sse-url http://127.0.0.1:8080/events --duration 20
  omnimessage validate --sse-url https://host/events --header "Authorization: Bearer $TOKEN"
"""


def configure(v: argparse.ArgumentParser) -> None:
    v.add_argument("paths", nargs="*", metavar="PATH", help="files, directories (trace roots) or - for stdin")
    v.add_argument("--profile", choices=("trace", "stream"), help="trace: stored trace files (default); "
                   "stream: the SDK / SSE channel (partials, origin)")
    v.add_argument("--legacy", action="store_true", help="accept the retired spellings of older traces as warnings")
    v.add_argument("--lenient", action="store_true",
                   help="read a newer producer: unknown fields and message types are warnings (OM115, OM116), "
                        "every other rule runs on what is known")
    v.add_argument("--protocol", metavar="VERSION",
                   help="the protocol version to validate against: " + ", ".join(protocol_names()) + " (default: "
                        "the newest; auto: read from the inputs, the choice noted in the report; legacy is --legacy, "
                        "newer is --lenient)")
    v.add_argument("--truncated", action="store_true",
                   help="the input was cut on purpose: unclosed fragments at its end are warnings")
    v.add_argument("--sse", action="append", default=[], metavar="FILE",
                   help="validate a captured text/event-stream ('-' for stdin); repeatable")
    v.add_argument("--sse-url", metavar="URL", help="validate a live text/event-stream producer")
    v.add_argument("--duration", type=float, default=30.0, metavar="S",
                   help="how long to read --sse-url, in seconds (default 30)")
    v.add_argument("--header", action="append", default=[], metavar="NAME:VALUE",
                   help="send this request header to --sse-url (e.g. 'Authorization: Bearer ...'); repeatable; "
                        "values are never shown")
    v.add_argument("--format", choices=FORMATS, default="text", help="report format (default text)")
    v.add_argument("--rules-url", default="", metavar="URL",
                   help="the absolute URL of docs/rules.md that SARIF and HTML reports link each rule to "
                        "(https://github.com/OWNER/omnimessage/blob/TAG/docs/rules.md)")
    v.add_argument("--sarif", metavar="FILE", help="also write a SARIF report to FILE (the same run as --format)")
    v.add_argument("--summary", metavar="FILE",
                   help="also append a Markdown summary to FILE (counts by rule, the first findings): "
                        "$GITHUB_STEP_SUMMARY in GitHub Actions")
    v.add_argument("--max-annotations", type=int, default=0, metavar="N",
                   help="--format github: annotate the first N findings of each severity, list the rest as log "
                        "lines and say how many (GitHub shows 10 per step; default 0: annotate all)")
    v.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of standard output")
    spread = v.add_mutually_exclusive_group()
    spread.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                        help="validate N inputs in parallel processes (0: one per core; default 1)")
    spread.add_argument("--dask", metavar="ADDRESS",
                        help="validate the sessions on a Dask cluster: a scheduler address (tls://host:8786), a "
                             "scheduler file, or local[:N] for N local worker processes (the dask extra, whose "
                             "packages are pip install 'dask[distributed]'; docs/scale.md). The scheduler can run "
                             "code in this process: only tls:// with the Dask TLS configuration is accepted, tcp:// "
                             "needs --dask-insecure; secret --storage-option values are refused (workers take "
                             "credentials from their own environment)")
    v.add_argument("--dask-insecure", action="store_true",
                   help="accept an unauthenticated --dask scheduler (tcp://): whoever answers at that address can "
                        "run code in this process")
    v.add_argument("--ignore", action="append", default=[], metavar="RULES",
                   help="skip rules: ids, id prefixes (OM7, OM75) or names, comma-separated; repeatable")
    v.add_argument("--select", action="append", default=[], metavar="RULES",
                   help="report only these rules (same syntax as --ignore)")
    v.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the text report (auto: on a terminal, unless NO_COLOR is set)")
    v.add_argument("--no-progress", action="store_true", help="never show the progress line")
    v.add_argument("--progress-every", type=float, default=DEFAULT_EVERY, metavar="S",
                   help=f"off a terminal, log the progress (sessions, bytes, throughput, ETA) to stderr every S "
                        f"seconds (default {DEFAULT_EVERY:g}; 0: never)")
    v.add_argument("--storage-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an fsspec storage option for URL inputs (s3://, gs://, memory://, file://), e.g. "
                        "endpoint_url=http://127.0.0.1:9000 or anon=true; repeatable; values of keys that look "
                        "like credentials are never shown (docs/storage.md)")
    v.add_argument("--summary-by", action="append", default=[], metavar="producer|day|rule",
                   help="add a table of findings per producer (session_meta source provider/model_id), per day "
                        "or per rule; repeatable or comma-separated. Text: after the report (stderr for junit, "
                        "github, sarif); json: summary.groups")
    v.add_argument("--max-line-bytes", type=int, default=DEFAULT_MAX_LINE_BYTES, metavar="N",
                   help=f"longest line accepted, in bytes (default {DEFAULT_MAX_LINE_BYTES}; OM105 beyond)")
    v.add_argument("--max-findings", type=int, default=DEFAULT_MAX_FINDINGS, metavar="N",
                   help=f"report at most N findings per input, count the rest by rule (default "
                        f"{DEFAULT_MAX_FINDINGS}; the summary counts them all)")
    v.add_argument("--list-rules", action="store_true", help="list the rules and exit")
    v.add_argument("--explain", metavar="RULE", help="explain one rule (id or name) and exit")

