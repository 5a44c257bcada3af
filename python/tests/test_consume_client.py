"""`subscribe` and `asubscribe` against scripted servers on 127.0.0.1: events, byte-exact messages,
resumes with Last-Event-ID, retry:, bounded attempts, errors, caps, cancellation."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator

import pytest
from sse_stub import CHUNKED_HEAD, HOLD, SSE_HEAD, ScriptedServer, chunk, thread_errors  # noqa: F401 (a fixture)

import omnimessage as om
from omnimessage.consume import (
    Backoff,
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
    asubscribe,
    subscribe,
)

A = om.encode(om.user_text("hi ✓", timestamp="2026-07-18T03:10:22.531Z"))
B = om.encode(om.thinking("hm", fidelity={"signature": "x=="}, timestamp="2026-07-18T03:10:22.532Z"))
FAST = Backoff(initial_delay=0, max_delay=0, max_attempts=3)


def sse(data: bytes, eid: str, name: str | None = None) -> bytes:
    return (b"" if name is None else b"event: " + name.encode() + b"\n") + b"data: " + data + b"\nid: " + \
        eid.encode() + b"\n\n"


def take(it: Iterator[Event], n: int) -> list[Event]:
    return [next(it) for _ in range(n)]




def test_events_byte_exact_and_resume() -> None:
    first = [SSE_HEAD, b"retry: 0\n\n", sse(A, "ep-1"), sse(b'{"type":"task_state"}', "ep-2", "server_event"),
             b"data: torn-"]
    second = [SSE_HEAD, sse(b'{"type":"resync_required"}', "ep-3", "server_event"), sse(B, "ep-4")]
    with ScriptedServer([first, second]) as srv, subscribe(srv.url, backoff=Backoff(max_attempts=1)) as sub:
        got = take(sub, 5)
        assert isinstance(next(sub), Reconnect)  # the second connection delivered: attempt 1 again
        with pytest.raises(ReconnectsExhausted, match="gave up after 1 failed attempt"):
            next(sub)  # the third connection delivered nothing
    msg, server, rec, resync, msg2 = got
    assert isinstance(msg, MessageEvent) and msg.raw == A and om.encode(msg.message) == A and msg.id == "ep-1"
    assert isinstance(server, ServerEvent) and (server.name, server.type, server.id) == ("server_event",
                                                                                          "task_state", "ep-2")
    assert isinstance(rec, Reconnect) and (rec.attempt, rec.delay, rec.last_event_id) == (1, 0.0, "ep-2")
    assert rec.reason == "the server closed the stream"
    assert isinstance(resync, Resync) and resync.id == "ep-3" and resync.kind == "resync"
    assert isinstance(msg2, MessageEvent) and msg2.raw == B
    assert srv.header(0, "Last-Event-ID") is None and srv.header(1, "Last-Event-ID") == "ep-2"
    assert srv.header(0, "Accept") == "text/event-stream"
    assert [e.kind for e in got] == ["message", "server_event", "reconnect", "resync", "message"]


def test_given_last_event_id_is_sent_first() -> None:
    with ScriptedServer([[SSE_HEAD, sse(A, "ep-7")]]) as srv, \
            subscribe(srv.url, last_event_id="ep-0", reconnect=False) as sub:
        assert [e.kind for e in sub] == ["message"]
    assert srv.header(0, "Last-Event-ID") == "ep-0"


def test_backoff_bounded_attempts() -> None:
    with socket.socket() as s:  # bound, never listening: the port stays ours and refuses every connection
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        sub = subscribe(f"http://127.0.0.1:{port}/", backoff=FAST)
        got = take(sub, 3)
        assert [(e.attempt, e.delay) for e in got if isinstance(e, Reconnect)] == [(1, 0), (2, 0), (3, 0)]
        with pytest.raises(ReconnectsExhausted, match="gave up after 3 failed attempt"):
            next(sub)
    assert Backoff(initial_delay=1, max_delay=5).delay(3, None) == 4 and Backoff().delay(2, 250) == 0.5
    assert Backoff(max_delay=5).delay(10, None) == 5


def test_not_an_event_stream() -> None:
    bad = b"HTTP/1.1 404 Not Found\r\ncontent-type: text/html\x1b[2J\r\ncontent-length: 2\r\n\r\nno"
    with ScriptedServer([[bad]]) as srv, pytest.raises(NotAnEventStream) as err:
        list(subscribe(srv.url))
    assert err.value.status == 404
    assert "HTTP 404 with content type 'text/html\\x1b[2J'" in str(err.value) and "\x1b" not in str(err.value)
    plain = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{}"
    with ScriptedServer([[plain]]) as srv, pytest.raises(NotAnEventStream, match="application/json"):
        list(subscribe(srv.url))
    with ScriptedServer([[b"HTTP/1.1 204 No Content\r\n\r\n"]]) as srv:
        assert list(subscribe(srv.url)) == []


def test_strict_decode_error_names_event_and_category() -> None:
    script = [SSE_HEAD, sse(A, "ep-1"), sse(b'{"timestamp":1}', "ep-2"), sse(A + b"\ndata:", "ep-3"), HOLD]
    with ScriptedServer([script]) as srv:
        with subscribe(srv.url) as sub, pytest.raises(MessageDecodeError) as err:
            list(sub)
        assert err.value.event_id == "ep-2" and "event id ep-2" in str(err.value)
        assert err.value.error.category in om.CATEGORIES and err.value.error.category in str(err.value)
    with ScriptedServer([script]) as srv, subscribe(srv.url, strict=False) as sub:
        _, b, c = take(sub, 3)
    assert isinstance(b, InvalidMessage) and b.raw == b'{"timestamp":1}' and b.id == "ep-2"
    assert isinstance(c, InvalidMessage) and c.error.category == "trailing_data" and c.raw == A + b"\n"


def test_caps_are_errors() -> None:
    with ScriptedServer([[SSE_HEAD, b"data: " + b"x" * 5000 + b"\n\n", HOLD]]) as srv, \
            subscribe(srv.url, max_event_bytes=4096) as sub, pytest.raises(StreamTooLarge, match="4096"):
        list(sub)


def test_idle_timeout_reconnects() -> None:
    with ScriptedServer([[SSE_HEAD, sse(A, "ep-1"), HOLD], [SSE_HEAD, sse(B, "ep-2")]]) as srv, \
            subscribe(srv.url, idle_timeout=0.2, backoff=FAST) as sub:
        _, rec, b = take(sub, 3)
    assert isinstance(rec, Reconnect) and "idle timeout" in rec.reason and rec.last_event_id == "ep-1"
    assert isinstance(b, MessageEvent) and srv.header(1, "Last-Event-ID") == "ep-1"


def test_no_reconnect_raises_on_error_ends_on_close() -> None:
    with ScriptedServer([[SSE_HEAD, sse(A, "ep-1")]]) as srv:
        assert [e.kind for e in subscribe(srv.url, reconnect=False)] == ["message"]
    with ScriptedServer([[SSE_HEAD, HOLD]]) as srv, pytest.raises(ConsumeError, match="idle timeout"):
        list(subscribe(srv.url, reconnect=False, idle_timeout=0.1))


@pytest.mark.usefixtures("thread_errors")
@pytest.mark.parametrize("where", ["read", "backoff", "between"])
def test_close_from_another_thread(where: str) -> None:
    """close() while the reader blocks in a read, waits out a backoff, or sits between two events:
    the iteration ends, the connection is closed, and no exception reaches either thread."""
    script = [SSE_HEAD, sse(A, "ep-1"), HOLD] if where != "backoff" else [SSE_HEAD, sse(A, "ep-1")]
    with ScriptedServer([script, []]) as srv:
        sub = subscribe(srv.url, backoff=Backoff(initial_delay=3600))
        assert isinstance(next(sub), MessageEvent)
        if where == "backoff":
            assert isinstance(next(sub), Reconnect)
        if where == "between":
            sub.close()
        else:
            def closer() -> None:
                for _ in range(100_000):  # until the reader is inside next()
                    if sub._busy:
                        break
                    threading.Event().wait(0.001)
                sub.close()

            t = threading.Thread(target=closer)
            t.start()
            assert list(sub) == []
            t.join()
        assert list(sub) == []
        sub.close()


def test_async_chunked_resume_and_errors() -> None:
    first = [CHUNKED_HEAD, chunk(b"retry: 0\n\n" + sse(A, "ep-1")[:7]), chunk(sse(A, "ep-1")[7:] + b"\r"),
             chunk(b"\n"), chunk(sse(b'{"type":"resync_required"}', "ep-2", "server_event")), b"0\r\n\r\n"]
    second = [SSE_HEAD, sse(B, "ep-3")]
    bad = [b"HTTP/1.1 500 Oops\r\ncontent-type: text/plain\r\n\r\n"]

    async def run(url: str) -> list[Event]:
        out: list[Event] = []
        async with asubscribe(url, backoff=Backoff(initial_delay=0, max_attempts=1)) as sub:
            with pytest.raises(NotAnEventStream, match="HTTP 500"):
                async for e in sub:
                    out.append(e)
        return out

    with ScriptedServer([first, second, bad]) as srv:
        got = asyncio.run(run(srv.url))
    assert [e.kind for e in got] == ["message", "resync", "reconnect", "message", "reconnect"]
    assert isinstance(got[0], MessageEvent) and got[0].raw == A and isinstance(got[3], MessageEvent)
    assert got[3].raw == B and srv.header(1, "Last-Event-ID") == "ep-2"
    assert srv.header(2, "Last-Event-ID") == "ep-3"


def test_async_cancel() -> None:
    async def run(url: str) -> list[str]:
        kinds: list[str] = []

        async def read() -> None:
            async for e in asubscribe(url):
                kinds.append(e.kind)

        task = asyncio.ensure_future(read())
        for _ in range(10_000):
            if kinds:
                break
            await asyncio.sleep(0.001)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return kinds

    with ScriptedServer([[SSE_HEAD, sse(A, "ep-1"), HOLD]]) as srv:
        assert asyncio.run(run(srv.url)) == ["message"]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="user information"):
        subscribe("http://u:p@127.0.0.1/")
    with pytest.raises(ValueError, match="scheme 'ftp'"):
        subscribe("ftp://h/")
    with pytest.raises(ValueError, match="Last-Event-ID is sent by the subscription"):
        subscribe("http://127.0.0.1/", headers=[("last-event-id", "x")])
    with pytest.raises(ValueError, match="<redacted>"):
        subscribe("http://127.0.0.1/", headers=[("Authorization", "Bearer a\nb")])


def test_two_closes_at_once_close_the_generator_once() -> None:
    """A deadline timer's close() and the reader's own close() can run at once: only one of them may
    close the generator (a second gen.close() while the first runs raises "generator already
    executing", which `validate --sse-url` reported as an internal error). The first close is held
    inside the generator's close until the second has returned: no timing decides it."""
    sub = subscribe("http://127.0.0.1:9/events")
    inside, release = threading.Event(), threading.Event()
    calls: list[str] = []

    class HeldGenerator:
        def close(self) -> None:
            calls.append(threading.current_thread().name)
            inside.set()
            assert release.wait(30)

    sub._gen = HeldGenerator()  # type: ignore[assignment]
    first = threading.Thread(target=sub.close, name="timer")
    first.start()
    assert inside.wait(30)
    sub.close()  # the second: must not close the generator again
    release.set()
    first.join(30)
    assert calls == ["timer"]
