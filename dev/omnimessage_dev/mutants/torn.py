"""Mutants that report a torn last line (no LF, section 1.4) wrongly when it holds other defects."""

from __future__ import annotations

from omnimessage._generated.models import Message
from omnimessage.codec import api as codec
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .refusal_tools import Rerefused

__all__ = [
    "TornOnlyAtEnd",
    "TornForAnyRefusal",
    "TornUtf8First",
    "TornValidRefused",
    "TornWhenLenientRefused",
]


def _direct(data: bytes, lenient: bool) -> DecodeError | None:
    try:
        codec.decode(data, lenient=lenient)
    except DecodeError as err:
        return err
    return None


class TornForAnyRefusal(Rerefused):
    """Every refusal of a last line without LF reported `truncated`, even of a complete object
    that parsed (an unknown type, a duplicate key)."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if data.endswith(b"\n") or err.category in ("truncated", "too_large"):
            return err
        return DecodeError("truncated", "no line feed", offset=len(data))


class TornUtf8First(Rerefused):
    """Invalid UTF-8 in a torn last line reported as `invalid_utf8` (bytes checked before the framing)."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        direct = _direct(data, lenient) if err.category == "truncated" else None
        return direct if direct is not None and direct.category == "invalid_utf8" else err


class TornOnlyAtEnd(Rerefused):
    """`truncated` only when the parser ran out of input; an error before the end is reported as is."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        direct = _direct(data, lenient) if err.category == "truncated" else None
        if direct is None or direct.offset is None or direct.offset >= len(data):
            return err
        return direct


class TornValidRefused(Binding):
    """A last line without LF refused as `truncated` even when it decodes."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if data and not data.endswith(b"\n"):
            raise DecodeError("truncated", "no line feed", offset=len(data))
        return msg


class TornWhenLenientRefused(Binding):
    """In lenient mode a last line without LF that only strict decoding refuses reported as
    `truncated` (the torn check run with the strict decoder) instead of kept opaque."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if lenient and data and not data.endswith(b"\n") and _direct(data, False) is not None:
            raise DecodeError("truncated", "no line feed", offset=len(data))
        return msg
