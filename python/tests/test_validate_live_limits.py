"""`--sse-url` against a hostile producer on 127.0.0.1: every run ends within its --duration (plus a
margin), with the right exit status and finding, under an address-space limit, with a bounded
peak RSS. The server's loops stop by themselves (a deadline) or when the client goes away."""

from __future__ import annotations

import http.server
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Final

import pytest

AS_LIMIT: Final = 1 << 30
"""RLIMIT_AS of the validator's process: 1 GiB."""
SERVER_LIMIT: Final = 20.0
"""No loop of the hostile server runs longer than this."""

_RUN: Final = """\
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from omnimessage.cli.validate import main
rc = main(sys.argv[1:])
# VmHWM, not RUSAGE_SELF: ru_maxrss survives exec, so it would count the pytest process this forked from
hwm = int(next(ln.split()[1] for ln in open("/proc/self/status") if ln.startswith("VmHWM:")))
sys.stderr.write("\\nMAXRSS_KB %d\\n" % max(hwm, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(rc)
"""

_START: Final = (b'data: {"timestamp":"2026-07-18T03:10:22.418Z","type":"model_msg","payload":{"type":"partial_text",'
                 b'"role":"assistant","event_type":"start","text":""}}\n\n')
_DELTA: Final = (b'data: {"timestamp":"2026-07-18T03:10:22.450Z","type":"model_msg","payload":{"type":"partial_text",'
                 b'"role":"assistant","event_type":"delta","text":"' + b"x" * 65_000 + b'"}}\n\n')


class _Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    stop: threading.Event

    def _sse(self, content_type: str = "text/event-stream") -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.end_headers()

    def _until(self) -> float:
        return time.monotonic() + SERVER_LIMIT

    def do_GET(self) -> None:
        end = self._until()
        try:
            if self.path == "/silent":  # accepts, never answers
                while time.monotonic() < end and not self.stop.wait(0.1):
                    pass
            elif self.path == "/slow-headers":  # one header byte every 0.5 s
                self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
                self.wfile.flush()
                while time.monotonic() < end and not self.stop.wait(0.5):
                    self.wfile.write(b"a")
                    self.wfile.flush()
            elif self.path == "/endless":  # a segment that never stops, as fast as the client reads
                self._sse()
                self.wfile.write(_START)
                while time.monotonic() < end and not self.stop.is_set():
                    self.wfile.write(_DELTA)
            elif self.path == "/huge-line":  # one line that never ends
                self._sse()
                self.wfile.write(b"data: ")
                chunk = b"y" * (1 << 20)
                while time.monotonic() < end and not self.stop.is_set():
                    self.wfile.write(chunk)
            elif self.path == "/redirect":
                self.send_response(302)
                self.send_header("Location", "/endless")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif self.path in ("/404", "/500"):
                self.send_error(int(self.path[1:]))
            elif self.path == "/plain":
                self._sse("text/plain")
                self.wfile.write(_START)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    stop = threading.Event()
    handler = type("H", (_Hostile,), {"stop": stop})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        stop.set()
        srv.shutdown()
        srv.server_close()


def _validate(*args: str, wall: float) -> tuple[int, str, str, int, float]:
    """Run `omnimessage validate ARGS` under RLIMIT_AS: (exit status, stdout, stderr, peak RSS in KiB, seconds)."""
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", _RUN.format(limit=AS_LIMIT), *args, "--no-progress"],
                       capture_output=True, text=True, timeout=wall)
    took = time.monotonic() - t0
    rss = int(p.stderr.rsplit("MAXRSS_KB ", 1)[1]) if "MAXRSS_KB " in p.stderr else -1
    sys.stderr.write(f"validate {' '.join(args)}: exit {p.returncode}, {took:.2f} s, peak RSS {rss} KiB\n")
    return p.returncode, p.stdout, p.stderr, rss, took


@pytest.mark.parametrize("path", ["/silent", "/slow-headers"])
def test_duration_bounds_the_wait_for_headers(base: str, path: str) -> None:
    rc, _, err, rss, took = _validate("--sse-url", base + path, "--duration", "2", wall=30)
    assert rc == 2, err
    assert "no response headers within the 2 s duration" in err
    assert "internal error" not in err
    assert took < 8, took  # 2 s, plus the interpreter's start
    assert 0 < rss < 200_000, rss


def test_endless_segment_keeps_a_digest(base: str) -> None:
    rc, out, err, rss, took = _validate("--sse-url", base + "/endless", "--duration", "3", "--format", "json",
                                        wall=40)
    assert rc == 0, err
    doc = json.loads(out)
    assert [(f["rule"], f["severity"]) for f in doc["findings"]] == [("OM308", "warning")]
    assert doc["summary"]["bytes"] > 50_000_000, doc["summary"]  # the producer did flood it
    assert took < 12, took
    assert 0 < rss < 200_000, rss  # KiB


def test_one_endless_line(base: str) -> None:
    rc, out, err, rss, took = _validate("--sse-url", base + "/huge-line", "--duration", "3",
                                        "--max-line-bytes", "1000000", wall=40)
    assert rc == 0, err
    assert "duration elapsed" in out
    assert took < 12, took
    assert 0 < rss < 200_000, rss


@pytest.mark.parametrize(("path", "status"), [("/redirect", "HTTP 302"), ("/404", "HTTP 404"), ("/500", "HTTP 500"),
                                              ("/plain", "not text/event-stream")])
def test_refused_responses_are_usage_errors(base: str, path: str, status: str) -> None:
    rc, _, err, rss, took = _validate("--sse-url", base + path, "--duration", "2", wall=30)
    assert rc == 2, err
    assert status in err
    assert "internal error" not in err
    assert took < 8, took
    assert 0 < rss < 200_000, rss


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0"])
def test_duration_must_be_finite_and_positive(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    from omnimessage.cli.validate import main

    assert main(["--sse-url", "http://127.0.0.1:9/x", f"--duration={value}", "--no-progress"]) == 2
    assert "--duration must be a finite number of seconds > 0" in capsys.readouterr().err
