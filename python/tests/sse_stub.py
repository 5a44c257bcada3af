"""A scripted HTTP server on 127.0.0.1 for SSE client tests: connection `n` gets `responses[n]`.

Each response is a list of byte strings written in order; `HOLD` in the list keeps the connection
open until the server is closed (or the client goes away). The request heads are recorded.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any, Final

import pytest

HOLD: Final = b"<hold>"
SSE_HEAD: Final = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n"
CHUNKED_HEAD: Final = (b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
                       b"transfer-encoding: chunked\r\n\r\n")


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


class _Listener:
    """A loopback listener whose thread hands each connection, numbered from 0, to `_handle`."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        n = 0
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._handle(conn, n)
            n += 1

    def _handle(self, conn: socket.socket, n: int) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


class ScriptedServer(_Listener):
    def __init__(self, responses: list[list[bytes]]) -> None:
        self.responses = responses
        self.requests: list[bytes] = []
        super().__init__()
        self.url = f"http://127.0.0.1:{self.port}/events"

    def _handle(self, conn: socket.socket, n: int) -> None:
        with conn:
            conn.settimeout(5)
            head = b""
            try:
                while b"\r\n\r\n" not in head and len(head) < 65536:
                    got = conn.recv(4096)
                    if not got:
                        break
                    head += got
            except OSError:
                return
            self.requests.append(head)
            script = self.responses[n] if n < len(self.responses) else []
            try:
                for part in script:
                    if part == HOLD:
                        conn.settimeout(0.05)
                        while not self.stop.is_set():
                            try:
                                if not conn.recv(1):
                                    break
                            except TimeoutError:
                                continue
                    else:
                        conn.sendall(part)
            except OSError:
                pass

    def header(self, n: int, name: str) -> str | None:
        for line in self.requests[n].decode("latin-1").split("\r\n")[1:]:
            k, _, v = line.partition(":")
            if k.strip().lower() == name.lower():
                return v.strip()
        return None

    def __enter__(self) -> ScriptedServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CuttingProxy(_Listener):
    """A TCP proxy on 127.0.0.1 that forwards to `port` and cuts connection `n` after `budgets[n]`
    bytes from the server (mid-frame, wherever that falls); later connections are not cut."""

    def __init__(self, port: int, budgets: list[int]) -> None:
        self.upstream = port
        self.budgets = budgets
        self.cuts = 0
        super().__init__()

    def _handle(self, conn: socket.socket, n: int) -> None:
        budget = self.budgets[n] if n < len(self.budgets) else -1
        threading.Thread(target=self._pipe, args=(conn, budget), daemon=True).start()

    def _pipe(self, client: socket.socket, budget: int) -> None:
        with client, socket.create_connection(("127.0.0.1", self.upstream)) as up:
            up.settimeout(0.05)
            client.settimeout(0.05)
            sent = 0
            while not self.stop.is_set():
                try:
                    req = client.recv(65536)
                    if not req:
                        return
                    up.sendall(req)
                except TimeoutError:
                    pass
                except OSError:
                    return
                try:
                    data = up.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    return
                if not data:
                    return
                if budget >= 0 and sent + len(data) >= budget:
                    client.sendall(data[:budget - sent])
                    self.cuts += 1
                    return
                sent += len(data)
                client.sendall(data)


@pytest.fixture
def thread_errors() -> Iterator[list[Any]]:
    """Every exception that reaches `threading.excepthook` during the test (there must be none)."""
    seen: list[Any] = []
    old = threading.excepthook
    threading.excepthook = seen.append
    yield seen
    threading.excepthook = old
    assert not seen, [f"{x.exc_type.__name__}: {x.exc_value}" for x in seen]
