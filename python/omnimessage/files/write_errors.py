"""Write errors that name what could not be written.

`write(2)` on a full disk raises `OSError(ENOSPC)` without a file name, so a command would say
`omnimessage: : No space left on device`. Every report, output file and standard output a command
writes goes through :func:`named`, which gives such an error the name of its destination (a path,
or `<stdout>`); the commands print it as `omnimessage: NAME: No space left on device` and exit 2.
A closed pipe (`BrokenPipeError`) is left alone: the reader went away, which is not an error.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any, BinaryIO, TextIO

__all__ = ["STDOUT", "NamedStream", "named"]

STDOUT = "<stdout>"


@contextlib.contextmanager
def named(name: str | os.PathLike[str]) -> Iterator[None]:
    """Re-raise an `OSError` of the block that has no file name with `name` as its file name."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        if exc.filename:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), os.fspath(name)) from None


class NamedStream:
    """A stream (standard output, text or binary) whose write and flush errors carry `name` (see
    :func:`named`); everything else is the stream's own."""

    def __init__(self, stream: TextIO | BinaryIO, name: str = STDOUT) -> None:
        self._stream = stream
        self._name = name

    def write(self, data: Any) -> int:
        with named(self._name):
            return self._stream.write(data)

    def flush(self) -> None:
        with named(self._name):
            self._stream.flush()

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._stream, attr)
