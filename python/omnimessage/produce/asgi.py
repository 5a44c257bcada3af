"""Serve an `SseChannel` over HTTP: a plain ASGI callable, and a tiny asyncio HTTP/1.1 server.

`sse_app(channel)` is an ASGI 3 application (no framework): `GET <path>` answers
`text/event-stream` with the headers the reference endpoint sets (`Cache-Control: no-cache`,
`X-Accel-Buffering: no`), replays from `Last-Event-ID` (or sends `resync_required`: a malformed,
empty, duplicated or oversized id is a miss, never an error), then streams every published event
and a `: ping` heartbeat every `heartbeat` seconds (default 20) until the client goes away. Each
client has a `Backlog` bounded in events and data bytes (by default the channel's replay caps:
10,000 events, 8 MiB); a client that falls that far behind is cut off (its connection is closed
without the end of the response; nothing more is queued for it): it reconnects with its
`Last-Event-ID` and replays, or resyncs. The backlog goes out in writes of about 64 KiB, each
frame copied once. Every way out of the app, an error included, removes the subscriber. Run it
under any ASGI server (uvicorn, hypercorn, ...), or under `serve()` below.

`serve(app, host, port)` is a minimal ASGI server on asyncio streams for loopback use, examples and
tests: one request per connection, request bodies ignored, the response body sent as it comes and
the connection closed at its end; a request line it cannot split is a 400, a head over 16 KiB a 431.
It is not a production server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, Final

from .backlog import WRITE_CHUNK, Backlog
from .sse import HEARTBEAT, HEARTBEAT_SECONDS, SseChannel

__all__ = ["ASGIApp", "serve", "sse_app"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_MAX_REQUEST_HEAD = 16 * 1024
"""`serve` reads at most this much of a request line and headers (a larger head is refused)."""


def sse_app(channel: SseChannel, *, path: str = "/events", heartbeat: float = HEARTBEAT_SECONDS,
            max_backlog_events: int | None = None, max_backlog_bytes: int | None = None) -> ASGIApp:
    """An ASGI application serving `channel` at `path`; a client's backlog caps default to the
    channel's replay caps and may not be smaller (a full replay must fit)."""
    events = channel.max_events if max_backlog_events is None else max_backlog_events
    data_bytes = channel.max_bytes if max_backlog_bytes is None else max_backlog_bytes
    if events < channel.max_events or data_bytes < channel.max_bytes:
        raise ValueError("a client's backlog caps are at least the channel's replay caps (a full replay must fit)")
    if not heartbeat > 0:
        raise ValueError("the heartbeat interval is a positive number of seconds")

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if scope.get("path") != path or scope.get("method") not in ("GET", "HEAD"):
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
            await send({"type": "http.response.body", "body": b"not found\n"})
            return
        if scope["method"] == "HEAD":
            await send({"type": "http.response.start", "status": 200, "headers": _SSE_HEADERS})
            await send({"type": "http.response.body", "body": b""})
            return
        loop = asyncio.get_running_loop()
        wake = asyncio.Event()

        def wake_soon() -> None:  # called from the publishing thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: the client is gone anyway
                loop.call_soon_threadsafe(wake.set)

        backlog = Backlog(events, data_bytes, wake_soon)
        gone = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()
            wake.set()

        watcher: asyncio.Future[None] | None = None
        unsubscribe: Callable[[], None] | None = None
        try:
            # subscribe first, then replay: no gap (the reference's order)
            unsubscribe = channel.subscribe(backlog.offer, _last_event_id(scope.get("headers", [])))
            watcher = asyncio.ensure_future(watch())
            await send({"type": "http.response.start", "status": 200, "headers": _SSE_HEADERS})
            await _pump(send, backlog, wake, gone, heartbeat)
        except OSError:
            pass  # the client went away mid-write
        finally:
            if unsubscribe is not None:
                unsubscribe()
            backlog.close()
            if watcher is not None:
                watcher.cancel()

    return app


_SSE_HEADERS: Final = [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"),
                       (b"x-accel-buffering", b"no")]

_MAX_LAST_EVENT_ID: Final = 64
"""A `Last-Event-ID` longer than this (bytes) is a miss without being looked at (ids are ~20)."""


def _last_event_id(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The `Last-Event-ID` header as the channel sees it: None when absent; repeated headers joined
    with ", " (as node:http joins them: a miss); an oversized one cut to a value that misses."""
    values = [value for name, value in headers if name.lower() == b"last-event-id"]
    if not values:
        return None
    joined = b", ".join(values)
    return joined[:_MAX_LAST_EVENT_ID + 1].decode("latin-1")


async def _pump(send: Send, backlog: Backlog, wake: asyncio.Event, gone: asyncio.Event, heartbeat: float) -> None:
    """Write the backlog and the heartbeats until the client goes away or falls behind its caps."""
    loop = asyncio.get_running_loop()
    next_ping = loop.time() + heartbeat  # a fixed period, events or not (the reference's setInterval)
    while not gone.is_set() and not backlog.overflowed:
        if not backlog.pending:
            wake.clear()
            if not backlog.pending:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), max(0.0, next_ping - loop.time()))
        if gone.is_set() or backlog.overflowed:
            return
        body = backlog.take(WRITE_CHUNK)
        if loop.time() >= next_ping:
            body += HEARTBEAT  # one copy of at most one write
            next_ping = loop.time() + heartbeat
        if body and not await _write(send, body, backlog, wake, gone):
            return


async def _write(send: Send, body: bytes, backlog: Backlog, wake: asyncio.Event, gone: asyncio.Event) -> bool:
    """One write; False when the client went away or overflowed while it was blocked (the write is
    then cancelled: a client that does not read never holds the app)."""
    task = asyncio.ensure_future(send({"type": "http.response.body", "body": body, "more_body": True}))
    try:
        while not task.done():
            wake.clear()
            if gone.is_set() or backlog.overflowed:
                return False
            waiter = asyncio.ensure_future(wake.wait())
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
        task.result()
        return True
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def serve(app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> asyncio.Server:
    """Start serving `app`; the returned server's `sockets[0].getsockname()` has the port."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.LimitOverrunError:
            await _refuse(writer, b"431 Request Header Fields Too Large")
            return
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3:
            await _refuse(writer, b"400 Bad Request")
            return
        method, target, _ = parts
        path, _, query = target.partition("?")
        headers = []
        for line in lines[1:]:
            if ":" in line:
                name, _, value = line.partition(":")
                headers.append((name.strip().lower().encode("latin-1"), value.strip().encode("latin-1")))
        scope: Scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                        "scheme": "http", "path": path, "raw_path": path.encode("latin-1"),
                        "query_string": query.encode("latin-1"), "headers": headers,
                        "server": writer.get_extra_info("sockname"), "client": writer.get_extra_info("peername")}
        requested = False

        async def receive() -> MutableMapping[str, Any]:
            nonlocal requested
            if not requested:
                requested = True
                return {"type": "http.request", "body": b"", "more_body": False}
            with contextlib.suppress(ConnectionError):
                while await reader.read(4096):
                    pass
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status = int(message["status"])
                out = [f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}".encode()]
                out += [name + b": " + value for name, value in message.get("headers", [])]
                out.append(b"connection: close")
                writer.write(b"\r\n".join(out) + b"\r\n\r\n")
            elif message["type"] == "http.response.body":
                writer.write(message.get("body", b""))
            await writer.drain()

        try:
            await app(scope, receive, send)
        except ConnectionError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    return await asyncio.start_server(handle, host, port, limit=_MAX_REQUEST_HEAD)


async def _refuse(writer: asyncio.StreamWriter, status: bytes) -> None:
    """Answer a request head `serve` cannot take, and close."""
    writer.write(b"HTTP/1.1 " + status + b"\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
    with contextlib.suppress(ConnectionError):
        await writer.drain()
    writer.close()
    with contextlib.suppress(ConnectionError):
        await writer.wait_closed()
