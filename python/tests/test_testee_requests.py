"""Both bundled testees answer the requests the testee protocol leaves no case for the same way
(conformance/TESTEE-PROTOCOL.md): an input of zero bytes holds no line and one of two lines holds
two, so both are malformed requests, answered `skipped` (which the runner fails); a torn last line
is `truncated` only when it does not parse; an opaque lenient message drops the CR before the LF."""

from __future__ import annotations

import base64
import json
import os
import subprocess
from typing import Any

import pytest
from conftest import needs

from omnimessage.conformance.testee import Binding, handle

LINE = b'{"timestamp":"t","type":"event_msg","payload":{"type":"request_begin"}}'
NEWER = b'{"timestamp":"t","type":"event_msg","payload":{"type":"request_ended"}}'

REQUESTS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"input": b""}, {"result": "skipped"}),
    ({"input": LINE + b"\n" + LINE + b"\n"}, {"result": "skipped"}),
    ({"input": b"\n\n"}, {"result": "skipped"}),
    ({"input": b"\n"}, {"result": "refused", "category": "invalid_json", "pointer": ""}),
    ({"input": LINE[:-1]}, {"result": "refused", "category": "truncated", "pointer": ""}),
    ({"input": NEWER}, {"result": "refused", "category": "unknown_type", "pointer": "/payload/type"}),
    ({"input": LINE + b" x"}, {"result": "refused", "category": "trailing_data", "pointer": ""}),
    ({"input": b"01\n"}, {"result": "refused", "category": "invalid_json", "pointer": ""}),
    ({"input": b"0 1\n"}, {"result": "refused", "category": "trailing_data", "pointer": ""}),
    ({"input": NEWER + b"\r\n", "mode": "lenient"}, {"result": "encoded", "output": NEWER}),
    ({"input": b" " + NEWER + b"\r", "mode": "lenient"}, {"result": "encoded", "output": NEWER}),
]


def _request(i: int, req: dict[str, Any]) -> dict[str, Any]:
    return {**req, "id": f"r{i}", "input": base64.b64encode(req["input"]).decode()}


def _check(answers: list[dict[str, Any]]) -> None:
    assert len(answers) == len(REQUESTS)
    for i, (answer, (req, want)) in enumerate(zip(answers, REQUESTS, strict=True)):
        assert answer["id"] == f"r{i}"
        got = {k: answer.get(k) for k in want}
        if "output" in want:
            got["output"] = base64.b64decode(answer["output"])
        assert got == want, (req, answer)
        if want["result"] == "skipped":
            assert answer["reason"].startswith("malformed request"), answer


def test_python_testee() -> None:
    _check([handle(Binding(), _request(i, req)) for i, (req, _) in enumerate(REQUESTS)])


@needs("node")
def test_typescript_testee() -> None:
    hello = {"hello": "omnimessage-conformance", "protocol": 1}
    lines = [json.dumps(hello)] + [json.dumps(_request(i, req)) for i, (req, _) in enumerate(REQUESTS)]
    proc = subprocess.run(
        ["node", os.environ["OMNIMESSAGE_TS_BIN"], "testee"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert answers[0]["hello"] == "omnimessage-conformance"
    _check(answers[1:])


@pytest.mark.parametrize("data", [b"", LINE + b"\n" + LINE])
def test_python_reader_sees_no_single_line(data: bytes) -> None:
    """What makes these requests malformed: a reader finds no line, or two, in them."""
    import io

    from omnimessage.reader import iter_messages

    assert len(list(iter_messages(io.BytesIO(data)))) != 1
