"""A testee that never parses a message: it looks every answer up in the suite files shipped in the
package (the manifest and its fixture files) and guesses `invalid_json` for any input it does not
find there. It passes every shipped case; the fresh cases of a run, which no file holds, catch it.
python/tests/test_conformance_fresh.py runs it.
"""

from __future__ import annotations

import base64
import json
import sys
from typing import Any

from omnimessage.conformance import load_suite, suite_dir


def answers() -> dict[tuple[bytes, str, int | None], dict[str, Any]]:
    """(input bytes, mode, line limit) -> the answer the shipped manifest expects."""
    table: dict[tuple[bytes, str, int | None], dict[str, Any]] = {}
    for case in load_suite(suite_dir()).cases:
        if case.expect == "reject":
            answer: dict[str, Any] = {"result": "refused", "category": case.category}
            if case.pointer is not None:
                answer["pointer"] = case.pointer
        else:
            assert case.output is not None
            answer = {"result": "encoded", "output": base64.b64encode(case.output).decode()}
        table[(case.input, case.mode, case.max_line_bytes)] = answer
    return table


def main() -> None:
    table = answers()
    hello = json.loads(sys.stdin.readline())
    sys.stdout.write(json.dumps({"hello": hello["hello"], "protocol": 1, "implementation": "lookup",
                                 "version": "0"}) + "\n")
    sys.stdout.flush()
    for raw in sys.stdin:
        req = json.loads(raw)
        key = (base64.b64decode(req["input"]), req.get("mode", "strict"), req.get("max_line_bytes"))
        found = table.get(key, {"result": "refused", "category": "invalid_json", "pointer": ""})
        sys.stdout.write(json.dumps({"id": req["id"], **found}) + "\n")
        sys.stdout.flush()


main()
