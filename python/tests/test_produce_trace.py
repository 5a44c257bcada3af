"""Issue 25: `omnimessage.produce.TraceWriter`, `SseChannel` and `Session`, one behaviour each."""

from __future__ import annotations

import os
import re
import threading
from datetime import datetime
from pathlib import Path

import pytest

import omnimessage as om
from omnimessage import produce

SID = "session-2026-09-14-16-12-40-0c9d2b6e"


def _meta(model_id: str = "claude-opus-5", sid: str = SID) -> om.Message:
    return om.session_meta(session_id=sid, provider="anthropic", model_id=model_id, model_context_window=200000,
                           system_prompt="You are Penguin.\n", agent_state="/a", workspace="/w",
                           timestamp="2026-09-14T08:12:40.551Z")


def _text(text: str, ts: str = "2026-09-14T08:12:41.000Z") -> om.Message:
    return om.user_text(text, timestamp=ts)


def test_ids_and_names() -> None:
    sid = produce.new_session_id(datetime(2026, 9, 14, 16, 12, 40))
    assert re.fullmatch(r"session-2026-09-14-16-12-40-[0-9a-f]{8}", sid)
    assert produce.session_date(sid) == "2026-09-14" and produce.session_date("abc") is None
    assert produce.trace_file_name(sid, 1) == f"{sid}_001.jsonl"
    assert produce.trace_file_name(sid, 1000) == f"{sid}_1000.jsonl"
    assert produce.trace_path("r", sid, 12, "2026-09-14") == os.path.join("r", "2026-09-14", f"{sid}_012.jsonl")
    with pytest.raises(ValueError):
        produce.trace_file_name(sid, 0)


def test_records_rotation_and_head_order(tmp_path: Path) -> None:
    w = produce.TraceWriter(tmp_path, SID)
    assert w.path == str(tmp_path / "2026-09-14" / f"{SID}_001.jsonl")
    w.write(_meta())  # the first session_meta opens _001: no rotation
    w.write(_text("hi"))
    assert w.index == 1
    tools = om.tool_list_ready([om.tool_definition("read_file", "Read.")], timestamp="2026-09-14T08:12:42.000Z")
    begin = om.mcp_connect_begin(["github"], timestamp="2026-09-14T08:12:42.000Z")
    end = om.mcp_connect_end("completed", [], timestamp="2026-09-14T08:12:42.000Z")
    with pytest.raises(produce.TraceRefused, match="head is session_meta, then"):
        w.open_context(_meta(), tools, begin, end)  # the toolset goes after the MCP pair
    assert w.index == 1
    lines = w.open_context(_meta("claude-haiku-5"), begin, end, tools)
    assert w.index == 2 and Path(w.path).read_bytes() == b"".join(lines)
    w.write(_meta("claude-sonnet-5"))  # a bare session_meta rotates too
    assert w.index == 3 and Path(w.path).read_bytes() == om.encode(_meta("claude-sonnet-5")) + b"\n"
    assert not (tmp_path / "2026-09-14" / f"{SID}_004.jsonl").exists()


@pytest.mark.parametrize("msg, rule", [
    (om.partial_text("delta", "x", timestamp="2026-09-14T08:12:41.000Z"), "streaming fragments"),
    (om.with_origin(_text("hi"), "session-2026-09-14-16-14-02-41fe0c8b"), "child session"),
])
def test_refusals(tmp_path: Path, msg: om.Message, rule: str) -> None:
    w = produce.TraceWriter(tmp_path, SID)
    with pytest.raises(produce.TraceRefused, match=rule):
        w.write(msg)
    assert not Path(w.path).exists()  # nothing written, no file created


def test_torn_tail_heal_and_reopen(tmp_path: Path) -> None:
    w = produce.TraceWriter(tmp_path, SID)
    w.write(_meta())
    w.write(_meta("b"))  # now at _002
    good = om.encode(_text("kept")) + b"\n"
    Path(w.path).write_bytes(Path(w.path).read_bytes() + good + good[:25])  # a crash mid-record
    again = produce.TraceWriter(tmp_path, SID)  # reopening continues the newest file
    assert again.index == 2 and again.date == "2026-09-14"
    line = again.write(_text("after"))
    data = Path(again.path).read_bytes()
    assert data.endswith(good + good[:25] + b"\n" + line)  # torn bytes become a line of their own
    third = produce.TraceWriter(tmp_path, SID)
    third.write(_text("clean"))  # the file ends with LF: no spurious blank line
    assert b"\n\n" not in Path(third.path).read_bytes()


def test_fsync_option(tmp_path: Path) -> None:
    w = produce.TraceWriter(tmp_path, SID, fsync=True)
    w.write(_meta())
    assert Path(w.path).read_bytes() == om.encode(_meta()) + b"\n"


def test_concurrent_writers_never_splice(tmp_path: Path) -> None:
    """Eight threads, records of 1 byte to 300 KiB: every line is one whole record."""
    w = produce.TraceWriter(tmp_path, SID)
    w.write(_meta())
    sizes = [1, 7, 4096, 65536, 300 * 1024]
    expected: set[bytes] = set()
    lock = threading.Lock()

    def run(k: int) -> None:
        for i in range(40):
            msg = _text(f"{k}-{i}-" + "x" * sizes[(k + i) % len(sizes)])
            line = w.write(msg)
            with lock:
                expected.add(line)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = Path(w.path).read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 2 + 8 * 40
    assert {x + b"\n" for x in lines[1:-1]} == expected


def test_sse_channel_ids_buffer_and_replay() -> None:
    ch = produce.SseChannel(max_events=3, max_bytes=1000)
    other = produce.SseChannel()
    assert re.fullmatch(r"[0-9a-f]{8}", ch.epoch) and ch.epoch != other.epoch
    events = [ch.publish(f'{{"n":{i}}}'.encode()) for i in range(1, 6)]
    assert [e.id for e in events] == [f"{ch.epoch}-{i}" for i in range(1, 6)]
    assert events[0].frame() == f'data: {{"n":1}}\nid: {ch.epoch}-1\n\n'.encode()
    assert ch.replay_after(f"{ch.epoch}-3") == (True, events[3:])
    assert ch.replay_after(f"{ch.epoch}-1") == (False, [])  # events after it were evicted
    assert ch.replay_after(f"{ch.epoch}-9") == (False, [])  # never assigned
    assert ch.replay_after(f"{other.epoch}-3") == (False, [])
    got: list[produce.SseEvent] = []
    ch.subscribe(got.append, "garbage")
    assert got[0].event == "server_event" and got[0].data == b'{"type":"resync_required"}'
    big = produce.SseChannel(max_events=100, max_bytes=10)
    for _ in range(4):
        big.publish(b'"abcd"')
    assert big.replay_after(f"{big.epoch}-2") == (False, [])  # 10 bytes keep one 6-byte event
    hit, kept = big.replay_after(f"{big.epoch}-3")
    assert hit and [e.seq for e in kept] == [4]
    with pytest.raises(ValueError, match="one line"):
        ch.publish(b"a\nb")


def test_session_checks_the_discipline(tmp_path: Path) -> None:
    s = produce.Session(produce.TraceWriter(tmp_path, SID))
    s.start(_meta())
    with pytest.raises(produce.StreamDisciplineError, match="never started"):
        s.emit(om.partial_text("delta", "x", timestamp="2026-09-14T08:12:41.000Z"))
    s = produce.Session(produce.TraceWriter(tmp_path, SID))
    ts = "2026-09-14T08:12:41.000Z"
    for part in (om.partial_text("start", "", timestamp=ts), om.partial_text("delta", "ab", timestamp=ts),
                 om.partial_text("stop", "", timestamp=ts)):
        s.emit(part)
    before = Path(s.trace.path).read_bytes() if s.trace else b""  # type: ignore[union-attr]
    with pytest.raises(produce.StreamDisciplineError, match="do not join"):
        s.emit(om.assistant_text("abc", timestamp=ts))
    assert Path(s.trace.path).read_bytes() == before  # type: ignore[union-attr]  # refused: not written
    s = produce.Session()
    s.emit(om.partial_text("start", "", timestamp=ts))
    s.emit(om.partial_text("stop", "", timestamp=ts))
    with pytest.raises(produce.StreamDisciplineError, match="without their complete message"):
        s.emit(om.request_end("completed", timestamp=ts))
    s = produce.Session()
    s.emit(om.partial_text("start", "", timestamp=ts))
    with pytest.raises(produce.StreamDisciplineError, match="never stopped"):
        s.close()


def test_session_routes_each_channel(tmp_path: Path) -> None:
    """record() is trace-only and refuses what a trace never holds; a child's depth-1 session_meta
    leaves one subagent pointer in the parent trace; a new context rotates at the next trace write."""
    ts = "2026-09-14T08:12:41.000Z"
    lines: list[bytes] = []
    parent = produce.Session(produce.TraceWriter(tmp_path, SID), stream=lines.append, clock=lambda: ts)
    parent.start(_meta())
    with pytest.raises(produce.TraceRefused, match="streaming fragments"):
        parent.record(om.partial_text("start", "", timestamp=ts))
    parent.record(_text("input"))
    with pytest.raises(TypeError, match="opens a context"):
        parent.emit(_meta())
    child_id = "session-2026-09-14-16-14-02-41fe0c8b"
    child = parent.child(produce.TraceWriter(tmp_path, child_id))
    child.start(_meta(sid=child_id), announce=True)
    child.emit(_text("from the child"))
    parent.new_context(_meta("claude-haiku-5"))
    assert parent.trace is not None and parent.trace.index == 1  # deferred: nothing written yet
    parent.emit(om.request_begin(timestamp=ts))
    assert parent.trace.index == 2
    assert [om.decode(x).origin for x in lines] == [[child_id], [child_id], om.decode(lines[2]).origin]
    first = (tmp_path / "2026-09-14" / f"{SID}_001.jsonl").read_bytes().splitlines()
    assert [om.decode(x).payload.__struct_config__.tag for x in first[1:]] == ["text", "subagent"]
    assert om.decode(first[2]).payload.session_id == child_id  # type: ignore[union-attr]
    child_trace = (tmp_path / "2026-09-14" / f"{child_id}_001.jsonl").read_bytes()
    assert child_trace == om.encode(_meta(sid=child_id)) + b"\n" + om.encode(_text("from the child")) + b"\n"


def test_session_threads_keep_stream_and_trace_in_one_order(tmp_path: Path) -> None:
    """Producers on several threads (the LLM stream, parallel tools) share one Session: the stream,
    SSE and the trace see the same messages in the same order, none spliced."""
    lines: list[bytes] = []
    ch = produce.SseChannel()
    data: list[bytes] = []
    ch.subscribe(lambda e: data.append(e.data + b"\n"))
    s = produce.Session(produce.TraceWriter(tmp_path, SID), ch, stream=lines.append)
    s.start(_meta())

    def run(k: int) -> None:
        for i in range(50):
            s.emit(_text(f"{k}-{i}-" + "y" * (i * 997 % 70000)))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s.close()
    trace = Path(s.trace.path).read_bytes().splitlines(keepends=True)  # type: ignore[union-attr]
    assert trace[1:] == lines == data and len(lines) == 300
