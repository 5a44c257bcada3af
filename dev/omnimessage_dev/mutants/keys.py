"""Mutants that match member names loosely or literally."""

from __future__ import annotations

import re

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .refusal_tools import last_key

__all__ = ["KeyEscapesNotDecoded", "KeysCaseInsensitive"]


class KeysCaseInsensitive(Binding):
    """Member names matched case-insensitively (Go's encoding/json): `"Stop_reason"` read as `stop_reason`."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as err:
            key = last_key(err.pointer)
            if err.category != "unexpected_field" or key.lower() == key:
                raise
            fixed = data.replace(b'"' + key.encode() + b'"', b'"' + key.lower().encode() + b'"', 1)
            try:
                return super().read_line(fixed, lenient=lenient, max_line_bytes=max_line_bytes)
            except DecodeError:
                raise err from None


class KeyEscapesNotDecoded(Binding):
    """Member names compared before unescaping: `"typ\\u0065"` is an unknown member."""

    _ESCAPED_KEY = re.compile(rb'[{,]\s*"((?:[^"\\]|\\.)*\\u[0-9a-fA-F]{4}(?:[^"\\]|\\.)*)"\s*:')

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        msg = super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        if not isinstance(msg, OpaqueMessage):
            m = self._ESCAPED_KEY.search(data)
            if m is not None and b"fidelity" not in data[: m.start()] and b"parameters" not in data[: m.start()]:
                raise DecodeError(
                    "unexpected_field", "unknown member", pointer="/" + m.group(1).decode("ascii", "replace")
                )
        return msg
