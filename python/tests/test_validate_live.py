"""`validate --sse-url` on the consume client (issue 31): no thread traceback when reading is cut
short; attached to a running producer mid-session, it resumes from the epoch's start when the
server still keeps it, and otherwise judges only what a stream that starts mid-session proves; a
capture whose connection is cut is judged as one stream across its resumes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from produce_script import build_script, run_script
from sse_stub import CHUNKED_HEAD, HOLD, CuttingProxy, ScriptedServer, chunk, thread_errors  # noqa: F401 (a fixture)
from test_produce_session import _Server

import omnimessage as om
from omnimessage import produce
from omnimessage.validate import validate_url
from omnimessage.validate.sources import live
from omnimessage.validate.sources import readers as sources
from omnimessage.validate.sources.sse import Mark


def _wait(cond: Any) -> None:
    for _ in range(200_000):  # bounded: a wait for a state, never a verdict
        if cond():
            return
        threading.Event().wait(0.001)
    raise AssertionError("the state waited for never came")


def _close_when_busy(stream: live.LiveStream) -> None:
    _wait(lambda: stream.sub._busy)
    stream.sub.close()


@pytest.mark.usefixtures("thread_errors")
def test_close_while_the_reader_blocks() -> None:
    """The race of issue 31: close() while the reader is inside a read of a held chunked response.
    The old LiveStream (a pump thread, close() closing the connection under it) let an AttributeError
    reach threading.excepthook in 6 of 20 such closes; here close() only shuts the socket down and
    the reading thread closes the connection itself."""
    msg = b"data: " + om.encode(om.request_begin(timestamp="2026-07-18T03:10:22.531Z")) + b"\nid: e-1\n\n"
    for _ in range(5):
        with ScriptedServer([[CHUNKED_HEAD, chunk(msg), HOLD]]) as srv:  # chunked, as uvicorn answers
            stream = live.LiveStream(srv.url, 600)
            chunks = stream.chunks()
            got = [next(chunks)]  # the first event: seq 1, the start of the epoch
            t = threading.Thread(target=_close_when_busy, args=(stream,))
            t.start()
            got += list(chunks)
            t.join()
        assert b"".join(x for x in got if isinstance(x, bytes)) == msg and not stream.failure


class _Gated(produce.SseChannel):
    """A channel whose publish numbers `gate` and `gate + 1` wait for their gate to open: the
    producer stops mid-session, and again after one more event."""

    def __init__(self, gate: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.gate = gate
        self.gates = {gate: threading.Event(), gate + 1: threading.Event()}
        self.waiting = 0

    def publish(self, data: bytes, event: str | None = None) -> produce.SseEvent:
        go = self.gates.get(self._next)
        if go is not None:
            self.waiting = self._next
            assert go.wait(60)
        return super().publish(data, event)


def _attach(tmp: Path, gate: int, max_events: int, budgets: list[int] | None = None) -> tuple[Any, Any]:
    """Run the scripted session; attach `validate_url` while it waits at publish `gate`; let one event
    through (the reader learns the epoch from it and resumes); let the rest through once the reader
    knows where its stream starts; close the reader once it has read the last event. Returns
    (report, the LiveStream)."""
    channel = _Gated(gate, max_events=max_events)
    server = _Server(channel)
    proxy = CuttingProxy(server.port, budgets or [])
    streams: list[live.LiveStream] = []

    class Spy(live.LiveStream):
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            streams.append(self)

    producer = threading.Thread(target=run_script, args=(build_script(), tmp), kwargs={"sse": channel})
    reports: list[Any] = []
    old = sources.LiveStream
    sources.LiveStream = Spy  # type: ignore[misc]
    try:
        producer.start()
        _wait(lambda: channel.waiting == gate)  # the producer waits mid-session
        reader = threading.Thread(target=lambda: reports.append(
            validate_url(f"http://127.0.0.1:{proxy.port}/events", duration=300)))
        reader.start()
        _wait(lambda: channel.subscriber_count > 0 and streams)
        channel.gates[gate].set()
        _wait(lambda: not streams[0].deciding)
        channel.gates[gate + 1].set()
        producer.join(60)
        final = int(channel.last_event_id.rpartition("-")[2])  # a resync sent later takes a seq after it
        _wait(lambda: not streams[0].deciding and int((streams[0].sub.last_event_id or "-0").rpartition("-")[2])
              >= final)
        streams[0].sub.close()
        reader.join(60)
    finally:
        for go in channel.gates.values():
            go.set()
        sources.LiveStream = old  # type: ignore[misc]
        proxy.close()
        server.close()
    return reports[0], streams[0]


@pytest.mark.usefixtures("thread_errors")
@pytest.mark.parametrize("gate", [12, 23, 41, 66, 97])
def test_attach_mid_session(tmp_path: Path, gate: int) -> None:
    """Seq 1 evicted (a buffer of 8 events): the server answers `<epoch>-0` with resync_required;
    the stream is judged as one that starts mid-session: no finding at all. (A client this far
    behind is also cut off by the server and resyncs again: every resync is a gap, judged alike.)"""
    report, stream = _attach(tmp_path, gate, 8)
    assert stream.resumed_from is not None and stream.resumed_from.endswith("-0")
    assert report.failures == [] and [str(f) for f in report.findings] == [], report.notes
    assert set(report.server_events) == {"resync_required"}
    note = " ".join(report.notes)
    assert "judged as a stream that starts mid-session" in note and "attached mid-session" in note


@pytest.mark.usefixtures("thread_errors")
def test_attach_mid_session_replays_from_the_start(tmp_path: Path) -> None:
    """The server still keeps seq 1: the replay from `<epoch>-0` is the whole session, judged from
    its start (and as clean as the session is)."""
    report, stream = _attach(tmp_path, 57, 10_000)
    assert stream.resumed_from is not None and not stream.midstream
    assert [str(f) for f in report.findings] == [] and report.server_events == {}
    assert "from the start of its epoch" in " ".join(report.notes)
    assert report.messages == 114 and "mid-session (calls" not in " ".join(report.notes), report.notes


@pytest.mark.usefixtures("thread_errors")
def test_cut_capture_is_one_stream(tmp_path: Path) -> None:
    """The connection is cut mid-frame five times; each resume replays from Last-Event-ID: the capture
    is judged as one stream, with no finding, every message counted once."""
    report, stream = _attach(tmp_path, 1, 10_000, [5000, 1, 3000, 777, 12000])  # attached before seq 1
    assert stream.resumed_from is None and not stream.midstream
    assert [str(f) for f in report.findings] == [], report.notes
    assert report.messages == 114
    assert "resumed 5 time(s) with Last-Event-ID" in " ".join(report.notes)


def test_mark_reaches_the_rules() -> None:
    """`Mark.UNKNOWN_PAST` quiets what only the past could prove; without it the same stream errs."""
    from omnimessage.validate import Validator
    from omnimessage.validate.sources.sse import validate_sse

    out = om.tool_call_output("x", "toolu_1", timestamp="2026-07-18T03:10:22.531Z")
    lines = [b"data: " + om.encode(m) for m in (
        om.partial_text("delta", "a", timestamp="2026-07-18T03:10:22.531Z"), out,
        om.request_end("completed", timestamp="2026-07-18T03:10:22.531Z"))]
    for mark, want in ((None, ["OM301", "OM401", "OM406"]), (Mark.UNKNOWN_PAST, [])):
        found: list[Any] = []
        seq: list[bytes | Mark | None] = [] if mark is None else [mark]
        for i, ln in enumerate(lines):
            seq += [ln, b"id: ep-" + str(i + 5).encode(), b""]
        validate_sse(seq, Validator("stream", source="s", truncated=True), found.append, torn_ok=True)
        assert sorted(f.rule for f in found if f.severity == "error") == want
        assert all("(event id ep-" in f.message for f in found)
