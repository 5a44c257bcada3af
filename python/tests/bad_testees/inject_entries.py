"""Tries to write entries of its own into a list made with `--update-expected-failures`: it refuses
every line with a category, pointer and message holding line breaks followed by case ids (real
ones, globs, `fresh:` entries), comment starts, terminal escapes and bidi controls. The list must
then hold only ids of the suite (and `fresh:CATEGORY` entries), each reason one escaped line.
python/tests/test_conformance_cli.py runs it.
"""

from __future__ import annotations

import json
import sys

INJECT = (
    "\n* injected glob\nrejection.duplicate_key.payload-type  injected\rfresh:*  injected\u2028"
    "roundtrip.request_begin.minimal injected\x1b[2J\u202e\x85# comment"
)


def main() -> None:
    hello = json.loads(sys.stdin.readline())
    sys.stdout.write(json.dumps({"hello": hello["hello"], "protocol": 1, "implementation": "inject" + INJECT,
                                 "version": INJECT}) + "\n")
    sys.stdout.flush()
    for raw in sys.stdin:
        req = json.loads(raw)
        sys.stdout.write(json.dumps({"id": req["id"], "result": "refused", "category": "x`" + INJECT + "`",
                                     "pointer": INJECT, "message": INJECT}) + "\n")
        sys.stdout.flush()


main()
