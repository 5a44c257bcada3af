"""The streaming validator: feed it messages or lines, one at a time, then `finish()`.

The facade over the rules: lines are decoded here (framing, OM114) or handed to `refusals`; each
message is then routed to its session (`checks.origin`), checked for its place in the file
(`checks.files`) and its timestamp (`checks.values`), and given to the checks `checks.CHECKS` lists
for its payload type. The common line goes one shorter way, the fused loop of `fused` (the same
findings: python/tests/test_validate_fused.py holds it to this general path). Memory is bounded by
the open state (open segments, calls awaiting their output, open requests, one entry per child
session chain, a fixed-size window of recently answered call ids), never by the size of the input.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import Final

from omnimessage._generated.models import UNSET, EventMessage, Message, ModelMessage, SessionMetaMessage
from omnimessage.codec.api import OpaqueMessage, decode_canonical, encode
from omnimessage.codec.errors import DecodeError
from omnimessage.codec.tables import RUNTIME
from omnimessage.reader import Line
from omnimessage.schema.versions import outside, resolve
from omnimessage.validate.engine import refusals
from omnimessage.validate.engine.checks import DISPATCH, files, origin, pairing, streaming
from omnimessage.validate.engine.checks.values import timestamp
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.finding import Finding
from omnimessage.validate.engine.fused import OPENING, run, step
from omnimessage.validate.engine.recover import generic
from omnimessage.validate.engine.state import Session

__all__ = ["CLOSED_WINDOW", "Finding", "Validator"]

CLOSED_WINDOW: Final = 100_000
"""How many answered call ids a session remembers (to tell a duplicate output from an unknown one)."""

_NONE: Final[tuple[()]] = ()
_NATIVE: Final = RUNTIME.native


class Validator(Context):
    """A streaming protocol validator for one input (a file, a stream, a session's files).

    >>> v = Validator("stream")
    >>> for line in lines:          # bytes or str lines (line feed optional), or decoded messages
    ...     for f in v.feed(line):
    ...         print(f.line, f.rule, f.message)
    >>> findings = v.finish()       # end-of-input rules

    `finish()` is mandatory: the rules about the end of the input run there (OM002, a last line
    with no line feed, is only known once nothing follows it; so are unclosed streams, calls
    awaiting their output and open requests). Feeding lines without finishing silently misses
    them. Two ways make it impossible to forget:

    >>> findings = list(Validator("stream").validate_lines(lines))   # feeds, then finishes
    >>> with Validator("stream") as v:  # leaving the block without finish() raises RuntimeError
    ...     for line in lines:
    ...         found = v.feed(line)
    ...     found = v.finish()

    Whole files and trace roots: :func:`omnimessage.validate.validate_path`.

    Args:
        profile: `trace` (a stored trace file) or `stream` (the SDK / SSE channel).
        legacy: accept the retired spellings of older traces as warnings (OM75x).
        lenient: read a newer producer's output: unknown fields and message types are warnings
            (OM115, OM116), and every other rule runs on what is known.
        truncated: the input was cut on purpose; unclosed fragments at the end are warnings.
        protocol: the protocol version to validate against (`omnimessage.schema.versions.names()`; None: the
            newest); an older one reports what is not part of it (OM117) and reads its own spellings.
        source: the input's name, copied into findings.
        canonical: report valid but non-canonical lines (OM114).
        collect_subagents: record `subagent` pointers in `.subagents` (trace directories).
    """

    __slots__ = ("_began", "_finished")

    def __init__(
        self,
        profile: str = "trace",
        *,
        legacy: bool = False,
        lenient: bool = False,
        truncated: bool = False,
        source: str = "<input>",
        canonical: bool = True,
        collect_subagents: bool = False,
        protocol: str | None = None,
    ) -> None:
        super().__init__(
            profile, legacy=legacy, lenient=lenient, truncated=truncated, source=source, canonical=canonical,
            collect_subagents=collect_subagents, window=CLOSED_WINDOW,
            protocol=resolve(protocol, legacy=legacy, lenient=lenient),
        )
        self._finished = False
        self._began = False

    @property
    def _main(self) -> Session:
        return self.main

    @property
    def _children(self) -> dict[tuple[str, ...], Session]:
        return self.children

    # ------------------------------------------------------------------ public API

    def feed(
        self, item: bytes | bytearray | memoryview | str | Line | OpaqueMessage | Message, *, line: int | None = None,
        terminated: bool = True,
    ) -> Sequence[Finding]:
        """Validate the next line or message; returns the findings it produced (often none).

        `item` is a line (`bytes`/`str`, one trailing line feed allowed), a `reader.Line`, an
        `OpaqueMessage`, or a decoded message. `line` defaults to the previous line + 1;
        `terminated=False` marks a last line that had no line feed.
        """
        number = self.line + 1 if line is None else line
        if type(item) is bytes:  # the common case first: a line as iterating over a binary file gives it
            step(self, item[:-1] if item.endswith(b"\n") else item, number, terminated)
        elif isinstance(item, (bytes, bytearray, memoryview, str)):
            raw = item.encode("utf-8", "surrogatepass") if isinstance(item, str) else bytes(item)
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            self.feed_raw(raw, number, terminated)
        elif isinstance(item, Line):
            if item.error is not None and item.error.category == "too_large":
                self.feed_raw(None, item.number if line is None else number, item.terminated)
            else:
                self.feed_raw(item.raw, item.number if line is None else number, item.terminated)
        elif isinstance(item, OpaqueMessage):
            self.feed_raw(item.raw, number, terminated)
        elif isinstance(item, (SessionMetaMessage, ModelMessage, EventMessage)):
            self._feed_message(item, number)
        else:
            raise TypeError(f"cannot validate a {type(item).__name__}: expected a line or a message")
        out = self._pending  # take(), on the hot path
        if out:
            self._pending = []
            return out
        return _NONE

    def feed_raw(self, raw: bytes | None, line: int, terminated: bool = True) -> None:
        """Validate one line given without its line feed (`None`: a line over the length limit).

        Findings accumulate until `take()` (or the next `feed`). This is the general path, every rule
        and every case: `feed`, `validate_lines` and the sources take the fused one (`fused.py`) for the
        common line, which hands everything else here and finds what this finds.
        """
        self.line = line
        self.lines += 1
        self.file_lines += 1
        if self.heal is not None:
            refusals.settle_heal(self, raw == b"")
        if raw is None:
            self.emit("OM105", line, "too_large: the line is longer than the reader's limit; skipped")
            return
        crlf = terminated and raw.endswith(b"\r")  # a CR ending a last line without LF is no CR LF
        if crlf:
            self.emit("OM003", line, "the line ends with CR LF; lines end with LF only")
        if self.gated:
            self._gate(raw, line)
        fast = _NATIVE(raw) if _NATIVE is not None else None  # the accelerator's fast path: canonical for free
        try:
            msg, canonical = (fast, True) if fast is not None else decode_canonical(raw)
        except DecodeError as err:
            repaired = refusals.refused(self, raw, err, line, terminated)
            if repaired is not None:
                self._check(repaired, line)
            self.repaired = self.legacy_line = False  # (only a refusal sets them)
            return
        if not terminated:
            self.emit("OM002", line, "the last line has no line feed")
        if self.canonical and not crlf and not canonical:
            self.emit("OM114", line, "valid, but not the canonical encoding (omnimessage canonicalize fixes it)")
        self._check(msg, line)

    def take(self) -> Sequence[Finding]:
        """The findings produced since the last `take()` / `feed()`."""
        if self._pending:
            out = self._pending
            self._pending = []
            return out
        return _NONE

    def begin_file(self, source: str, *, session_id: str | None = None, rotated: bool = False) -> Sequence[Finding]:
        """Go on with the next file of the same session (trace rotation): file rules restart,
        session state (pairing, open requests, timestamps) carries over.

        `session_id`: the id the file name claims (OM804); `rotated`: the file is not the
        session's first (OM803).
        """
        if self._began or self.lines:
            self._end_file()
        self._began = True
        self.source = source
        self.line = 0
        self.file_started = True
        self.file_lines = 0
        self.file_msgs = 0
        self.blank_at = 0
        self.meta_line = 0
        self.expect_session = session_id
        self.rotated = self.head = rotated
        return self.take()

    def finish(self) -> Sequence[Finding]:
        """Apply the end-of-input rules; returns their findings (and any not yet taken)."""
        if self._finished:
            return self.take()
        self._finished = True
        self._end_file()
        start = len(self._pending)
        for s in self.sessions():
            streaming.unclosed(self, s)
            pairing.unclosed(self, s)
        self._pending[start:] = sorted(self._pending[start:], key=lambda f: f.line)
        return self.take()

    def validate_lines(
        self, items: Iterable[bytes | bytearray | memoryview | str | Line | OpaqueMessage | Message]
    ) -> Iterator[Finding]:
        """Feed every item (as :meth:`feed` takes them), then :meth:`finish`: yields all findings.

        Lines as iterating over a binary file gives them (each with its line feed) keep what they
        had: when the first line ends with a line feed, a last line without one is reported
        (OM002). Lines given without line feeds (`splitlines()`) are all taken as terminated.
        `reader.Line`s carry their own `terminated`.
        """
        it = iter(items)
        with_lf: bool | None = None
        for item in it:  # up to the first line: as `feed` takes it
            if isinstance(item, (bytes, bytearray, memoryview, str)):
                with_lf = bytes(item[-1:]) == b"\n" if not isinstance(item, str) else item.endswith("\n")
                it = chain((item,), it)
                break
            yield from self.feed(item)
        if with_lf is not None:
            while run(self, it, with_lf):  # the fused loop (fused.py): it stops at each line with findings
                yield from self.take()
        yield from self.finish()

    def __enter__(self) -> Validator:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc_type is None and not self._finished:
            raise RuntimeError("Validator: finish() was not called, so the end-of-input rules (OM002, unclosed "
                               "streams and calls) did not run; call it and use its findings")

    # ------------------------------------------------------------------ plumbing

    def _gate(self, raw: bytes, line: int) -> None:
        """OM117: what the line holds that the protocol version validated against does not define."""
        version = self.protocol.version
        for spot in outside(generic(raw), version):
            when = f"retired in {spot.until}" if spot.until is not None and spot.since != spot.until else \
                f"since {spot.since}" if spot.until is None else "never part of a listed version"
            self.emit("OM117", line, f"{spot.what} is not part of protocol {version} ({when})", spot.pointer)

    def _feed_message(self, msg: Message, line: int) -> None:
        """A message built in Python: check it as its canonical line would be checked."""
        try:
            raw = encode(msg)
        except Exception as exc:  # a struct holding values of the wrong Python type
            self.line = line
            self.lines += 1
            self.file_lines += 1
            self.emit("OM109", line, f"wrong_type: the message cannot be encoded ({exc})")
            return
        self.feed_raw(raw, line, True)

    def _check(self, msg: Message, line: int) -> None:
        """One decoded (or repaired) message through every rule that applies to it."""
        self.messages += 1
        chain = msg.origin
        s = self.main if chain is UNSET else origin.child(self, msg, chain, line)
        head = False
        if self.trace:
            self.file_msgs += 1
            if self.file_msgs == 1:
                files.opening(self, msg, line)
            if self.head:
                head = files.rotated_head(self, msg, line)
        timestamp(self, s, msg.timestamp, line, head)
        payload = msg.payload
        if s.opening and not isinstance(payload, OPENING):
            s.opening = False
        if s.expect is not None:
            streaming.expectation(self, s, payload, line)
        DISPATCH[type(payload)](self, s, payload, line, msg)

    def _end_file(self) -> None:
        if not self.file_started:
            return
        self.file_started = False
        if self.heal is not None:
            refusals.settle_heal(self, True)  # the file ended after it: no heal
        files.end_file(self)
