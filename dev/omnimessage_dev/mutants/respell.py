"""Tools for the mutants that type a string field and write it back spelt another way."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from omnimessage._generated.models import Message
from omnimessage.codec.api import OpaqueMessage
from omnimessage.conformance.testee import Binding

from .rewrite import with_payload

__all__ = ["Respelled", "respell_fields"]


def respell_fields(
    msg: Message | OpaqueMessage, fields: frozenset[str], fn: Callable[[str], str]
) -> Message | OpaqueMessage:
    """`msg` with `fn` applied to the string values of the named envelope and payload fields."""
    if isinstance(msg, OpaqueMessage):
        return msg
    if "timestamp" in fields:
        msg = msgspec.structs.replace(msg, timestamp=fn(msg.timestamp))
    changes = {f: fn(v) for f in fields if f != "timestamp" and isinstance(v := getattr(msg.payload, f, None), str)}
    return with_payload(msg, msgspec.structs.replace(msg.payload, **changes)) if changes else msg


class Respelled(Binding):
    """Writes `fields` through `respell` (the value as a typed binding re-serialises it)."""

    fields: frozenset[str] = frozenset()

    def respell(self, value: str) -> str:
        return value

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        def safe(value: str) -> str:
            try:
                return self.respell(value)
            except (ValueError, TypeError, UnicodeError):
                return value  # a value the typed field cannot hold is written as it came

        return super().encode(respell_fields(msg, self.fields, safe))
