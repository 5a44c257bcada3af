"""`LiveStream`: read a live `text/event-stream` for a bounded time, on `omnimessage.consume`'s client.

What it adds to the client, for `omnimessage validate --sse-url`:

- a deadline: a timer closes the subscription when `duration` has elapsed (the client's `close()`
  is safe from another thread: the reading thread closes the connection itself, so no exception
  reaches `threading.excepthook`);
- the first connection must be answered with an event stream: a refusal (`NotAnEventStream`) or a
  failure to connect ends the run with an error (`LiveStream.failure`), not a reconnect;
- attached mid-session, it asks the server for what it still keeps: when the first event of the
  first connection is not the epoch's first (`<epoch>-1`), the bytes read so far are dropped and it
  resumes at once with `Last-Event-ID: <epoch>-0`. The server then replays its epoch from seq 1
  (the stream is judged from the session's start), or answers `resync_required` (seq 1 was
  evicted: the stream is judged as one that starts mid-session). A first event without an id, or
  a resumed stream that does not start at seq 1 or with a resync, is marked `Mark.UNKNOWN_PAST`;
- later reconnects (a cut connection) go on with `Last-Event-ID` and are marked `Mark.CUT`, so the
  capture is judged as one stream across its resumes. A stream whose events carry no id cannot be
  resumed: when its connection ends, reading ends.

Memory: while it waits for the first event to decide, it holds at most `MAX_PROBE_BYTES` (past it
the stream is judged as one that starts mid-session, and the bytes held go on to the validator).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Final

from omnimessage.consume import Backoff, ConsumeError, NotAnEventStream, Reconnect, ReconnectsExhausted, Subscription
from omnimessage.validate.sources.sse import Mark, check_sse_url

__all__ = ["MAX_PROBE_BYTES", "LiveStream"]

MAX_PROBE_BYTES: Final = 1 << 20
"""The most a live stream holds back while it learns where its first event stands."""
_ID: Final = re.compile(r"(.{1,64})-([0-9]{1,19})\Z", re.S)
_BACKOFF: Final = Backoff(initial_delay=0.25, max_delay=2.0, max_attempts=8)


class LiveStream:
    """The chunks of a live stream, with marks (see the module's documentation).

    After `chunks()`: `failure` (empty, or why the first connection failed: then the caller reports
    an error), `ended` (why reading stopped), `resumed_from` (the id sent when it asked the server
    for its epoch, or None), `midstream` (judged as a stream that starts mid-session), `status` and
    `content_type` of a refused response.
    """

    def __init__(self, url: str, duration: float, *, timeout: float = 10.0,
                 headers: Iterable[tuple[str, str]] = (), resume: bool = True) -> None:
        check_sse_url(url)
        self.duration = duration
        self.resume = resume
        self.sub = Subscription(url, headers=headers, connect_timeout=timeout, backoff=_BACKOFF)
        self.ended = ""
        self.failure = ""
        self.status = 0
        self.content_type = ""
        self.resumed_from: str | None = None
        self.midstream = False
        self.bytes = 0
        self.deciding = True
        """Still holding the first bytes back, to learn where the stream starts (see the module)."""

    def _elapsed(self) -> str:
        return f"the {self.duration:g} s duration elapsed"

    def chunks(self) -> Iterator[bytes | Mark]:
        """The stream's bytes and marks until the duration elapses, the server ends it for good, or
        the first connection fails (`failure`)."""
        deadline = time.monotonic() + self.duration
        timer = threading.Timer(self.duration, self.sub.close)
        timer.daemon = True
        timer.start()
        try:
            yield from self._read()
        except NotAnEventStream as exc:
            self.status, self.content_type = exc.status, exc.content_type
            self.failure = str(exc)
        except ReconnectsExhausted as exc:
            self.ended = str(exc)
        except ConsumeError as exc:
            self.ended = str(exc)
        finally:
            timer.cancel()
            self.sub.close()
        if not self.sub.connections and not self.failure:
            self.failure = (f"no response headers within the {self.duration:g} s duration"
                            if time.monotonic() >= deadline else f"cannot connect ({self.sub.ended})")
        if not self.ended:
            self.ended = self._elapsed() if time.monotonic() >= deadline else self.sub.ended or "the stream ended"

    def _read(self) -> Iterator[bytes | Mark]:
        self.deciding = True
        held: list[bytes] = []
        size = 0
        for item in self.sub.chunks():
            if isinstance(item, Reconnect):
                if not self.sub.connections:
                    self.failure = f"cannot connect ({item.reason})"
                    return
                if item.last_event_id is None:  # no id to resume from: a new connection is another stream
                    self.ended = item.reason
                    return
                if self.deciding:  # nothing of that connection went on: no cut to mark
                    held, size = [], 0
                else:
                    yield Mark.CUT
                continue
            self.bytes += len(item)
            if not self.deciding:
                yield item
                continue
            held.append(item)
            size += len(item)
            first = self.sub.first_frame
            if first is None and size <= MAX_PROBE_BYTES:
                continue
            self.deciding = False
            if first is None or not self._starts_at_the_beginning(first.name, first.data, first.last_event_id):
                if first is not None and self.resume and self.resumed_from is None:
                    m = _ID.match(first.last_event_id)
                    if m is not None:
                        self.resumed_from = f"{m.group(1)}-0"
                        self.sub.resume(self.resumed_from)
                        self.deciding, held, size = True, [], 0
                        continue
                self.midstream = True
                yield Mark.UNKNOWN_PAST
            yield from held
            held, size = [], 0
        if held:  # the read ended while deciding: what was held is judged, from the start only if it is
            first = self.sub.first_frame
            if first is not None and not self._starts_at_the_beginning(first.name, first.data, first.last_event_id):
                self.midstream = True
                yield Mark.UNKNOWN_PAST
            yield from held

    @staticmethod
    def _starts_at_the_beginning(name: str, data: bytes, event_id: str) -> bool:
        """The first event is the epoch's first, or a `resync_required` (judged as a gap)."""
        if name == "server_event" and b'"resync_required"' in data:
            return True
        m = _ID.match(event_id)
        return m is not None and m.group(2) == "1"
