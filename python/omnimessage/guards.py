"""Runtime discrimination of messages (the guards of the reference SDK)."""

from __future__ import annotations

from typing import TypeGuard

from ._generated.models import (
    COMPLETE_MODEL_PAYLOAD_CLASSES,
    PARTIAL_MODEL_PAYLOAD_CLASSES,
    EventMessage,
    Message,
    ModelMessage,
    SessionMetaMessage,
)

__all__ = ["is_complete_model", "is_event", "is_model", "is_partial", "is_session_meta"]


def is_model(msg: Message) -> TypeGuard[ModelMessage]:
    """A `model_msg`: complete content or a streaming fragment."""
    return type(msg) is ModelMessage


def is_partial(msg: Message) -> TypeGuard[ModelMessage]:
    """A streaming fragment (`partial_*` payload): live streams only, never stored."""
    return type(msg) is ModelMessage and isinstance(msg.payload, PARTIAL_MODEL_PAYLOAD_CLASSES)


def is_complete_model(msg: Message) -> TypeGuard[ModelMessage]:
    """A complete `model_msg`: what traces store and models see."""
    return type(msg) is ModelMessage and isinstance(msg.payload, COMPLETE_MODEL_PAYLOAD_CLASSES)


def is_event(msg: Message) -> TypeGuard[EventMessage]:
    return type(msg) is EventMessage


def is_session_meta(msg: Message) -> TypeGuard[SessionMetaMessage]:
    return type(msg) is SessionMetaMessage
