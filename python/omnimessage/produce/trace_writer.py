"""`TraceWriter`: append a session's trace, crash-safe, the way the reference writer does.

Facts this follows (PenguinHarness `packages/core/src/trace/writer.ts`, `trace/resume.ts`,
`engine/context-engine.ts` write; protocol facts 7 and 9):

- One record per line, LF-terminated, each appended with **one** `write(2)` on a file opened
  `O_APPEND` (opened and closed per record: no cached handle, no seek). A short write is retried
  for the rest; a failure after part of a record reached the file marks the tail torn.
- Torn-tail heal: before its first append to a file that already exists, the writer reads the
  file's last byte; a non-empty file not ending in LF holds a crash-torn record, and the next
  record is prefixed with a LF, so the torn bytes become a line of their own (readers skip it;
  `omnimessage validate` reports it as OM005). Nothing is repaired in place.
- The trace takes `session_meta`, complete `model_msg` and every `event_msg`, never a
  `partial_*` and never a message with an `origin` (a child session has its own trace). The
  reference skips those silently; this writer refuses them with `TraceRefused`, because a
  producer that sends them here has its channels mixed up.
- One file per model context: a `session_meta` written to a file that already holds records
  rotates to the next index first (`_NNN+1`), so a file never starts with anything else and an
  empty file is never created. `open_context` writes a new context's head in the reference's
  order: `session_meta`, its MCP connect pair if any, then its `tool_list_ready` if any.
- Reopening a session (a new `TraceWriter` on the same root and id) continues its newest file:
  the highest index under any date directory (`resume.ts` findLatestTraceFile).
- Writers in one process are serialised by a lock per writer (the reference's promise chain),
  so records of concurrent threads never splice; the single `O_APPEND` write keeps even two
  processes tear-free on local file systems.

`fsync=True` makes every record durable before `write` returns (and the date directory when a
file is created): without it a record survives the writing process's death (SIGKILL), not a power
loss. Writes are blocking; from asyncio, call them through `asyncio.to_thread` or accept the
(small, local-disk) stall.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from datetime import date as _date
from typing import Any

from msgspec import UNSET

from omnimessage.codec.api import encode

from .._generated import models as m
from .._generated.guards import is_partial, is_session_meta
from .ids import TRACE_FILE, session_date, trace_path

__all__ = ["TraceRefused", "TraceWriter", "latest_trace_file"]

_HEAD_MCP = (m.McpConnectBeginPayload, m.McpConnectEndPayload)


class TraceRefused(ValueError):
    """A message that the trace channel never carries, or a head out of the reference's order."""


def latest_trace_file(root: str | os.PathLike[str], session_id: str) -> tuple[str, int] | None:
    """The (date directory, index) of a session's newest trace file under `root`, or None."""
    best: tuple[str, int] | None = None
    try:
        days = sorted(os.scandir(os.fspath(root)), key=lambda e: e.name)
    except FileNotFoundError:
        return None
    for day in days:
        if not day.is_dir(follow_symlinks=False):
            continue
        with os.scandir(day.path) as entries:
            for entry in entries:
                match = TRACE_FILE.match(entry.name)
                if match is None or match.group(1) != session_id or not entry.is_file(follow_symlinks=False):
                    continue
                index = int(match.group(2))
                if best is None or index > best[1]:
                    best = (day.name, index)
    return best


def _kind(msg: Any) -> str:
    payload = getattr(msg, "payload", None)
    tag = getattr(getattr(payload, "__struct_config__", None), "tag", None)
    return str(tag) if isinstance(tag, str) else type(msg).__name__


def _refusal(msg: Any) -> str | None:
    if not isinstance(msg, (m.SessionMetaMessage, m.ModelMessage, m.EventMessage)):
        return f"a trace stores OmniMessages, not {type(msg).__name__}"
    if msg.origin is not UNSET:
        return ("a message with an origin belongs to a child session's own trace, never to this one "
                f"(origin {list(msg.origin)}); the parent trace holds a `subagent` pointer instead")
    if is_partial(msg):
        return (f"a trace never stores streaming fragments ({_kind(msg)}); "
                "write the complete message that follows the segment's stop")
    return None


def _line(msg: Any) -> bytes:
    """The record of a message: its canonical bytes and the LF. What would not be one line (a raw
    LF or CR in a verbatim value built by hand) is refused before anything is written."""
    try:
        return encode(msg) + b"\n"
    except ValueError as exc:
        raise TraceRefused(str(exc)) from None


class TraceWriter:
    """Append-only writer of one session's trace files under `root`.

    Args:
        root: the trace root (`<root>/<yyyy-mm-dd>/<session_id>_<NNN>.jsonl`).
        session_id: the session's id (`new_session_id()` makes one in the reference's format).
        date: the date directory of a new trace; default: the date in a reference-shaped session
            id (the day it was created), else today (local time, as the reference).
        fsync: flush every record to stable storage before `write` returns.
    """

    def __init__(self, root: str | os.PathLike[str], session_id: str, *, date: str | None = None,
                 fsync: bool = False) -> None:
        if not session_id or "/" in session_id or os.sep in session_id or session_id in (".", ".."):
            raise ValueError(f"not a usable session id for a file name: {session_id!r}")
        self.root = os.fspath(root)
        self.session_id = session_id
        self.fsync = fsync
        latest = latest_trace_file(self.root, session_id)
        if latest is not None:  # reopening: continue the newest file (its day, its index)
            self.date, self.index = latest
        else:
            self.date = date or session_date(session_id) or _date.today().isoformat()
            self.index = 1
        self._lock = threading.Lock()
        self._prepared = -1  # the index whose directory exists and whose tail was probed
        self._torn = False
        self._has_records = False  # the current file holds at least one record

    @property
    def path(self) -> str:
        """The current trace file."""
        return trace_path(self.root, self.session_id, self.index, self.date)

    def write(self, msg: m.Message) -> bytes:
        """Append one record; returns the line written (without a heal prefix).

        A `session_meta` written to a file that already holds records rotates to the next file
        first. Raises `TraceRefused` for a partial, a message with an `origin`, anything that
        is no OmniMessage, or one that would not be one line (a raw LF or CR in a
        verbatim value); `OSError` when the append fails (the next record heals a torn tail) or
        when the file or its date directory is a symbolic link.
        """
        refusal = _refusal(msg)
        if refusal is not None:
            raise TraceRefused(refusal)
        line = _line(msg)
        with self._lock:
            if is_session_meta(msg):
                self._rotate_if_used()
            self._append(line)
        return line

    def open_context(self, meta: m.SessionMetaMessage, *head: m.EventMessage) -> list[bytes]:
        """Start a new model context: rotate, then write its head in the reference's order
        (`session_meta`, the MCP connect pair if any, `tool_list_ready` if any). Returns the lines."""
        if not is_session_meta(meta):
            raise TraceRefused("a context opens with its session_meta")
        kinds = [type(r.payload) if isinstance(r, m.EventMessage) else type(r) for r in head]
        allowed = [[], [m.ToolListReadyPayload], list(_HEAD_MCP), [*_HEAD_MCP, m.ToolListReadyPayload]]
        if kinds not in allowed:
            names = [_kind(r) for r in head]
            raise TraceRefused("a context's head is session_meta, then its mcp_connect_begin and mcp_connect_end "
                               f"if any, then its tool_list_ready if any; got {names}")
        for r in head:
            refusal = _refusal(r)
            if refusal is not None:
                raise TraceRefused(refusal)
        lines = [_line(meta)] + [_line(r) for r in head]  # all of them, before anything is written
        with self._lock:
            self._rotate_if_used()
            for line in lines:
                self._append(line)
        return lines

    # -- internals (called with the lock held) --

    def _rotate_if_used(self) -> None:
        if self._has_records or self._file_size() > 0:
            self.index += 1
            self._has_records = False

    def _file_size(self) -> int:
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            return 0
        return st.st_size if stat.S_ISREG(st.st_mode) else 0

    def _prepare(self, path: str) -> None:
        day = os.path.dirname(path)
        os.makedirs(day, exist_ok=True)
        _refuse_link(day, "date directory")
        self._torn = False
        try:
            fd = _open_no_follow(path, os.O_RDONLY)
        except FileNotFoundError:
            return
        try:
            size = os.fstat(fd).st_size
            if size > 0:
                self._has_records = True
                self._torn = os.pread(fd, 1, size - 1) != b"\n"
        finally:
            os.close(fd)

    def _append(self, line: bytes) -> None:
        path = self.path
        if self._prepared != self.index:
            self._prepare(path)
            self._prepared = self.index
        data = b"\n" + line if self._torn else line
        created = self.fsync and not os.path.lexists(path)
        _refuse_link(os.path.dirname(path), "date directory")  # replaced by a link since it was prepared?
        fd = _open_no_follow(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            view = memoryview(data)
            written = 0
            while written < len(data):
                try:
                    n = os.write(fd, view[written:])
                except OSError:
                    if written:
                        self._torn = True
                    raise
                if n <= 0:
                    if written:
                        self._torn = True
                    raise OSError(errno.EIO, f"trace append made no progress at byte {written} of {len(data)}", path)
                written += n
            if self.fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            _fsync_dir(os.path.dirname(path))
        self._torn = False
        self._has_records = True


# Links planted in a shared trace root (`/tmp/traces`) must not redirect a record: the date directory
# is refused when it is a link, the file is opened without following one (O_NOFOLLOW: a link, even
# a dangling one, fails with ELOOP instead of creating or appending to its target). Where the
# platform has no O_NOFOLLOW (Windows), `lstat` refuses a link before the open.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _refuse_link(path: str, what: str) -> None:
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise OSError(errno.ELOOP if stat.S_ISLNK(st.st_mode) else errno.ENOTDIR,
                      f"the trace's {what} is a symbolic link or not a directory; refusing to write through it", path)


def _open_no_follow(path: str, flags: int) -> int:
    """`os.open` of a trace file that is never a symbolic link (ELOOP when it is one)."""
    if not _NOFOLLOW and os.path.islink(path):
        raise OSError(errno.ELOOP, "the trace file is a symbolic link; refusing to follow it", path)
    try:
        return os.open(path, flags | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise OSError(errno.ELOOP, "the trace file is a symbolic link; refusing to follow it", path) from None
        raise


def _fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
