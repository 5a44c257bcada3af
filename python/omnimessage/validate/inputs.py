"""Inputs: files, standard input, trace roots (sessions of rotated files), SSE captures, live SSE.

Each input becomes a *unit* validated by one :class:`Validator`; units are independent, so
`--jobs N` validates them in N processes. A trace root is indexed from its directory listing only:
a session id read from a file is looked up in that index and never turned into a path.

Under a trace root only regular files and real directories are read (:func:`index_root`): a
symbolic link is never followed, a FIFO, device or socket named `*.jsonl` is never opened, and a
directory that cannot be listed is not searched; each is reported as one OM806 finding (a
:class:`SkippedUnit`), never skipped silently. Every file is opened through
:func:`omnimessage._files.open_regular` (`O_NONBLOCK`, then `fstat`): a file swapped for a FIFO or
a link after the listing is refused, not read. A FILE named on the command line may be a FIFO or
a pipe (`<(zcat trace.jsonl.gz)`), read as standard input is; never a device or a socket.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO, Final

from .._files import open_regular
from .._generated.models import DEFAULT_MAX_LINE_BYTES
from .._sanitize import clip_text, sanitize
from ..reader import iter_lines
from .engine import Finding, Validator
from .hints import missing_input, refuse_compressed_head
from .limit import DEFAULT_MAX_FINDINGS, FindingLimit
from .live import LiveStream
from .roots import Root, index_root, is_date
from .rules import RULES
from .sse import SseResult, file_chunks, iter_lines_bytes, validate_sse

__all__ = [
    "FileUnit",
    "Options",
    "Root",
    "SessionUnit",
    "SkippedUnit",
    "SseUnit",
    "SseUrlUnit",
    "StdinUnit",
    "Unit",
    "UnitResult",
    "discover",
    "index_root",
    "resolve_subagents",
    "run_unit",
]

_PROGRESS_EVERY: Final = 256

Sink = Callable[[Finding], None]
Progress = Callable[[int], None]
"""Called with the number of bytes of the current unit read so far."""


@dataclass(frozen=True, slots=True)
class Options:
    profile: str = "trace"
    legacy: bool = False
    lenient: bool = False
    truncated: bool = False
    canonical: bool = True
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    max_findings: int = DEFAULT_MAX_FINDINGS
    """Findings a result holds (`run_unit` without a sink); the rest are counted in `beyond`."""
    ignored: frozenset[str] = frozenset()
    """Rules whose findings a result does not hold (nor count)."""
    protocol: str | None = None
    """The protocol version validated against (`omnimessage.versions.names()` but `auto`; None: the newest)."""
    storage_options: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    """`--storage-option KEY=VALUE` pairs for the inputs that are URLs (`storage.open_input`); not in
    the repr, which a task scheduler may log: they may hold a credential."""

    def validator(self, source: str, *, collect_subagents: bool = False, profile: str | None = None,
                  truncated: bool | None = None) -> Validator:
        return Validator(
            profile or self.profile,
            legacy=self.legacy,
            lenient=self.lenient,
            truncated=self.truncated if truncated is None else truncated,
            source=source,
            canonical=self.canonical,
            collect_subagents=collect_subagents,
            protocol=self.protocol,
        )


@dataclass(frozen=True, slots=True)
class FileUnit:
    path: str
    layout_warning: bool = False
    """Found under a trace root but outside its layout (OM801)."""
    root: str = ""

    @property
    def name(self) -> str:
        return self.path

    @property
    def size(self) -> int:
        with contextlib.suppress(OSError):
            return os.path.getsize(self.path)
        return 0


@dataclass(frozen=True, slots=True)
class StdinUnit:
    name: str = "<stdin>"
    size: int = 0


@dataclass(frozen=True, slots=True)
class SessionUnit:
    """The files of one session under a trace root, in index order."""

    session_id: str
    files: tuple[tuple[int, str], ...]
    root: str

    @property
    def name(self) -> str:
        return self.files[0][1] if self.files else self.session_id

    @property
    def size(self) -> int:
        total = 0
        for _, p in self.files:
            with contextlib.suppress(OSError):
                total += os.path.getsize(p)
        return total


@dataclass(frozen=True, slots=True)
class SseUnit:
    path: str

    @property
    def name(self) -> str:
        return "<stdin>" if self.path == "-" else self.path

    @property
    def size(self) -> int:
        if self.path == "-":
            return 0
        with contextlib.suppress(OSError):
            return os.path.getsize(self.path)
        return 0


@dataclass(frozen=True, slots=True)
class SseUrlUnit:
    url: str
    duration: float

    @property
    def name(self) -> str:
        """The URL as shown in every output: credential-named query values (`access_token`) masked."""
        from .secrets import redact_url

        return redact_url(self.url)

    size: int = 0
    headers: tuple[tuple[str, str], ...] = ()
    """Request headers (`--header`), checked by `sse.check_header`; their values are never shown."""


@dataclass(frozen=True, slots=True)
class SkippedUnit:
    """An entry under a trace root that is not read (a link, a special file, an unreadable
    directory): validating it reports its one OM806 finding."""

    path: str
    why: str
    root: str = ""
    size: int = 0

    @property
    def name(self) -> str:
        return self.path


Unit = FileUnit | StdinUnit | SessionUnit | SseUnit | SseUrlUnit | SkippedUnit


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


# ------------------------------------------------------------------ discovery


def discover(paths: list[str], profile: str) -> tuple[list[Unit], list[Root], list[str]]:
    """Units for the given paths (files, `-`, directories); returns (units, trace roots, problems)."""
    units: list[Unit] = []
    roots: list[Root] = []
    problems: list[str] = []
    for p in paths:
        if p == "-":
            units.append(StdinUnit())
        elif os.path.isdir(p):
            root = index_root(p)
            if profile == "trace":
                roots.append(root)
                for sid in sorted(root.sessions):
                    units.append(SessionUnit(sid, tuple(root.sessions[sid]), p))
                units.extend(FileUnit(f, layout_warning=True, root=p) for f in root.loose)
            else:
                files = sorted([f for fs in root.sessions.values() for _, f in fs] + root.loose)
                units.extend(FileUnit(f, root=p) for f in files)
            units.extend(SkippedUnit(f, why, p) for f, why in root.skipped)
            if not root.sessions and not root.loose and not root.skipped:
                problems.append(f"{p}: no .jsonl file in this directory")
        elif os.path.exists(p):
            units.append(FileUnit(p))
        else:
            problems.append(missing_input(p))
    return units, roots, problems


# ------------------------------------------------------------------ validation of one unit


def _lines(fh: BinaryIO, v: Validator, sink: Sink, max_line_bytes: int, progress: Progress | None, base: int) -> int:
    """Feed every line of `fh`; returns the bytes read."""
    feed = v.feed_raw
    take = v.take
    for number, raw, terminated in iter_lines(fh, max_line_bytes=max_line_bytes):
        feed(raw, number, terminated)
        if v._pending:
            for f in take():
                sink(f)
        if progress is not None and number % _PROGRESS_EVERY == 0:
            with contextlib.suppress(OSError, ValueError):
                progress(base + fh.tell())
    with contextlib.suppress(OSError, ValueError):
        return fh.tell()
    return 0


def run_unit(unit: Unit, opts: Options, sink: Sink | None = None, progress: Progress | None = None) -> UnitResult:
    """Validate one unit; findings go to `sink` as they are found (or into the result)."""
    res = UnitResult(unit.name)
    out: Sink = sink if sink is not None else _holder(opts, res)
    try:
        if isinstance(unit, FileUnit):
            _run_file(unit, opts, out, res, progress)
        elif isinstance(unit, StdinUnit):
            v = opts.validator("<stdin>")
            res.bytes = _lines(sys.stdin.buffer, v, out, opts.max_line_bytes, progress, 0)
            _finish(v, out, res)
        elif isinstance(unit, SessionUnit):
            _run_session(unit, opts, out, res, progress)
        elif isinstance(unit, SseUnit):
            _run_sse(unit, opts, out, res, progress)
        elif isinstance(unit, SkippedUnit):
            out(Finding("OM806", RULES["OM806"].severity, unit.why, unit.path, 0))
        else:
            _run_url(unit, opts, out, res)
    except OSError as exc:
        res.failure = f"{getattr(exc, 'filename', None) or unit.name}: {exc.strerror or exc}"
    return res


def _holder(opts: Options, res: UnitResult) -> Sink:
    """A sink keeping the first `opts.max_findings` findings in `res.findings`, counting the rest."""
    limit = FindingLimit(opts.max_findings)
    limit.beyond = res.beyond
    ignored = opts.ignored

    def hold(f: Finding) -> None:
        if f.rule not in ignored and limit.admit(f):
            res.findings.append(f)

    return hold


def _finish(v: Validator, out: Sink, res: UnitResult) -> None:
    for f in v.finish():
        out(f)
    res.lines += v.lines
    res.messages += v.messages
    res.files += 1
    res.subagents.extend(v.subagents)
    _producer(v, res)


def _run_file(unit: FileUnit, opts: Options, out: Sink, res: UnitResult, progress: Progress | None) -> None:
    v = opts.validator(unit.path, collect_subagents=unit.layout_warning)
    # under a trace root: a regular file, never a link; named on the command line: a FIFO or pipe too
    from .storage import open_input  # a URL goes through fsspec (storage imports this module)

    with open_input(unit.path, opts, streams=not unit.root, follow=not unit.root) as fh:
        refuse_compressed_head(fh, unit.path, opts.profile)
        if unit.layout_warning and opts.profile == "trace":
            out(Finding("OM801", RULES["OM801"].severity,
                        "not laid out as <yyyy-mm-dd>/<session_id>_<NNN>.jsonl under the root; validated alone",
                        unit.path, 0))
        res.bytes = _lines(fh, v, out, opts.max_line_bytes, progress, 0)
    _finish(v, out, res)


def _run_session(unit: SessionUnit, opts: Options, out: Sink, res: UnitResult, progress: Progress | None) -> None:
    from .storage import open_input  # a URL goes through fsspec (storage imports this module)

    res.sessions = 1
    if unit.files:  # <root>/<yyyy-mm-dd>/<session_id>_<NNN>.jsonl (a local path or a URL)
        res.day = unit.files[0][1].replace(os.sep, "/").rsplit("/", 2)[-2]
    files: list[tuple[int, str]] = []
    duplicates: list[tuple[int, str]] = []
    seen: dict[int, str] = {}
    expected = 1
    for idx, path in unit.files:
        if idx in seen:
            out(Finding("OM802", "error", f"index {idx:03d} of session {unit.session_id!r} appears twice (also "
                                          f"{seen[idx]}); this file is validated on its own", path, 0))
            duplicates.append((idx, path))
            continue
        if idx != expected:
            missing = f"{expected:03d}" if idx == expected + 1 else f"{expected:03d}-{idx - 1:03d}"
            out(Finding("OM802", "error", f"index {missing} of session {unit.session_id!r} is missing before this "
                                          f"file", path, 0))
        seen[idx] = path
        files.append((idx, path))
        expected = idx + 1
    done = 0
    for group in ([files], [[d] for d in duplicates]):
        for chain in group:
            v = opts.validator(chain[0][1], collect_subagents=True)
            for idx, path in chain:
                for f in v.begin_file(path, session_id=unit.session_id, rotated=idx > 1):
                    out(f)
                with open_input(path, opts, follow=False) as fh:  # under a trace root: regular files only
                    done += _lines(fh, v, out, opts.max_line_bytes, progress, done)
                res.files += 1
            for f in v.finish():
                out(f)
            res.lines += v.lines
            res.messages += v.messages
            res.subagents.extend(v.subagents)
            _producer(v, res)
    res.bytes = done


def _producer(v: Validator, res: UnitResult) -> None:
    """The input's producer and day (`--summary-by`), from its first main-session `session_meta`."""
    if v.meta is not None and res.producer == ("", "", ""):
        res.producer = v.meta[:3]
        if not res.day and is_date(v.meta[3]):
            res.day = v.meta[3]


def _run_sse(unit: SseUnit, opts: Options, out: Sink, res: UnitResult, progress: Progress | None) -> None:
    v = opts.validator(unit.name, profile="stream")
    with contextlib.ExitStack() as stack:
        fh: BinaryIO = sys.stdin.buffer if unit.path == "-" else stack.enter_context(
            open_regular(unit.path, streams=True))
        tick = None
        if progress is not None:
            def tick(n: int) -> None:
                if n % _PROGRESS_EVERY == 0:
                    with contextlib.suppress(OSError, ValueError):
                        progress(fh.tell())
        sse = validate_sse(iter_lines_bytes(file_chunks(fh), opts.max_line_bytes), v, out, on_line=tick,
                           max_bytes=opts.max_line_bytes)
        with contextlib.suppress(OSError, ValueError):
            res.bytes = fh.tell()
    for f in v.finish():
        out(f)
    res.lines = v.lines
    res.messages = v.messages
    res.files = 1
    res.server_events = sse.server_events
    _note_gaps(res, sse)


def _note_gaps(res: UnitResult, sse: SseResult) -> None:
    """Say where the stream had gaps (resyncs, new epochs): open fragments were forgotten there."""
    for what, where in (("resync_required", sse.resyncs), ("a new event-id epoch", sse.epochs)):
        if where:
            lines = ", ".join(map(str, where[:10])) + (", ..." if len(where) > 10 else "")
            res.note = "; ".join(n for n in (res.note, f"{what} on line(s) {lines}: open fragments were "
                                                        f"forgotten there") if n)


def _run_url(unit: SseUrlUnit, opts: Options, out: Sink, res: UnitResult) -> None:
    from .secrets import redact_url

    try:
        live = LiveStream(unit.url, unit.duration, headers=unit.headers)
    except ValueError as exc:
        res.failure = f"{unit.name}: cannot connect ({redact_url(str(exc))})"
        return
    # A capture cut on purpose: unclosed fragments and a last partial event are not errors.
    v = opts.validator(unit.name, profile="stream", truncated=True)
    sse = validate_sse(iter_lines_bytes(live.chunks(), opts.max_line_bytes), v, out, torn_ok=True,
                       max_bytes=opts.max_line_bytes)
    if live.failure:
        if live.status and live.status != 200:
            res.failure = f"{unit.name}: HTTP {live.status} (expected 200 with text/event-stream)"
        elif live.status:
            res.failure = (f"{unit.name}: Content-Type is {sanitize(clip_text(live.content_type, 80))!r}, not "
                           "text/event-stream")
        else:
            res.failure = f"{unit.name}: {redact_url(live.failure)}"
        return
    findings = v.finish()
    idle = not v.lines
    for f in findings:
        if not (idle and f.rule == "OM004"):  # an idle stream is said so below, in words about streams
            out(f)
    res.bytes = live.bytes
    res.lines = v.lines
    res.messages = v.messages
    res.files = 1
    res.server_events = sse.server_events
    _note_gaps(res, sse)
    notes = [res.note]
    if live.resumed_from is not None:
        notes.append(f"attached mid-session: resumed from event id {live.resumed_from} to read what the server "
                     "still keeps" + ("" if sse.midstream or sse.resyncs else ", from the start of its epoch"))
    if sse.midstream or (live.resumed_from is not None and sse.resyncs):
        notes.append("judged as a stream that starts mid-session (calls, requests and segments begun before "
                     "it are not held against it)")
    if sse.cut_count:
        lines = ", ".join(map(str, sse.cuts[:10])) + (", ..." if sse.cut_count > 10 else "")
        notes.append(f"the connection was resumed {sse.cut_count} time(s) with Last-Event-ID (line(s) {lines}); "
                     "judged as one stream")
    if idle:
        notes.append(f"the stream carried no event in the {unit.duration:g} s it was read (an idle producer, or "
                     "heartbeats only): nothing to judge")
    notes.append(f"read for {unit.duration:g} s: {sanitize(live.ended)}")
    res.note = "; ".join(n for n in notes if n)


def resolve_subagents(root: Root, pointers: list[tuple[str, str, int]]) -> list[Finding]:
    """OM805 for `subagent` pointers whose child has no trace under the root (looked up, never joined)."""
    out = []
    for child, source, line in pointers:
        if child not in root.sessions:
            out.append(Finding("OM805", "warning", f"subagent {child!r}: no trace of that session under {root.path}",
                               source, line, "/payload/session_id"))
    return out
