"""Atomic file replacement that leaves nothing behind, even when killed.

The replacement is written to an anonymous file in the target's directory (Linux
`O_TMPFILE`): a process killed mid-write, even by SIGKILL, leaves no partial file. Only when
the caller finishes is it given a name and renamed over the target, which is atomic, with
the target's permission bits. Where `O_TMPFILE` is unavailable a hidden named temporary file
is used and removed on any error or catchable signal.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

__all__ = ["AtomicReplace", "atomic_replace"]


class AtomicReplace:
    """The open replacement: write to `.file`; call `.discard()` to keep the original."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.discarded = False

    def discard(self) -> None:
        self.discarded = True


@contextlib.contextmanager
def atomic_replace(path: Path) -> Iterator[AtomicReplace]:
    mode = path.stat().st_mode & 0o7777
    directory = path.parent
    named: str | None = None
    try:
        fd = os.open(directory, os.O_TMPFILE | os.O_RDWR, mode)
    except (AttributeError, OSError):
        fd, named = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    fh = os.fdopen(fd, "w+b")
    handle = AtomicReplace(fh)
    try:
        yield handle
        if not handle.discarded:
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
            if named is None:
                named = _link_anonymous(fh, directory, path.name, mode)
            os.replace(named, path)
            named = None
            with contextlib.suppress(OSError):  # make the rename durable too
                dfd = os.open(directory, os.O_RDONLY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
    finally:
        fh.close()
        if named is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(named)


def _link_anonymous(fh: BinaryIO, directory: Path, name: str, mode: int) -> str:
    """Give the anonymous file a (hidden, unique) name in `directory`."""
    for attempt in range(100):
        candidate = str(directory / f".{name}.{os.getpid()}.{attempt}.tmp")
        try:
            os.link(f"/proc/self/fd/{fh.fileno()}", candidate)
            return candidate
        except FileExistsError:
            continue
        except OSError:
            break
    # No /proc: copy the content into a named temporary file instead.
    fd, named = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            fh.seek(0)
            shutil.copyfileobj(fh, out)
            out.flush()
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
    except BaseException:
        os.unlink(named)
        raise
    return named
