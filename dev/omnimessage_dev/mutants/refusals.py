"""Mutants that refuse what they must keep, or refuse with the wrong category or pointer."""

from __future__ import annotations

from omnimessage._generated.models import Message
from omnimessage.codec import api as codec
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .rewrite import LONE_SURROGATE, fragment

__all__ = [
    "CrlfRefused",
    "FragmentSurrogatesRefused",
    "PointersOmitted",
    "TornLinesMisreported",
    "UnknownTypeAsInvalidValue",
]


class FragmentSurrogatesRefused(Binding):
    """Lone surrogate escapes refused in a partial's fragment field too (a pair split between two
    deltas, which JavaScript producers write, is lost with its line)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        frag = fragment(msg)
        if frag is not None and LONE_SURROGATE.search(frag[1]):
            raise DecodeError("lone_surrogate", "string escapes a lone surrogate", pointer=f"/payload/{frag[0]}")
        return msg


class TornLinesMisreported(Binding):
    """A torn last line reported with its parse error instead of `truncated`."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        if data.endswith(b"\n"):
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        return codec.decode(data, lenient=lenient)


class CrlfRefused(Binding):
    """Only LF stripped: a CR before it is trailing data."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        if data.endswith(b"\r\n"):
            raise DecodeError("trailing_data", "CR after the message", offset=len(data) - 2)
        return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)


class PointersOmitted(Binding):
    """Refusals without a JSON pointer (`""` for everything)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            raise DecodeError(err.category, err.detail, offset=err.offset) from None


class UnknownTypeAsInvalidValue(Binding):
    """An unknown type reported as `invalid_value` (it is a value outside the discriminator's enum)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            if err.category != "unknown_type":
                raise
            raise DecodeError("invalid_value", err.detail, pointer=err.pointer, offset=err.offset) from None
