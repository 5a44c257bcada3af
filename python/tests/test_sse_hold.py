"""Issue 31, the server side, in process (no sockets): `Last-Event-ID` parsed defensively, every
failure path removes the subscriber, each client's backlog bounded in events and bytes and drained
in bounded writes, a client that falls behind cut off, `<epoch>-0` replaying the epoch from its
start. The same app under real servers: test_sse_servers.py."""

from __future__ import annotations

import asyncio
from collections.abc import MutableMapping
from typing import Any

import pytest

from omnimessage.produce import SseChannel, sse_app
from omnimessage.produce.backlog import WRITE_CHUNK, Backlog
from omnimessage.produce.sse import MAX_SEQ, SseEvent, parse_seq


def _hostile_ids(epoch: str) -> list[str]:
    return [f"{epoch}-" + "9" * 5000, f"{epoch}-" + "1" * 17, f"{epoch}-{MAX_SEQ + 1}", "", "-", f"{epoch}-",
            f"{epoch}--1", f"{epoch}-1x", f"{epoch}-\u0661", "é" * 10, f"{epoch}-1, {epoch}-2",
            f"{epoch}-" + "1" * 10_000, "x" * 70_000, f"{epoch}-1\x00", f" {epoch}-1"]


def test_hostile_last_event_ids_miss_without_raising() -> None:
    ch = SseChannel()
    for _ in range(3):
        ch.publish(b"{}")
    for bad in _hostile_ids(ch.epoch):
        assert parse_seq(bad, ch.epoch) is None, bad[:40]
        assert ch.replay_after(bad) == (False, []), bad[:40]
    assert parse_seq(f"{ch.epoch}-{MAX_SEQ}", ch.epoch) == MAX_SEQ
    assert ch.replay_after(f"{ch.epoch}-03") == (True, [])  # leading zeros: a number, as the reference's parseInt


def test_hostile_subscribers_are_told_to_resync_and_leave_no_listener() -> None:
    ch = SseChannel()
    ch.publish(b"{}")
    for bad in _hostile_ids(ch.epoch) * 2:
        got: list[SseEvent] = []
        unsubscribe = ch.subscribe(got.append, bad)
        assert [e.data for e in got] == [b'{"type":"resync_required"}'], bad[:40]
        unsubscribe()
    assert ch.subscriber_count == 0


def test_a_subscriber_that_fails_while_replaying_is_removed() -> None:
    ch = SseChannel()
    ch.publish(b"{}")

    def broken(evt: SseEvent) -> None:
        raise RuntimeError("the client broke")

    for last in (f"{ch.epoch}-0", "stale"):
        with pytest.raises(RuntimeError):
            ch.subscribe(broken, last)
    assert ch.subscriber_count == 0


def test_epoch_zero_replays_the_epoch_from_its_start_while_seq_1_is_kept() -> None:
    ch = SseChannel(max_events=3)
    assert ch.replay_after(f"{ch.epoch}-0") == (True, [])  # nothing published yet: a hit, nothing to send
    events = [ch.publish(b'{"n":%d}' % i) for i in range(3)]
    assert ch.replay_after(f"{ch.epoch}-0") == (True, events)
    ch.publish(b"{}")  # seq 1 evicted: what is kept no longer starts the epoch
    assert ch.replay_after(f"{ch.epoch}-0") == (False, [])
    assert ch.replay_after("0b7e41d5-0") == (False, [])  # another epoch


def test_backlog_caps_in_events_and_bytes() -> None:
    wakes: list[int] = []
    ev = Backlog(3, 1000, lambda: wakes.append(1))
    ch = SseChannel()
    for _ in range(3):
        ev.offer(ch.publish(b"x"))
    assert ev.size == (3, 3) and not ev.overflowed and len(wakes) == 1  # woken once: empty -> non-empty
    ev.offer(ch.publish(b"x"))
    assert ev.overflowed and ev.size == (0, 0) and len(wakes) == 2  # overflow drops all and wakes
    ev.offer(ch.publish(b"x"))
    assert ev.size == (0, 0) and ev.take() == b""
    by = Backlog(100, 10, lambda: None)
    by.offer(ch.publish(b"12345"))
    by.offer(ch.publish(b"12345"))
    assert by.size == (2, 10) and not by.overflowed  # exactly at the cap
    by.offer(ch.publish(b"1"))
    assert by.overflowed


def test_backlog_drains_in_bounded_writes_each_frame_once() -> None:
    """Linear by structure: each write joins at most WRITE_CHUNK bytes of frames (one frame at least),
    the frames go out once, in order. The quadratic drain (`chunk += frame` over the whole queue)
    made one write of everything queued, each frame copied again for every frame after it."""
    ch = SseChannel(max_events=100_000, max_bytes=1 << 30)
    backlog = Backlog(100_000, 1 << 30, lambda: None)
    frames = []
    for i in range(20_000):
        evt = ch.publish(b'"%d%s"' % (i, b"x" * (i % 300)))
        backlog.offer(evt)
        frames.append(evt.frame())
    big = ch.publish(b"y" * (3 * WRITE_CHUNK))  # one frame larger than a write: sent whole, alone
    backlog.offer(big)
    frames.append(big.frame())
    writes = []
    while (body := backlog.take()):
        writes.append(body)
    assert b"".join(writes) == b"".join(frames)
    longest = max(len(f) for f in frames[:-1])
    assert all(len(w) < WRITE_CHUNK + longest for w in writes[:-1])
    assert len(writes[-1]) <= len(big.frame()) + WRITE_CHUNK
    assert backlog.size == (0, 0)


Message = MutableMapping[str, Any]


async def _drive(app: Any, headers: list[tuple[bytes, bytes]], sent: list[Message], release: asyncio.Event) -> None:
    """Run `app` for one GET /events; its body writes block until `release` is set (a client that
    does not read); `sent` records every message."""
    disconnect = asyncio.Event()

    async def receive() -> Message:
        if not any(m.get("type") == "_request" for m in sent):
            sent.append({"type": "_request"})
            return {"type": "http.request", "body": b"", "more_body": False}
        await disconnect.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)
        if message["type"] == "http.response.body":
            await release.wait()

    scope = {"type": "http", "method": "GET", "path": "/events", "headers": headers}
    await app(scope, receive, send)


def test_a_client_that_does_not_read_is_cut_off_and_removed() -> None:
    async def main() -> tuple[list[Message], int, int]:
        ch = SseChannel(max_events=50, max_bytes=4096)
        sent: list[Message] = []
        task = asyncio.ensure_future(_drive(sse_app(ch), [], sent, asyncio.Event()))
        while ch.subscriber_count == 0:
            await asyncio.sleep(0)
        ch.publish(b"{}")  # the first write blocks for good: the client reads nothing
        while not any(m["type"] == "http.response.body" for m in sent):
            await asyncio.sleep(0)
        during = ch.subscriber_count
        for _ in range(51):  # one more than the backlog holds
            ch.publish(b"{}")
        await asyncio.wait_for(task, 30)  # the app returns on its own: no one has to cancel it
        return sent, during, ch.subscriber_count

    sent, during, after = asyncio.run(main())
    assert during == 1 and after == 0
    assert next(m for m in sent if m["type"] == "http.response.start")["status"] == 200
    bodies = [m for m in sent if m["type"] == "http.response.body"]
    assert len(bodies) == 1 and bodies[0]["more_body"]  # no end of response: the connection is cut


def test_hostile_headers_through_the_app_leave_no_subscriber() -> None:
    async def main() -> tuple[list[bytes], int]:
        ch = SseChannel()
        ch.publish(b"{}")
        app = sse_app(ch)
        firsts = []
        for bad in [*_hostile_ids(ch.epoch), None]:
            headers = [] if bad is None else [(b"last-event-id", bad.encode("utf-8"))]
            if bad == "":
                headers *= 2  # a duplicated empty header too
            sent: list[Message] = []
            release = asyncio.Event()
            release.set()
            task = asyncio.ensure_future(_drive(app, headers, sent, release))
            while ch.subscriber_count == 0 and not task.done():
                await asyncio.sleep(0)
            if bad is None:
                ch.publish(b"[]")
            while not any(m["type"] == "http.response.body" for m in sent) and not task.done():
                await asyncio.sleep(0)
            firsts.append(next(m for m in sent if m["type"] == "http.response.body")["body"])
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        return firsts, ch.subscriber_count

    firsts, count = asyncio.run(main())
    assert all(b'data: {"type":"resync_required"}' in body for body in firsts[:-1])
    assert firsts[-1].startswith(b"data: []\nid: ")
    assert count == 0


def test_the_app_refuses_caps_below_the_replay_buffer_and_bad_heartbeats() -> None:
    ch = SseChannel(max_events=10, max_bytes=100)
    for kwargs in ({"max_backlog_events": 9}, {"max_backlog_bytes": 99}, {"heartbeat": 0.0}, {"heartbeat": float("nan")}):
        with pytest.raises(ValueError):
            sse_app(ch, **kwargs)  # type: ignore[arg-type]
    sse_app(ch, max_backlog_events=10, max_backlog_bytes=100)
