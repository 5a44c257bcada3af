"""Serve an `SseChannel` over HTTP: a plain ASGI callable, and a tiny asyncio HTTP/1.1 server.

`sse_app(channel)` is an ASGI 3 application (no framework): `GET <path>` answers
`text/event-stream` with the headers the reference endpoint sets (`Cache-Control: no-cache`,
`X-Accel-Buffering: no`), replays from `Last-Event-ID` (or sends `resync_required`), then streams
every published event and a `: ping` heartbeat every 20 s until the client goes away. A client that
falls `channel.max_events` events behind is disconnected (what is queued for it is bounded by the
channel's cap): it reconnects with its `Last-Event-ID` and replays, or resyncs. Run it under any
ASGI server (uvicorn, hypercorn, ...), or under `serve()` below.

`serve(app, host, port)` is a minimal ASGI server on asyncio streams for loopback use, examples and
tests: one request per connection, request bodies ignored, the response body sent as it comes and
the connection closed at its end. It is not a production server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .sse import HEARTBEAT, HEARTBEAT_SECONDS, SseChannel, SseEvent

__all__ = ["ASGIApp", "serve", "sse_app"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_MAX_REQUEST_HEAD = 16 * 1024
"""`serve` reads at most this much of a request line and headers (a larger head is refused)."""


def sse_app(channel: SseChannel, *, path: str = "/events", heartbeat: float = HEARTBEAT_SECONDS) -> ASGIApp:
    """An ASGI application serving `channel` at `path`."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        if scope["path"] != path or scope["method"] not in ("GET", "HEAD"):
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
            await send({"type": "http.response.body", "body": b"not found\n"})
            return
        last_id = None
        for name, value in scope.get("headers", []):
            if name.lower() == b"last-event-id":
                last_id = value.decode("latin-1")
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[SseEvent] = asyncio.Queue()
        overflow = asyncio.Event()

        def offer(evt: SseEvent) -> None:
            if queue.qsize() >= channel.max_events:  # a client this far behind reconnects and replays
                overflow.set()
            else:
                queue.put_nowait(evt)

        def listener(evt: SseEvent) -> None:
            loop.call_soon_threadsafe(offer, evt)

        unsubscribe = channel.subscribe(listener, last_id)  # subscribe first, then replay: no gap
        disconnected = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            disconnected.set()

        watcher = asyncio.ensure_future(watch())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache"),
                (b"x-accel-buffering", b"no")]})
            if scope["method"] == "HEAD":
                await send({"type": "http.response.body", "body": b""})
                return
            next_ping = loop.time() + heartbeat  # a fixed period, events or not (the reference's setInterval)
            while not disconnected.is_set() and not overflow.is_set():
                getter = asyncio.ensure_future(queue.get())
                gone = asyncio.ensure_future(disconnected.wait())
                done, _ = await asyncio.wait({getter, gone}, timeout=max(0.0, next_ping - loop.time()),
                                             return_when=asyncio.FIRST_COMPLETED)
                gone.cancel()
                chunk = b""
                if getter in done:
                    chunk = getter.result().frame()
                    while not queue.empty():  # what is already queued goes out in one write
                        chunk += queue.get_nowait().frame()
                else:
                    getter.cancel()
                if loop.time() >= next_ping:
                    chunk += HEARTBEAT
                    next_ping += heartbeat
                if chunk and not disconnected.is_set():
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
        except OSError:
            pass  # the client went away mid-write
        finally:
            unsubscribe()
            watcher.cancel()

    return app


async def serve(app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> asyncio.Server:
    """Start serving `app`; the returned server's `sockets[0].getsockname()` has the port."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3:
            writer.close()
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
