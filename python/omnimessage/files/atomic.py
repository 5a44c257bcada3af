"""Atomic file replacement that leaves nothing behind, even when killed.

The replacement is written to an anonymous file in the target's directory (Linux
`O_TMPFILE`): a process killed mid-write, even by SIGKILL, leaves no partial file. Only when
the caller finishes is it given a name and renamed over the target, which is atomic, with
the target's permission bits. Where `O_TMPFILE` is unavailable a hidden named temporary file
is used and removed on any error or catchable signal.

The replacement keeps the target's permission bits, and its owner and group (`fchown`, which
needs root for another user's file: where it fails the target is left as it is, with an error).
Given the `os.stat_result` of the original as it was opened, the target is stat'ed again right
before the rename: a file that changed meanwhile (inode, size, modification or change time),
for instance a trace still being appended, is left untouched and :class:`ChangedWhileRead` is
raised. A write that fails (a full disk, `RLIMIT_FSIZE`) raises an `OSError` naming the target.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

__all__ = ["AtomicReplace", "ChangedWhileRead", "atomic_replace", "identity"]


class ChangedWhileRead(OSError):
    """The target changed between the moment it was opened and the rename: left unchanged."""


def identity(st: os.stat_result) -> tuple[int, int, int, int, int]:
    """What must not change while a file is rewritten: device, inode, size, mtime and ctime (ns)."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class AtomicReplace:
    """The open replacement: write to `.file`; call `.discard()` to keep the original."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.discarded = False

    def discard(self) -> None:
        self.discarded = True


@contextlib.contextmanager
def atomic_replace(path: Path, original: os.stat_result | None = None) -> Iterator[AtomicReplace]:
    """Replace `path` by what is written to `.file`, atomically, unless `.discard()` is called.

    `original`: the `fstat` of the target as it was opened for reading; the target must still be
    that very file, unchanged, right before the rename (else :class:`ChangedWhileRead`). Its mode,
    owner and group are those the replacement gets. Any `OSError` names `path`."""
    try:
        with _replace(path, original) as handle:
            yield handle
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise


@contextlib.contextmanager
def _replace(path: Path, original: os.stat_result | None) -> Iterator[AtomicReplace]:
    st = original if original is not None else path.stat()
    mode = st.st_mode & 0o7777
    directory = path.parent
    named: str | None = None
    try:
        fd = os.open(directory, os.O_TMPFILE | os.O_RDWR, 0o600)
    except (AttributeError, OSError):
        fd, named = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    fh = os.fdopen(fd, "w+b")
    handle = AtomicReplace(fh)
    try:
        yield handle
        if not handle.discarded:
            fh.flush()
            _keep_owner(fh.fileno(), st, path)
            os.fchmod(fh.fileno(), mode)  # after fchown, which clears set-user-ID bits
            os.fsync(fh.fileno())
            if named is None:
                named = _link_anonymous(fh, directory, path, st)
            if original is not None and identity(os.lstat(path)) != identity(original):
                raise ChangedWhileRead(
                    errno.EAGAIN,
                    "changed while it was read (still being written?): left unchanged; run again when it is complete",
                    str(path),
                )
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


def _keep_owner(fd: int, st: os.stat_result, path: Path) -> None:
    """Give the replacement `fd` the owner and group of the original (`st`), or raise."""
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) == (st.st_uid, st.st_gid):
        return
    try:
        os.fchown(fd, st.st_uid, st.st_gid)
    except PermissionError:
        raise OSError(
            errno.EPERM, f"cannot keep its owner and group ({st.st_uid}:{st.st_gid}): left unchanged", str(path)
        ) from None


def _link_anonymous(fh: BinaryIO, directory: Path, path: Path, st: os.stat_result) -> str:
    """Give the anonymous file a (hidden, unique) name in `directory` (a copy of it, with the mode,
    owner and group of `st`, where it cannot be linked)."""
    name, mode = path.name, st.st_mode & 0o7777
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
            _keep_owner(out.fileno(), st, path)
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
    except BaseException:
        os.unlink(named)
        raise
    return named
