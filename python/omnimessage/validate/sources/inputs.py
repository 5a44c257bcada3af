"""Inputs: files, standard input, trace roots (sessions of rotated files), SSE captures, live SSE.

Each input becomes a *unit*; units are independent, so `--jobs N` validates them in N processes. A
unit opens as a source (`sources`: its lines, file boundaries and own findings as the items of
`feed`), and :func:`run_unit` plays that source through the validators (`feed.play`): data flows one
way, from the source to the engine. A trace root is indexed from its directory listing only:
a session id read from a file is looked up in that index and never turned into a path.

Under a trace root only regular files and real directories are read (:func:`index_root`): a
symbolic link is never followed, a FIFO, device or socket named `*.jsonl` is never opened, and a
directory that cannot be listed is not searched; each is reported as one OM806 finding (a
:class:`SkippedUnit`), never skipped silently. Every file is opened through
:func:`omnimessage.files.safe_open.open_regular` (`O_NONBLOCK`, then `fstat`): a file swapped for a FIFO or
a link after the listing is refused, not read. A FILE named on the command line may be a FIFO or
a pipe (`<(zcat trace.jsonl.gz)`), read as standard input is; never a device or a socket.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field

from omnimessage._generated.models import DEFAULT_MAX_LINE_BYTES
from omnimessage.validate.engine.feed import Open, Progress, Sink, Source, UnitResult, play
from omnimessage.validate.engine.validator import Finding, Validator
from omnimessage.validate.reporting.limit import DEFAULT_MAX_FINDINGS, FindingLimit
from omnimessage.validate.sources.hints import missing_input
from omnimessage.validate.sources.readers import (
    FileSource,
    LiveSource,
    SessionSource,
    SkippedSource,
    SseSource,
    StdinSource,
)
from omnimessage.validate.sources.roots import Root, index_root
from omnimessage.validate.sources.secrets import redact_url

__all__ = [
    "FileUnit",
    "Options",
    "Root",
    "SessionUnit",
    "SkippedUnit",
    "SseUnit",
    "Source",
    "SseUrlUnit",
    "StdinUnit",
    "Unit",
    "UnitResult",
    "discover",
    "index_root",
    "resolve_subagents",
    "run_unit",
]

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
    """The protocol version validated against (`omnimessage.schema.versions.names()` but `auto`; None: the newest)."""
    storage_options: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    """`--storage-option KEY=VALUE` pairs for the inputs that are URLs (`objects.open_input`); not in
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
    nbytes: int | None = None
    """Its size when it was listed (`discover`, a storage listing); None: looked up when asked."""

    @property
    def name(self) -> str:
        return self.path

    @property
    def size(self) -> int:
        if self.nbytes is not None:
            return self.nbytes
        with contextlib.suppress(OSError):
            return os.path.getsize(self.path)
        return 0

    def source(self, opts: Options) -> Source:
        return FileSource(self.path, root=self.root, layout_warning=self.layout_warning, profile=opts.profile,
                          max_line_bytes=opts.max_line_bytes, storage_options=opts.storage_options)


@dataclass(frozen=True, slots=True)
class StdinUnit:
    name: str = "<stdin>"
    size: int = 0

    def source(self, opts: Options) -> Source:
        return StdinSource(opts.max_line_bytes)


@dataclass(frozen=True, slots=True)
class SessionUnit:
    """The files of one session under a trace root, in index order."""

    session_id: str
    files: tuple[tuple[int, str], ...]
    root: str
    nbytes: int | None = None
    """Its files' total size when they were listed (`discover`, a storage listing); None: looked up when
    asked."""

    @property
    def name(self) -> str:
        return self.files[0][1] if self.files else self.session_id

    @property
    def size(self) -> int:
        if self.nbytes is not None:
            return self.nbytes
        total = 0
        for _, p in self.files:
            with contextlib.suppress(OSError):
                total += os.path.getsize(p)
        return total

    def source(self, opts: Options) -> Source:
        return SessionSource(self.session_id, self.files, max_line_bytes=opts.max_line_bytes,
                             storage_options=opts.storage_options)


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

    def source(self, opts: Options) -> Source:
        return SseSource(self.path, self.name, opts.max_line_bytes)


@dataclass(frozen=True, slots=True)
class SseUrlUnit:
    url: str
    duration: float

    @property
    def name(self) -> str:
        """The URL as shown in every output: credential-named query values (`access_token`) masked."""
        return redact_url(self.url)

    size: int = 0
    headers: tuple[tuple[str, str], ...] = ()
    """Request headers (`--header`), checked by `sse.check_header`; their values are never shown."""

    def source(self, opts: Options) -> Source:
        return LiveSource(self.url, self.name, self.duration, self.headers, opts.max_line_bytes)


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

    def source(self, opts: Options) -> Source:
        return SkippedSource(self.path, self.why)


Unit = FileUnit | StdinUnit | SessionUnit | SseUnit | SseUrlUnit | SkippedUnit


# ------------------------------------------------------------------ discovery


def _size(path: str) -> int:
    """A listed file's size, looked up once (`Unit.size` is read for the progress total, a task's work and
    each result): 0 when it cannot be (its reading then reports why)."""
    with contextlib.suppress(OSError):
        return os.path.getsize(path)
    return 0


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
                    files = root.sessions[sid]
                    units.append(SessionUnit(sid, tuple(files), p, nbytes=sum(_size(f) for _, f in files)))
                units.extend(FileUnit(f, layout_warning=True, root=p, nbytes=_size(f)) for f in root.loose)
            else:
                every = sorted([f for fs in root.sessions.values() for _, f in fs] + root.loose)
                units.extend(FileUnit(f, root=p, nbytes=_size(f)) for f in every)
            units.extend(SkippedUnit(f, why, p) for f, why in root.skipped)
            if not root.sessions and not root.loose and not root.skipped:
                problems.append(f"{p}: no .jsonl file in this directory")
        elif os.path.exists(p):
            units.append(FileUnit(p))
        else:
            problems.append(missing_input(p))
    return units, roots, problems


# ------------------------------------------------------------------ validation of one unit


def run_unit(unit: Unit, opts: Options, sink: Sink | None = None, progress: Progress | None = None) -> UnitResult:
    """Validate one unit: its source's items through the engine (`feed.play`); findings go to `sink`
    as they are found (or into the result)."""
    res = UnitResult(unit.name)
    out: Sink = sink if sink is not None else _holder(opts, res)
    src = unit.source(opts)
    res.sessions, res.day = src.facts.sessions, src.facts.day

    def make(o: Open) -> Validator:
        return opts.validator(o.name, collect_subagents=o.collect_subagents, profile=o.profile, truncated=o.truncated)

    try:
        play(src.items(), out, res, make=make, position=src.position, progress=progress)
    except OSError as exc:
        res.failure = f"{getattr(exc, 'filename', None) or unit.name}: {exc.strerror or exc}"
        return res
    facts = src.facts
    if facts.failure:
        res.failure = facts.failure
        return res
    res.bytes, res.note, res.server_events = facts.bytes, facts.note, facts.server_events
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


def resolve_subagents(root: Root, pointers: list[tuple[str, str, int]]) -> list[Finding]:
    """OM805 for `subagent` pointers whose child has no trace under the root (looked up, never joined)."""
    out = []
    for child, source, line in pointers:
        if child not in root.sessions:
            out.append(Finding("OM805", "warning", f"subagent {child!r}: no trace of that session under {root.path}",
                               source, line, "/payload/session_id"))
    return out
