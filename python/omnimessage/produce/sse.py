"""`SseChannel`: push messages as server-sent events the way the reference server frames them.

Facts this follows (PenguinHarness `packages/server/src/runtime/channel.ts` Channel,
`server/src/http/sse.ts` sseEndpoint, hono's `writeSSE`; protocol facts 10):

- Each channel has an epoch, the first 8 hex digits of a random UUID made when the channel is
  created; event ids are `<epoch>-<seq>`, seq counting from 1. A new channel (a server restart)
  is a new epoch, so a stale `Last-Event-ID` always misses.
- An OmniMessage is an unnamed event whose one `data:` line is the message's exact bytes; the
  server's own control events are named `server_event`. A frame is `event:` (when named), `data:`,
  `id:`, then an empty line. Heartbeats are `: ping` comment frames, every 20 s.
- Replay: a subscriber that sends `Last-Event-ID` gets the buffered events after it when the id is
  of this epoch and nothing after it was evicted; otherwise a `resync_required` server event,
  sent to it alone (it consumes a seq, and is not buffered). A subscriber without the header
  gets no replay, only what is published after it subscribed. `<epoch>-0` asks for everything
  this epoch still keeps from its start: a hit while seq 1 was never evicted, else a resync.
- An id is parsed defensively (the header is client input): `<epoch>-<seq>` with seq 1 to 16 ASCII
  digits at most 2**53 - 1; anything else (empty, non-ASCII, duplicated headers joined with
  ", ", 5,000 digits) is a miss, answered with `resync_required`, never an exception.
- The buffer is bounded: the most recent `max_events` events (default 10,000) or `max_bytes` of
  data (default 8 MiB; the reference counts UTF-16 units, this channel counts bytes), whichever
  is smaller; the oldest are evicted first.
"""

from __future__ import annotations

import threading
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MAX_EVENTS", "HEARTBEAT", "HEARTBEAT_SECONDS", "MAX_SEQ", "SseChannel",
           "SseEvent", "parse_seq"]

DEFAULT_MAX_EVENTS: Final = 10_000
DEFAULT_MAX_BYTES: Final = 8 * 1024 * 1024
HEARTBEAT_SECONDS: Final = 20.0
HEARTBEAT: Final = b": ping\n\n"
MAX_SEQ: Final = 2**53 - 1
"""The largest seq an id may carry (what a JavaScript number holds exactly; 16 digits at most)."""


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One numbered event: its id (`<epoch>-<seq>`), its name (None: an OmniMessage), its data."""

    id: str
    seq: int
    data: bytes
    event: str | None = None

    def frame(self) -> bytes:
        """The event as it goes on the wire."""
        name = b"" if self.event is None else b"event: " + self.event.encode() + b"\n"
        return name + b"data: " + self.data + b"\nid: " + self.id.encode() + b"\n\n"


Listener = Callable[[SseEvent], None]


class SseChannel:
    """Numbering, a bounded replay buffer and fan-out; no HTTP (see `sse_app` for that)."""

    def __init__(self, *, max_events: int = DEFAULT_MAX_EVENTS, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if max_events < 1 or max_bytes < 1:
            raise ValueError("the replay buffer keeps at least one event and one byte")
        self.epoch: Final = uuid.uuid4().hex[:8]
        self.max_events = max_events
        self.max_bytes = max_bytes
        self._next = 1
        self._buffer: deque[SseEvent] = deque()
        self._bytes = 0
        self._last_evicted = 0
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()

    @property
    def subscriber_count(self) -> int:
        """How many subscribers the channel has now."""
        return len(self._listeners)

    @property
    def last_event_id(self) -> str:
        """The id of the newest event numbered so far (`<epoch>-0` before the first)."""
        return f"{self.epoch}-{self._next - 1}"

    def publish(self, data: bytes, event: str | None = None) -> SseEvent:
        """Number an event, buffer it (evicting the oldest beyond the caps), send it to every
        subscriber. `data` is one line: an OmniMessage's exact bytes, or a server event's JSON."""
        with self._lock:
            evt = self._make(data, event)
            self._buffer.append(evt)
            self._bytes += len(evt.data)
            while self._buffer and (len(self._buffer) > self.max_events or self._bytes > self.max_bytes):
                old = self._buffer.popleft()
                self._bytes -= len(old.data)
                self._last_evicted = max(self._last_evicted, old.seq)
            for listener in list(self._listeners):
                listener(evt)
            return evt

    def send_to(self, listener: Listener, data: bytes, event: str | None = None) -> SseEvent:
        """Number an event for one subscriber only (not buffered, not broadcast)."""
        with self._lock:
            evt = self._make(data, event)
            listener(evt)
            return evt

    def subscribe(self, listener: Listener, last_event_id: str | None = None) -> Callable[[], None]:
        """Add a subscriber, then replay to it (or tell it to resync) as the reference endpoint does;
        returns the function that unsubscribes it. Atomic with respect to `publish`."""

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        with self._lock:
            self._listeners.append(listener)
            try:
                if last_event_id is not None:
                    hit, events = self.replay_after(last_event_id)
                    if not hit:
                        self.send_to(listener, b'{"type":"resync_required"}', "server_event")
                    for evt in events:
                        listener(evt)
            except BaseException:
                unsubscribe()  # a subscriber that failed to start is never left behind
                raise
        return unsubscribe

    def replay_after(self, last_event_id: str) -> tuple[bool, list[SseEvent]]:
        """(hit, the buffered events after it). A miss: another epoch, a malformed id, a seq never
        assigned, or events after it already evicted."""
        seq = parse_seq(last_event_id, self.epoch)
        if seq is None:
            return False, []
        with self._lock:
            if not (self._last_evicted <= seq < self._next):
                return False, []
            return True, [e for e in self._buffer if e.seq > seq]

    def _make(self, data: bytes, event: str | None) -> SseEvent:
        if b"\n" in data or b"\r" in data:
            raise ValueError("an SSE event's data here is one line: it holds no CR or LF")
        if event is not None and (not event or any(c in event for c in "\r\n")):
            raise ValueError(f"not an SSE event name: {event!r}")
        seq = self._next
        self._next += 1
        return SseEvent(f"{self.epoch}-{seq}", seq, bytes(data), event)


def parse_seq(last_event_id: str, epoch: str) -> int | None:
    """The seq of `<epoch>-<seq>` when the id is of `epoch` and well formed, else None. Bounded
    work for any input: the length is checked before anything is parsed."""
    if len(last_event_id) > len(epoch) + 17:  # "-" and 16 digits
        return None
    head, sep, seq_text = last_event_id.rpartition("-")
    if not sep or head != epoch or not 0 < len(seq_text) <= 16 or not seq_text.isascii() or not seq_text.isdigit():
        return None
    seq = int(seq_text)
    return seq if seq <= MAX_SEQ else None
