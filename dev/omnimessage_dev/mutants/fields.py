"""Mutants that get the fields wrong: order, presence, invented defaults."""

from __future__ import annotations

import json

import msgspec

from omnimessage._generated.models import AbortPayload, Message
from omnimessage.codec import api as codec
from omnimessage.codec.api import OpaqueMessage
from omnimessage.conformance.testee import Binding

from .rewrite import with_payload

__all__ = [
    "DefaultsInvented",
    "EmptyFidelityDropped",
    "FidelityDropped",
    "KeysSorted",
    "NullReasonDropped",
    "OptionalReordered",
    "OriginDropped",
]


class KeysSorted(Binding):
    """Keys sorted alphabetically (json.dumps(sort_keys=True), many "canonical JSON" libraries)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if isinstance(msg, OpaqueMessage):
            return msg.raw
        return msgspec.json.Encoder(order="sorted").encode(codec.decode(super().encode(msg)))


class FidelityDropped(Binding):
    """fidelity not modelled, so silently lost."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage) and getattr(msg.payload, "fidelity", msgspec.UNSET) is not msgspec.UNSET:
            msg = with_payload(msg, msgspec.structs.replace(msg.payload, fidelity=msgspec.UNSET))
        return super().encode(msg)


class OriginDropped(Binding):
    """The envelope's origin is not modelled."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage):
            msg = msgspec.structs.replace(msg, origin=msgspec.UNSET)
        return super().encode(msg)


class NullReasonDropped(Binding):
    """`abort.reason: null` treated as absent (None means unset in many bindings)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage) and isinstance(msg.payload, AbortPayload) and msg.payload.reason is None:
            msg = with_payload(msg, msgspec.structs.replace(msg.payload, reason=msgspec.UNSET))
        return super().encode(msg)


class OptionalReordered(Binding):
    """stop_reason written last (optional fields grouped after the others)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        sr = getattr(getattr(msg, "payload", None), "stop_reason", msgspec.UNSET)
        if isinstance(msg, OpaqueMessage) or sr is msgspec.UNSET:
            return super().encode(msg)
        out = super().encode(with_payload(msg, msgspec.structs.replace(msg.payload, stop_reason=msgspec.UNSET)))
        end = out.rindex(b',"origin":') if msg.origin is not msgspec.UNSET else len(out) - 1
        return out[: end - 1] + b',"stop_reason":' + json.dumps(sr).encode() + out[end - 1 :]


class DefaultsInvented(Binding):
    """An absent stop_reason written as its default, `completed`."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        if not isinstance(msg, OpaqueMessage) and getattr(msg.payload, "stop_reason", None) is msgspec.UNSET:
            msg = with_payload(msg, msgspec.structs.replace(msg.payload, stop_reason="completed"))
        return super().encode(msg)


class EmptyFidelityDropped(Binding):
    """An empty fidelity object omitted ("omitted when it would be empty", applied to input)."""

    def encode(self, msg: Message | OpaqueMessage) -> bytes:
        fid = getattr(getattr(msg, "payload", None), "fidelity", msgspec.UNSET)
        if (
            not isinstance(msg, OpaqueMessage)
            and isinstance(fid, msgspec.Raw)
            and bytes(fid).replace(b" ", b"") == b"{}"
        ):
            msg = with_payload(msg, msgspec.structs.replace(msg.payload, fidelity=msgspec.UNSET))
        return super().encode(msg)
