"""Mutants that type a string field (base64 as bytes, arguments as JSON, MIME types as an enum,
text with normalised line ends) and write it back spelt another way."""

from __future__ import annotations

import base64
import binascii
import json
import unicodedata

from omnimessage._generated.models import Message, ToolCallPayload
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .respell import Respelled

__all__ = [
    "ArgumentsCompacted",
    "ArgumentsEnsureAscii",
    "ArgumentsKeysSorted",
    "ArgumentsRefused",
    "ArgumentsSpaced",
    "Base64Padded",
    "Base64Refused",
    "Base64Unpadded",
    "Base64UrlSafe",
    "Base64Standard",
    "CrlfNormalised",
    "CrNormalised",
    "MimeLowerCased",
    "MimeParametersDropped",
    "TextNfc",
    "TextStripped",
]

_DATA = frozenset({"data"})
_ARGS = frozenset({"arguments"})
_MIME = frozenset({"mime_type"})
_TEXTS = frozenset({"text", "thinking", "output", "arguments", "reason", "error_message", "system_prompt"})


def _bytes(value: str) -> bytes:
    alt = b"-_" if "-" in value or "_" in value else None
    return base64.b64decode(value + "=" * (-len(value) % 4), altchars=alt, validate=True)


class Base64Unpadded(Respelled):
    """base64 data decoded to bytes and re-encoded without `=` padding."""

    fields = _DATA

    def respell(self, value: str) -> str:
        return base64.b64encode(_bytes(value)).decode().rstrip("=")


class Base64Padded(Respelled):
    """base64 data decoded to bytes and re-encoded with standard padding (unpadded input gets `=`)."""

    fields = _DATA

    def respell(self, value: str) -> str:
        return base64.b64encode(_bytes(value)).decode()


class Base64UrlSafe(Respelled):
    """base64 data re-encoded in the URL-safe alphabet (`-_` for `+/`)."""

    fields = _DATA

    def respell(self, value: str) -> str:
        return base64.urlsafe_b64encode(_bytes(value)).decode()


class Base64Standard(Respelled):
    """URL-safe base64 data re-encoded in the standard alphabet (`+/` for `-_`)."""

    fields = _DATA

    def respell(self, value: str) -> str:
        return base64.b64encode(_bytes(value)).decode() if ("-" in value or "_" in value) else value


class Base64Refused(Binding):
    """data that is not base64 refused (`invalid_value`): the schema leaves it a plain string."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        value = getattr(getattr(msg, "payload", None), "data", None)
        if isinstance(value, str):
            try:
                _bytes(value)
            except (binascii.Error, ValueError):
                raise DecodeError("invalid_value", "data is not base64", pointer="/payload/data") from None
        return msg


class ArgumentsSpaced(Respelled):
    """tool_call.arguments parsed and dumped again with json.dumps' default `, ` and `: `."""

    fields = _ARGS

    def respell(self, value: str) -> str:
        return json.dumps(json.loads(value), ensure_ascii=False)


class ArgumentsCompacted(Respelled):
    """arguments parsed and dumped again compact (whitespace the model wrote is lost)."""

    fields = _ARGS

    def respell(self, value: str) -> str:
        return json.dumps(json.loads(value), ensure_ascii=False, separators=(",", ":"))


class ArgumentsKeysSorted(Respelled):
    """arguments parsed and dumped again with sorted keys (a map type without order)."""

    fields = _ARGS

    def respell(self, value: str) -> str:
        out = json.dumps(json.loads(value), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        compact = json.dumps(json.loads(value), ensure_ascii=False, separators=(",", ":"))
        return out if out != compact else value


class ArgumentsEnsureAscii(Respelled):
    """arguments parsed and dumped again with non-ASCII escaped (json.dumps' default)."""

    fields = _ARGS

    def respell(self, value: str) -> str:
        out = json.dumps(json.loads(value), separators=(",", ":"))
        return out if out != json.dumps(json.loads(value), separators=(",", ":"), ensure_ascii=False) else value


class ArgumentsRefused(Binding):
    """A tool_call whose arguments are not a JSON object refused (`invalid_value`)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if not isinstance(msg, OpaqueMessage) and isinstance(msg.payload, ToolCallPayload):
            try:
                ok = isinstance(json.loads(msg.payload.arguments), dict)
            except ValueError:
                ok = False
            if not ok:
                raise DecodeError("invalid_value", "arguments are not a JSON object", pointer="/payload/arguments")
        return msg


class MimeLowerCased(Respelled):
    """mime_type held as an enum of lower-case names (`image/PNG` written `image/png`)."""

    fields = _MIME

    def respell(self, value: str) -> str:
        return value.lower()


class MimeParametersDropped(Respelled):
    """mime_type parameters dropped (`text/plain; charset=utf-8` written `text/plain`)."""

    fields = _MIME

    def respell(self, value: str) -> str:
        return value.split(";", 1)[0].strip()


class CrlfNormalised(Respelled):
    """CR LF inside strings normalised to LF (text mode, universal newlines)."""

    fields = _TEXTS

    def respell(self, value: str) -> str:
        return value.replace("\r\n", "\n")


class CrNormalised(Respelled):
    """A lone CR inside strings normalised to LF (splitlines and join)."""

    fields = _TEXTS

    def respell(self, value: str) -> str:
        return value.replace("\r\n", "\0").replace("\r", "\n").replace("\0", "\r\n")


class TextStripped(Respelled):
    """Leading and trailing whitespace of message text stripped (`.strip()` on input)."""

    fields = frozenset({"text", "thinking"})

    def respell(self, value: str) -> str:
        return value.strip()


class TextNfc(Respelled):
    """Strings normalised to NFC (a decomposed `e` + U+0301 written as `é`)."""

    fields = _TEXTS

    def respell(self, value: str) -> str:
        return unicodedata.normalize("NFC", value)
