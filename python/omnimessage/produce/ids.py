"""Session ids and trace file names, in the reference producer's format.

A session id is `session-YYYY-MM-DD-HH-mm-ss-<8 hex>`: the local date and time the session was
created, zero-padded, then 8 lower-case hex digits of a random UUID (PenguinHarness
`internal/session-support.ts` formatSessionId). Its trace files are
`<root>/<yyyy-mm-dd>/<session_id>_<NNN>.jsonl`: the local date the trace was opened, then a
three-digit index from 001, one file per model context (`trace/writer.ts` currentPath,
`internal/dates.ts` formatLocalDate). An index past 999 keeps all its digits, as the
reference's padStart does.
"""

from __future__ import annotations

import os
import re
import uuid
from datetime import datetime
from typing import Final

__all__ = ["SESSION_ID", "TRACE_FILE", "new_session_id", "session_date", "trace_file_name", "trace_path"]

SESSION_ID: Final = re.compile(r"session-(\d{4}-\d{2}-\d{2})-\d{2}-\d{2}-\d{2}-[0-9a-f]{8}\Z")
"""The reference's session id shape (the date part is group 1)."""
TRACE_FILE: Final = re.compile(r"(.+)_(\d{3,})\.jsonl\Z")
"""A trace file name: `<session_id>_<NNN>.jsonl` (groups: session id, index)."""


def new_session_id(when: datetime | None = None) -> str:
    """A fresh session id for a session created at `when` (default: now, local time)."""
    t = when or datetime.now()
    return f"session-{t:%Y-%m-%d-%H-%M-%S}-{uuid.uuid4().hex[:8]}"


def session_date(session_id: str) -> str | None:
    """The `yyyy-mm-dd` a reference-shaped session id was created on (None for other ids)."""
    m = SESSION_ID.match(session_id)
    return m.group(1) if m else None


def trace_file_name(session_id: str, index: int) -> str:
    """`<session_id>_<NNN>.jsonl`, the index zero-padded to three digits."""
    if index < 1:
        raise ValueError(f"trace file indexes start at 1, not {index}")
    return f"{session_id}_{index:03d}.jsonl"


def trace_path(root: str | os.PathLike[str], session_id: str, index: int, date: str) -> str:
    """`<root>/<date>/<session_id>_<NNN>.jsonl`."""
    return os.path.join(os.fspath(root), date, trace_file_name(session_id, index))
