"""The consumer role's server: scripted SSE on 127.0.0.1, written byte for byte as a case says.

Each case gets a path of its own (`/c/<random token>/events`). Its connections are served in order:
the n-th request gets the n-th scripted connection (status 200, `text/event-stream`, closed when
its pieces are written; a `split` piece goes out one byte per write, with Nagle off), and every
request after the last gets `204 No Content`, which ends a conforming client's reconnects. The
`Last-Event-ID` each request carries is compared with the script and a mismatch recorded for the
judge. Requests are read defensively (head at most 16 KiB, 10 s per socket operation, at most
`MAX_CONNECTIONS` at once and `MAX_REQUESTS` per case); nothing the testee sends can raise.
"""

from __future__ import annotations

import contextlib
import secrets
import socket
import socketserver
import threading
import time
from dataclasses import dataclass, field

from omnimessage.text.sanitize import printable

from .consumer_cases import Connection, ConsumerCase

__all__ = ["MAX_REQUESTS", "ScriptLog", "ScriptServer"]

MAX_HEAD_BYTES = 16 * 1024
MAX_CONNECTIONS = 32
MAX_REQUESTS = 64
"""Requests per case the log keeps count of; each one past the script is answered 204."""
SOCKET_TIMEOUT = 10.0
BYTE_GAP = 0.0003
"""Seconds between the writes of a split piece, so that each leaves as a segment of its own (TCP_NODELAY).
It only makes the split likelier to reach the client as separate reads; no verdict depends on it."""
_STREAM_HEAD = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                b"Connection: close\r\n\r\n")
_NO_CONTENT = b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
_NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
_BAD = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


@dataclass
class ScriptLog:
    """What happened to one case's script."""

    connections: tuple[Connection, ...]
    requests: int = 0
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, last_event_id: str | None, duplicated: bool) -> Connection | None:
        """The connection to serve to the next request (None: the script is over), checking its header."""
        with self.lock:
            n = self.requests
            self.requests = min(n + 1, MAX_REQUESTS)
            if n >= len(self.connections):
                return None
            conn = self.connections[n]
            if duplicated:
                self._note(f"request {n + 1} carried Last-Event-ID more than once")
            elif last_event_id != conn.last_event_id:
                said = ("no Last-Event-ID" if last_event_id is None
                        else f"Last-Event-ID {printable(last_event_id, 80)!r}")
                want = "none" if conn.last_event_id is None else repr(conn.last_event_id)
                which = f"request {n + 1} (a reconnect)" if n else "the first request"
                self._note(f"{which} carried {said}, expected {printable(want, 80)}")
            return conn

    def _note(self, text: str) -> None:
        if len(self.problems) < 8:
            self.problems.append(text)

    def summary(self) -> list[str]:
        with self.lock:
            out = list(self.problems)
            if self.requests < len(self.connections):
                out.append(f"the consumer made {self.requests} of the {len(self.connections)} scripted connections "
                           "(it stopped reconnecting)")
            return out


class ScriptServer:
    """The HTTP server of a consumer run; one per run, a script per case."""

    def __init__(self) -> None:
        self.scripts: dict[str, ScriptLog] = {}
        self.lock = threading.Lock()
        self.active = threading.BoundedSemaphore(MAX_CONNECTIONS)
        owner = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                owner._serve(self.request)

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1},
                                       name="consumer-script-server", daemon=True)
        self.thread.start()

    def add(self, case: ConsumerCase) -> tuple[str, ScriptLog]:
        """The URL of `case`'s stream and the log of what it serves."""
        token = secrets.token_hex(8)
        log = ScriptLog(case.connections)
        with self.lock:
            self.scripts[token] = log
        return f"http://127.0.0.1:{self.port}/c/{token}/events", log

    def drop(self, url: str) -> None:
        with self.lock:
            self.scripts.pop(url.rsplit("/", 2)[-2], None)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def __enter__(self) -> ScriptServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one connection --

    def _serve(self, sock: socket.socket) -> None:
        if not self.active.acquire(blocking=False):
            return  # too many at once: closed without a word
        try:
            sock.settimeout(SOCKET_TIMEOUT)
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self._answer(sock)
        finally:
            self.active.release()

    def _answer(self, sock: socket.socket) -> None:
        head = _read_head(sock)
        if head is None:
            sock.sendall(_BAD)
            return
        target, last_ids = head
        parts = target.split("/")
        log = None
        if len(parts) == 4 and parts[0] == "" and parts[1] == "c" and parts[3] == "events":
            with self.lock:
                log = self.scripts.get(parts[2])
        if log is None:
            sock.sendall(_NOT_FOUND)
            return
        conn = log.take(last_ids[0] if last_ids else None, len(last_ids) > 1)
        if conn is None:
            sock.sendall(_NO_CONTENT)
            return
        sock.sendall(_STREAM_HEAD)
        for piece in conn.pieces:
            if not piece.split:
                sock.sendall(piece.data)
                continue
            for i in range(len(piece.data)):
                sock.sendall(piece.data[i : i + 1])
                time.sleep(BYTE_GAP)
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_WR)


def _read_head(sock: socket.socket) -> tuple[str, list[str]] | None:
    """(request target, every Last-Event-ID value) of a GET, or None when the head is not one."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        if len(buf) > MAX_HEAD_BYTES:
            return None
        chunk = sock.recv(4096)
        if not chunk:
            return None
        buf += chunk
    lines = buf.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    request = lines[0].split(b" ")
    if len(request) != 3 or request[0] != b"GET":
        return None
    last_ids = []
    for line in lines[1:]:
        name, sep, value = line.partition(b":")
        if sep and name.strip().lower() == b"last-event-id":
            last_ids.append(value.strip(b" \t").decode("utf-8", "replace"))
    return request[1].decode("latin-1"), last_ids
