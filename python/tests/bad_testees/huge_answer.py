"""Answers a request with one enormous JSON line (BAD_TESTEE_MIB MiB, default 100)."""

import json
import os
import sys

from _common import serve


def huge(req: dict[str, object]) -> None:
    mib = int(os.environ.get("BAD_TESTEE_MIB", "100"))
    head = json.dumps({"id": req["id"], "result": "skipped", "reason": ""})[:-2]
    out = sys.stdout.buffer
    try:
        out.write(head.encode())
        for _ in range(mib):
            out.write(b"y" * (1 << 20))
        out.write(b'"}\n')
        out.flush()
    except (BrokenPipeError, OSError):
        sys.exit(0)


serve(huge, "bad-huge-answer")
