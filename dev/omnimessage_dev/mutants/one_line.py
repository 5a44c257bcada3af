"""Mutants that read a message with a raw CR or LF inside it the way suite 2.x allowed (issue 32):
each is killed by the cases tagged `one-line` (schema/README.md section 1.5)."""

from __future__ import annotations

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.codec.slow_path import line_break_at
from omnimessage.conformance.testee import Binding

__all__ = ["LenientKeepsLineBreak", "LineBreakAfterGrammar", "LineBreakBeforeUtf8", "LineBreaksKept"]

_GRAMMAR = frozenset({"invalid_json", "trailing_data", "too_deep"})


def _blanked(data: bytes) -> bytes:
    """The line with every raw CR or LF of its message (not its terminator) made a space: what a
    decoder that reads them as JSON whitespace sees."""
    body, lf = (data[:-1], b"\n") if data.endswith(b"\n") else (data, b"")
    return body.replace(b"\r", b" ").replace(b"\n", b" ") + lf


class _OnRefusal(Binding):
    """The binding, but a refusal goes through `refused`, which may answer otherwise."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            return self.refused(err, data, lenient, max_line_bytes)

    def again(self, data: bytes, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)

    def refused(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        raise err


class LineBreaksKept(_OnRefusal):
    """A raw CR between tokens is JSON whitespace, also inside verbatim values, which keep it byte
    for byte (suite 2.1); one inside a string is `invalid_json`."""

    def refused(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        if err.category != "line_break":
            raise err
        return self.again(_blanked(data), lenient, max_line_bytes)


class LineBreakAfterGrammar(_OnRefusal):
    """`line_break` checked after the grammar: a syntax error or trailing data after a raw CR
    keeps its own category."""

    def refused(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        if err.category == "line_break":
            try:
                self.again(_blanked(data), lenient, max_line_bytes)
            except DecodeError as other:
                if other.category in _GRAMMAR:
                    raise other from None
        raise err


class LineBreakBeforeUtf8(_OnRefusal):
    """The raw CR found before the bytes are checked as UTF-8."""

    def refused(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        at = line_break_at(data[:-1] if data.endswith(b"\n") else data)
        if err.category == "invalid_utf8" and at is not None:
            raise DecodeError("line_break", "raw CR inside the message", offset=at) from None
        raise err


class LenientKeepsLineBreak(_OnRefusal):
    """Lenient mode keeps an object with a raw CR inside it opaque, CR and all."""

    def refused(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        if err.category != "line_break" or not lenient:
            raise err
        return OpaqueMessage(raw=data.strip(b" \t\r\n"), error=err)

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        # its bytes as kept, CR and all (the real encoder refuses a CR: a message is one line)
        return msg.raw if isinstance(msg, OpaqueMessage) else super().encode(msg)
