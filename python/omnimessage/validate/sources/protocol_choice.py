"""`--protocol auto`: the protocol version read from the inputs before they are validated.

Files and trace roots are read ahead, within bounds (at most :data:`MAX_FILES` files and
:data:`MAX_LINES` lines of each, regular files only, links never followed), each line decoded as
plain JSON and its versioned features collected (`omnimessage.schema.versions.detect`). Standard input,
SSE and URLs cannot be read twice: for them `auto` is the newest version, and the note says so.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, Final

from omnimessage.files.safe_open import open_regular
from omnimessage.schema.versions import AUTO, detect, newest
from omnimessage.text.sanitize import sanitize
from omnimessage.validate.engine.recover import generic

__all__ = ["MAX_FILES", "MAX_LINES", "choose"]

MAX_FILES: Final = 200
MAX_LINES: Final = 5000
_MAX_LINE: Final = 1 << 20
"""Lines longer than this are not read ahead (they carry no more version marks than their keys)."""


def _files(paths: list[str]) -> Iterator[str]:
    n = 0
    for p in paths:
        if os.path.isdir(p) and not os.path.islink(p):
            for top, dirs, names in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(top, d)))
                for name in sorted(names):
                    full = os.path.join(top, name)
                    if name.endswith(".jsonl") and os.path.isfile(full) and not os.path.islink(full):
                        n += 1
                        if n > MAX_FILES:
                            return
                        yield full
        elif p != "-" and "://" not in p and os.path.isfile(p):
            n += 1
            if n > MAX_FILES:
                return
            yield p


def _messages(path: str) -> Iterator[Any]:
    try:
        f = open_regular(path, follow=False)
    except (OSError, ValueError):
        return
    with f:
        for i, raw in enumerate(f):
            if i >= MAX_LINES:
                return
            if len(raw) <= _MAX_LINE:
                yield generic(raw.rstrip(b"\r\n"))


def choose(paths: list[str]) -> tuple[str, str]:
    """(the protocol to validate against, the report's note saying what was chosen and why)."""
    files = list(_files(paths))
    unread = [p for p in paths if p == "-" or "://" in p]
    if not files:
        v = newest()
        return v, f"protocol {AUTO}: nothing to read ahead ({'standard input or a URL' if unread else 'no file'}); " \
                  f"validated as {v}, the newest"
    found = detect(m for f in files for m in _messages(f))
    where = f"{len(files)} file(s) read ahead, up to {MAX_LINES} lines each"
    extra = "; standard input / URLs not read ahead" if unread else ""
    return found.version, sanitize(f"protocol {AUTO}: chose {found.version} ({found.reason}; {where}{extra})")
