"""Mutants of the framing points suite 2.1 settled (issue 20): torn lines cut inside a UTF-8
character, the characters that end a number token, CR and the line limit, pointers of lone
surrogate keys, one depth limit, and what JSON whitespace is."""

from __future__ import annotations

import re

from omnimessage._generated.models import Message
from omnimessage.codec import api as codec
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .refusal_tools import Rerefused
from .rewrite import LONE_SURROGATE, map_verbatim

__all__ = [
    "JsTrimmed",
    "LenientBytesStripped",
    "LimitAfterUtf8",
    "LimitCrlfTerminator",
    "LoneKeyPointerAtObject",
    "LoneKeyPointerReplaced",
    "NumberTokenUnicodeLetters",
    "StrStripped",
    "TornHalfCharacterTrailing",
    "VerbatimDepth256",
]

_NUM = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def _refusal(data: bytes, lenient: bool) -> DecodeError | None:
    try:
        codec.decode(data, lenient=lenient)
    except DecodeError as err:
        return err
    return None


class TornHalfCharacterTrailing(Rerefused):
    """The earlier section 1.4 read literally: "a complete object followed by half of the next" is
    `trailing_data`, even when the half is cut inside a UTF-8 character (grammar before UTF-8)."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "truncated" or data.endswith(b"\n"):
            return err
        again = _refusal(data.decode("utf-8", "replace").encode("utf-8"), lenient)
        return again if again is not None and again.category == "trailing_data" else err


class NumberTokenUnicodeLetters(Rerefused):
    """The earlier section 1.3 read literally: any Unicode letter (`str.isalpha`) belongs to a number
    token, so `1é` at the top level is `invalid_json`, not `1` and trailing data."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "trailing_data":
            return err
        text = data.decode("utf-8", "surrogatepass")
        start = len(text) - len(text.lstrip(" \t\r\n"))
        m = _NUM.match(text, start)
        if m is None or m.end() >= len(text) or not text[m.end()].isalpha():
            return err
        return DecodeError("invalid_json", "invalid number", offset=len(text[:start].encode()))


class LimitCrlfTerminator(Binding):
    """CR LF taken as the terminator (`str.splitlines`, universal newlines): the CR not counted
    against the line limit, so a line of exactly the limit, then CR LF, is read."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        limit = max_line_bytes + 1 if data.endswith(b"\r\n") or data.endswith(b"\r") else max_line_bytes
        return super().read_line(data, lenient=lenient, max_line_bytes=limit)


class LimitAfterUtf8(Binding):
    """The line decoded as UTF-8 before its length is checked: a line over the limit holding invalid
    UTF-8 reported `invalid_utf8` instead of `too_large`."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if data.endswith(b"\n"):
                raise DecodeError("invalid_utf8", f"invalid UTF-8 ({exc.reason})", offset=exc.start) from None
        return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)


class LoneKeyPointerAtObject(Rerefused):
    """A key escaping a lone surrogate reported at its object (the pointer names no key that UTF-8
    could not carry): `/payload` instead of `/payload/\\ud800`."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "lone_surrogate" or not LONE_SURROGATE.search(err.pointer.rsplit("/", 1)[-1]):
            return err
        return DecodeError("lone_surrogate", err.detail, pointer=err.pointer.rsplit("/", 1)[0], offset=err.offset)


class LoneKeyPointerReplaced(Rerefused):
    """The pointer of a lone surrogate key written through a UTF-8 encoder with replacement (U+FFFD
    for the surrogate), as `errors="replace"` or a Rust `String::from_utf16_lossy` gives it."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "lone_surrogate" or not LONE_SURROGATE.search(err.pointer):
            return err
        pointer = LONE_SURROGATE.sub("\ufffd", err.pointer)
        return DecodeError("lone_surrogate", err.detail, pointer=pointer, offset=err.offset)


def _depth(raw: bytes) -> int:
    depth = deepest = 0
    for m in re.finditer(rb'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', raw):
        tok = m.group()
        if tok in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif tok in (b"]", b"}"):
            depth -= 1
    return deepest


class VerbatimDepth256(Binding):
    """The earlier section 7 read as a cap: "a verbatim value may nest at least 256 levels" made a
    separate limit of 256 levels inside verbatim values."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        deep: list[int] = []

        def measure(raw: bytes) -> bytes:
            deep.append(_depth(raw))
            return raw

        map_verbatim(msg, measure)
        if deep and max(deep) > 256:
            raise DecodeError("too_deep", "verbatim value nests deeper than 256 levels", offset=None)
        return msg


_JS_TRIM = "\t\n\x0b\x0c\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
_JS_TRIM += "\u2028\u2029\u202f\u205f\u3000\ufeff"  # ECMAScript WhiteSpace and LineTerminator


def _trimmed(data: bytes, strip: str | None) -> bytes:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    lf = b"\n" if data.endswith(b"\n") else b""
    return text.strip(strip).encode("utf-8") + lf if text.strip(strip) else data


class StrStripped(Binding):
    """Each line trimmed with Python's `str.strip()` before decoding (Unicode whitespace: U+00A0,
    VT, FF, U+0085, U+2028, U+3000 ...), so a U+00A0 after the object is dropped."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(_trimmed(data, None), lenient=lenient, max_line_bytes=max_line_bytes)


class JsTrimmed(Binding):
    """Each line trimmed with JavaScript's `String.prototype.trim()` before `JSON.parse` (its
    WhiteSpace and LineTerminator: U+00A0, U+FEFF, U+2028, VT, FF ...)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        return super().read_line(_trimmed(data, _JS_TRIM), lenient=lenient, max_line_bytes=max_line_bytes)


class LenientBytesStripped(Binding):
    """Lenient mode trims the line with `bytes.strip()` (ASCII whitespace, VT and FF included)
    before keeping it: a VT after the object kept opaque instead of refused as `trailing_data`."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        if lenient:
            lf = b"\n" if data.endswith(b"\n") else b""
            data = (data.strip() + lf) if data.strip() else data
        return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
