"""What `subscribe` yields: messages, server events, resyncs and reconnects; and its errors.

Each event has a `kind` string (`message`, `server_event`, `resync`, `reconnect`,
`invalid_message`), the same names the TypeScript client uses, so a consumer can dispatch on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from omnimessage.codec.errors import DecodeError

from .._generated.models import Message

__all__ = [
    "ConsumeError", "Event", "InvalidMessage", "MessageDecodeError", "MessageEvent", "NotAnEventStream",
    "Reconnect", "ReconnectsExhausted", "Resync", "ServerEvent", "StreamTooLarge",
]


@dataclass(frozen=True, slots=True)
class MessageEvent:
    """An unnamed SSE event: one OmniMessage. `raw` is the event's data, byte for byte (the line the
    producer wrote); `message` is `omnimessage.decode(raw)` (strict)."""

    id: str
    raw: bytes
    message: Message
    kind: Literal["message"] = field(default="message", init=False)


@dataclass(frozen=True, slots=True)
class InvalidMessage:
    """With `strict=False` only: an unnamed event whose data strict decoding refused. `raw` is the
    data as received, `error` the refusal (its `category` is the stable rejection category)."""

    id: str
    raw: bytes
    error: DecodeError
    kind: Literal["invalid_message"] = field(default="invalid_message", init=False)


@dataclass(frozen=True, slots=True)
class ServerEvent:
    """A named SSE event (the server's own control events are named `server_event`). `data` is the
    event's data as received; `type` is its JSON `type` when it is a JSON object with a string one."""

    id: str
    name: str
    data: bytes
    type: str | None = None
    kind: Literal["server_event"] = field(default="server_event", init=False)


@dataclass(frozen=True, slots=True)
class Resync:
    """A `resync_required` server event: the server cannot replay what this client missed (another
    epoch, or the events after its id were evicted). Drop every state built from the stream so far
    (`RenderModel.reset()`); what follows is the live stream from now on."""

    id: str
    kind: Literal["resync"] = field(default="resync", init=False)


@dataclass(frozen=True, slots=True)
class Reconnect:
    """The connection ended and the client will reconnect after `delay` seconds (attempt `attempt`,
    1-based, counted since the last connection that delivered an event), sending `last_event_id`
    (None: no event id seen yet). `reason` says why the connection ended (sanitised)."""

    attempt: int
    delay: float
    last_event_id: str | None
    reason: str
    kind: Literal["reconnect"] = field(default="reconnect", init=False)


Event = MessageEvent | InvalidMessage | ServerEvent | Resync | Reconnect
"""What a subscription yields."""


class ConsumeError(Exception):
    """The subscription cannot go on (the message says why, sanitised)."""


class NotAnEventStream(ConsumeError):
    """The server answered, but not with `200` and `text/event-stream` (no reconnect)."""

    def __init__(self, message: str, *, status: int, content_type: str) -> None:
        super().__init__(message)
        self.status = status
        self.content_type = content_type


class ReconnectsExhausted(ConsumeError):
    """The connection failed `max_attempts` times in a row."""


class StreamTooLarge(ConsumeError):
    """A line or an event went beyond the subscription's byte caps."""


class MessageDecodeError(ConsumeError):
    """`strict=True`: an unnamed event's data is not a valid OmniMessage. `event_id` is the event's id,
    `error` the codec's refusal (`error.category`)."""

    def __init__(self, message: str, *, event_id: str, error: DecodeError) -> None:
        super().__init__(message)
        self.event_id = event_id
        self.error = error


