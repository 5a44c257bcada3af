"""Reading a trace root: the sessions under it, their files in rotation order, their messages.

A trace root is laid out `<yyyy-mm-dd>/<session_id>_<NNN>.jsonl`: a session's trace is rotated
into files numbered from 001, in the directory of the day it started (later files may sit under
a later day). The root is indexed from its directory listing only, exactly as
`omnimessage validate` indexes it; `.jsonl` files outside the layout belong to no session (the
validator reports them, OM801).

    >>> from omnimessage.traces import iter_sessions
    >>> for session in iter_sessions("traces/"):                  # doctest: +SKIP
    ...     print(session.session_id, session.date, len(session.files))
    ...     for msg in session.messages():
    ...         ...

Reading is streaming (one line in memory at a time); nothing is validated beyond decoding:
`omnimessage.validate.validate_path(root)` checks rotation, pairing and the other rules.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from dataclasses import dataclass

from omnimessage.codec.api import OpaqueMessage
from omnimessage.validate.sources.roots import index_root

from ._generated.models import DEFAULT_MAX_LINE_BYTES, Message
from .reader import Line, iter_messages

__all__ = ["Session", "SessionLine", "iter_sessions"]


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One line of a session's files: the file it is in and the line (message or error)."""

    path: str
    line: Line[Message | OpaqueMessage]


@dataclass(frozen=True, slots=True)
class Session:
    """One session of a trace root.

    Attributes:
        session_id: the id the file names carry (`<session_id>_<NNN>.jsonl`).
        date: the `yyyy-mm-dd` directory of its first file.
        files: its files in rotation order (by index, `_001` first).
        indices: the rotation index of each file (a gap or a repeat is what OM802 reports).
    """

    session_id: str
    date: str
    files: tuple[str, ...]
    indices: tuple[int, ...]

    def lines(
        self, *, lenient: bool = False, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    ) -> Iterator[SessionLine]:
        """Every line of every file in rotation order, each decoded or holding its `DecodeError`
        (as :func:`omnimessage.iter_messages` yields them), with the file it is in."""
        for path in self.files:
            for line in iter_messages(path, lenient=lenient, max_line_bytes=max_line_bytes):
                yield SessionLine(path, line)

    def messages(
        self, *, lenient: bool = False, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    ) -> Iterator[Message | OpaqueMessage]:
        """The decoded messages of all files, in rotation order.

        A line that does not decode raises its :class:`~omnimessage.DecodeError`, with `.line`
        set and a note naming the file (use :meth:`lines` to go on past bad lines). `lenient`
        keeps lines of a newer protocol version as `OpaqueMessage`s.
        """
        for item in self.lines(lenient=lenient, max_line_bytes=max_line_bytes):
            line = item.line
            if line.error is not None:
                err = line.error
                err.add_note(f"in {item.path}, line {line.number}")  # DecodeError knows the line, not the file
                raise err
            assert line.message is not None
            yield line.message


def iter_sessions(root: str | os.PathLike[str]) -> Iterator[Session]:
    """The sessions of a trace root, by date, then session id.

    Raises `NotADirectoryError` / `FileNotFoundError` when `root` is no directory. The root is
    indexed once, from its listing, when iteration starts (memory: one entry per file).
    """
    path = os.fspath(root)
    if not os.path.isdir(path):
        if os.path.exists(path):
            raise NotADirectoryError(errno.ENOTDIR, "not a trace root (a directory laid out <yyyy-mm-dd>/"
                                     "<session_id>_<NNN>.jsonl); read a single file with omnimessage.iter_messages",
                                     path)
        raise FileNotFoundError(errno.ENOENT, "no such trace root", path)
    index = index_root(path)
    sessions = []
    for sid, files in index.sessions.items():
        first = files[0][1]
        date = os.path.basename(os.path.dirname(first))
        sessions.append(Session(sid, date, tuple(p for _, p in files), tuple(i for i, _ in files)))
    sessions.sort(key=lambda s: (s.date, s.session_id))
    yield from sessions

