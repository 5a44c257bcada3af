"""Floods stdout with bytes and never ends the line (mode `bytes`), or with endless answer lines (`lines`)."""

import json
import sys

from _common import serve

MODE = sys.argv[1] if len(sys.argv) > 1 else "bytes"


def flood(req: dict[str, object]) -> None:
    out = sys.stdout.buffer
    chunk = b"x" * (1 << 20) if MODE == "bytes" else (json.dumps({"id": req["id"], "result": "skipped"}) + "\n").encode() * 10_000
    try:
        while True:
            out.write(chunk)
            out.flush()
    except (BrokenPipeError, OSError):
        sys.exit(0)


serve(flood, f"bad-flood-{MODE}")
