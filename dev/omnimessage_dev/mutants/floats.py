"""Mutants that get numbers wrong at the edges of the double (subnormals, the largest double,
2^53, exponent spellings)."""

from __future__ import annotations

import re
import struct
import sys
from typing import Any

import msgspec

from omnimessage._generated.models import Message, TokenCounts
from omnimessage.codec import write as _write
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .refusal_tools import Stricter
from .rewrite import map_numbers

__all__ = [
    "ExponentPlusDropped",
    "ExponentZeroPadded",
    "Float32Rounded",
    "IntegerFieldsInt32",
    "LargestDoubleRefused",
    "NumbersTruncated",
    "SeventeenDigits",
    "SubnormalsFlushed",
    "UnderflowRefused",
    "UpperExponentRefused",
]

_MAX = sys.float_info.max


def _floats(fn: Any) -> Any:
    def spell(v: Any) -> Any:
        return fn(v) if type(v) is float or (type(v) is int and abs(v) > 2**53) else v

    return spell


class _Spelled(Binding):
    def spell(self, v: float) -> Any:
        return v

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(map_numbers(msg, _floats(lambda v: self.spell(float(v)))))


class SubnormalsFlushed(_Spelled):
    """Subnormal doubles flushed to zero (`5e-324` written `0`: FTZ arithmetic, float parsers that underflow early)."""

    def spell(self, v: float) -> Any:
        return 0 if abs(v) < sys.float_info.min else v


class Float32Rounded(_Spelled):
    """number fields held as 32-bit floats (`1.1` comes back `1.100000023841858`)."""

    def spell(self, v: float) -> Any:
        try:
            return struct.unpack("f", struct.pack("f", v))[0]
        except OverflowError:
            return v


class SeventeenDigits(_Spelled):
    """Doubles written with 17 significant digits (`%.17g`) instead of the shortest round trip."""

    def spell(self, v: float) -> Any:
        return msgspec.Raw(f"{v:.17g}".encode())


class ExponentPlusDropped(_Spelled):
    """Exponents written without `+` (`1e21` for `1e+21`: Rust, some C formatters)."""

    def spell(self, v: float) -> Any:
        return msgspec.Raw(_write.es_number(v).replace("e+", "e").encode())


class ExponentZeroPadded(_Spelled):
    """Exponents written with two digits (`1e-07`, `1e+21` as C's `%g` and Python's repr write `1e-07`)."""

    def spell(self, v: float) -> Any:
        s = _write.es_number(v)
        return msgspec.Raw(re.sub(r"e([+-])(\d)$", r"e\g<1>0\2", s).encode())


class NumbersTruncated(_Spelled):
    """number fields held as integers (a fraction cut off: `1.5` written `1`)."""

    def spell(self, v: float) -> Any:
        return int(v) if abs(v) < 2**63 else v


def _number_tokens(data: bytes) -> list[bytes]:
    return re.findall(rb"(?<=:)\s*-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}\]])", data)


class LargestDoubleRefused(Stricter):
    """The largest double (`1.7976931348623157e308`) refused as beyond the range (`>=` for `>`)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        hit: list[str] = []
        map_numbers(msg, lambda v: hit.append("x") if isinstance(v, float) and abs(v) == _MAX else v)
        return ("invalid_number", "") if hit else None


class UnderflowRefused(Binding):
    """A number that underflows to zero (`1e-400`) refused like one that overflows (strtod's ERANGE)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if not isinstance(msg, OpaqueMessage):
            for tok in _number_tokens(data):
                t = tok.strip()
                if float(t) == 0 and re.search(rb"[1-9]", t.split(b"e")[0].split(b"E")[0]):
                    raise DecodeError("invalid_number", "number underflows", offset=data.index(t))
        return msg


class UpperExponentRefused(Binding):
    """An upper-case exponent (`1E3`) outside verbatim values refused as `invalid_json` (a hand-written lexer)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if not isinstance(msg, OpaqueMessage):
            for tok in _number_tokens(data):
                if b"E" in tok:
                    raise DecodeError("invalid_json", "unexpected E", offset=data.index(tok.strip()))
        return msg


class IntegerFieldsInt32(Stricter):
    """Token counts held as 32-bit integers: counts above 2^31-1 refused as out of range."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        for name in ("session", "request"):
            counts = getattr(msg.payload, name, None)
            if isinstance(counts, TokenCounts):
                for f in counts.__struct_fields__:
                    if getattr(counts, f) > 2**31 - 1:
                        return ("invalid_value", f"/payload/{name}/{f}")
        return None
