"""Opening an input without surprises: only what may be read is read, and open(2) never blocks.

A name ending in `.jsonl` may be a FIFO (opening it waits for a writer forever), a character
device (`/dev/zero` never ends), a socket, or a symbolic link to any of them or to a file outside
the directory being read. :func:`open_regular` opens with `O_NONBLOCK` (a FIFO without a writer
does not block the open), then checks with `fstat` what was opened, the object itself and not
the name, so nothing can be swapped in between:

- a regular file is read;
- a directory is refused as `Is a directory`;
- a FIFO or pipe is read only where the caller allows streams (`streams=True`: a FILE named on
  the command line, as in `omnimessage validate <(zcat trace.jsonl.gz)`; then, like `cat`, the
  read waits for the writer); under a trace root it is refused;
- a device or a socket is always refused;
- with `follow=False` (files found under a trace root) a symbolic link is refused (`O_NOFOLLOW`).

The validator's inputs (`omnimessage.validate.sources.inputs`) and `omnimessage canonicalize` open local
files through here; a storage layer opening URLs should call :func:`open_regular` for local paths.
"""

from __future__ import annotations

import errno
import os
import select
import stat
from typing import BinaryIO

__all__ = ["NotReadable", "kind_of", "open_regular"]


class NotReadable(OSError):
    """An input that is deliberately not read (a FIFO, a device, a socket, a symbolic link)."""


def kind_of(mode: int) -> str:
    """What a file of mode `mode` is, in words: `a FIFO`, `a character device`, ..."""
    for test, name in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a special file"


def open_regular(path: str, *, streams: bool = False, follow: bool = True) -> BinaryIO:
    """Open `path` for binary reading if it is a regular file (or, with `streams`, a FIFO or pipe).

    Raises `IsADirectoryError` for a directory, :class:`NotReadable` (an `OSError` naming `path`)
    for a device, a socket, a FIFO without `streams`, or a symbolic link without `follow`, and
    the `OSError` of open(2) otherwise. Never blocks in open(2) on a FIFO without `streams`.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise NotReadable(errno.ELOOP, "a symbolic link: not followed", path) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        if stat.S_ISFIFO(mode) and streams:
            fd = _wait_for_writer(fd)
        elif not stat.S_ISREG(mode):
            raise NotReadable(errno.EINVAL, f"{kind_of(mode)}, not a regular file: not read", path)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _wait_for_writer(fd: int) -> int:
    """Waits on the FIFO `fd` (still the descriptor open(2) gave, non-blocking) until a writer has
    come, as `cat`'s blocking open would: poll(2) reports nothing on a FIFO no writer has opened
    since, then input, or the hang-up of a writer that already wrote everything and closed (its
    bytes stay in the pipe). Opening the FIFO a second time to wait would hang forever on that
    last writer (issue 39); a pipe, as from `<(command)`, does not wait."""
    waiter = select.poll()
    waiter.register(fd, select.POLLIN)
    waiter.poll()  # no timeout: returns on input or a hang-up (PEP 475 retries an interrupted call)
    return fd
