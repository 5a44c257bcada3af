"""`--header NAME:VALUE` for `--sse-url` and `headers=` of `validate_url`: sent to a real loopback
server that checks them; checked before anything is sent; a header's value is never shown."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import ClassVar

import pytest

from omnimessage.cli.main import main as cli_main
from omnimessage.validate import validate_url
from omnimessage.validate.sources.sse import check_header, parse_header
from omnimessage_dev.synth.sessions import stream_lines

SECRET = "Bearer s3cr3t-t0ken"


class _Auth(http.server.BaseHTTPRequestHandler):
    """An SSE producer that wants `Authorization: Bearer s3cr3t-t0ken`; records what it was sent."""

    seen: ClassVar[list[list[tuple[str, str]]]] = []
    body: ClassVar[bytes] = b""

    def do_GET(self) -> None:
        self.seen.append(list(self.headers.items()))
        if self.headers.get("Authorization") != SECRET:
            self.send_response(401)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(self.body)  # then the connection closes: the read ends before the duration

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Auth]]]:
    body = b"".join(b"data: " + ln.rstrip(b"\n") + b"\n\n" for ln in stream_lines(5_000, seed=5))
    handler = type("H", (_Auth,), {"seen": [], "body": body})
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/events", handler
    finally:
        srv.shutdown()
        srv.server_close()


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    rc = cli_main(["validate", "--no-progress", *argv])
    out, err = capsys.readouterr()
    assert "s3cr3t" not in out + err and "evil" not in (out + err).lower()
    return rc, out + err


def test_header_reaches_the_server(server: tuple[str, type[_Auth]], capsys: pytest.CaptureFixture[str]) -> None:
    url, handler = server
    rc, out = _cli(capsys, "--sse-url", url, "--duration", "30", "--header", f"Authorization: {SECRET}",
                   "--header", "X-Trace:  a", "--header", "X-Trace:b")
    assert rc == 0, out
    assert "the server closed the stream" in out
    sent = handler.seen[-1]
    assert ("Authorization", SECRET) in sent
    assert [v for k, v in sent if k == "X-Trace"] == ["a", "b"]  # repeated: sent twice, blanks stripped
    assert ("Accept", "text/event-stream") in sent
    rc, out = _cli(capsys, "--sse-url", url, "--duration", "30")
    assert rc == 2 and "HTTP 401" in out


def test_validate_url_sends_headers(server: tuple[str, type[_Auth]]) -> None:
    url, handler = server
    report = validate_url(url, duration=30, headers={"Authorization": SECRET})
    assert report.ok and report.messages > 10 and report.inputs == 1, report.to_json()
    report = validate_url(url, duration=30, headers=[("authorization", SECRET), ("Accept", "text/event-stream;v=2")])
    assert report.ok
    assert ("Accept", "text/event-stream;v=2") in handler.seen[-1]  # a default replaced, not sent twice
    assert [k for k, _ in handler.seen[-1]].count("Accept") == 1
    report = validate_url(url, duration=30)
    assert not report.ok and "HTTP 401" in report.failures[0] and report.exit_code == 2


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("Authorization: Bearer evil\r\nX-Injected: 1", "Authorization: <redacted>"),
        ("Authorization: Bearer evil\n", "Authorization: <redacted>"),
        ("Authorization: Bearer \x00evil", "Authorization: <redacted>"),
        ("Authorization: Bearer \x1b[2Jevil", "Authorization: <redacted>"),
        ("Authorization: Bearer \u20acevil", "Authorization: <redacted>"),
        ("Bad Name: evil", "HTTP token"),
        (": evil", "HTTP token"),
        ("Evil-token-without-colon", "has no ':'"),
    ],
    ids=["crlf", "lf", "nul", "escape", "beyond-latin1", "space-in-name", "no-name", "no-colon"],
)
def test_bad_headers_are_usage_errors_that_never_show_the_value(
    server: tuple[str, type[_Auth]], capsys: pytest.CaptureFixture[str], spec: str, says: str
) -> None:
    url, handler = server
    rc, out = _cli(capsys, "--sse-url", url, "--duration", "5", "--header", "X-Ok: 1", "--header", spec)
    assert rc == 2
    assert "--header #2: " in out and says in out, out
    assert not handler.seen  # nothing was sent
    with pytest.raises(ValueError) as exc:
        parse_header(spec)
    assert "evil" not in str(exc.value).lower()
    name, colon, value = spec.partition(":")
    if not colon:
        return
    with pytest.raises(ValueError) as exc2:
        validate_url(url, duration=5, headers={name: value})
    assert "evil" not in str(exc2.value).lower()


def test_header_needs_sse_url(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _cli(capsys, "--header", "A: b", "-")
    assert rc == 2 and "--header is sent with --sse-url" in out


def test_check_header() -> None:
    assert check_header("X-A", "  v  w\t") == ("X-A", "v  w")
    assert parse_header("Authorization:Bearer x:y") == ("Authorization", "Bearer x:y")
    with pytest.raises(ValueError, match="longer than"):
        check_header("X", "v" * 9000)
