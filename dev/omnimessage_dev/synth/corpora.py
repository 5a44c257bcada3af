"""The benchmark corpora (`make bench`, the TypeScript bench): the rich flavour of the session
generator (:mod:`.sessions`), the same bytes on every machine for a given size and seed.

- `trace`: a realistic stored trace: long tool outputs (code, logs), JSON-string arguments,
  thinking with signature fidelity and encrypted reasoning, base64 images, compaction pairs.
- `stream`: a live stream: partial start/delta/stop fragments of text, thinking, tool calls and
  outputs, and subagent origins, each segment followed by its complete message.
- `small`: many small messages (events, short texts): per-message overhead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from .sessions import small_lines, stream_lines, trace_lines

__all__ = ["GENERATORS", "MB", "VERSION", "ensure", "small", "stream", "trace"]

MB = 1 << 20
VERSION = 2
"""Bump when the corpora's bytes change: cached files (bench/corpora/) carry it in their names."""


def trace(target_bytes: int, seed: int = 1) -> Iterator[bytes]:
    """One session's trace file: its `session_meta` and tool list, then turns until the size."""
    return trace_lines(target_bytes, seed, rich=True)


def stream(target_bytes: int, seed: int = 2) -> Iterator[bytes]:
    """A session's SDK stream, subagents forwarded with `origin`."""
    return stream_lines(target_bytes, seed, rich=True)


def small(target_bytes: int, seed: int = 3) -> Iterator[bytes]:
    """Many small messages."""
    return small_lines(target_bytes, seed)


GENERATORS: dict[str, tuple[Callable[[int], Iterator[bytes]], int]] = {
    "trace": (trace, 100),
    "stream": (stream, 20),
    "small": (small, 10),
}
"""Corpus name -> (generator, default size in MB)."""


def ensure(directory: Path, scale: float = 1.0) -> dict[str, Path]:
    """Write each corpus (default sizes x `scale`, in MB) unless a file of that scale exists."""
    directory.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, (gen, mb) in GENERATORS.items():
        path = directory / f"{name}-v{VERSION}-x{scale:g}.jsonl"
        if not path.exists():
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                for line in gen(int(mb * scale * MB)):
                    f.write(line)
            os.replace(tmp, path)
        out[name] = path
    return out
