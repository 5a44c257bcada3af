"""What the deliberately bad testees share: the handshake and correct answers, except when they misbehave.

Each bad testee answers the conformance runner correctly (through our Python binding) until the
request it misbehaves on (the second by default; BAD_TESTEE_AT changes it), then does its one bad
thing. python/tests/test_bad_testees.py runs them.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from omnimessage.conformance.testee import Binding, handle

Request = dict[str, Any]


def answer(req: Request) -> None:
    sys.stdout.write(json.dumps(handle(Binding(), req)) + "\n")
    sys.stdout.flush()


def serve(misbehave: Callable[[Request], None], name: str) -> None:
    """Answer the handshake and every request; call `misbehave` on the chosen one instead."""
    at = int(os.environ.get("BAD_TESTEE_AT", "2"))
    hello = json.loads(sys.stdin.readline())
    sys.stdout.write(json.dumps({"hello": hello["hello"], "protocol": 1, "implementation": name}) + "\n")
    sys.stdout.flush()
    for n, raw in enumerate(sys.stdin, 1):
        req = json.loads(raw)
        if n == at:
            misbehave(req)
        else:
            answer(req)
