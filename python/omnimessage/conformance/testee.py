"""The Python binding as a conformance testee: `python -m omnimessage.conformance.testee`.

It speaks the testee protocol of `conformance/TESTEE-PROTOCOL.md` on stdin/stdout. Each request's
input is read the way a reader reads a one-line JSON Lines file (`iter_messages`), so the
reader-level categories (`too_large`, `truncated`) are tested too. A request of the consumer role
(`"role": "consumer"`) is answered by :mod:`.consumer_testee`.

:class:`Binding` is the seam the mutation check (`omnimessage_dev.mutants`, development tooling in
dev/, not in the wheel) uses to break it on purpose.
"""

from __future__ import annotations

import base64
import io
import json
import sys
from typing import IO, Any, cast

from omnimessage.codec.api import OpaqueMessage, encode
from omnimessage.codec.errors import DecodeError

from .._generated.models import DEFAULT_MAX_LINE_BYTES, Message
from .._version import __version__
from ..reader import iter_messages
from . import testee_protocol as wire
from .consumer_testee import handle_consumer, is_consumer_request
from .suite import PROTOCOL_VERSION

__all__ = ["Binding", "handle", "main", "serve"]

HELLO = wire.HELLO


class Binding:
    """Decode one line as a reader would, encode a message; subclasses break it on purpose."""

    name = "omnimessage-python"

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        """Decode the single line of `data` (a one-line JSON Lines file); raises DecodeError."""
        lines = list(iter_messages(io.BytesIO(data), lenient=lenient, max_line_bytes=max_line_bytes))
        if len(lines) != 1:  # zero bytes hold no line: a malformed request, as two lines are
            raise ValueError(f"malformed request: the input holds {len(lines)} lines; the protocol sends exactly one")
        line = lines[0]
        if line.error is not None:
            raise line.error
        assert line.message is not None
        return line.message

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return encode(msg)


def handle(binding: Binding, req: dict[str, Any]) -> wire.Answer:
    """Answer one request (`req` as it arrived: any members, checked here), typed as the protocol's
    schema types it (:mod:`.testee_protocol`)."""
    cid: Any = req.get("id")  # echoed as it came (a malformed request's may be no string): the runner judges it
    try:
        data = base64.b64decode(req["input"], validate=True)
        lenient = req.get("mode", "strict") == "lenient"
        limit = int(req.get("max_line_bytes") or DEFAULT_MAX_LINE_BYTES)
    except (KeyError, ValueError, TypeError) as exc:
        return {"id": cid, "result": "skipped", "reason": f"malformed request: {exc}"}
    try:
        msg = binding.read_line(data, lenient=lenient, max_line_bytes=limit)
        out = binding.encode(msg)
    except ValueError as exc:
        if not isinstance(exc, DecodeError):
            return {"id": cid, "result": "skipped", "reason": str(exc)}
        err = exc
        # a DecodeError's category is one of the schema's rejections, which the protocol's enum lists
        category = cast("wire.RefusedCategory", err.category)
        resp: wire.Refused = {"id": cid, "result": "refused", "category": category, "pointer": err.pointer}
        if err.offset is not None:
            resp["offset"] = err.offset
        resp["message"] = err.detail
        return resp
    return {"id": cid, "result": "encoded", "output": base64.b64encode(out).decode("ascii")}


def serve(binding: Binding, stdin: IO[bytes], stdout: IO[bytes]) -> int:
    hello = json.loads(stdin.readline() or b"{}")
    if hello.get("hello") != HELLO or hello.get("protocol") != PROTOCOL_VERSION:
        sys.stderr.write(f"testee: unsupported handshake {hello!r}\n")
        return 2
    reply: wire.TesteeHello = {
        "hello": HELLO, "protocol": PROTOCOL_VERSION, "implementation": binding.name, "version": __version__,
    }
    stdout.write(json.dumps(reply).encode() + b"\n")
    stdout.flush()
    for raw in stdin:
        req = json.loads(raw)
        # ensure_ascii: a pointer may hold a lone surrogate, which only a \u escape can carry
        resp = handle_consumer(req) if is_consumer_request(req) else handle(binding, req)
        stdout.write(json.dumps(resp).encode() + b"\n")
        stdout.flush()
    return 0


def main(binding: Binding | None = None) -> int:
    return serve(binding or Binding(), sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    sys.exit(main())
