"""`Backlog`: what one SSE client has been sent but not yet written, bounded in events and bytes.

The channel calls `offer` from whatever thread publishes; the client's writer (`sse_app`) calls
`take` on its event loop. Both caps count what the replay buffer counts (events, and data bytes:
the `data:` payloads, not the framing), so a full replay always fits a backlog whose caps are at
least the channel's. An event that would pass either cap makes the backlog *overflowed*: it drops
everything it holds and takes nothing more, and the writer cuts the client off (the client
reconnects with its `Last-Event-ID` and replays, or resyncs). `take` empties it in writes of about
`WRITE_CHUNK` bytes, each joined once: every byte is copied once, whatever the backlog's size.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Final

from .sse import SseEvent

__all__ = ["WRITE_CHUNK", "Backlog"]

WRITE_CHUNK: Final = 64 * 1024
"""A write handed to the transport holds frames up to about this many bytes (one frame at least)."""


class Backlog:
    """One client's queue of events not yet written; thread-safe; `wake` is called (from the
    offering thread) when the queue goes from empty to non-empty, and when it overflows."""

    def __init__(self, max_events: int, max_bytes: int, wake: Callable[[], None]) -> None:
        self.max_events = max_events
        self.max_bytes = max_bytes
        self._wake = wake
        self._events: deque[SseEvent] = deque()
        self._bytes = 0
        self._overflowed = False
        self._closed = False
        self._lock = threading.Lock()

    @property
    def overflowed(self) -> bool:
        """True once an event would have passed a cap (the client is to be cut off)."""
        return self._overflowed

    @property
    def pending(self) -> bool:
        """Whether events wait to be written."""
        return bool(self._events)

    @property
    def size(self) -> tuple[int, int]:
        """(events, data bytes) held now."""
        with self._lock:
            return len(self._events), self._bytes

    def offer(self, evt: SseEvent) -> None:
        """Queue `evt` (the channel's listener): O(1), never raises, never blocks on the client."""
        with self._lock:
            if self._overflowed or self._closed:
                return
            if len(self._events) >= self.max_events or self._bytes + len(evt.data) > self.max_bytes:
                self._overflowed = True
                self._events.clear()
                self._bytes = 0
                wake = True
            else:
                wake = not self._events
                self._events.append(evt)
                self._bytes += len(evt.data)
        if wake:
            self._wake()

    def take(self, limit: int = WRITE_CHUNK) -> bytes:
        """The frames of the oldest queued events, up to `limit` bytes (at least one frame when any
        is queued), removed from the queue and joined once; b"" when nothing is queued."""
        frames: list[bytes] = []
        size = 0
        with self._lock:
            while self._events and (not frames or size < limit):
                evt = self._events.popleft()
                self._bytes -= len(evt.data)
                frame = evt.frame()
                frames.append(frame)
                size += len(frame)
        return b"".join(frames)

    def close(self) -> None:
        """Drop what is held and accept nothing more (the client is gone)."""
        with self._lock:
            self._closed = True
            self._events.clear()
            self._bytes = 0
