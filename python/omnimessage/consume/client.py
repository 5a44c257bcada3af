"""`subscribe`: a blocking SSE client (http.client, no thread of its own) that yields decoded events.

    with subscribe("http://127.0.0.1:8000/events") as sub:
        for event in sub:
            ...

What it does, in order, on each connection: `GET` with `Accept: text/event-stream`, the caller's
headers and (after the first event id) `Last-Event-ID`; a response other than `200` with
`text/event-stream` raises `NotAnEventStream` (status and content type named, no reconnect; a
`204` ends the subscription, as the SSE standard says). Then events as they arrive
(`EventFeed`). When the connection ends (the server closed it, a network error, `idle_timeout`
seconds without a byte: heartbeats count), it yields a `Reconnect` and waits its delay
(`Backoff`), then connects again; after `max_attempts` failed attempts in a row,
`ReconnectsExhausted`. With `reconnect=False` the iteration ends when the server closes the stream,
and a network error or a timeout raises `ConsumeError`.

Timeouts: `connect_timeout` bounds the connection and the wait for the response headers;
`idle_timeout` bounds the silence between two reads.

Cancellation: `close()`, from any thread, ends the iteration promptly (a blocked read is woken by
shutting the socket down; the reading thread itself closes the connection, so no exception escapes
from either thread), and the wait before a reconnect is cut short.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
from collections.abc import Generator, Iterable, Iterator
from types import TracebackType
from typing import Final

from omnimessage.text.sanitize import clip_text, sanitize

from .backoff import Backoff
from .events import Event, Reconnect
from .frames import MAX_EVENT_BYTES, Frame
from .reconnecting import Reconnecting

__all__ = ["Subscription", "subscribe"]

_READ: Final = 1 << 16


class Subscription(Reconnecting):
    """An iterator of events from one SSE URL (see `subscribe`); a context manager that closes it."""

    def _start(self) -> None:
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._busy = False
        self._sock: socket.socket | None = None
        self._resume: str | None = None
        self._gen: Generator[object, None, None] | None = None
        self._gen_closed = False  # close() hands the generator's close to one caller only
        self.first_frame: Frame | None = None
        """With `chunks()`: the first event the current connection dispatched (None: none yet)."""

    def __iter__(self) -> Iterator[Event]:
        return self

    def __next__(self) -> Event:
        if self._gen is None:
            self._gen = self._run(False)
        return self._next()  # type: ignore[return-value]

    def chunks(self) -> Iterator[bytes | Reconnect]:
        """The response bodies' bytes as they arrive, instead of events, with a `Reconnect` between two
        connections (the bytes of an event torn by the cut precede it): for tools that read the
        stream's bytes themselves (`omnimessage validate --sse-url`). Last-Event-ID, reconnects and
        timeouts work as with events; a line or an event over the caps is skipped, not an error."""
        if self._gen is not None:
            raise RuntimeError("the subscription is already being read")
        self.feed.parser.skip_oversized = True
        self._gen = self._run(True)
        while True:
            try:
                yield self._next()  # type: ignore[misc]
            except StopIteration:
                return

    def resume(self, last_event_id: str) -> None:
        """Drop the current connection and connect again at once, sending this `Last-Event-ID` (for
        instance `<epoch>-0`: everything the server still keeps of its epoch). Call it from the thread
        that iterates, between two items."""
        self._resume = last_event_id

    def _next(self) -> object:
        assert self._gen is not None
        with self._lock:
            if self._closed.is_set():
                raise StopIteration
            self._busy = True
        try:
            return next(self._gen)
        finally:
            with self._lock:
                self._busy = False

    def close(self) -> None:
        """End the subscription (idempotent; any thread)."""
        with self._lock:
            self._closed.set()
            if self._busy:  # the reading thread is inside: wake it, it closes the connection itself
                sock = self._sock
                if sock is not None:
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)
                return
            # one caller closes the generator: two threads in gen.close() at once (a deadline timer and
            # the reader's own close) would make the second raise "generator already executing"
            gen = None if self._gen_closed else self._gen
            self._gen_closed = gen is not None or self._gen_closed
        if gen is not None:
            gen.close()

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, t: type[BaseException] | None, v: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _run(self, raw: bool) -> Generator[object, None, None]:
        while not self._closed.is_set():
            self.first_frame = None
            failed: BaseException | None = None
            conn = None
            resp = None
            streaming = False
            try:
                conn = self._open()
                if conn is None:
                    return
                resp = conn.getresponse()
                if self._closed.is_set():  # closed while the head was read: what was read of it is cut short
                    return
                if resp.status == 204:
                    self.ended = "the server answered 204 No Content: no more reconnects"
                    return
                self.feed.check_response(resp.status, resp.getheader("Content-Type") or "", self.target.shown)
                self.connections += 1
                self.feed.connected()
                streaming = True
                if self._sock is not None:
                    self._sock.settimeout(self.idle_timeout)
                while True:
                    chunk = resp.read1(_READ)
                    if self._closed.is_set():
                        return
                    if not chunk:
                        self.ended = "the server closed the stream"
                        break
                    if raw:
                        frames = self.feed.parser.feed(chunk)
                        self.feed.delivered += len(frames)
                        if frames and self.first_frame is None:
                            self.first_frame = frames[0]
                        yield chunk
                    else:
                        for event in self.feed.feed(chunk):
                            yield event
                            if self._closed.is_set() or self._resume is not None:
                                break
                    if self._closed.is_set():
                        return
                    if self._resume is not None:
                        self.ended = f"resuming from event id {sanitize(clip_text(self._resume))}"
                        break
            except (OSError, http.client.HTTPException) as exc:
                if self._closed.is_set():
                    return
                failed = exc
                self._failed(exc, streaming)
            finally:
                self._drop(conn, resp)
            if self._resume is not None:
                self.feed.parser.resume_from(self._resume)
                self._resume = None
                self._attempt = 0
                yield Reconnect(1, 0.0, self.last_event_id, self.ended)
                continue
            rec = self._lost(failed is not None)
            if rec is None:
                return
            yield rec
            if self._closed.wait(rec.delay):
                return

    def _open(self) -> http.client.HTTPConnection | None:
        t = self.target
        conn: http.client.HTTPConnection
        if t.scheme == "https":
            conn = http.client.HTTPSConnection(t.host, t.port, timeout=self.connect_timeout,
                                               context=ssl.create_default_context())
        else:
            conn = http.client.HTTPConnection(t.host, t.port, timeout=self.connect_timeout)
        try:
            conn.connect()
            with self._lock:
                if self._closed.is_set():
                    conn.close()
                    return None
                self._sock = conn.sock
            headers = self.feed.request_headers(self._headers)
            given = {n.lower() for n, _ in headers}
            conn.putrequest("GET", t.path, skip_host="host" in given, skip_accept_encoding="accept-encoding" in given)
            for n, v in headers:
                conn.putheader(n, v)
            conn.endheaders()
        except BaseException:
            self._drop(conn, None)
            raise
        return conn

    def _drop(self, conn: http.client.HTTPConnection | None, resp: http.client.HTTPResponse | None) -> None:
        """Close a connection: its response (which keeps the socket's file after http.client forgot the
        socket of a response that closes the connection), the connection, the socket."""
        with self._lock:
            sock, self._sock = self._sock, None
        if resp is not None:
            resp.close()
        if conn is not None:
            conn.close()
        if sock is not None:
            sock.close()


def subscribe(url: str, *, last_event_id: str | None = None, headers: Iterable[tuple[str, str]] = (),
              strict: bool = True, reconnect: bool = True, backoff: Backoff | None = None,
              connect_timeout: float = 10.0, idle_timeout: float = 60.0,
              max_line_bytes: int = MAX_EVENT_BYTES, max_event_bytes: int = MAX_EVENT_BYTES) -> Subscription:
    """Subscribe to an SSE URL: an iterator of `MessageEvent`, `ServerEvent`, `Resync`, `Reconnect`
    (and, with `strict=False`, `InvalidMessage`). Nothing is sent until the first `next()`."""
    return Subscription(url, last_event_id=last_event_id, headers=headers, strict=strict, reconnect=reconnect,
                        backoff=backoff, connect_timeout=connect_timeout, idle_timeout=idle_timeout,
                        max_line_bytes=max_line_bytes, max_event_bytes=max_event_bytes)
