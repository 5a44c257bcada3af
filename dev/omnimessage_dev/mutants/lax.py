"""Mutants that accept lines the wire contract refuses (a lax parser's habits)."""

from __future__ import annotations

from omnimessage._generated.models import DEFAULT_MAX_LINE_BYTES, Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

__all__ = [
    "AlwaysLenient",
    "BadNumbersAccepted",
    "BadValuesAccepted",
    "BomStripped",
    "DepthUnlimited",
    "DuplicateKeysAccepted",
    "LineLimitIgnored",
    "LoneSurrogatesAccepted",
    "TrailingDataAccepted",
    "UnknownFieldsAccepted",
    "UnknownTypesAccepted",
    "Utf8Replaced",
    "WrongTypesAccepted",
]


class _Accepts(Binding):
    """Accepts lines refused with `categories`, passing them through (as a lax parser would)."""

    categories: frozenset[str] = frozenset()

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            if err.category not in self.categories:
                raise
            return OpaqueMessage(raw=data[:-1] if data.endswith(b"\n") else data, error=err)


class DuplicateKeysAccepted(_Accepts):
    """Duplicate keys accepted (the last one wins in most JSON parsers)."""

    categories = frozenset({"duplicate_key"})


class LoneSurrogatesAccepted(_Accepts):
    """Lone surrogate escapes accepted (JavaScript's JSON.parse does)."""

    categories = frozenset({"lone_surrogate"})


class UnknownFieldsAccepted(_Accepts):
    """Unknown fields accepted (forbid_unknown_fields forgotten)."""

    categories = frozenset({"unexpected_field"})


class UnknownTypesAccepted(_Accepts):
    """Unknown envelope or payload types accepted."""

    categories = frozenset({"unknown_type"})


class BadValuesAccepted(_Accepts):
    """Values outside enums and ranges accepted (retired values, attempt 0, empty origin)."""

    categories = frozenset({"invalid_value"})


class BadNumbersAccepted(_Accepts):
    """`1.0` in integer fields and `1e400` accepted."""

    categories = frozenset({"invalid_number"})


class DepthUnlimited(_Accepts):
    """No nesting limit."""

    categories = frozenset({"too_deep"})


class WrongTypesAccepted(_Accepts):
    """Verbatim values not checked at all (fidelity as a string, nested hook output)."""

    categories = frozenset({"wrong_type"})


class TrailingDataAccepted(Binding):
    """Decodes the first JSON value of the line and ignores the rest (a streaming parser's habit)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            if err.category != "trailing_data" or err.offset is None:
                raise
            return super().read_line(data[: err.offset] + b"\n", lenient=lenient, max_line_bytes=max_line_bytes)


class BomStripped(Binding):
    """A leading byte order mark skipped (utf-8-sig decoding)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(data.removeprefix(b"\xef\xbb\xbf"), lenient=lenient, max_line_bytes=max_line_bytes)


class Utf8Replaced(Binding):
    """Invalid UTF-8 replaced by U+FFFD instead of refused (errors="replace")."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        fixed = data.decode("utf-8", "replace").encode("utf-8")
        return super().read_line(fixed, lenient=lenient, max_line_bytes=max_line_bytes)


class LineLimitIgnored(Binding):
    """The reader's line limit not enforced."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(data, lenient=lenient, max_line_bytes=DEFAULT_MAX_LINE_BYTES)


class AlwaysLenient(Binding):
    """Lenient decoding by default (strict forgotten)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(data, lenient=True, max_line_bytes=max_line_bytes)
