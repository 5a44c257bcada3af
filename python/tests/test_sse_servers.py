"""Issue 31: `sse_app` under real servers (uvicorn, hypercorn, and the package's own `serve`) on
127.0.0.1, against hostile clients on raw sockets: odd request targets and `Last-Event-ID`s never
raise and leave no subscriber behind, a heartbeat is observed at a short interval, `<epoch>-0`
replays the epoch, and a client that stops reading is cut off while another keeps receiving every
event (counted, not timed). Every loop is bounded; every wait has a deadline that fails the test."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from omnimessage import produce
from omnimessage.produce import SseChannel

SERVERS = ["uvicorn", "hypercorn", "serve"]


class _Running:
    """`app` served by `kind` in a thread with its own event loop, on a loopback port."""

    def __init__(self, kind: str, app: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.port = 0
        ready = threading.Event()
        self.error: BaseException | None = None
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        self._listener = listener

        async def main() -> None:
            self.stop = asyncio.Event()
            if kind == "uvicorn":
                import uvicorn
                server = uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="critical"))
                self.port = listener.getsockname()[1]
                ready.set()
                task = asyncio.ensure_future(server.serve(sockets=[listener]))
                await self.stop.wait()
                server.should_exit = True
                await task
            elif kind == "hypercorn":
                from hypercorn.asyncio import serve as hserve
                from hypercorn.config import Config
                config = Config()
                config.bind = [f"fd://{os.dup(listener.fileno())}"]
                config.graceful_timeout = 1.0
                config.accesslog = None
                self.port = listener.getsockname()[1]
                ready.set()
                await hserve(app, config, shutdown_trigger=self.stop.wait)  # type: ignore[arg-type]
            else:
                server = await produce.serve(app)
                self.port = server.sockets[0].getsockname()[1]
                ready.set()
                await self.stop.wait()
                server.close()
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in others:
                t.cancel()
            await asyncio.gather(*others, return_exceptions=True)

        def run() -> None:
            try:
                self.loop.run_until_complete(main())
            except BaseException as exc:  # reported by close()
                self.error = exc

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert ready.wait(20)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(30)
        assert not self.thread.is_alive(), "the server did not stop"
        self.loop.close()
        self._listener.close()
        assert self.error is None, self.error


@contextlib.contextmanager
def _serving(kind: str, ch: SseChannel, **kwargs: Any) -> Iterator[_Running]:
    server = _Running(kind, produce.sse_app(ch, **kwargs))
    try:
        yield server
    finally:
        server.close()


def _until(cond: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    """Wait for `cond` (a state, never a duration, decides the verdict); fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)


def _raw(port: int, head: bytes, *, until: bytes | None = None, limit: int = 1 << 20) -> bytes:
    """Send a raw request head; read until `until` appears, EOF, or `limit` bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(head)
        got = b""
        while len(got) < limit and (until is None or until not in got):
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            got += chunk
        return got


def _get(target: bytes, *headers: bytes) -> bytes:
    return b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(h + b"\r\n" for h in headers) + b"\r\n"


def _status(reply: bytes) -> int | None:
    if not reply.startswith(b"HTTP/1."):
        return None  # the server closed the connection without an answer
    return int(reply.split(b" ", 2)[1])


def _hostile_headers(epoch: str) -> list[list[bytes]]:
    e = epoch.encode()
    return [[b"Last-Event-ID: " + e + b"-" + b"9" * 5000], [b"Last-Event-ID: "], [b"Last-Event-ID: " + e + b"-"],
            [b"Last-Event-ID: " + e + b"-1\xc3\xa9"], [b"Last-Event-ID: \xff\xfe"],
            [b"Last-Event-ID: " + e + b"-1", b"Last-Event-ID: " + e + b"-1"],
            [b"Last-Event-ID: " + e + b"-" + b"1" * 12_000], [b"Last-Event-ID: " + b"x" * 40_000],
            [b"Last-Event-ID: " + e + b"-" + str(2**53).encode()]]


@pytest.mark.parametrize("kind", SERVERS)
def test_hostile_last_event_ids_never_raise_and_leave_no_subscriber(kind: str) -> None:
    ch = SseChannel()
    ch.publish(b"{}")
    with _serving(kind, ch, heartbeat=60.0) as server:
        resyncs = refused = 0
        for _ in range(3):
            for headers in _hostile_headers(ch.epoch):
                reply = _raw(server.port, _get(b"/events", *headers), until=b"resync_required")
                if b"resync_required" in reply:
                    assert _status(reply) == 200
                    resyncs += 1
                else:  # a head over the server's own limit: refused by the server, not the app
                    assert _status(reply) in (400, 413, 414, 431), reply[:200]
                    assert sum(map(len, headers)) > 8000
                    refused += 1
        assert resyncs >= 3 * 7, (resyncs, refused)
        _until(lambda: ch.subscriber_count == 0, "every hostile subscriber removed")
        ok = _raw(server.port, _get(b"/events", b"Last-Event-ID: " + f"{ch.epoch}-0".encode()), until=b"data: {}")
        assert _status(ok) == 200 and b"data: {}" in ok
        _until(lambda: ch.subscriber_count == 0, "the good client removed after it left")


ODD_TARGETS = [b"//", b"*", b"http://127.0.0.1/events", b"/" + b"a" * 6000, b"/\xc3\xa9vents", b"/%zz%",
               b"/ev%ents", b"/events%00", b"/%ff%fe", b"events", b"/events?x=%zz", b"//events", b"/../events"]


@pytest.mark.parametrize("kind", SERVERS)
def test_odd_request_targets_are_answered_and_the_server_keeps_serving(kind: str) -> None:
    ch = SseChannel()
    with _serving(kind, ch, heartbeat=60.0) as server:
        for target in ODD_TARGETS:
            reply = _raw(server.port, _get(target), until=b"\r\n\r\n")
            status = _status(reply)
            assert status in (200, 400, 404, 414), (target[:40], reply[:200])
            if status == 200:  # an absolute-form target for /events: a subscriber that has gone
                assert target.endswith(b"/events") or b"?" in target
        for head in (b"GET /events\r\n\r\n", b"\r\n\r\n", b"GET  /events  HTTP/1.1\r\n\r\n"):  # no request line
            assert _status(_raw(server.port, head, until=b"\r\n\r\n")) in ((400,) if kind == "serve" else (None, 400)), head
        ch.publish(b"[]")
        ok = _raw(server.port, _get(b"/events", b"Last-Event-ID: " + f"{ch.epoch}-0".encode()), until=b"data: []")
        assert _status(ok) == 200 and b"data: []\nid: " in ok
        _until(lambda: ch.subscriber_count == 0, "no subscriber left behind")


@pytest.mark.parametrize("kind", SERVERS)
def test_a_heartbeat_at_a_short_interval_is_observed(kind: str) -> None:
    ch = SseChannel()
    with _serving(kind, ch, heartbeat=0.05) as server:
        reply = _raw(server.port, _get(b"/events"), until=b": ping\n\n")
        assert _status(reply) == 200 and b": ping\n\n" in reply


@pytest.mark.parametrize("kind", SERVERS)
def test_epoch_zero_replays_the_epoch_over_http(kind: str) -> None:
    ch = SseChannel(max_events=3)
    for i in range(3):
        ch.publish(b'{"n":%d}' % i)
    with _serving(kind, ch, heartbeat=60.0) as server:
        zero = f"{ch.epoch}-0".encode()
        reply = _raw(server.port, _get(b"/events", b"Last-Event-ID: " + zero), until=f"id: {ch.epoch}-3\n\n".encode())
        assert [line[6:] for line in reply.split(b"\n") if line.startswith(b"data: ")] == [b'{"n":0}', b'{"n":1}', b'{"n":2}']
        ch.publish(b'{"n":3}')  # seq 1 evicted: the epoch's start is gone, resync
        reply = _raw(server.port, _get(b"/events", b"Last-Event-ID: " + zero), until=b"resync_required")
        assert b'event: server_event\r\n' not in reply and b'event: server_event\ndata: {"type":"resync_required"}' in reply
        _until(lambda: ch.subscriber_count == 0, "no subscriber left behind")


@pytest.mark.parametrize("kind", SERVERS)
def test_a_client_that_stops_reading_is_cut_off_while_another_receives_everything(kind: str) -> None:
    """24 MiB published in paced rounds; client A never reads (a 4 KiB receive buffer), client B
    reads everything. B gets every event, in order (the loop was never stalled: it kept writing to
    B); A's backlog passes its 1 MiB cap, A is cut off and removed, and its stream is a prefix."""
    ch = SseChannel(max_bytes=1 << 20)
    rounds, per_round, size = 48, 32, 16 * 1024  # a round (512 KiB) is half the cap: B never passes it
    total = rounds * per_round
    with _serving(kind, ch, heartbeat=60.0) as server:
        slow = socket.socket()
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.settimeout(20)
        slow.connect(("127.0.0.1", server.port))
        slow.sendall(_get(b"/events"))
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
        conn.request("GET", "/events")
        res = conn.getresponse()
        assert res.status == 200
        _until(lambda: ch.subscriber_count == 2, "both clients subscribed")
        seen: list[bytes] = []
        counted = [0]

        def read_b() -> None:
            buf = b""
            while counted[0] < total:
                chunk = res.read1(1 << 16)
                if not chunk:
                    return
                buf += chunk
                *frames, buf = buf.split(b"\n\n")
                for f in frames:
                    if f.startswith(b"data: "):
                        seen.append(f.rsplit(b"\nid: ", 1)[1])
                        counted[0] += 1

        reader = threading.Thread(target=read_b, daemon=True)
        reader.start()
        for r in range(rounds):
            for i in range(per_round):
                ch.publish(b'"%06d' % (r * per_round + i) + b"x" * size + b'"')
            _until(lambda r=r: counted[0] >= (r + 1) * per_round or not reader.is_alive(), f"B received round {r}")
        reader.join(30)
        assert seen == [f"{ch.epoch}-{n}".encode() for n in range(1, total + 1)]
        _until(lambda: ch.subscriber_count == 1, "A cut off and removed, B still subscribed")
        got = b""
        ended = False
        while not ended and len(got) < 64 << 20:  # A's stream ends: what the kernel and transport held, then EOF
            try:
                chunk = slow.recv(1 << 20)
            except ConnectionResetError:
                chunk = b""
            ended = not chunk
            got += chunk
        slow.close()
        assert ended, "A's connection was closed"  # a recv timeout (20 s) would raise instead
        assert 0 < got.count(b"\nid: ") < total
        # the documented outcome: A reconnects with the last id it got whole, and replays or resyncs
        last = got[:got.rindex(b"\n\n")].rsplit(b"\nid: ", 1)[1].decode()
        hit, _ = ch.replay_after(last)
        want = f"id: {ch.epoch}-{int(last.split('-')[1]) + 1}\n\n" if hit else '{"type":"resync_required"}'
        again = _raw(server.port, _get(b"/events", b"Last-Event-ID: " + last.encode()), until=want.encode())
        assert want.encode() in again, (last, hit)
        res.close()
        conn.close()
        _until(lambda: ch.subscriber_count == 0, "B removed after it left")
