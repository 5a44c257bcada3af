"""Mutants that get the reader's line limit wrong."""

from __future__ import annotations

from omnimessage._generated.models import DEFAULT_MAX_LINE_BYTES, Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.conformance.testee import Binding

__all__ = [
    "DefaultLimit64KiB",
    "LimitCountsCharacters",
    "LimitCountsNewline",
    "LimitIgnoredWhenLenient",
    "LimitInclusive",
]


def _body(data: bytes) -> bytes:
    return data[:-1] if data.endswith(b"\n") else data


class LimitCountsCharacters(Binding):
    """The line limit compared with the number of characters, not bytes (len() of a decoded str)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        chars = len(_body(data).decode("utf-8", "replace"))
        if chars <= max_line_bytes < len(_body(data)):
            max_line_bytes = len(data) + 1
        return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)


class LimitCountsNewline(Binding):
    """The line feed counted against the limit (a line exactly at the limit is refused)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        limit = max_line_bytes - 1 if data.endswith(b"\n") else max_line_bytes
        return super().read_line(data, lenient=lenient, max_line_bytes=limit)


class LimitInclusive(Binding):
    """A line one byte over the limit still read (`>` where `>=` was meant, or the reverse)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes + 1)


class LimitIgnoredWhenLenient(Binding):
    """Lenient mode reads lines of any length (the limit taken for a strictness rule)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        limit = max(max_line_bytes, len(data) + 1) if lenient else max_line_bytes
        return super().read_line(data, lenient=lenient, max_line_bytes=limit)


class DefaultLimit64KiB(Binding):
    """A 64 KiB default line limit (Go's bufio.Scanner) instead of the documented 256 MiB."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        limit = 64 * 1024 if max_line_bytes == DEFAULT_MAX_LINE_BYTES else max_line_bytes
        return super().read_line(data, lenient=lenient, max_line_bytes=limit)
