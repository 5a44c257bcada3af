"""Hints for the mistakes users make most when pointing the validator at their data.

* a compressed file (gzip, xz, zstd, bzip2) is refused once, with "decompress first", instead of
  a screenful of `invalid-utf8` findings;
* a stream validated with the default trace profile (partials or `origin`, no `session_meta`)
  gets a note suggesting `--profile stream`;
* a URL given as a PATH is named as such, pointing to `--sse-url`.
"""

from __future__ import annotations

import errno
import io
import re
import shlex
from collections.abc import Iterable
from typing import BinaryIO, Final

__all__ = ["COMPRESSED_MAGIC", "missing_input", "profile_hint", "refuse_compressed_head"]

COMPRESSED_MAGIC: Final = (
    (b"\x1f\x8b", "gzip", "gzip -dc"),
    (b"\xfd7zXZ\x00", "xz", "xz -dc"),
    (b"\x28\xb5\x2f\xfd", "zstd", "zstd -dc"),
    (b"BZh", "bzip2", "bzip2 -dc"),
)
"""(leading bytes, format, the command that decompresses to standard output). No JSON Lines
file starts with any of them: its first byte is `{` (or whitespace)."""

_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")

STREAM_SIGNS: Final = frozenset({"OM203", "OM204"})
"""no-partials-in-trace, no-origin-in-trace: what only a stream carries."""
NO_SESSION_META: Final = "OM201"
"""trace-opens-with-session-meta."""


def refuse_compressed_head(fh: BinaryIO, path: str, profile: str = "trace") -> None:
    """Raise OSError (the input is then reported unreadable, once) if the open file `fh`, named
    `path`, starts compressed: looks at its buffered head without consuming it (so a pipe too). The
    hint is the command to run, the profile kept (`--profile stream` when that was asked for)."""
    head = fh.peek(6)[:6] if isinstance(fh, io.BufferedReader) else b""
    flags = " --profile stream" if profile == "stream" else ""
    for magic, name, command in COMPRESSED_MAGIC:
        if head.startswith(magic):
            raise OSError(
                errno.EINVAL,
                f"compressed ({name}), not JSON Lines: decompress first, e.g. "
                f"`{command} {shlex.quote(path)} | omnimessage validate{flags} -`",
                path,
            )


def profile_hint(profile: str | None, rules: Iterable[str]) -> list[str]:
    """A note suggesting `--profile stream` when the profile was left at its default (trace) and
    the findings say the input is a stream: partials or origin, and no `session_meta` first."""
    seen = set(rules)
    if profile is None and seen & STREAM_SIGNS and NO_SESSION_META in seen:
        return [
            "this looks like a stream, not a stored trace (partial_* fragments or origin, no session_meta "
            "first): validate it with --profile stream"
        ]
    return []


def missing_input(path: str) -> str:
    """Why a PATH is not an input: no such file, or a URL (read live with --sse-url)."""
    if _URL.match(path):
        return f"{path}: not a file but a URL: validate a live text/event-stream producer with --sse-url URL"
    return f"{path}: no such file or directory"
