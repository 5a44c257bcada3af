"""SSE: framing per the HTML spec, ids, server events, and a live producer on 127.0.0.1."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from omnimessage.cli.validate import main
from omnimessage.validate import Finding, Validator
from omnimessage.validate.sources.sse import SseResult, iter_events, iter_lines_bytes, validate_sse
from omnimessage_dev.synth.sessions import stream_lines


def events(data: bytes, chunk: int = 7) -> tuple[list[tuple[str, bytes, int, bytes | None]], SseResult]:
    res = SseResult()
    chunks = [data[i : i + chunk] for i in range(0, len(data), chunk)]
    out = [(e.name, e.data, e.data_line, e.id) for e in iter_events(iter_lines_bytes(chunks, 1 << 20), res)]
    return out, res


def test_framing_per_html_spec() -> None:
    data = (
        b"\xef\xbb\xbf: welcome\r\n"  # BOM, then a comment
        b"retry: 1000\r\n"
        b"id: 1-1\r\n"
        b"data:first\r\n"  # no space after the colon
        b"data:  two spaces\r\n\r\n"  # only one space is removed
        b"event: server_event\rdata: {\"type\":\"task_state\"}\r\r"  # CR line endings
        b"data\n\n"  # a field with no colon: empty data line
        b"id: 1-2\n\n"  # no data: nothing dispatched
        b": heartbeat\n\n"
        b"event: message\ndata: x\n\n"
        b"data: torn"
    )
    for chunk in (1, 2, 3, 7, 1000):
        got, res = events(data, chunk)
        assert got == [
            ("message", b"first\n two spaces", 4, b"1-1"),
            ("server_event", b'{"type":"task_state"}', 8, None),
            ("message", b"", 10, None),
            ("message", b"x", 17, None),
        ], chunk
        assert res.torn == 19


def test_long_lines_are_skipped_not_kept() -> None:
    lines = list(iter_lines_bytes([b"a" * 10, b"b" * 10, b"\nok\n", b"c" * 50], 15))
    assert lines == [None, b"ok", None]


def _validate(data: bytes) -> tuple[list[tuple[str, int]], SseResult]:
    found: list[Finding] = []
    v = Validator("stream", source="x.sse")
    res = validate_sse(iter_lines_bytes([data], 1 << 20), v, found.append)
    found.extend(v.finish())
    return [(f.rule, f.line) for f in found], res


def sse_of(lines: list[bytes], *, start: int = 1) -> bytes:
    out = []
    for i, ln in enumerate(lines):
        out.append(b"id: 1784344222-%d\ndata: %s\n\n" % (start + i, ln.rstrip(b"\n")))
        if i % 50 == 0:
            out.append(b": heartbeat\n\n")
    return b"".join(out)


def test_synthetic_stream_over_sse_is_clean() -> None:
    data = sse_of(list(stream_lines(300_000, seed=2)))
    data += b'event: server_event\ndata: {"type":"resync_required"}\n\n'
    found, res = _validate(data)
    assert found == []
    assert res.server_events == {"resync_required": 1}


def test_ids() -> None:
    lines = list(stream_lines(5_000, seed=2))[:3]
    base = sse_of(lines)
    assert _validate(base)[0] == []
    found, _ = _validate(base.replace(b"1784344222-2", b"1784344222-7"))
    assert found == [("OM902", 9)]  # -3 after -7, on the line of the third id
    found, _ = _validate(base.replace(b"1784344222-2", b"2-x"))
    assert found == [("OM901", 6)]


# ------------------------------------------------------------------ a live producer on 127.0.0.1


class _Handler(http.server.BaseHTTPRequestHandler):
    events: ClassVar[list[bytes]] = []
    content_type = "text/event-stream"
    hold = 3.0

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", self.content_type)
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            for ev in self.events:
                self.wfile.write(ev)
                self.wfile.flush()
            deadline = time.monotonic() + self.hold
            while time.monotonic() < deadline:  # bounded: heartbeats until the client goes away
                self.wfile.write(b": heartbeat\n\n")
                self.wfile.flush()
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("H", (_Handler,), {})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/events", handler
    finally:
        srv.shutdown()
        srv.server_close()


def test_live_producer(server: tuple[str, type[_Handler]], tmp_path: Path) -> None:
    url, handler = server
    lines = list(stream_lines(30_000, seed=6))
    cut = next(i for i, ln in enumerate(lines) if b'"event_type":"delta"' in ln)
    # an OM305 defect, then the capture ends inside an open segment (not an error: cut on purpose)
    bad = lines[cut].replace(b'"text":"', b'"text":"XX', 1).replace(b'"thinking":"', b'"thinking":"XX', 1)
    events = [*lines[:cut], bad, *lines[cut + 1 :]]
    open_seg = next(i for i, ln in enumerate(events) if b'"event_type":"start"' in ln and i > cut + 3)
    handler.events = [sse_of(events[: open_seg + 2])]
    handler.events.append(b'event: server_event\ndata: {"type":"task_state","state":"running"}\n\n')
    handler.hold = 5.0
    report = tmp_path / "r.json"
    rc = main(["--sse-url", url, "--duration", "1.5", "--format", "json", "-o", str(report), "--no-progress"])
    doc = json.loads(report.read_text())
    rules = [(f["rule"], f["severity"]) for f in doc["findings"]]
    assert ("OM305", "error") in rules
    assert ("OM308", "warning") in rules  # --sse-url implies --truncated
    assert rc == 1
    # the server holds the connection open for 5 s: the duration, not the server, ended the read
    assert "the 1.5 s duration elapsed" in json.dumps(doc)
    assert "the server closed the stream" not in json.dumps(doc)
    assert doc["summary"]["server_events"] == {"count": 1, "types": {"task_state": 1}}


def test_live_producer_clean_and_content_type_error(server: tuple[str, type[_Handler]],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    url, handler = server
    handler.events = [sse_of(list(stream_lines(20_000, seed=8)))]
    handler.hold = 3.0
    rc = main(["--sse-url", url, "--duration", "1", "--no-progress"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "duration elapsed" in out
    handler.content_type = "text/plain"  # not an event stream: an error, not a note
    rc = main(["--sse-url", url, "--duration", "1", "--no-progress"])
    assert rc == 2
    assert "not text/event-stream" in capsys.readouterr().err


def test_live_producer_unreachable(capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as s:  # bound, never listening: the port stays ours and refuses every connection
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        rc = main(["--sse-url", f"http://127.0.0.1:{port}/events", "--duration", "1", "--no-progress"])
    assert rc == 2
    assert "cannot connect" in capsys.readouterr().err
    assert main(["--sse-url", "ftp://127.0.0.1/x", "--duration", "1", "--no-progress"]) == 2


def test_resync_required_forgets_open_segments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = list(stream_lines(20_000, seed=5))
    start = next(i for i, ln in enumerate(lines) if b'"event_type":"start"' in ln)
    # the gap cuts a segment after its first delta; after the resync the stream goes on elsewhere
    before = sse_of(lines[: start + 2])
    hook = b'{"timestamp":"2030-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"hook","hook":"stop","name":"h"}}'
    after = sse_of([hook], start=5000)
    gap = b'event: server_event\ndata: {"type":"resync_required"}\n\n'
    found, res = _validate(before + after)
    assert sorted(r for r, _ in found) == ["OM308", "OM420"]
    found, res = _validate(before + gap + after)
    # the cut segment is forgotten, and so is the open request: its end may have been in the gap
    # (issue 31: a resync is a gap, after which the stream is judged as one that starts mid-session)
    assert [r for r, _ in found] == []
    assert len(res.resyncs) == 1
    p = tmp_path / "gap.sse"
    p.write_bytes(before + gap + after)
    main(["--sse", str(p), "--no-progress"])
    assert "resync_required on line(s)" in capsys.readouterr().out


def test_oversized_events_are_dropped_and_reported(tmp_path: Path) -> None:
    big_line = b"data: " + b"x" * 5000 + b"\n\n"
    many_lines = b"".join(b"data: " + b"y" * 100 + b"\n" for _ in range(100)) + b"\n"
    ok = sse_of([b'{"timestamp":"2030-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"hook",'
                 b'"hook":"stop","name":"h"}}'], start=9)
    p = tmp_path / "big.sse"
    p.write_bytes(big_line + many_lines + ok)
    report = tmp_path / "r.json"
    rc = main(["--sse", str(p), "--max-line-bytes", "2000", "--format", "json", "-o", str(report), "--no-progress"])
    found = [(f["rule"], f["line"]) for f in json.loads(report.read_text())["findings"]]
    assert found == [("OM105", 1), ("OM105", 3)] and rc == 1
