"""Consuming OmniMessage over SSE: a client that resumes, and the render model a UI draws.

    >>> from omnimessage.consume import RenderModel, subscribe
    >>> model = RenderModel()
    >>> with subscribe("http://127.0.0.1:8000/events") as sub:   # doctest: +SKIP
    ...     for event in sub:
    ...         model.apply(event)                     # messages, and a Resync empties it
    ...         draw(model.snapshot())

`subscribe` (blocking) and `asubscribe` (asyncio) yield `MessageEvent`, `ServerEvent`, `Resync` and
`Reconnect` (and `InvalidMessage` with `strict=False`). docs/consuming.md walks through both.
"""

from .aclient import AsyncSubscription, asubscribe
from .backoff import Backoff
from .client import Subscription, subscribe
from .events import (
    ConsumeError,
    Event,
    InvalidMessage,
    MessageDecodeError,
    MessageEvent,
    NotAnEventStream,
    Reconnect,
    ReconnectsExhausted,
    Resync,
    ServerEvent,
    StreamTooLarge,
)
from .frames import MAX_EVENT_BYTES, Frame, FrameParser, FrameTooLarge
from .render import Card, RenderLimitError, RenderModel, Segment

__all__ = [
    "MAX_EVENT_BYTES",
    "AsyncSubscription",
    "Backoff",
    "Card",
    "ConsumeError",
    "Event",
    "Frame",
    "FrameParser",
    "FrameTooLarge",
    "InvalidMessage",
    "MessageDecodeError",
    "MessageEvent",
    "NotAnEventStream",
    "Reconnect",
    "ReconnectsExhausted",
    "RenderLimitError",
    "RenderModel",
    "Resync",
    "Segment",
    "ServerEvent",
    "StreamTooLarge",
    "Subscription",
    "asubscribe",
    "subscribe",
]
