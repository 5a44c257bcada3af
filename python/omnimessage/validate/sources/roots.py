"""Trace roots: a directory laid out `<yyyy-mm-dd>/<session_id>_<NNN>.jsonl`, indexed from its listing.

Sessions group by id in rotation order; every other `.jsonl` file below the root is *loose*. Only
regular files and real directories are taken: a symbolic link is never followed, a FIFO, device or
socket named `*.jsonl` is never opened, and a directory that cannot be listed is not searched; each
goes to :attr:`Root.skipped` with the reason (OM806), never skipped silently. A session id read
from a file is looked up in this index and never turned into a path.
"""

from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass, field
from typing import Final

from omnimessage.files.safe_open import kind_of

__all__ = ["DATE_DIR", "TRACE_NAME", "Root", "index_root", "is_date"]

TRACE_NAME: Final = re.compile(r"(?P<sid>.+)_(?P<idx>[0-9]{3,})\.jsonl")
"""A session's file: `<session_id>_<NNN>.jsonl` (the index has at least three digits)."""
DATE_DIR: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(slots=True)
class Root:
    """A trace root: its sessions (by id) and the units it makes."""

    path: str
    sessions: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    loose: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(path, why) of every entry not read (OM806)."""


def is_date(name: str) -> bool:
    if not DATE_DIR.fullmatch(name):
        return False
    try:
        datetime.date(int(name[:4]), int(name[5:7]), int(name[8:]))
    except ValueError:
        return False
    return True


def index_root(path: str) -> Root:
    """Index a trace root from its listing: `<yyyy-mm-dd>/<session_id>_<NNN>.jsonl` files group into
    sessions; any other `.jsonl` file below it is loose (validated alone, OM801 in the trace profile).

    Names starting with `.` are ignored, as are names not ending in `.jsonl` (but directories). Only
    regular files and real directories are taken: a symbolic link (to a directory, or named
    `*.jsonl`), a `*.jsonl` FIFO, device or socket, and a directory that cannot be listed go to
    `skipped` with the reason (OM806). The root itself may be a link: it was named on the command
    line."""
    root = Root(path)
    stack: list[tuple[str, int]] = [(path, 0)]
    while stack:
        dirpath, depth = stack.pop()
        try:
            with os.scandir(dirpath) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            root.skipped.append((dirpath, f"cannot list this directory ({exc.strerror or exc}): nothing in it "
                                          f"is validated"))
            continue
        subdirs: list[str] = []
        date_dir = depth == 1 and is_date(os.path.basename(dirpath))
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            full = os.path.join(dirpath, name)
            try:
                if entry.is_symlink():
                    if name.endswith(".jsonl") or os.path.isdir(full):
                        root.skipped.append((full, f"a symbolic link (to {os.readlink(full)!r}): not followed "
                                                   f"under a trace root"))
                    continue
                if entry.is_dir(follow_symlinks=False):
                    subdirs.append(full)
                    continue
                if not name.endswith(".jsonl"):
                    continue
                if not entry.is_file(follow_symlinks=False):
                    kind = kind_of(entry.stat(follow_symlinks=False).st_mode)
                    root.skipped.append((full, f"{kind}, not a regular file: not read"))
                    continue
            except OSError as exc:
                root.skipped.append((full, f"cannot be examined ({exc.strerror or exc}): not read"))
                continue
            m = TRACE_NAME.fullmatch(name)
            if date_dir and m is not None:
                root.sessions.setdefault(m.group("sid"), []).append((int(m.group("idx")), full))
            else:
                root.loose.append(full)
        stack.extend((d, depth + 1) for d in reversed(subdirs))
    for files in root.sessions.values():
        files.sort()
    return root
