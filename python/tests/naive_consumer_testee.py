"""A deliberately naive consumer testee (conformance/TESTEE-PROTOCOL.md, the consumer role): it
reads each stream whole with http.client and makes the mistakes hand-written SSE readers make.
`--defect NAME` (repeatable) picks them:

* `lf-only`: splits lines on LF only (a CR-only stream is one line; a CR stays in the data);
* `join`: joins `data:` lines without the LF between them;
* `no-resume`: reconnects without `Last-Event-ID`;
* `no-resync`: keeps its cards across a `resync_required`.

Without a defect it is a plain, careful-enough reader. python/tests/test_conformance_consumer.py
runs it to show that the suite fails each defect. Standard library only.
"""

from __future__ import annotations

import http.client
import json
import re
import sys
from typing import Any
from urllib.parse import urlsplit

DEFECTS = ("lf-only", "join", "no-resume", "no-resync")


def events(body: bytes, defects: set[str]) -> list[tuple[str | None, str | None, str]]:
    """(id set by the event or None, event name, data) of each whole event; a torn one is dropped."""
    text = body.decode("utf-8", "replace").lstrip("\ufeff")
    lines = text.split("\n") if "lf-only" in defects else re.split(r"\r\n|\r|\n", text)
    lines = lines[:-1]  # the piece after the last line end is not a line
    out: list[tuple[str | None, str | None, str]] = []
    eid: str | None = None
    name: str | None = None
    data: list[str] = []
    for line in lines:
        if line == "":
            if data or eid is not None:
                out.append((eid, name, ("" if "join" in defects else "\n").join(data)))
            eid, name, data = None, None, []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            data.append(value)
        elif field == "id" and "\0" not in value:
            eid = value
        elif field == "event":
            name = value
    return out


def consume(url: str, defects: set[str]) -> list[dict[str, Any]]:
    parts = urlsplit(url)
    cards: dict[tuple[str, ...], list[str]] = {(): []}
    last: str | None = None
    for _ in range(16):
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
        headers = {} if last is None or "no-resume" in defects else {"Last-Event-ID": last}
        conn.request("GET", parts.path, headers=headers)
        resp = conn.getresponse()
        if resp.status == 204:
            break
        body = resp.read()
        conn.close()
        for eid, name, data in events(body, defects):
            if eid is not None:
                last = eid
            if not data:
                continue
            if name is not None:
                if data == '{"type":"resync_required"}' and "no-resync" not in defects:
                    cards = {(): []}
                continue
            msg = json.loads(data)
            if str(msg.get("payload", {}).get("type", "")).startswith("partial_"):
                continue
            cards.setdefault(tuple(msg.get("origin", [])), []).append(data)
    return [{"origin": list(o), "messages": m} for o, m in cards.items()]


def main() -> int:
    defects = {sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--defect"}
    hello = json.loads(sys.stdin.readline())
    out = {"hello": hello["hello"], "protocol": 1, "implementation": "naive-consumer", "version": ",".join(defects)}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        req = json.loads(line)
        try:
            ans = {"id": req["id"], "result": "rendered", "cards": consume(req["url"], defects)}
        except Exception as exc:
            ans = {"id": req.get("id"), "result": "error", "message": repr(exc)}
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
