"""`EventFeed`: the part of a subscription that does no I/O. Bytes in, events out.

It holds what survives a reconnect (the last event id, the server's `retry:`), checks a response,
builds the reconnect's headers, and turns the parser's frames into events:

- an unnamed event (`message`) is an OmniMessage: decoded strictly (`omnimessage.decode`); its data
  is kept byte for byte. A refusal is `MessageDecodeError` naming the event id and the rejection
  category (`strict=True`, the default), or an `InvalidMessage` event carrying the raw bytes and
  the refusal (`strict=False`); the stream goes on after it either way only in the second case;
- a `server_event` whose data is a JSON object with `"type": "resync_required"` is a `Resync`;
- any other named event is a `ServerEvent` (its `type` read when its data is a JSON object).

The sync and async clients share it, so both behave the same.
"""

from __future__ import annotations

import msgspec

from omnimessage.codec.api import decode
from omnimessage.codec.errors import DecodeError
from omnimessage.text.sanitize import clip_text, sanitize

from .events import (
    Event,
    InvalidMessage,
    MessageDecodeError,
    MessageEvent,
    NotAnEventStream,
    Resync,
    ServerEvent,
    StreamTooLarge,
)
from .frames import MAX_EVENT_BYTES, Frame, FrameParser, FrameTooLarge

__all__ = ["EventFeed"]


class _Typed(msgspec.Struct):
    type: str | None = None


_TYPED = msgspec.json.Decoder(_Typed)


def _type_of(data: bytes) -> str | None:
    if not data.startswith(b"{"):
        return None
    try:
        return _TYPED.decode(data).type
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


class EventFeed:
    def __init__(self, *, last_event_id: str | None = None, strict: bool = True,
                 max_line_bytes: int = MAX_EVENT_BYTES, max_event_bytes: int = MAX_EVENT_BYTES) -> None:
        self.strict = strict
        self.parser = FrameParser(max_line_bytes=max_line_bytes, max_event_bytes=max_event_bytes)
        if last_event_id is not None:
            self.parser.resume_from(last_event_id)
        self.delivered = 0
        """Events delivered on the current connection."""

    @property
    def last_event_id(self) -> str | None:
        """What a reconnect sends as `Last-Event-ID` (None: no id yet; nothing is sent)."""
        return self.parser.last_event_id or None

    @property
    def retry_ms(self) -> int | None:
        return self.parser.retry_ms

    def request_headers(self, base: list[tuple[str, str]]) -> list[tuple[str, str]]:
        last = self.last_event_id
        return base if last is None else [*base, ("Last-Event-ID", last)]

    def check_response(self, status: int, content_type: str, shown: str) -> None:
        """NotAnEventStream unless `200` with `text/event-stream` (the content type named, sanitised)."""
        mime = content_type.partition(";")[0].strip().lower()
        if status != 200 or mime != "text/event-stream":
            ct = sanitize(clip_text(content_type, 80)) or "none"
            raise NotAnEventStream(f"{shown}: HTTP {status} with content type '{ct}'; expected 200 with "
                                   "text/event-stream", status=status, content_type=content_type)

    def connected(self) -> None:
        """A new connection: a new byte stream."""
        self.parser.reset_stream()
        self.delivered = 0

    def feed(self, chunk: bytes) -> list[Event]:
        try:
            frames = self.parser.feed(chunk)
        except FrameTooLarge as exc:
            raise StreamTooLarge(f"{exc} (after event id {sanitize(clip_text(self.parser.last_event_id))!r})") \
                from None
        out = [self._event(f) for f in frames]
        self.delivered += len(out)
        return out

    def _event(self, f: Frame) -> Event:
        if f.name == "message":
            try:
                if f.data.endswith(b"\n"):  # decode() allows one; an event's data is the line without it
                    raise DecodeError("trailing_data", "the event's data ends with a line feed (an empty data: "
                                                       "line after the message)", offset=len(f.data) - 1)
                return MessageEvent(f.last_event_id, f.data, decode(f.data))
            except DecodeError as exc:
                if not self.strict:
                    return InvalidMessage(f.last_event_id, f.data, exc)
                where = sanitize(clip_text(f.last_event_id)) or "(none)"
                raise MessageDecodeError(f"event id {where}: not an OmniMessage ({exc.category}: "
                                         f"{sanitize(clip_text(exc.detail))})", event_id=f.last_event_id,
                                         error=exc) from None
        kind = _type_of(f.data)
        if f.name == "server_event" and kind == "resync_required":
            return Resync(f.last_event_id)
        return ServerEvent(f.last_event_id, f.name, f.data, kind)
