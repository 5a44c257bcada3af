"""Mutants that spell strings and numbers the way another JSON library does."""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.conformance.testee import Binding

from .rewrite import LONE_SURROGATE, MAX_SAFE, fragment, map_numbers, with_payload

__all__ = [
    "BigNumbersExact",
    "EnsureAscii",
    "FloatsRespelled",
    "FragmentSurrogatesReplaced",
    "LineSeparatorsEscaped",
    "MinusZeroKept",
    "SolidusEscaped",
    "UpperHexEscapes",
]


class EnsureAscii(Binding):
    """Every non-ASCII character written as a \\u escape (json.dumps' default)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        text = super().encode(msg).decode("utf-8", "surrogatepass")
        return "".join(c if ord(c) < 0x80 else json.dumps(c)[1:-1] for c in text).encode("ascii")


class SolidusEscaped(Binding):
    """`/` written `\\/` (PHP's json_encode, some Java libraries)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(msg).replace(b"/", b"\\/")


class UpperHexEscapes(Binding):
    """Control characters escaped with upper-case hex (`\\u001F`)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return re.sub(rb"\\u([0-9a-f]{4})", lambda m: b"\\u" + m.group(1).upper(), super().encode(msg))


class LineSeparatorsEscaped(Binding):
    """U+2028 and U+2029 escaped ("JavaScript-safe" JSON encoders)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(msg).replace("\u2028".encode(), b"\\u2028").replace("\u2029".encode(), b"\\u2029")


class FragmentSurrogatesReplaced(Binding):
    """Lone surrogates in a partial's fragment field replaced by U+FFFD (a UTF-8 round trip with
    `errors="replace"`), so the joined fragments no longer equal the complete message."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        frag = fragment(msg)
        if frag is not None and not isinstance(msg, OpaqueMessage) and LONE_SURROGATE.search(frag[1]):
            msg = with_payload(
                msg, msgspec.structs.replace(msg.payload, **{frag[0]: LONE_SURROGATE.sub("\ufffd", frag[1])})
            )
        return super().encode(msg)


class FloatsRespelled(Binding):
    """`number` fields written the Python way (repr of a float: `2000.0`, `1e-07`)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def spell(v: Any) -> Any:
            return msgspec.Raw(repr(float(v)).encode()) if isinstance(v, (int, float)) else v

        return super().encode(map_numbers(msg, spell))


class BigNumbersExact(Binding):
    """Integers beyond 2^53 in `number` fields written exactly instead of as the nearest double."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def spell(v: Any) -> Any:
            return msgspec.Raw(str(v).encode()) if type(v) is int and abs(v) > MAX_SAFE else v

        return super().encode(map_numbers(msg, spell))


class MinusZeroKept(Binding):
    """`-0` written `-0` in `number` fields (JSON.stringify writes 0)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def spell(v: Any) -> Any:
            return msgspec.Raw(b"-0") if type(v) is float and v == 0 and str(v).startswith("-") else v

        return super().encode(map_numbers(msg, spell))
