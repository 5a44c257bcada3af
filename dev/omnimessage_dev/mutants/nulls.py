"""Mutants that confuse `null` with a missing field."""

from __future__ import annotations

import re

import msgspec

from omnimessage._generated.models import AbortPayload, Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.codec.errors import DecodeError
from omnimessage.conformance.testee import Binding

from .refusal_tools import Rerefused, Stricter, last_key
from .rewrite import with_payload

__all__ = ["AbsentReasonWrittenNull", "NullAsMissing", "NullOptionalAccepted", "NullReasonRefused", "UnsetWrittenNull"]


def _null_member(data: bytes, key: str) -> re.Match[bytes] | None:
    return re.search(rb'(,\s*)?"' + re.escape(key.encode()) + rb'"\s*:\s*null\b(\s*,)?', data)


class _NullDropper(Rerefused):
    """An optional field set to `null` read as absent (Optional[...] = None in a typed binding)."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        m = _null_member(data, last_key(err.pointer)) if err.category == "wrong_type" else None
        if m is None:
            return err
        keep = b"," if m.group(1) and m.group(2) else b""
        fixed = data[: m.start()] + keep + data[m.end() :]
        try:
            super(Rerefused, self).read_line(fixed, lenient=lenient, max_line_bytes=max_line_bytes)
        except DecodeError as again:
            return again
        raise _Kept(fixed)


class _Kept(Exception):
    def __init__(self, data: bytes) -> None:
        self.data = data


class NullOptionalAccepted(_NullDropper):
    """An optional field set to `null` read as absent (Optional[...] = None in a typed binding)."""

    def read_line(self, data: bytes, *, lenient: bool, max_line_bytes: int) -> Message | OpaqueMessage:
        try:
            return super().read_line(data, lenient=lenient, max_line_bytes=max_line_bytes)
        except _Kept as kept:
            return Binding.read_line(self, kept.data, lenient=lenient, max_line_bytes=max_line_bytes)


class NullAsMissing(Rerefused):
    """A required field holding `null` reported as `missing_field` (`.get(key) is None`)."""

    def change(self, err: DecodeError, data: bytes, lenient: bool, max_line_bytes: int) -> DecodeError:
        if err.category != "wrong_type" or _null_member(data, last_key(err.pointer)) is None:
            return err
        return DecodeError("missing_field", err.detail, pointer=err.pointer, offset=err.offset)


class NullReasonRefused(Stricter):
    """`abort.reason: null` refused as `wrong_type` (the null branch of its anyOf forgotten)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        if isinstance(msg.payload, AbortPayload) and msg.payload.reason is None:
            return ("wrong_type", "/payload/reason")
        return None


class AbsentReasonWrittenNull(Binding):
    """An absent `abort.reason` written as `null` (a nullable field without an absent state)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if (
            not isinstance(msg, OpaqueMessage)
            and isinstance(msg.payload, AbortPayload)
            and msg.payload.reason is msgspec.UNSET
        ):
            msg = with_payload(msg, msgspec.structs.replace(msg.payload, reason=None))
        return super().encode(msg)


class UnsetWrittenNull(Binding):
    """Every absent optional payload field written as `null` (serialisers without skip-if-none)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if isinstance(msg, OpaqueMessage):
            return super().encode(msg)
        p = msg.payload
        unset = {f: None for f in p.__struct_fields__ if getattr(p, f) is msgspec.UNSET}
        return super().encode(with_payload(msg, msgspec.structs.replace(p, **unset)) if unset else msg)
