"""Says hostile things everywhere a testee supplies text: its handshake (name, version, extra fields),
its stderr, the category, pointer and message of a refusal (second request), the reason of a skip
(third), then exits on the fourth with more hostile stderr (HOSTILE_NO_HELLO=1: before the handshake). Every string carries terminal escapes (clear screen, window title, OSC 52 clipboard
write, cursor up and erase line), U+202E, C1 controls, and line breaks followed by GitHub workflow
commands. python/tests/test_hostile_output.py checks that none of it reaches a report raw.
"""

from __future__ import annotations

import json
import os
import sys

from _common import answer

EVIL = (
    "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[1A\x1b[2K\u202eevil\u2066\x85\x9b31m"
    "\r\n::add-mask::x\n::error::forged\u2028::warning::x\t\x00\x7f"
    " ##[add-mask]legacy x##[stop-commands]tok ##"
)


def main() -> None:
    at = int(os.environ.get("BAD_TESTEE_AT", "2"))
    hello = json.loads(sys.stdin.readline())
    sys.stderr.write("::add-mask::stderr\n" + EVIL + "\n##[error]stderr\n")
    sys.stderr.flush()
    if os.environ.get("HOSTILE_NO_HELLO"):  # dies before the handshake: its stderr is in the start error
        sys.exit(5)
    sys.stdout.write(json.dumps({"hello": hello["hello"], "protocol": 1, "implementation": "::evil " + EVIL,
                                 "version": EVIL, EVIL: EVIL}) + "\n")
    sys.stdout.flush()
    for n, raw in enumerate(sys.stdin, 1):
        req = json.loads(raw)
        if n == at:
            sys.stdout.write(json.dumps({"id": req["id"], "result": "refused", "category": "::" + EVIL,
                                         "pointer": EVIL, "message": "::" + EVIL}) + "\n")
            sys.stdout.flush()
        elif n == at + 1:
            sys.stdout.write(json.dumps({"id": req["id"], "result": "skipped", "reason": EVIL}) + "\n")
            sys.stdout.flush()
        elif n == at + 2:
            sys.stderr.write("::error::dying\n" + EVIL)
            sys.stderr.flush()
            sys.exit(3)
        else:
            answer(req)


main()
