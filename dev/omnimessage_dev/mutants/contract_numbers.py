"""Mutants of the number and precedence points suite 2.1 settled (issue 20): each is what a third
party gets by reading the earlier text literally, or by doing what its standard library does."""

from __future__ import annotations

import json
import re
import sys
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import msgspec

from omnimessage._generated.models import Message
from omnimessage.codec import api as codec
from omnimessage.codec import write as _write
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .refusal_tools import Rerefused, last_key
from .rewrite import map_numbers, map_verbatim

__all__ = [
    "DoubleRangeAtMax",
    "IntegerRangeBeforeSpelling",
    "LongIntegersRefused",
    "NonObjectWalked",
    "NumberTiesRoundedUp",
    "VerbatimShapeAfterLexical",
]

_LEVEL3 = frozenset({"duplicate_key", "lone_surrogate", "invalid_number"})
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_TOKEN = re.compile(rb"(?<=:)\s*(-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)(?=\s*[,}\]])")


def _refusal(data: bytes, lenient: bool) -> DecodeError | None:
    try:
        codec.decode(data, lenient=lenient)
    except DecodeError as err:
        return err
    return None


def _char_index(data: bytes, offset: int) -> int:
    return len(data[:offset].decode("utf-8", "surrogatepass"))


class VerbatimShapeAfterLexical(Rerefused):
    """A verbatim value's shape checked with the schema (level 4), after the lexical walk: a
    `"output":1` followed by a duplicate `origin` reported `duplicate_key` (section 4 put the shape
    at level 4)."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "wrong_type" or err.offset is None or not err.pointer:
            return err
        if not any(f"/{name}" in err.pointer for name in ("fidelity", "output", "parameters")):
            return err
        text = data.decode("utf-8", "surrogatepass")
        at = _char_index(data, err.offset)
        from omnimessage.codec.text_walk import _value_end

        try:
            end = _value_end(text, at)
        except (AssertionError, AttributeError, IndexError):
            return err
        filler = '"x"' if last_key(err.pointer) not in ("fidelity", "output", "parameters") else "{}"
        again = _refusal((text[:at] + filler + text[end:]).encode("utf-8", "surrogatepass"), lenient)
        return again if again is not None and again.category in _LEVEL3 else err


def _half_up(v: float, spelled: str) -> str | None:
    """The spelling with as many digits as `spelled`, rounded half up from the exact value."""
    if "e" in spelled or "." not in spelled:
        return None
    places = len(spelled.split(".")[1])
    q = Decimal(v).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    out = format(q, "f")
    return out if out != spelled and float(out) == v else None


class NumberTiesRoundedUp(Binding):
    """Shortest round-trip digits with a tie rounded half up (`867349580282088.25` written
    `...088.3`): a shortest-digits routine that ignores Number::toString's "choose the even one"."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def spell(v: Any) -> Any:
            if type(v) is not float:
                return v
            up = _half_up(v, _write.es_number(v))
            return v if up is None else msgspec.Raw(up.encode())

        return super().encode(map_numbers(msg, spell))


_INTEGER_MIN = {"attempt": 1}


class IntegerRangeBeforeSpelling(Rerefused):
    """An integer field's range checked before its spelling: `attempt: 0.0` (and `1e-400`, which
    parses to 0) reported `invalid_value`, not `invalid_number`."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "invalid_number" or err.offset is None:
            return err
        m = _NUMBER.match(data.decode("utf-8", "surrogatepass"), _char_index(data, err.offset))
        if m is None:
            return err
        v = float(m.group())
        lo = _INTEGER_MIN.get(last_key(err.pointer), 0)
        if v in (float("inf"), float("-inf")) or lo <= v <= 2**53 - 1:
            return err
        return DecodeError("invalid_value", "out of range", pointer=err.pointer, offset=err.offset)


class NonObjectWalked(Rerefused):
    """A line that is not an object walked for duplicate keys, lone surrogates and huge numbers
    before its type is looked at: `["\\ud800"]` reported `lone_surrogate`."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "wrong_type" or err.pointer != "":
            return err
        found: list[str] = []

        def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
            keys = [k for k, _ in items]
            if len(set(keys)) != len(keys):
                found.append("duplicate_key")
            return dict(items)

        try:
            value = json.loads(data.decode("utf-8", "surrogatepass"), object_pairs_hook=pairs)
        except (ValueError, RecursionError):
            return err
        text = json.dumps(value, ensure_ascii=False, default=str)
        if re.search("[\ud800-\udfff]", text):
            found.append("lone_surrogate")
        if "Infinity" in text:
            found.append("invalid_number")
        return DecodeError(found[0], "found by the walk", offset=0) if found else err


def _outside_range_tokens(data: bytes, test: Any) -> int | None:
    for m in _NUMBER_TOKEN.finditer(data):
        if test(m.group(1).decode("ascii")):
            return m.start(1)
    return None


def _check(binding: Binding, data: bytes, lenient: bool, max_line_bytes: int, test: Any) -> Message | OpaqueMessage:
    """Refuse a decoded line holding a number token, outside verbatim values, that `test` takes for
    one beyond the double range."""
    msg = Binding.read_line(binding, data, lenient=lenient, max_line_bytes=max_line_bytes)
    if not isinstance(msg, OpaqueMessage):
        raws: list[bytes] = []

        def keep(raw: bytes) -> bytes:
            raws.append(raw)
            return raw

        map_verbatim(msg, keep)
        for raw in raws:  # verbatim values keep any number: not looked at
            data = data.replace(raw, b"{}")
        at = _outside_range_tokens(data, test)
        if at is not None:
            raise DecodeError("invalid_number", "beyond the double range (by the mutant)", offset=at)
    return msg


class LongIntegersRefused(Binding):
    """The earlier text read literally: "an integer of 309 digits is beyond the double range", so
    `10^308` written out (a finite double) refused as `invalid_number`."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        def long(t: str) -> bool:
            return len(t.lstrip("-")) >= 309 and t.lstrip("-").isdigit()

        return _check(self, data, lenient, max_line_bytes, long)


_MAX = Decimal(sys.float_info.max)


class DoubleRangeAtMax(Binding):
    """Beyond the double range taken as "greater than the largest double" rather than "rounds to an
    infinity": `1.7976931348623158e308`, which rounds to the largest double, refused."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        def beyond(t: str) -> bool:
            try:
                return abs(Decimal(t)) > _MAX
            except InvalidOperation:
                return False

        return _check(self, data, lenient, max_line_bytes, beyond)
