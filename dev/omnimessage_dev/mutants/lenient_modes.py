"""Mutants whose lenient mode keeps too little or too much."""

from __future__ import annotations

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

__all__ = ["LenientKeepsLexical", "LenientOnlyUnknown", "LenientReencoded"]


class LenientOnlyUnknown(Binding):
    """Lenient mode keeps only unknown types and fields (a newer version's lines); a retired
    value, duplicate key or lone surrogate is still refused."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if isinstance(msg, OpaqueMessage) and msg.error.category not in ("unknown_type", "unexpected_field"):
            raise msg.error
        return msg


class LenientKeepsLexical(Binding):
    """Lenient mode keeps grammar-level failures too (trailing data, invalid JSON) as opaque lines."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            if lenient and err.category in ("trailing_data", "invalid_json") and data.endswith(b"\n"):
                return OpaqueMessage(raw=data[:-1], error=err)
            raise


class LenientReencoded(Binding):
    """An opaque line re-encoded with its whitespace removed (kept as parsed JSON, not as bytes)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if isinstance(msg, OpaqueMessage):
            import json

            try:
                return json.dumps(json.loads(msg.raw), ensure_ascii=False, separators=(",", ":")).encode(
                    "utf-8", "surrogatepass"
                )
            except ValueError:
                return msg.raw
        return super().encode(msg)
