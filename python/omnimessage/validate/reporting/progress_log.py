"""Progress of a big run (an archive, a Dask cluster): sessions and bytes done, throughput, ETA.

On a terminal one line, redrawn at most :data:`REDRAW` times a second and erased at the end; off a
terminal (a CI log, a cron job, a Kubernetes pod) a log line every `every` seconds, and a last line
at the end when any was written, so a short run stays silent. It is fed completed units
(:meth:`ArchiveProgress.done`), whichever engine validated them (`--jobs`, `--dask`).

    progress = ArchiveProgress(len(units), sum(u.size for u in units))
    for result in results:
        progress.done(result)
    progress.close()
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Final, TextIO

from omnimessage.validate.sources.inputs import UnitResult

__all__ = ["DEFAULT_EVERY", "REDRAW", "ArchiveProgress", "format_duration"]

DEFAULT_EVERY: Final = 30.0
"""Seconds between two log lines off a terminal."""
REDRAW: Final = 10
"""Redraws of the terminal line per second, at most."""
_PREFIX: Final = "omnimessage validate: progress:"


def format_duration(seconds: float) -> str:
    """`42s`, `3m05s`, `2h07m`."""
    s = max(0, int(seconds + 0.5))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def _size(n: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n / 1e3:,.1f} kB"


class ArchiveProgress:
    """Counts finished units and shows the run's progress (see the module's documentation).

    Args:
        total_units: units (sessions, files) in the run.
        total_bytes: their size (0 when unknown: no percentage, no ETA).
        stream: where to write (standard error).
        tty: a terminal line (True) or log lines (False); None: whether `stream` is a terminal.
        every: seconds between log lines off a terminal.
        enabled: False shows nothing (`--no-progress`), counts still kept.
        clock: a monotonic clock in seconds (tests pass a fake one).
    """

    def __init__(self, total_units: int, total_bytes: int, stream: TextIO | None = None, tty: bool | None = None,
                 *, every: float = DEFAULT_EVERY, enabled: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.out: TextIO = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.out, "isatty", lambda: False)()) if tty is None else tty
        self.total_units = total_units
        self.total_bytes = total_bytes
        self.every = every
        self.enabled = enabled
        self.clock = clock
        self.start = clock()
        self.last = self.start
        self.units = 0
        self.bytes = 0
        self.failed = 0
        self.shown = False
        """A terminal line is on screen (erase it before writing findings: :meth:`clear`)."""
        self.logged = 0

    def done(self, result: UnitResult) -> None:
        """One unit finished (its bytes read, whether it could be read)."""
        self.units += 1
        self.bytes += result.bytes
        if result.failure:
            self.failed += 1
        if not self.enabled:
            return
        now = self.clock()
        if self.tty:
            if now - self.last >= 1 / REDRAW:
                self.last = now
                self.out.write("\r\x1b[2K" + self.line(now))
                self.out.flush()
                self.shown = True
        elif now - self.last >= self.every:
            self.last = now
            self.out.write(f"{_PREFIX} {self.line(now)}\n")
            self.out.flush()
            self.logged += 1

    def line(self, now: float | None = None) -> str:
        """The progress as one line: units, bytes, throughput, ETA."""
        now = self.clock() if now is None else now
        elapsed = max(now - self.start, 1e-9)
        rate = self.bytes / elapsed
        parts = [f"{self.units:,}/{self.total_units:,} sessions"]
        if self.total_bytes > 0:
            pct = min(self.bytes / self.total_bytes, 1.0) * 100
            parts.append(f"{_size(self.bytes)} of {_size(self.total_bytes)} ({pct:.0f}%)")
        else:
            parts.append(_size(self.bytes))
        parts.append(f"{rate / 1e6:,.1f} MB/s")
        parts.append(f"{self.units / elapsed:,.1f} sessions/s")
        if self.total_bytes > 0 and rate > 0 and self.units < self.total_units:
            parts.append(f"ETA {format_duration(max(self.total_bytes - self.bytes, 0) / rate)}")
        elif self.total_bytes <= 0 and self.units and self.units < self.total_units:
            parts.append(f"ETA {format_duration((self.total_units - self.units) * elapsed / self.units)}")
        if self.failed:
            parts.append(f"{self.failed:,} unreadable")
        return ", ".join(parts)

    def clear(self) -> None:
        """Erase the terminal line (before other output); it comes back on the next redraw."""
        if self.shown:
            self.out.write("\r\x1b[2K")
            self.out.flush()
            self.shown = False

    def close(self) -> None:
        """The run is over: erase the terminal line, or log the totals if any log line was written."""
        if not self.enabled:
            return
        if self.tty:
            self.clear()
            return
        if self.logged:
            now = self.clock()
            elapsed = max(now - self.start, 1e-9)
            self.out.write(f"{_PREFIX} done: {self.units:,} sessions, {_size(self.bytes)} in "
                           f"{format_duration(elapsed)} ({self.bytes / elapsed / 1e6:,.1f} MB/s)\n")
            self.out.flush()
