"""What a source says to the engine, and the one loop that plays it: data flows one way.

A *source* (a file, standard input, a session's rotated files, an SSE capture, a live SSE URL:
`sources`) turns its input into a sequence of :data:`Item`s; :func:`play` feeds them to validators
and collects what a unit's result holds. A source never sees a validator; the engine never asks a
source anything but its position (for progress) and, once its items are read, its :class:`Facts`.

Items, in the order a source yields them:

- :class:`Open`: start a validator for what follows (an input, or one chain of a session's files);
- :class:`Begin`: the next file of the current validator's session (`Validator.begin_file`);
- a line, `(number, raw, terminated)` as `reader.iter_lines` yields it (`raw` None: over the limit);
- a :class:`Finding` of the source itself (layout, framing: OM80x, OM90x), reported as it comes;
- :class:`Cite`: findings about the lines that follow name this SSE event id;
- a :class:`Step`: a file read to its end, a gap in a stream, a progress tick;
- :class:`End`: finish the current validator (its end-of-input rules) and count what it saw.
"""

from __future__ import annotations

import contextlib
import enum
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Final, Protocol

from omnimessage.validate.engine.fused import step
from omnimessage.validate.engine.validator import Finding, Validator
from omnimessage.validate.sources.roots import is_date

__all__ = ["Begin", "Cite", "End", "Facts", "Item", "Open", "Source", "Step", "UnitResult", "play"]

PROGRESS_EVERY: Final = 256
"""Progress is reported once every this many lines (by their number)."""

Sink = Callable[[Finding], None]
Progress = Callable[[int], None]
"""Called with the number of bytes of the current unit read so far."""


@dataclass(frozen=True, slots=True)
class Open:
    """Start a validator for what follows, named `name` (`Options.validator` takes the rest)."""

    name: str
    collect_subagents: bool = False
    profile: str | None = None
    """None: the run's profile."""
    truncated: bool | None = None
    """None: as the run says (`--truncated`)."""


@dataclass(frozen=True, slots=True)
class Begin:
    """The next file of the current validator's session (trace rotation)."""

    path: str
    session_id: str
    rotated: bool


@dataclass(frozen=True, slots=True)
class Cite:
    """Findings about the lines that follow name this event id (`(event id ...)`); empty: none."""

    text: str


@dataclass(frozen=True, slots=True)
class End:
    """Finish the current validator: report its end-of-input findings but those of `drop`."""

    drop: frozenset[str] = frozenset()
    producer: bool = True
    """The unit's producer and day (`--summary-by`) may come from this validator's `session_meta`."""


class Step(enum.Enum):
    FILE_END = "a file was read to its end (the unit counts one more file)"
    UNKNOWN_PAST = "what came before is unknown: a stream joined mid-session"
    NEW_EPOCH = "a new SSE event-id epoch: the producer restarted, and what came before is unknown"
    GAP = "a gap in the stream (resync_required): open segments forgotten, what came before is unknown"
    TICK = "a moment to report progress"


Line = tuple[int, bytes | None, bool]
Item = Line | Open | Begin | Cite | End | Step | Finding


@dataclass(slots=True)
class Facts:
    """What a source knows about its input besides its items: read once they are all read (the
    sessions and day before them)."""

    bytes: int = 0
    note: str = ""
    failure: str = ""
    """Why the input could not be read: the unit is then a usage error, its validator not finished."""
    server_events: Counter[str] = field(default_factory=Counter)
    sessions: int = 0
    day: str = ""


class Source(Protocol):
    """An input as items (see the module). `facts` is complete once `items()` is exhausted."""

    facts: Facts

    def items(self) -> Iterator[Item]: ...

    def position(self) -> int | None:
        """Bytes read so far (None: not known now)."""
        ...


@dataclass(slots=True)
class UnitResult:
    name: str
    findings: list[Finding] = field(default_factory=list)
    lines: int = 0
    messages: int = 0
    bytes: int = 0
    files: int = 0
    subagents: list[tuple[str, str, int]] = field(default_factory=list)
    server_events: Counter[str] = field(default_factory=Counter)
    beyond: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Findings not held in `findings` past `Options.max_findings`, per (rule, severity)."""
    failure: str = ""
    """Why the input could not be read (the unit then counts as a usage error)."""
    note: str = ""
    sessions: int = 0
    """1 for a session of a trace root (`SessionUnit`)."""
    producer: tuple[str, str, str] = ("", "", "")
    """`session_meta` (source, provider, model_id) of the input's first main-session `session_meta`."""
    day: str = ""
    """`yyyy-mm-dd`: the date folder of a session's first file, else the date of that `session_meta`."""


def play(items: Iterable[Item], out: Sink, res: UnitResult, *, make: Callable[[Open], Validator] | None = None,
         validator: Validator | None = None, position: Callable[[], int | None] | None = None,
         progress: Progress | None = None) -> None:
    """Feed `items` to validators (`make` builds one at each `Open`; `validator` is the one before
    any), findings to `out`, counts into `res`. OSError from the source propagates."""
    v = validator
    cite = ""
    for item in items:
        if type(item) is tuple:  # a line: the hot path
            number, raw, terminated = item
            assert v is not None, "a source yields a line before Open"
            if raw is None:
                v.feed_raw(raw, number, terminated)
            else:
                step(v, raw, number, terminated)
            if v._pending:
                for f in v.take():
                    out(replace(f, message=f"{f.message} (event id {cite})") if cite else f)
            if progress is not None and position is not None and number % PROGRESS_EVERY == 0:
                _report(position, progress)
            continue
        match item:
            case Finding():
                out(item)
            case Open():
                assert make is not None, "Open needs a validator factory"
                v, cite = make(item), ""
            case Begin(path, session_id, rotated):
                assert v is not None
                for f in v.begin_file(path, session_id=session_id, rotated=rotated):
                    out(f)
            case Cite(text):
                cite = text
            case Step.FILE_END:
                res.files += 1
            case Step.TICK:
                if progress is not None and position is not None:
                    _report(position, progress)
            case Step():
                assert v is not None
                if item is Step.NEW_EPOCH:
                    v.restart()
                elif item is Step.GAP:
                    v.discontinuity()
                v.unknown_past()
            case End(drop, producer):
                assert v is not None
                for f in v.finish():
                    if f.rule not in drop:
                        out(f)
                res.lines += v.lines
                res.messages += v.messages
                res.subagents.extend(v.subagents)
                if producer:
                    _producer(v, res)


def _report(position: Callable[[], int | None], progress: Progress) -> None:
    at = position()
    if at is not None:
        with contextlib.suppress(OSError, ValueError):
            progress(at)


def _producer(v: Validator, res: UnitResult) -> None:
    """The input's producer and day (`--summary-by`), from its first main-session `session_meta`."""
    if v.meta is not None and res.producer == ("", "", ""):
        res.producer = v.meta[:3]
        if not res.day and is_date(v.meta[3]):
            res.day = v.meta[3]
