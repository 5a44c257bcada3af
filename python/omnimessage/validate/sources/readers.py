"""The inputs as sources: each reads its input and yields the engine's items (`feed`), nothing else.

`FileSource` (a file, local or a URL), `StdinSource`, `SessionSource` (a session's rotated files
under a trace root), `SseSource` (an SSE capture: a file or standard input), `LiveSource` (a live
`--sse-url`) and `SkippedSource` (an entry under a trace root that is not read: its one OM806).
Each keeps what the engine reads at the end in its `facts` (bytes read, a note, a failure).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import BinaryIO, Final

from omnimessage.files.safe_open import open_regular
from omnimessage.reader import iter_lines
from omnimessage.text.sanitize import clip_text, sanitize
from omnimessage.validate.engine.feed import PROGRESS_EVERY, Begin, End, Facts, Item, Open, Step
from omnimessage.validate.engine.rules import RULES
from omnimessage.validate.engine.validator import Finding
from omnimessage.validate.sources.hints import refuse_compressed_head
from omnimessage.validate.sources.live import LiveStream
from omnimessage.validate.sources.objects import open_input
from omnimessage.validate.sources.secrets import redact_url
from omnimessage.validate.sources.sse import SseResult, file_chunks, iter_lines_bytes, sse_items

__all__ = ["FileSource", "LiveSource", "SessionSource", "SkippedSource", "SseSource", "StdinSource"]

_NO_OM004: Final = frozenset({"OM004"})
_FILE_END: Final = Step.FILE_END


def _tell(fh: BinaryIO) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        return fh.tell()
    return None


class _Reading:
    """A source reading one file handle at a time: its position is that handle's, past `base`."""

    def __init__(self) -> None:
        self.facts = Facts()
        self._fh: BinaryIO | None = None
        self._base = 0

    def position(self) -> int | None:
        if self._fh is None:
            return None
        at = _tell(self._fh)
        return None if at is None else self._base + at


class FileSource(_Reading):
    """One file: a path named on the command line (a FIFO or pipe too), or one under a trace root
    (a regular file, never a link; `layout_warning`: outside the root's layout, OM801)."""

    def __init__(self, path: str, *, root: str, layout_warning: bool, profile: str, max_line_bytes: int,
                 storage_options: tuple[tuple[str, str], ...]) -> None:
        super().__init__()
        self.path, self.root, self.layout_warning = path, root, layout_warning
        self.profile, self.max_line_bytes, self.storage_options = profile, max_line_bytes, storage_options

    def items(self) -> Iterator[Item]:
        yield Open(self.path, collect_subagents=self.layout_warning)
        with open_input(self.path, self.storage_options, streams=not self.root, follow=not self.root) as fh:
            refuse_compressed_head(fh, self.path, self.profile)
            if self.layout_warning and self.profile == "trace":
                yield Finding("OM801", RULES["OM801"].severity,
                              "not laid out as <yyyy-mm-dd>/<session_id>_<NNN>.jsonl under the root; validated alone",
                              self.path, 0)
            self._fh = fh
            yield from iter_lines(fh, max_line_bytes=self.max_line_bytes)
            self.facts.bytes = _tell(fh) or 0
            self._fh = None
        yield _FILE_END
        yield End()


class StdinSource(_Reading):
    """Standard input, read as a file."""

    def __init__(self, max_line_bytes: int) -> None:
        super().__init__()
        self.max_line_bytes = max_line_bytes

    def items(self) -> Iterator[Item]:
        yield Open("<stdin>")
        self._fh = fh = sys.stdin.buffer
        yield from iter_lines(fh, max_line_bytes=self.max_line_bytes)
        self.facts.bytes = _tell(fh) or 0
        yield _FILE_END
        yield End()


class SessionSource(_Reading):
    """The files of one session under a trace root, in index order: one validator across the
    chain of indexes (a missing index is OM802), each duplicate index validated on its own."""

    def __init__(self, session_id: str, files: tuple[tuple[int, str], ...], *, max_line_bytes: int,
                 storage_options: tuple[tuple[str, str], ...]) -> None:
        super().__init__()
        self.session_id, self.files = session_id, files
        self.max_line_bytes, self.storage_options = max_line_bytes, storage_options
        self.facts.sessions = 1
        if files:  # <root>/<yyyy-mm-dd>/<session_id>_<NNN>.jsonl (a local path or a URL)
            self.facts.day = files[0][1].replace(os.sep, "/").rsplit("/", 2)[-2]

    def items(self) -> Iterator[Item]:
        chain: list[tuple[int, str]] = []
        duplicates: list[tuple[int, str]] = []
        seen: dict[int, str] = {}
        expected = 1
        sid = self.session_id
        for idx, path in self.files:
            if idx in seen:
                yield Finding("OM802", "error", f"index {idx:03d} of session {sid!r} appears twice (also "
                                                f"{seen[idx]}); this file is validated on its own", path, 0)
                duplicates.append((idx, path))
                continue
            if idx != expected:
                missing = f"{expected:03d}" if idx == expected + 1 else f"{expected:03d}-{idx - 1:03d}"
                yield Finding("OM802", "error", f"index {missing} of session {sid!r} is missing before this file",
                              path, 0)
            seen[idx] = path
            chain.append((idx, path))
            expected = idx + 1
        done = 0
        for files in [chain, *([d] for d in duplicates)]:
            yield Open(files[0][1], collect_subagents=True)
            for idx, path in files:
                yield Begin(path, sid, idx > 1)
                with open_input(path, self.storage_options, follow=False) as fh:  # regular files only
                    self._fh, self._base = fh, done
                    yield from iter_lines(fh, max_line_bytes=self.max_line_bytes)
                    done += _tell(fh) or 0
                    self._fh = None
                yield _FILE_END
            yield End()
        self.facts.bytes = done


def _gaps(sse: SseResult) -> str:
    """Where the stream had gaps (resyncs, new epochs): open fragments were forgotten there."""
    notes = []
    for what, where in (("resync_required", sse.resyncs), ("a new event-id epoch", sse.epochs)):
        if where:
            lines = ", ".join(map(str, where[:10])) + (", ..." if len(where) > 10 else "")
            notes.append(f"{what} on line(s) {lines}: open fragments were forgotten there")
    return "; ".join(notes)


class SseSource(_Reading):
    """An SSE capture (`--sse`): a file, or standard input (`-`)."""

    def __init__(self, path: str, name: str, max_line_bytes: int) -> None:
        super().__init__()
        self.path, self.name, self.max_line_bytes = path, name, max_line_bytes

    def items(self) -> Iterator[Item]:
        yield Open(self.name, profile="stream")
        sse = SseResult()
        with contextlib.ExitStack() as stack:
            fh: BinaryIO = sys.stdin.buffer if self.path == "-" else stack.enter_context(
                open_regular(self.path, streams=True))
            self._fh = fh
            due = [False]

            def on_line(n: int) -> None:
                if n % PROGRESS_EVERY == 0:
                    due[0] = True

            for item in sse_items(iter_lines_bytes(file_chunks(fh), self.max_line_bytes), sse, self.name,
                                  on_line=on_line, max_bytes=self.max_line_bytes):
                yield item
                if due[0]:
                    due[0] = False
                    yield Step.TICK
            self.facts.bytes = _tell(fh) or 0
            self._fh = None
        yield _FILE_END
        yield End(_NO_OM004 if sse.other_protocol else frozenset(), producer=False)  # OM907 is not an empty input
        self.facts.server_events = sse.server_events
        self.facts.note = _gaps(sse)


class LiveSource:
    """A live `text/event-stream` read for `duration` seconds (`live.LiveStream`): a capture cut on
    purpose, so unclosed fragments and a last partial event are not errors."""

    def __init__(self, url: str, name: str, duration: float, headers: tuple[tuple[str, str], ...],
                 max_line_bytes: int) -> None:
        self.facts = Facts()
        self.url, self.name, self.duration, self.headers = url, name, duration, headers
        self.max_line_bytes = max_line_bytes

    def position(self) -> int | None:
        return None

    def items(self) -> Iterator[Item]:
        try:
            live = LiveStream(self.url, self.duration, headers=self.headers)
        except ValueError as exc:
            self.facts.failure = f"{self.name}: cannot connect ({redact_url(str(exc))})"
            return
        yield Open(self.name, profile="stream", truncated=True)
        sse = SseResult()
        yield from sse_items(iter_lines_bytes(live.chunks(), self.max_line_bytes), sse, self.name, torn_ok=True,
                             max_bytes=self.max_line_bytes)
        if live.failure:
            self.facts.failure = self._failure(live)
            return
        idle = not sse.lines and not sse.other_protocol
        # an idle stream is said so in the note, in words about streams; another protocol (OM907) is not an empty input
        yield _FILE_END
        yield End(_NO_OM004 if idle or sse.other_protocol else frozenset(), producer=False)
        self.facts.bytes = live.bytes
        self.facts.server_events = sse.server_events
        self.facts.note = self._note(live, sse, idle)

    def _failure(self, live: LiveStream) -> str:
        if live.status and live.status != 200:
            return f"{self.name}: HTTP {live.status} (expected 200 with text/event-stream)"
        if live.status:
            return f"{self.name}: Content-Type is {sanitize(clip_text(live.content_type, 80))!r}, not text/event-stream"
        return f"{self.name}: {redact_url(live.failure)}"

    def _note(self, live: LiveStream, sse: SseResult, idle: bool) -> str:
        notes = [_gaps(sse)]
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
            notes.append(f"the stream carried no event in the {self.duration:g} s it was read (an idle producer, "
                         "or heartbeats only): nothing to judge")
        notes.append(f"read for {self.duration:g} s: {sanitize(live.ended)}")
        return "; ".join(n for n in notes if n)


class SkippedSource:
    """An entry under a trace root that is not read (a link, a special file, an unreadable
    directory): its one OM806 finding."""

    def __init__(self, path: str, why: str) -> None:
        self.facts = Facts()
        self.path, self.why = path, why

    def position(self) -> int | None:
        return None

    def items(self) -> Iterator[Item]:
        yield Finding("OM806", RULES["OM806"].severity, self.why, self.path, 0)
