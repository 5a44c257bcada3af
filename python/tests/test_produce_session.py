"""Issue 25: one scripted session through `omnimessage.produce.Session` feeds the stream, the trace
and SSE (read back from a real HTTP server on loopback); each validates with zero findings and the
three agree message for message, byte for byte."""

from __future__ import annotations

import asyncio
import http.client
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from produce_script import MAIN, SCRIPT, build_script, iter_ops, run_script

import omnimessage as om
from omnimessage import produce


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("omnimessage")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "omnimessage"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=120, check=False,
                          env=dict(os.environ, NO_COLOR="1"))


def _zero_findings(*args: str) -> None:
    res = _cli("validate", "--no-progress", *args)
    assert res.returncode == 0 and "0 error(s), 0 warning(s)" in res.stdout, res.stdout + res.stderr


class _Server:
    """The ASGI app of a channel, served by `produce.serve` on a loopback port in a thread."""

    def __init__(self, channel: produce.SseChannel) -> None:
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        async def main() -> None:
            self.stop = asyncio.Event()
            server = await produce.serve(produce.sse_app(channel, heartbeat=0.5))
            self.port = server.sockets[0].getsockname()[1]
            ready.set()
            await self.stop.wait()
            server.close()
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)
            await server.wait_closed()

        self.thread = threading.Thread(target=lambda: self.loop.run_until_complete(main()), daemon=True)
        self.thread.start()
        assert ready.wait(10)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def channel() -> Iterator[tuple[produce.SseChannel, _Server]]:
    ch = produce.SseChannel()
    server = _Server(ch)
    try:
        yield ch, server
    finally:
        server.close()


def _connect(port: int, last_event_id: str | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", "/events", headers={} if last_event_id is None else {"Last-Event-ID": last_event_id})
    res = conn.getresponse()
    assert res.status == 200 and res.getheader("content-type") == "text/event-stream"
    assert res.getheader("cache-control") == "no-cache"
    return res


def _read_events(res: http.client.HTTPResponse, count: int) -> bytes:
    """The raw capture up to the end of the `count`-th event (heartbeats included)."""
    buf = b""
    while buf.count(b"\nid: ") < count or not buf.endswith(b"\n\n"):
        chunk = res.read1(65536)
        assert chunk, "the server closed the stream early"
        buf += chunk
    return buf


def _sse_data(capture: bytes) -> list[bytes]:
    return [line[6:] for line in capture.split(b"\n") if line.startswith(b"data: ")]


def _trace_lines(root: Path, sid: str) -> list[bytes]:
    files = sorted(root.rglob(f"{sid}_*.jsonl"))
    return [line for f in files for line in f.read_bytes().splitlines()]


def test_script_is_fresh() -> None:
    assert SCRIPT.read_bytes() == b"".join(x + b"\n" for x in build_script()), \
        "examples/produce/scripted-session.ops.jsonl is stale: run python python/tests/produce_script.py"


def test_scripted_session_three_channels(tmp_path: Path, channel: tuple[produce.SseChannel, _Server]) -> None:
    ch, server = channel
    script = build_script()
    res = _connect(server.port)
    stream = run_script(script, tmp_path / "traces", sse=ch)
    lines = stream.splitlines()
    capture = _read_events(res, len(lines))
    res.close()
    (tmp_path / "stream.jsonl").write_bytes(stream)
    (tmp_path / "capture.sse").write_bytes(capture)

    # SSE: the stream's exact bytes, one data line each, ids <epoch>-1.. in order
    assert _sse_data(capture) == lines
    ids = [line[4:].decode() for line in capture.split(b"\n") if line.startswith(b"id: ")]
    assert ids == [f"{ch.epoch}-{i}" for i in range(1, len(lines) + 1)]

    # the trace: every complete origin-less stream message, in order, interleaved only with what the
    # session stores alone (session_meta heads, subagent pointers, and the script's `record`s)
    trace = _trace_lines(tmp_path / "traces", MAIN)
    recorded = {om.encode(msgs[0]) for h, msgs in iter_ops(script) if h["op"] == "record" and h["session"] == "main"}
    stored = [x for x in lines if _stored(x)]
    it = iter(trace)
    for line in stored:
        assert line in it, f"stream line missing from the trace (or out of order): {line[:120]!r}"
    extra = [x for x in trace if x not in set(lines)]
    for x in extra:
        msg = om.decode(x)
        assert om.is_session_meta(msg) or x in recorded or msg.payload.__struct_config__.tag in (
            "subagent", "mcp_connect_begin", "mcp_connect_end", "tool_list_ready"), x[:160]
    assert sum(1 for x in trace if b'"type":"subagent"' in x) == 1
    files = sorted(p.name for p in (tmp_path / "traces").rglob("*.jsonl"))
    assert [f for f in files if f.startswith(MAIN)] == [f"{MAIN}_00{i}.jsonl" for i in (1, 2, 3)]
    assert len(files) == 5  # the child and the grandchild have their own traces

    _zero_findings(str(tmp_path / "traces"))
    _zero_findings("--profile", "stream", str(tmp_path / "stream.jsonl"))
    _zero_findings("--sse", str(tmp_path / "capture.sse"))

    # resuming: from an id of this epoch, the events after it; from another epoch, resync_required
    res = _connect(server.port, f"{ch.epoch}-{len(lines) - 3}")
    again = _read_events(res, 3)
    res.close()
    assert _sse_data(again) == lines[-3:]
    res = _connect(server.port, "0b7e41d5-3")
    resync = _read_events(res, 1)
    res.close()
    assert resync == f'event: server_event\ndata: {{"type":"resync_required"}}\nid: {ch.epoch}-{len(lines) + 1}\n\n'.encode()


def _stored(line: bytes) -> bool:
    msg = om.decode(line)
    return not om.is_partial(msg) and not msg.origin


def test_heartbeat(channel: tuple[produce.SseChannel, _Server]) -> None:
    _, server = channel
    res = _connect(server.port)
    assert res.read1(64).startswith(b": ping\n\n")  # every `heartbeat` seconds (0.5 here; 20 by default)
    res.close()


def test_not_found(channel: tuple[produce.SseChannel, _Server]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", channel[1].port, timeout=10)
    conn.request("GET", "/other")
    assert conn.getresponse().status == 404
    conn.close()



def test_a_client_far_behind_is_disconnected() -> None:
    """What is queued for one client is bounded by the channel's caps: past them, the server cuts the
    client off (it would reconnect with Last-Event-ID and replay or resync). How many events got out
    before the cut depends on the scheduling of two threads: none may (test_sse_servers.py counts)."""
    ch = produce.SseChannel(max_events=8)
    server = _Server(ch)
    try:
        res = _connect(server.port)
        for i in range(4000):  # faster than one client drains 4 KiB events
            ch.publish(b'"' + str(i).encode() + b"x" * 4096 + b'"')
        got = b""
        while chunk := res.read1(65536):
            got += chunk
        res.close()
        assert got.count(b"\nid: ") < 4000  # the stream ended early, not after the last event
        assert ch.subscriber_count == 0
    finally:
        server.close()


def test_the_live_validator_reads_the_session(tmp_path: Path, channel: tuple[produce.SseChannel, _Server]) -> None:
    """`omnimessage validate --sse-url` is the HTTP client: it subscribes, the session runs, and the
    live stream it read has zero findings."""
    ch, server = channel
    exe = Path(sys.executable).with_name("omnimessage")
    proc = subprocess.Popen([str(exe), "validate", "--no-progress", "--sse-url", f"http://127.0.0.1:{server.port}/events",
                             "--duration", "4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, NO_COLOR="1"))
    deadline = time.monotonic() + 20
    while ch.subscriber_count == 0:
        assert time.monotonic() < deadline and proc.poll() is None, "the validator never subscribed"
        time.sleep(0.02)
    lines = run_script(build_script(), tmp_path / "traces", sse=ch).count(b"\n")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, out + err
    assert f"{lines} message(s): 0 error(s), 0 warning(s)" in out, out + err
