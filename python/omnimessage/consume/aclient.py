"""`asubscribe`: the asyncio twin of `subscribe`, on asyncio streams (no dependency).

    async with asubscribe("http://127.0.0.1:8000/events") as sub:
        async for event in sub:
            ...

Same events, errors, reconnects, caps and timeouts as `subscribe` (they share `EventFeed` and
`Backoff`). The HTTP/1.1 it speaks is what an event stream needs: one `GET`, a response head of
at most `MAX_HEAD_BYTES` (status line and headers), then the body as `Transfer-Encoding: chunked`,
as `Content-Length` bytes, or until the server closes. Cancelling the task that iterates, or
`aclose()`, ends it and closes the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncGenerator, AsyncIterator, Iterable
from types import TracebackType
from typing import Final

from omnimessage.text.sanitize import clip_text, sanitize

from .backoff import Backoff
from .events import ConsumeError, Event
from .frames import MAX_EVENT_BYTES
from .reconnecting import Reconnecting

__all__ = ["AsyncSubscription", "MAX_HEAD_BYTES", "asubscribe"]

MAX_HEAD_BYTES: Final = 64 * 1024
"""The longest response head (status line and headers) read; a longer one ends the connection."""
_READ: Final = 1 << 16


class _BadResponse(ConnectionError):
    """The response is not HTTP/1.x as this client reads it."""


class AsyncSubscription(Reconnecting):
    """An async iterator of events from one SSE URL (see `asubscribe`)."""

    def _start(self) -> None:
        self._gen = self._run()

    def __aiter__(self) -> AsyncSubscription:
        return self

    async def __anext__(self) -> Event:
        return await self._gen.__anext__()

    async def aclose(self) -> None:
        """End the subscription and close its connection (idempotent)."""
        await self._gen.aclose()

    async def __aenter__(self) -> AsyncSubscription:
        return self

    async def __aexit__(self, t: type[BaseException] | None, v: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.aclose()

    async def _run(self) -> AsyncGenerator[Event, None]:
        while True:
            failed = False
            streaming = False
            writer: asyncio.StreamWriter | None = None
            try:
                async with asyncio.timeout(self.connect_timeout):
                    reader, writer = await self._open()
                    status, headers = await _head(reader)
                if status == 204:
                    self.ended = "the server answered 204 No Content: no more reconnects"
                    return
                self.feed.check_response(status, headers.get("content-type", ""), self.target.shown)
                self.connections += 1
                self.feed.connected()
                streaming = True
                async for chunk in _body(reader, headers, self.idle_timeout):
                    for event in self.feed.feed(chunk):
                        yield event
                self.ended = "the server closed the stream"
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                if isinstance(exc, ConsumeError):
                    raise
                failed = True
                self._failed(exc, streaming)
            finally:
                if writer is not None:
                    writer.close()
                    with contextlib.suppress(Exception):
                        await asyncio.shield(writer.wait_closed())
            rec = self._lost(failed)
            if rec is None:
                return
            yield rec
            await asyncio.sleep(rec.delay)

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        t = self.target
        ctx = ssl.create_default_context() if t.scheme == "https" else None
        reader, writer = await asyncio.open_connection(t.host, t.port, ssl=ctx, limit=MAX_HEAD_BYTES)
        headers = self.feed.request_headers(self._headers)
        given = {n.lower() for n, _ in headers}
        host = t.host if ":" not in t.host else f"[{t.host}]"
        lines = [f"GET {t.path} HTTP/1.1"]
        if "host" not in given:
            default = 443 if t.scheme == "https" else 80
            lines.append(f"Host: {host}" + ("" if t.port == default else f":{t.port}"))
        lines += [f"{n}: {v}" for n, v in headers]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        await writer.drain()
        return reader, writer


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """The status and the headers (names lower-cased; a repeated one keeps its last value)."""
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except asyncio.LimitOverrunError:
        raise _BadResponse(f"a response head longer than {MAX_HEAD_BYTES} bytes") from None
    except asyncio.IncompleteReadError:
        raise _BadResponse("the connection closed before the response head ended") from None
    lines = raw.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not (parts[1].isascii() and parts[1].isdigit()):
        raise _BadResponse(f"not an HTTP/1.x status line: {sanitize(clip_text(lines[0], 80))!r}")
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return int(parts[1][:3]), headers


async def _body(reader: asyncio.StreamReader, headers: dict[str, str], idle: float) -> AsyncIterator[bytes]:
    """The body's bytes as they come; each read waits at most `idle` seconds."""
    async def read(n: int) -> bytes:
        async with asyncio.timeout(idle):
            return await reader.read(n)

    if "chunked" in headers.get("transfer-encoding", "").lower():
        while True:
            async with asyncio.timeout(idle):
                line = await reader.readuntil(b"\r\n")
            size_text = line.partition(b";")[0].strip()
            if not size_text or len(size_text) > 16 or any(c not in b"0123456789abcdefABCDEF" for c in size_text):
                raise _BadResponse("a malformed chunk size")
            left = int(size_text, 16)
            if left == 0:
                return
            while left:
                data = await read(min(left, _READ))
                if not data:
                    raise _BadResponse("the connection closed inside a chunk")
                left -= len(data)
                yield data
            async with asyncio.timeout(idle):
                if await reader.readexactly(2) != b"\r\n":
                    raise _BadResponse("a chunk not followed by CR LF")
        return
    length = headers.get("content-length")
    left = int(length) if length is not None and length.isascii() and length.isdigit() else -1
    while left != 0:
        data = await read(_READ if left < 0 else min(left, _READ))
        if not data:
            return
        if left > 0:
            left -= len(data)
        yield data


def asubscribe(url: str, *, last_event_id: str | None = None, headers: Iterable[tuple[str, str]] = (),
               strict: bool = True, reconnect: bool = True, backoff: Backoff | None = None,
               connect_timeout: float = 10.0, idle_timeout: float = 60.0,
               max_line_bytes: int = MAX_EVENT_BYTES, max_event_bytes: int = MAX_EVENT_BYTES) -> AsyncSubscription:
    """`subscribe`, as an async iterator. Nothing is sent until the first `__anext__`."""
    return AsyncSubscription(url, last_event_id=last_event_id, headers=headers, strict=strict, reconnect=reconnect,
                             backoff=backoff, connect_timeout=connect_timeout, idle_timeout=idle_timeout,
                             max_line_bytes=max_line_bytes, max_event_bytes=max_event_bytes)
