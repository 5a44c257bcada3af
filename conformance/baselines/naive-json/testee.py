#!/usr/bin/env python3
"""Baseline testee `naive-json`: Python's `json.loads`, then a compact `json.dumps`.

What most people write first. It shows what the suite catches: no schema, no canonical key
order, `\\uXXXX` for every non-ASCII character (`ensure_ascii`), floats respelled, verbatim
values re-serialised, duplicate keys and lone surrogates silently accepted, `NaN` accepted.
It is also a complete testee of the protocol in conformance/TESTEE-PROTOCOL.md, in under 60 lines.
"""

import base64
import json
import sys

HELLO = "omnimessage-conformance"


def answer(req):
    data = base64.b64decode(req["input"])
    if req.get("mode") == "lenient":
        return {"result": "skipped", "reason": "no lenient mode"}
    terminated = data.endswith(b"\n")
    line = data[:-1] if terminated else data
    if len(line) > req.get("max_line_bytes", 1 << 28):
        return {"result": "refused", "category": "too_large", "pointer": ""}
    try:
        obj = json.loads(line.decode("utf-8"))
        if not isinstance(obj, dict):
            return {"result": "refused", "category": "wrong_type", "pointer": ""}
        out = json.dumps(obj, separators=(",", ":")).encode("utf-8")
    except UnicodeDecodeError:
        category = "invalid_utf8"
    except RecursionError:
        category = "too_deep"
    except json.JSONDecodeError as exc:
        category = "trailing_data" if exc.msg == "Extra data" else "invalid_json"
    else:
        return {"result": "encoded", "output": base64.b64encode(out).decode()}
    return {"result": "refused", "category": category if terminated else "truncated", "pointer": ""}


def main():
    hello = json.loads(sys.stdin.readline())
    assert hello["hello"] == HELLO and hello["protocol"] == 1, hello
    print(json.dumps({"hello": HELLO, "protocol": 1, "implementation": "naive-json"}), flush=True)
    for raw in sys.stdin:
        req = json.loads(raw)
        print(json.dumps({"id": req["id"], **answer(req)}), flush=True)


if __name__ == "__main__":
    main()
