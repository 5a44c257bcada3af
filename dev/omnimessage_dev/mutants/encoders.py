"""Mutants that write a message the way another JSON encoder or a typed binding with
"omit empty" habits writes it."""

from __future__ import annotations

import re

import msgspec

from omnimessage._generated.models import Message, TextPayload
from omnimessage.codec.api import OpaqueMessage
from omnimessage.conformance.testee import Binding

from .respell import Respelled
from .rewrite import with_payload

__all__ = [
    "AstralEscaped",
    "ContextWindowNumeric",
    "DelEscaped",
    "EmptyImagesOmitted",
    "EmptyStringsOmitted",
    "HtmlEscaped",
    "ImageUrlNormalised",
    "SenderDefaulted",
    "ShortEscapesAsHex",
    "SpacesAfterSeparators",
    "ZeroNumbersOmitted",
]


class HtmlEscaped(Binding):
    """`<`, `>` and `&` written as `\\u003c`, `\\u003e`, `\\u0026` (Go's encoding/json default)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        out = super().encode(msg)
        if isinstance(msg, OpaqueMessage):
            return out
        return out.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")


class DelEscaped(Binding):
    """U+007F (DEL) escaped as `\\u007f` (encoders that escape every control character)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(msg).replace(b"\x7f", b"\\u007f")


class AstralEscaped(Binding):
    """Characters beyond the BMP written as escaped surrogate pairs (`\\ud83d\\ude00` for an emoji)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        text = super().encode(msg).decode("utf-8", "surrogatepass")

        def pair(m: re.Match[str]) -> str:
            cp = ord(m.group(0)) - 0x10000
            return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"

        return re.sub("[\U00010000-\U0010ffff]", pair, text).encode("utf-8", "surrogatepass")


class ShortEscapesAsHex(Binding):
    """`\\n`, `\\t`, `\\r`, `\\b`, `\\f` written as `\\u000a` and the like."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        codes = {b"n": b"000a", b"t": b"0009", b"r": b"000d", b"b": b"0008", b"f": b"000c"}
        return re.sub(
            rb"(?<!\\)((?:\\\\)*)\\([ntrbf])", lambda m: m.group(1) + b"\\u" + codes[m.group(2)], super().encode(msg)
        )


class SpacesAfterSeparators(Binding):
    """A space after `:` and `,` between members (json.dumps' default separators)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        out = super().encode(msg)
        if isinstance(msg, OpaqueMessage):
            return out
        return out.replace(b'","', b'", "').replace(b'":"', b'": "').replace(b'":{', b'": {', 1)


def _drop(msg: Message | OpaqueMessage, pred: object) -> Message | OpaqueMessage:
    if isinstance(msg, OpaqueMessage):
        return msg
    p = msg.payload
    drop = {f: msgspec.UNSET for f in p.__struct_fields__ if f != "type" and pred(getattr(p, f))}  # type: ignore[operator]
    return with_payload(msg, msgspec.structs.replace(p, **drop)) if drop else msg


class EmptyStringsOmitted(Binding):
    """Empty strings omitted (Go's `omitempty`): `"error_message":""` and required `""` lost."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(_drop(msg, lambda v: v == "" and type(v) is str))


class ZeroNumbersOmitted(Binding):
    """Zero numbers omitted (`omitempty`): `"retry_in_ms":0` lost."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(_drop(msg, lambda v: type(v) in (int, float) and v == 0))


class EmptyImagesOmitted(Binding):
    """An empty images array omitted ("omitted when empty" applied to input)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        return super().encode(_drop(msg, lambda v: isinstance(v, list) and not v))


class ContextWindowNumeric(Respelled):
    """A numeric-string model_context_window written as a number (`"200000"` -> `200000`)."""

    fields = frozenset({"model_context_window"})

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        mcw = getattr(getattr(msg, "payload", None), "model_context_window", None)
        if not isinstance(msg, OpaqueMessage) and isinstance(mcw, str) and mcw.isdigit():
            msg = with_payload(msg, msgspec.structs.replace(msg.payload, model_context_window=int(mcw)))
        return Binding.encode(self, msg)


class ImageUrlNormalised(Respelled):
    """image_url parsed as a URL and written back normalised (scheme and host lower-cased, `/` path added)."""

    fields = frozenset({"image_url"})

    def respell(self, value: str) -> str:
        m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)", value)
        if not m:
            return value
        return f"{m.group(1).lower()}://{m.group(2).lower()}{m.group(3) or '/'}"


class SenderDefaulted(Binding):
    """An absent sender on a user text written as `user` (a default invented for the enum)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage) and isinstance(msg.payload, TextPayload):
            p = msg.payload
            if p.role == "user" and p.sender is msgspec.UNSET:
                msg = with_payload(msg, msgspec.structs.replace(p, sender="user"))
        return super().encode(msg)
