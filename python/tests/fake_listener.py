"""A listening socket on loopback that nobody answers: it tells whether a client connected to it
(a fake Dask scheduler for the cluster-trust and option-like-name tests)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def listener() -> Iterator[socket.socket]:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    s.setblocking(False)
    try:
        yield s
    finally:
        s.close()


def connected(s: socket.socket) -> bool:
    """Whether a client connected since the last call (accepts and closes one connection)."""
    try:
        conn, _ = s.accept()
    except BlockingIOError:
        return False
    conn.close()
    return True
