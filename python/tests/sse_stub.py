"""A scripted HTTP server on 127.0.0.1 for SSE client tests: connection `n` gets `responses[n]`.

Each response is a list of byte strings written in order; `HOLD` in the list keeps the connection
open until the server is closed (or the client goes away). The request heads are recorded.
"""

from __future__ import annotations

import socket
import threading
from typing import Final

HOLD: Final = b"<hold>"
SSE_HEAD: Final = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n"
CHUNKED_HEAD: Final = (b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
                       b"transfer-encoding: chunked\r\n\r\n")


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


class ScriptedServer:
    def __init__(self, responses: list[list[bytes]]) -> None:
        self.responses = responses
        self.requests: list[bytes] = []
        self.stop = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/events"
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
                    continue
                self.requests.append(head)
                script = self.responses[n] if n < len(self.responses) else []
                n += 1
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

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()

    def __enter__(self) -> ScriptedServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CuttingProxy:
    """A TCP proxy on 127.0.0.1 that forwards to `port` and cuts connection `n` after `budgets[n]`
    bytes from the server (mid-frame, wherever that falls); later connections are not cut."""

    def __init__(self, port: int, budgets: list[int]) -> None:
        self.upstream = port
        self.budgets = budgets
        self.cuts = 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.05)
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        n = 0
        while not self.stop.is_set():
            try:
                client, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            budget = self.budgets[n] if n < len(self.budgets) else -1
            n += 1
            threading.Thread(target=self._pipe, args=(client, budget), daemon=True).start()

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

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.sock.close()
