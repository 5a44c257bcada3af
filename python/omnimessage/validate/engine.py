"""The streaming state machine: feed it messages or lines, one at a time, then `finish()`.

Memory is bounded by the open state (open segments, calls awaiting their output, open requests,
one entry per child session chain, a fixed-size window of recently answered call ids), never
by the size of the input.
"""

from __future__ import annotations

import datetime
import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from .._generated.models import (
    ABORT_ERROR_CODE_VALUES,
    FRAGMENT_OF,
    UNSET,
    AbortPayload,
    ApprovalDecisionPayload,
    CompactionBeginPayload,
    CompactionEndPayload,
    EventMessage,
    HookPayload,
    ImageUrlPayload,
    InlineDataPayload,
    InlineThinkingPayload,
    McpConnectBeginPayload,
    McpConnectEndPayload,
    Message,
    ModelMessage,
    PartialTextPayload,
    PartialThinkingPayload,
    PartialToolCallOutputPayload,
    PartialToolCallPayload,
    RequestBeginPayload,
    RequestEndPayload,
    SessionMetaMessage,
    SessionMetaPayload,
    SubagentPayload,
    TextPayload,
    ThinkingPayload,
    TokenUsagePayload,
    ToolCallOutputPayload,
    ToolCallPayload,
    ToolListReadyPayload,
)
from .._utf16 import join_fragments
from ..codec import OpaqueMessage, decode_canonical, encode
from ..errors import DecodeError
from ..reader import TORN_CATEGORIES, Line
from .recover import HARD_CATEGORIES, generic, legacy_spots, newer_spots, refine, repair_decode
from .rules import PROFILES, RULES, Severity
from .torn import is_record_prefix

__all__ = ["CLOSED_WINDOW", "Finding", "Validator"]

CLOSED_WINDOW: Final = 100_000
"""How many answered call ids a session remembers (to tell a duplicate output from an unknown one)."""

_TS: Final = re.compile(
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?Z"
).fullmatch
_TS_TAIL: Final = re.compile(r"[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?Z").fullmatch
_UNSAFE_ID: Final = re.compile(r"[\x00-\x1f\x7f/\\]|\.\.").search
_ABS_PATH: Final = re.compile(r"/|[A-Za-z]:[\\/]|\\\\").match
_DATA_URL: Final = re.compile(r"data:[^;,]+(?:;[^;,]+)*;base64,", re.I).match
_WEB_URL: Final = re.compile(r"https?://[^\s]+\Z", re.I).match
_NONE: Final[tuple[()]] = ()

# Findings about values, not given for a message that had to be repaired after a refusal
# (the refusal itself is reported; its neutralised fields would only echo it).
_VALUE_RULES: Final = frozenset({"OM305", "OM306", "OM307", "OM405", "OM408", "OM501", "OM502", "OM506"})
# partial class -> its `type`, and -> the `type` of the complete payload it streams (from the schema)
_PART_NAMES: Final[dict[type, str]] = {cls: str(cls.__struct_config__.tag) for cls in FRAGMENT_OF}
_COMPLETE_NAMES: Final[dict[type, str]] = {
    cls: str(complete.__struct_config__.tag) for cls, (complete, _) in FRAGMENT_OF.items()
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found.

    Attributes:
        rule: the rule id (`OM201`); `RULES[rule]` has its name, explanation and hint.
        severity: `error` or `warning` (the rule's, or downgraded: `--truncated`).
        message: what is wrong here.
        path: the input's name (`<stdin>` for standard input).
        line: 1-based line number, 0 when the finding is about the whole input.
        pointer: JSON pointer into the message, when the finding is about one value.
    """

    rule: str
    severity: Severity
    message: str
    path: str
    line: int
    pointer: str = ""

    @property
    def name(self) -> str:
        return RULES[self.rule].name

    @property
    def hint(self) -> str:
        return RULES[self.rule].hint

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "line": self.line,
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "message": self.message,
        }
        if self.pointer:
            out["pointer"] = self.pointer
        out["hint"] = self.hint
        return out


Key = tuple[type, "str | None"]


class _Segment:
    __slots__ = ("images", "images_line", "line", "name", "parts", "stop_line", "tainted")

    def __init__(self, line: int, tainted: bool = False) -> None:
        self.line = line
        self.parts: list[str] = []
        self.name: str | None = None
        self.images: list[str] | None = None
        self.images_line = 0
        self.stop_line = 0
        self.tainted = tainted


class _Call:
    __slots__ = ("decision", "decision_line", "line", "started")

    def __init__(self, line: int) -> None:
        self.line = line
        self.decision: str | None = None
        self.decision_line = 0
        self.started = 0  # line of the first output fragment


class _Session:
    """The state of one session of the input: the main one, or a child (by `origin` chain)."""

    __slots__ = (
        "awaiting", "calls", "closed", "comp", "expect", "label", "mcp", "req", "segs", "ts", "ts_line", "usage",
        "usage_reported",
    )

    def __init__(self, label: str = "") -> None:
        self.label = label
        self.segs: dict[Key, _Segment] = {}
        self.awaiting: dict[Key, _Segment] = {}
        self.expect: tuple[Key, int] | None = None
        self.calls: dict[str, _Call] = {}
        self.closed: OrderedDict[str, int] = OrderedDict()
        self.req = 0
        self.usage = 0
        self.usage_reported = False
        self.comp: tuple[int, str, str] | None = None
        self.mcp: tuple[int, frozenset[str]] | None = None
        self.ts: str | None = None
        self.ts_line = 0


def _ts_key(ts: str) -> str:
    return ts[:19] + ts[19:-1].rstrip("0").rstrip(".")


def _real_date(ts: str) -> bool:
    try:
        datetime.date(int(ts[0:4]), int(ts[5:7]), int(ts[8:10]))
    except ValueError:
        return False
    return True


def _short(s: str, n: int = 40) -> str:
    r = repr(s)
    return r if len(r) <= n else r[: n - 4] + "...'"


def _first_diff(a: str, b: str) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


class Validator:
    """A streaming protocol validator for one input (a file, a stream, a session's files).

    >>> v = Validator("stream")
    >>> for line in lines:          # bytes or str lines (line feed optional), or decoded messages
    ...     for f in v.feed(line):
    ...         print(f.line, f.rule, f.message)
    >>> findings = v.finish()       # end-of-input rules

    Args:
        profile: `trace` (a stored trace file) or `stream` (the SDK / SSE channel).
        legacy: accept the retired spellings of older traces as warnings (OM75x).
        lenient: read a newer producer's output: unknown fields and message types are warnings
            (OM115, OM116), and every other rule runs on what is known.
        truncated: the input was cut on purpose; unclosed fragments at the end are warnings.
        source: the input's name, copied into findings.
        canonical: report valid but non-canonical lines (OM114).
        collect_subagents: record `subagent` pointers in `.subagents` (trace directories).
    """

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
    ) -> None:
        if profile not in PROFILES:
            raise ValueError(f"unknown profile {profile!r}: expected one of {', '.join(PROFILES)}")
        self.profile = profile
        self.legacy = legacy
        self.lenient = lenient
        self.truncated = truncated
        self.source = source
        self.canonical = canonical
        self.collect_subagents = collect_subagents
        self.subagents: list[tuple[str, str, int]] = []
        """(child session id, source, line) of each `subagent` pointer (with `collect_subagents`)."""
        self.lines = 0
        self.messages = 0
        self._trace = profile == "trace"
        self._main = _Session()
        self._children: dict[tuple[str, ...], _Session] = {}
        self._pending: list[Finding] = []
        self._line = 0
        self._repaired = False
        self._legacy_line = False
        self._ts_hour = ""
        self._file_started = True
        self._file_lines = 0
        self._file_msgs = 0
        self._meta_line = 0
        self._expect_session: str | None = None
        self._rotated = False
        self._heal: tuple[str, int, str, DecodeError] | None = None  # a heal, until the next line confirms it
        self._blank_at = 0  # the file line number of the last empty line
        self._head = False  # inside a rotated file's head: session_meta, MCP connect pair, tool_list_ready
        self._tools = False  # the session announced tools (a tool_list_ready with tools)
        self._finished = False
        self._began = False
        self._handlers: dict[type, Callable[[_Session, Any, int, Any], None]] = {
            SessionMetaPayload: self._session_meta,
            TextPayload: self._text,
            ThinkingPayload: self._thinking,
            InlineThinkingPayload: self._inline_thinking,
            ToolCallPayload: self._tool_call,
            ToolCallOutputPayload: self._tool_call_output,
            ImageUrlPayload: self._image_url,
            InlineDataPayload: self._inline_data,
            PartialTextPayload: self._partial_text,
            PartialThinkingPayload: self._partial_thinking,
            PartialToolCallPayload: self._partial_tool_call,
            PartialToolCallOutputPayload: self._partial_tool_call_output,
            ToolListReadyPayload: self._tool_list,
            McpConnectBeginPayload: self._mcp_begin,
            McpConnectEndPayload: self._mcp_end,
            RequestBeginPayload: self._request_begin,
            RequestEndPayload: self._request_end,
            ApprovalDecisionPayload: self._approval,
            TokenUsagePayload: self._token_usage,
            CompactionBeginPayload: self._compaction_begin,
            CompactionEndPayload: self._compaction_end,
            AbortPayload: self._abort,
            SubagentPayload: self._subagent,
            HookPayload: self._nothing,
        }

    # ------------------------------------------------------------------ public API

    def feed(self, item: Any, *, line: int | None = None, terminated: bool = True) -> Sequence[Finding]:
        """Validate the next line or message; returns the findings it produced (often none).

        `item` is a line (`bytes`/`str`, one trailing line feed allowed), a `reader.Line`, an
        `OpaqueMessage`, or a decoded message. `line` defaults to the previous line + 1;
        `terminated=False` marks a last line that had no line feed.
        """
        number = self._line + 1 if line is None else line
        if isinstance(item, (bytes, bytearray, memoryview, str)):
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
        return self._take()

    def feed_raw(self, raw: bytes | None, line: int, terminated: bool = True) -> None:
        """Validate one line given without its line feed (`None`: a line over the length limit).

        The fast path of `feed`: findings accumulate until `take()` (or the next `feed`).
        """
        self._line = line
        self.lines += 1
        self._file_lines += 1
        if self._heal is not None:
            self._settle_heal(raw == b"")
        if raw is None:
            self._emit("OM105", line, "too_large: the line is longer than the reader's limit; skipped")
            return
        crlf = terminated and raw.endswith(b"\r")  # a CR ending a last line without LF is no CR LF
        if crlf:
            self._emit("OM003", line, "the line ends with CR LF; lines end with LF only")
        try:
            msg, canonical = decode_canonical(raw)
        except DecodeError as err:
            msg = self._refused(raw, err, line, terminated)
            if msg is None:
                self._repaired = self._legacy_line = False
                return
        else:
            if not terminated:
                self._emit("OM002", line, "the last line has no line feed")
            if self.canonical and not crlf and not canonical:
                self._emit("OM114", line, "valid, but not the canonical encoding (omnimessage canonicalize fixes it)")
        self._check(msg, line)
        self._repaired = self._legacy_line = False

    def take(self) -> Sequence[Finding]:
        """The findings produced since the last `take()` / `feed()`."""
        return self._take()

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
        self._line = 0
        self._file_started = True
        self._file_lines = 0
        self._file_msgs = 0
        self._blank_at = 0
        self._meta_line = 0
        self._expect_session = session_id
        self._rotated = self._head = rotated
        return self._take()

    def restart(self) -> None:
        """The producer restarted here (a crash heal in a trace, a new SSE epoch): what it had in flight
        is gone. Open segments, requests, compactions and MCP connects are forgotten without a finding;
        tool calls still await their output (a resumed session may answer them)."""
        self.discontinuity()
        for s in [self._main, *self._children.values()]:
            s.req = s.usage = 0
            s.usage_reported = False
            s.comp = s.mcp = None

    def discontinuity(self) -> None:
        """The stream has a gap (an SSE `resync_required`): forget open streaming segments, which the
        gap may have cut, without reporting them. Pairing state (calls, requests) is kept: outputs
        may legitimately arrive after the gap."""
        for s in [self._main, *self._children.values()]:
            s.segs.clear()
            s.awaiting.clear()
            s.expect = None

    def finish(self) -> Sequence[Finding]:
        """Apply the end-of-input rules; returns their findings (and any not yet taken)."""
        if self._finished:
            return self._take()
        self._finished = True
        self._end_file()
        start = len(self._pending)
        for s in [self._main, *self._children.values()]:
            self._end_session(s)
        self._pending[start:] = sorted(self._pending[start:], key=lambda f: f.line)
        return self._take()

    # ------------------------------------------------------------------ plumbing

    def _take(self) -> Sequence[Finding]:
        if self._pending:
            out = self._pending
            self._pending = []
            return out
        return _NONE

    def _emit(self, rule_id: str, line: int, message: str, pointer: str = "", severity: Severity | None = None) -> None:
        if self._repaired and rule_id in _VALUE_RULES:
            return
        if self._legacy_line and rule_id == "OM506":
            return
        self._pending.append(
            Finding(rule_id, severity or RULES[rule_id].severity, message, self.source, line, pointer)
        )

    def _feed_message(self, msg: Message, line: int) -> None:
        """A message built in Python: check it as its canonical line would be checked."""
        try:
            raw = encode(msg)
        except Exception as exc:  # a struct holding values of the wrong Python type
            self._line = line
            self.lines += 1
            self._file_lines += 1
            self._emit("OM109", line, f"wrong_type: the message cannot be encoded ({exc})")
            return
        self.feed_raw(raw, line, True)

    def _refused(self, raw: bytes, err: DecodeError, line: int, terminated: bool) -> Any:
        """Report a refused line; return a repaired message for the state machine, or None."""
        if self._trace and terminated and err.category in TORN_CATEGORIES and self._healed(raw, line, err):
            return None
        value = None if err.category in HARD_CATEGORIES else generic(raw)
        if not terminated and err.category in TORN_CATEGORIES:
            # Torn as the readers see it: only a tail that does not even parse. A complete last line
            # with data after it, or nested too deep, keeps its category (and OM002).
            self._emit(
                "OM001", line, f"the last line has no line feed and does not decode ({err.category}: {err.detail})"
            )
            return None
        if not terminated:
            self._emit("OM002", line, "the last line has no line feed")
        if not isinstance(value, dict):
            self._report(err, value, line, [])
            return None
        spots = legacy_spots(value, apply=self.legacy)
        schema_refusal = not err.lexical or err.category == "invalid_number"
        applied = spots if self.legacy else []
        if applied:
            self._legacy_line = True  # an old record: it predates the error pair (no OM506 for it)
            for sp in applied:
                self._emit(sp.rule, line, sp.detail, sp.pointer)
        if any(sp.rule == "OM757" for sp in applied):
            return None  # a retired message type: nothing this version checks
        newer = []
        if self.lenient and schema_refusal:
            # what a newer producer added; a retired spelling (without --legacy) stays an error
            newer = newer_spots(value, keep=frozenset(sp.pointer for sp in spots if not applied))
            for sp in newer:
                self._emit(sp.rule, line, sp.detail, sp.pointer)
            if any(sp.rule == "OM116" for sp in newer):
                return None  # a message type this version does not define: nothing known to check
        if applied or newer:
            if not schema_refusal:
                self._report(err, value, line, [])
            msg, err2 = repair_decode(value)
            if err2 is not None and schema_refusal:
                err2.offset = None  # an offset into the rewritten line would mislead
                self._report(err2, value, line, [])
            if err2 is not None:
                self._repaired = True
            return msg
        self._report(err, value, line, spots)
        msg, _ = repair_decode(value)
        if msg is not None:
            self._repaired = True
        return msg

    def _healed(self, raw: bytes, line: int, err: DecodeError) -> bool:
        """A line a crash left mid-file and the writer's heal made a line of its own (facts 9): a torn
        record, or an empty line. The writer restarted there (state is reset).

        The heal writes its line feed and the next record in one write, so a healed line is always
        followed by another line, and an empty one is neither the file's first nor next to another
        empty line: the finding waits for the next line (`_settle_heal`); the end of the file turns
        it back into the line's refusal.
        """
        if not raw:
            blank = self._blank_at == self._file_lines - 1 or self._file_lines == 1
            self._blank_at = self._file_lines
            if blank:
                return False  # not what a heal leaves
            self._heal = ("OM006", line, "an empty line: what the trace writer's crash heal leaves when the last "
                                         "line was not torn; readers skip it", err)
        elif is_record_prefix(raw):
            self._heal = ("OM005", line, f"a torn record ({len(raw)} bytes, cut short by a crash) that the trace "
                                         f"writer's heal left mid-file; readers skip it", err)
        else:
            return False
        self.restart()
        return True

    def _settle_heal(self, next_blank: bool) -> None:
        """The line after a healed one arrived (or the file ended: `next_blank` True)."""
        assert self._heal is not None
        rule_id, line, message, err = self._heal
        self._heal = None
        if (next_blank and rule_id == "OM006") or not self._file_started:
            self._report(err, None, line, [])
        else:
            self._emit(rule_id, line, message)

    def _report(self, err: DecodeError, value: Any, line: int, spots: list[Any]) -> None:
        text = f"{err.category}: {err.detail}"
        where = []
        if err.pointer:
            where.append(f"at {err.pointer}")
        if err.offset is not None:
            where.append(f"byte {err.offset}")
        if where:
            text += f" ({', '.join(where)})"
        for sp in spots:
            if sp.pointer == err.pointer:
                text += f"; a retired spelling ({sp.rule}): --legacy accepts it as a warning"
                break
        self._emit(refine(err, value), line, text, err.pointer)

    # ------------------------------------------------------------------ per message

    def _check(self, msg: Any, line: int) -> None:
        self.messages += 1
        origin = msg.origin
        s = self._main if origin is UNSET else self._child(msg, origin, line)
        ts = msg.timestamp
        head = False
        if self._trace:
            self._file_msgs += 1
            if self._file_msgs == 1 and type(msg) is not SessionMetaMessage and self._file_lines == 1:
                # Only when the message is the file's first line: after a first line that did not decode,
                # what the file opened with is unknown (and already reported).
                self._emit("OM201", line, f"the file opens with {self._describe(msg)}, not session_meta")
            if self._head:
                head = self._rotated_head(msg, line)
        # fast path: the date and hour were checked on an earlier message; only MM:SS.fffZ is left
        if (ts[:14] != self._ts_hour or _TS_TAIL(ts, 14) is None) and (
            _TS(ts) is None or (ts[8:10] > "28" and not _real_date(ts))
        ):
            self._emit("OM701", line, f"timestamp {_short(ts)} is not ISO 8601 UTC (YYYY-MM-DDTHH:MM:SS.sssZ)",
                       "/timestamp")
        elif head:
            # The head of a rotated file may carry older timestamps: releases up to 0.2.4 rewrite the
            # first file's session_meta and tool_list_ready messages as they were.
            self._ts_hour = ts[:14]
        else:
            prev = s.ts
            if prev is not None and (ts < prev if len(ts) == 24 == len(prev) else _ts_key(ts) < _ts_key(prev)):
                self._emit("OM702", line, f"timestamp {ts} is earlier than {prev} on line {s.ts_line}{s.label}",
                           "/timestamp")
            s.ts = ts
            s.ts_line = line
            self._ts_hour = ts[:14]
        payload = msg.payload
        if s.expect is not None:
            self._expectation(s, payload, line)
        self._handlers[type(payload)](s, payload, line, msg)

    def _child(self, msg: Any, origin: list[str], line: int) -> _Session:
        key = tuple(origin)
        s = self._children.get(key)
        if s is None:
            s = self._children[key] = _Session(f" (child session {'/'.join(_short(i, 60) for i in origin)})")
            for i, sid in enumerate(origin):
                if not sid or _UNSAFE_ID(sid):
                    self._emit("OM602", line, f"origin holds the unsafe session id {_short(sid, 60)}", f"/origin/{i}")
            if len(set(origin)) != len(origin):
                self._emit("OM603", line, f"origin {origin!r} names a session more than once", "/origin")
            if not self._trace and type(msg) is not SessionMetaMessage:
                self._emit(
                    "OM605", line,
                    f"the first message of child {origin[-1]!r} is {self._describe(msg)}, not its session_meta",
                )
        if self._trace:
            self._emit("OM204", line, f"a message forwarded from child {origin[-1]!r} (origin) in a trace", "/origin")
        elif type(msg) is SessionMetaMessage and msg.payload.session_id != origin[-1]:
            self._emit(
                "OM604", line,
                f"session_meta of {msg.payload.session_id!r} forwarded with origin ending in {origin[-1]!r}",
                "/payload/session_id",
            )
        return s

    @staticmethod
    def _describe(msg: Any) -> str:
        p = msg.payload
        if type(msg) is SessionMetaMessage:
            return "session_meta"
        tag = type(p).__struct_config__.tag
        ev = getattr(p, "event_type", None)
        return f"{tag} ({ev})" if ev else str(tag)

    def _rotated_head(self, msg: Any, line: int) -> bool:
        """Whether `msg` belongs to the head of a rotated file: its session_meta, then the new context's
        MCP connect pair if any, then its tool_list_ready if the agent has tools (facts 9)."""
        kind = type(msg.payload)
        if (type(msg) is SessionMetaMessage and self._file_msgs == 1) or kind in (
            McpConnectBeginPayload, McpConnectEndPayload
        ):
            return True
        self._head = False
        if kind is ToolListReadyPayload:
            return True
        if self._tools:
            self._emit("OM803", line, f"the session announced tools, but this rotated file's head ends with "
                                      f"{self._describe(msg)} before its tool_list_ready")
        return False

    def _end_file(self) -> None:
        if not self._file_started:
            return
        self._file_started = False
        if self._heal is not None:
            self._settle_heal(True)  # the file ended after it: no heal
        if self._file_lines == 0:
            self._emit("OM004", 0, "the input is empty")
        elif self._head and self._tools and self._file_msgs:
            self._emit("OM803", self._line, "the session announced tools, but this rotated file ends before its "
                                            "tool_list_ready")
        self._head = False

    def _end_session(self, s: _Session) -> None:
        sev: Severity = "warning" if self.truncated else "error"
        for (cls, tid), seg in sorted(s.segs.items(), key=lambda kv: kv[1].line):
            what = _PART_NAMES[cls] + (f" {tid!r}" if tid is not None else "")
            self._emit("OM308", seg.line, f"the {what} segment started here is never stopped{s.label}", severity=sev)
        for (cls, tid), seg in sorted(s.awaiting.items(), key=lambda kv: kv[1].line):
            what = _PART_NAMES[cls] + (f" {tid!r}" if tid is not None else "")
            self._emit(
                "OM308", seg.stop_line,
                f"the {what} segment stopped here is not followed by its complete {_COMPLETE_NAMES[cls]}{s.label}",
                severity=sev,
            )
        if s.req:
            self._emit("OM420", s.req, f"the request begun here has no request_end by the end of the input{s.label}")
        for tid, call in s.calls.items():
            self._emit("OM421", call.line, f"tool call {tid!r} has no output by the end of the input{s.label}")
        if s.comp is not None:
            self._emit("OM422", s.comp[0], f"the compaction begun here has no compaction_end{s.label}")
        if s.mcp is not None:
            self._emit("OM422", s.mcp[0], f"the MCP connect begun here has no mcp_connect_end{s.label}")

    # ------------------------------------------------------------------ streaming

    def _expectation(self, s: _Session, p: Any, line: int) -> None:
        assert s.expect is not None
        key, stop_line = s.expect
        s.expect = None
        cls = type(p)
        if key[0] is PartialToolCallOutputPayload and cls in (PartialToolCallOutputPayload, ToolCallOutputPayload) \
                and p.tool_call_id != key[1]:
            # tools run in parallel: another tool's output may land between a stop and its complete
            if key in s.awaiting:
                s.expect = (key, stop_line)
            return
        if cls is TextPayload:
            got: Key | None = (PartialTextPayload, None) if p.role == "assistant" else None
        elif cls is ThinkingPayload:
            got = (PartialThinkingPayload, None)
        elif cls is ToolCallPayload:
            got = (PartialToolCallPayload, p.tool_call_id)
        elif cls is ToolCallOutputPayload:
            got = (PartialToolCallOutputPayload, p.tool_call_id)
        else:
            got = None
        if got != key:
            pcls, tid = key
            what = _PART_NAMES[pcls] + (f" {tid!r}" if tid is not None else "")
            tag = cls.__struct_config__.tag or "session_meta"
            self._emit(
                "OM303", line,
                f"the {what} segment stopped on line {stop_line} must be followed at once by its complete "
                f"{_COMPLETE_NAMES[pcls]}; got {tag}{s.label}",
            )
            s.awaiting.pop(key, None)

    def _segment(self, s: _Session, key: Key, event_type: str, line: int, fragment: str) -> _Segment:
        if event_type == "start":
            old = s.segs.get(key)
            if old is not None:
                self._emit("OM302", line, f"start of {self._what(key)} while the segment started on line "
                                          f"{old.line} is still open{s.label}")
            late = s.awaiting.pop(key, None)
            if late is not None:
                self._emit("OM303", line, f"start of {self._what(key)} before the complete message of the "
                                          f"segment stopped on line {late.stop_line}{s.label}")
            seg = s.segs[key] = _Segment(line)
        else:
            got = s.segs.get(key)
            if got is None:
                was = s.awaiting.get(key)
                after = f" (the last one stopped on line {was.stop_line})" if was is not None else ""
                self._emit("OM301", line, f"{event_type} of {self._what(key)} with no open segment{after}{s.label}")
                seg = s.segs[key] = _Segment(line, tainted=True)
            else:
                seg = got
        seg.parts.append(fragment)
        if event_type == "stop":
            del s.segs[key]
            seg.stop_line = line
            if s.comp is not None and key[0] is PartialTextPayload:
                # The compaction summary streams its text with no complete message after the stop
                # (or the complete text alone): facts 3.
                return seg
            s.awaiting[key] = seg
            s.expect = (key, line)
        return seg

    @staticmethod
    def _what(key: Key) -> str:
        cls, tid = key
        return _PART_NAMES[cls] + (f" {tid!r}" if tid is not None else "")

    def _completed(self, s: _Session, key: Key, full: str, field: str, line: int) -> _Segment | None:
        seg = s.awaiting.pop(key, None)
        if seg is None:
            seg = s.segs.pop(key, None)
            if seg is None:
                return None
            self._emit("OM304", line, f"the complete message arrived while the {self._what(key)} segment started "
                                      f"on line {seg.line} was still open{s.label}")
            seg.stop_line = line
        if not seg.tainted:
            joined = join_fragments(seg.parts)
            if joined != full:
                i = _first_diff(joined, full)
                self._emit(
                    "OM305", line,
                    f"the fragments of lines {seg.line}-{seg.stop_line} join to {len(joined)} characters, the "
                    f"complete {field} has {len(full)}; they differ from character {i} "
                    f"({_short(joined[i:i + 20], 30)} vs {_short(full[i:i + 20], 30)})",
                    f"/payload/{field}",
                )
        return seg

    def _partial_text(self, s: _Session, p: PartialTextPayload, line: int, msg: Any) -> None:
        if self._trace:
            self._emit("OM203", line, "partial_text in a trace")
            return
        self._assistant_output(s, line)
        self._segment(s, (PartialTextPayload, None), p.event_type, line, p.text)

    def _partial_thinking(self, s: _Session, p: PartialThinkingPayload, line: int, msg: Any) -> None:
        if self._trace:
            self._emit("OM203", line, "partial_thinking in a trace")
            return
        self._assistant_output(s, line)
        self._segment(s, (PartialThinkingPayload, None), p.event_type, line, p.thinking)

    def _partial_tool_call(self, s: _Session, p: PartialToolCallPayload, line: int, msg: Any) -> None:
        if self._trace:
            self._emit("OM203", line, "partial_tool_call in a trace")
            return
        self._assistant_output(s, line)
        seg = self._segment(s, (PartialToolCallPayload, p.tool_call_id), p.event_type, line, p.arguments)
        if not p.name:
            pass  # the reference names the tool on the start only (`name: ""` on delta and stop)
        elif seg.name is None:
            seg.name = p.name
        elif seg.name != p.name and not seg.tainted:
            self._emit("OM306", line, f"tool name {p.name!r} differs from {seg.name!r} earlier in the segment",
                       "/payload/name")

    def _partial_tool_call_output(self, s: _Session, p: PartialToolCallOutputPayload, line: int, msg: Any) -> None:
        if self._trace:
            self._emit("OM203", line, "partial_tool_call_output in a trace")
            return
        tid = p.tool_call_id
        call = s.calls.get(tid)
        if call is not None and not call.started:
            call.started = line
        et = p.event_type
        seg = self._segment(s, (PartialToolCallOutputPayload, tid), et, line, p.output)
        images = p.images
        if images is not UNSET:
            self._check_images(images, line)
            if et != "delta":
                self._emit("OM307", line, f"images on a {et} fragment; one delta carries them", "/payload/images")
            elif seg.images is not None:
                self._emit("OM307", line, f"images carried again; the delta on line {seg.images_line} already did",
                           "/payload/images")
            if seg.images is None:
                seg.images = images
                seg.images_line = line

    # ------------------------------------------------------------------ complete model messages

    def _assistant_output(self, s: _Session, line: int) -> None:
        if s.usage and not s.usage_reported:
            s.usage_reported = True
            self._emit("OM407", line, f"assistant output after the request's token_usage (line {s.usage}), "
                                      f"which is the last message of the model stream{s.label}")

    def _text(self, s: _Session, p: TextPayload, line: int, msg: Any) -> None:
        if p.role == "assistant":
            if p.sender is not UNSET:
                self._emit("OM703", line, f"sender {p.sender!r} on an assistant text", "/payload/sender")
            self._assistant_output(s, line)
            if s.segs or s.awaiting:
                self._completed(s, (PartialTextPayload, None), p.text, "text", line)

    def _thinking(self, s: _Session, p: ThinkingPayload, line: int, msg: Any) -> None:
        self._assistant_output(s, line)
        if s.segs or s.awaiting:
            self._completed(s, (PartialThinkingPayload, None), p.thinking, "thinking", line)

    def _inline_thinking(self, s: _Session, p: InlineThinkingPayload, line: int, msg: Any) -> None:
        self._assistant_output(s, line)

    def _inline_data(self, s: _Session, p: InlineDataPayload, line: int, msg: Any) -> None:
        if p.role == "assistant":
            self._assistant_output(s, line)

    def _image_url(self, s: _Session, p: ImageUrlPayload, line: int, msg: Any) -> None:
        url = p.image_url
        if _WEB_URL(url) is None and _DATA_URL(url) is None:
            self._emit("OM704", line, f"image_url {_short(url)} is neither an http(s) URL nor a base64 data URL",
                       "/payload/image_url")

    def _check_images(self, images: list[str], line: int) -> None:
        for i, img in enumerate(images):
            if _DATA_URL(img) is None:
                self._emit("OM704", line, f"image {_short(img)} is not a data:<mime>;base64, URL",
                           f"/payload/images/{i}")

    def _tool_call(self, s: _Session, p: ToolCallPayload, line: int, msg: Any) -> None:
        self._assistant_output(s, line)
        tid = p.tool_call_id
        if s.segs or s.awaiting:
            seg = self._completed(s, (PartialToolCallPayload, tid), p.arguments, "arguments", line)
            if seg is not None and not seg.tainted and seg.name is not None and seg.name != p.name:
                self._emit("OM306", line, f"the complete tool_call names {p.name!r}, its fragments {seg.name!r}",
                           "/payload/name")
        try:
            msgspec.json.decode(p.arguments)
        except (msgspec.DecodeError, RecursionError):
            self._emit("OM705", line, f"arguments {_short(p.arguments)} is not a JSON text", "/payload/arguments")
        old = s.calls.get(tid)
        if old is not None:
            self._emit("OM403", line, f"tool_call_id {tid!r} is already used by the call on line {old.line}{s.label}",
                       "/payload/tool_call_id")
        elif tid in s.closed:
            self._emit("OM403", line, f"tool_call_id {tid!r} is already used by an answered call{s.label}",
                       "/payload/tool_call_id")
        s.calls[tid] = _Call(line)

    def _tool_call_output(self, s: _Session, p: ToolCallOutputPayload, line: int, msg: Any) -> None:
        tid = p.tool_call_id
        images = p.images
        if images is not UNSET:
            self._check_images(images, line)
        if s.segs or s.awaiting:
            seg = self._completed(s, (PartialToolCallOutputPayload, tid), p.output, "output", line)
            if seg is not None and not seg.tainted:
                streamed = seg.images or []
                final = [] if images is UNSET else images
                if streamed != final:
                    self._emit(
                        "OM307", line,
                        f"the complete output carries {len(final)} image(s), its fragments "
                        f"{len(streamed)} (or different ones)",
                        "/payload/images",
                    )
        call = s.calls.pop(tid, None)
        if call is None:
            first = s.closed.get(tid)
            if first is not None:
                self._emit("OM402", line, f"a second complete output for call {tid!r} (the first is on line {first})"
                                          f"{s.label}", "/payload/tool_call_id")
            else:
                self._emit("OM401", line, f"output for {tid!r}, which no earlier tool_call has{s.label}",
                           "/payload/tool_call_id")
            return
        closed = s.closed
        closed[tid] = line
        if len(closed) > CLOSED_WINDOW:
            closed.popitem(last=False)
        if call.decision in ("deny", "forbidden") and p.stop_reason != "aborted":
            reason = "completed (absent)" if p.stop_reason is UNSET else repr(p.stop_reason)
            self._emit("OM405", line, f"call {tid!r} was denied ({call.decision!r}, line {call.decision_line}) but "
                                      f"its output's stop_reason is {reason}", "/payload/stop_reason")

    # ------------------------------------------------------------------ events

    def _nothing(self, s: _Session, p: Any, line: int, msg: Any) -> None:
        return None

    def _tool_list(self, s: _Session, p: ToolListReadyPayload, line: int, msg: Any) -> None:
        if s is self._main:
            self._tools = bool(p.tools)

    def _session_meta(self, s: _Session, p: SessionMetaPayload, line: int, msg: Any) -> None:
        sid = p.session_id
        if not sid or _UNSAFE_ID(sid):
            self._emit("OM602", line, f"session_id {_short(sid, 60)} is not a safe session id", "/payload/session_id")
        for field in ("agent_state", "workspace"):
            path = getattr(p, field)
            if _ABS_PATH(path) is None:
                self._emit("OM706", line, f"{field} {_short(path)} is not an absolute path", f"/payload/{field}")
        if msg.origin is not UNSET:
            return
        if self._trace:
            if self._meta_line:
                self._emit("OM202", line, f"a second session_meta in this file (the first is on line "
                                          f"{self._meta_line})")
            else:
                self._meta_line = line
            if self._expect_session is not None and sid != self._expect_session:
                self._emit("OM804", line, f"session_id {_short(sid, 60)} differs from the file name's "
                                          f"{_short(self._expect_session, 60)}", "/payload/session_id")
        else:
            self._emit("OM309", line, "session_meta without origin on a stream (only a child's, forwarded, appears)")

    def _request_begin(self, s: _Session, p: RequestBeginPayload, line: int, msg: Any) -> None:
        if s.req:
            self._emit("OM406", line, f"request_begin while the request begun on line {s.req} is still open{s.label}")
        s.req = line
        s.usage = 0
        s.usage_reported = False

    def _request_end(self, s: _Session, p: RequestEndPayload, line: int, msg: Any) -> None:
        if not s.req:
            self._emit("OM406", line, f"request_end without an open request_begin{s.label}")
        elif p.status == "completed" and not s.usage:
            self._emit("OM408", line, f"the request begun on line {s.req} completed without token_usage{s.label}")
        s.req = 0
        s.usage = 0
        s.usage_reported = False
        self._vocab(p.status, p.error_code, p.error_message, line, "/payload", p.retry_in_ms)

    def _token_usage(self, s: _Session, p: TokenUsagePayload, line: int, msg: Any) -> None:
        if not s.req and s.comp is not None and not self._trace:
            return  # a compaction attempt's usage: its request events go to the trace only (facts 3)
        if not s.req:
            self._emit("OM407", line, f"token_usage outside a request (no open request_begin){s.label}")
        elif s.usage:
            self._emit("OM407", line, f"a second token_usage in the request begun on line {s.req} (the first is on "
                                      f"line {s.usage}){s.label}")
        else:
            s.usage = line

    def _approval(self, s: _Session, p: ApprovalDecisionPayload, line: int, msg: Any) -> None:
        tid = p.tool_call_id
        call = s.calls.get(tid)
        if call is None:
            if tid in s.closed:
                self._emit("OM404", line, f"approval_decision for {tid!r} after the call's output (line "
                                          f"{s.closed[tid]}){s.label}", "/payload/tool_call_id")
            else:
                self._emit("OM404", line, f"approval_decision for {tid!r}, which no earlier tool_call has{s.label}",
                           "/payload/tool_call_id")
            return
        if call.decision is not None:
            self._emit("OM404", line, f"a second approval_decision for {tid!r} (the first is on line "
                                      f"{call.decision_line}){s.label}")
            return
        if call.started:
            self._emit("OM404", line, f"approval_decision for {tid!r} after its output started on line "
                                      f"{call.started}{s.label}")
        call.decision = p.decision
        call.decision_line = line

    def _compaction_begin(self, s: _Session, p: CompactionBeginPayload, line: int, msg: Any) -> None:
        if s.comp is not None:
            self._emit("OM409", line, f"compaction_begin while the compaction begun on line {s.comp[0]} is open"
                                      f"{s.label}")
        s.comp = (line, p.reason, p.mode)

    def _compaction_end(self, s: _Session, p: CompactionEndPayload, line: int, msg: Any) -> None:
        comp = s.comp
        if comp is None:
            self._emit("OM409", line, f"compaction_end without compaction_begin{s.label}")
        elif (comp[1], comp[2]) != (p.reason, p.mode):
            self._emit("OM409", line, f"compaction_end {p.reason}/{p.mode} does not match the compaction_begin "
                                      f"{comp[1]}/{comp[2]} on line {comp[0]}{s.label}")
        s.comp = None
        self._vocab(p.status, p.error_code, p.error_message, line, "/payload")

    def _mcp_begin(self, s: _Session, p: McpConnectBeginPayload, line: int, msg: Any) -> None:
        if s.mcp is not None:
            self._emit("OM410", line, f"mcp_connect_begin while the connect begun on line {s.mcp[0]} is open"
                                      f"{s.label}")
        s.mcp = (line, frozenset(p.servers))

    def _mcp_end(self, s: _Session, p: McpConnectEndPayload, line: int, msg: Any) -> None:
        mcp = s.mcp
        if mcp is None:
            self._emit("OM410", line, f"mcp_connect_end without mcp_connect_begin{s.label}")
        else:
            for i, res in enumerate(p.results):
                if res.server not in mcp[1]:
                    self._emit("OM410", line, f"a result for server {res.server!r}, which the mcp_connect_begin on "
                                              f"line {mcp[0]} does not list", f"/payload/results/{i}/server")
        s.mcp = None
        self._vocab(p.status, p.error_code, p.error_message, line, "/payload")
        for i, res in enumerate(p.results):
            self._vocab(res.status, res.error_code, res.error_message, line, f"/payload/results/{i}")

    def _abort(self, s: _Session, p: AbortPayload, line: int, msg: Any) -> None:
        if p.error_code is not UNSET and p.error_code not in ABORT_ERROR_CODE_VALUES:
            self._emit("OM505", line, f"abort.error_code {p.error_code!r}: the reference writes only "
                                      f"{', '.join(ABORT_ERROR_CODE_VALUES)} on an abort", "/payload/error_code")
        if isinstance(p.reason, str):
            self._emit("OM753", line, "abort.reason is legacy prose; error_code and error_message replace it",
                       "/payload/reason")

    def _subagent(self, s: _Session, p: SubagentPayload, line: int, msg: Any) -> None:
        sid = p.session_id
        if not sid or _UNSAFE_ID(sid):
            self._emit("OM602", line, f"subagent session_id {_short(sid, 60)} is not a safe session id (it is "
                                      f"never used as a path)", "/payload/session_id")
        elif self.collect_subagents and msg.origin is UNSET:
            self.subagents.append((sid, self.source, line))

    def _vocab(self, status: str, code: Any, message: Any, line: int, ptr: str, retry: Any = UNSET) -> None:
        if status == "completed":
            if code is not UNSET or message is not UNSET:
                which = " and ".join(n for n, v in (("error_code", code), ("error_message", message)) if v is not UNSET)
                self._emit("OM501", line, f"{which} with status 'completed'",
                           f"{ptr}/error_code" if code is not UNSET else f"{ptr}/error_message")
        elif status in ("retryable", "fatal") and code is UNSET:
            self._emit("OM506", line, f"status {status!r} without error_code", f"{ptr}/status")
        elif (code is UNSET) != (message is UNSET):
            have, miss = ("error_code", "error_message") if message is UNSET else ("error_message", "error_code")
            self._emit("OM506", line, f"{have} without {miss}", f"{ptr}/{have}")
        if retry is not UNSET and status != "retryable":
            self._emit("OM502", line, f"retry_in_ms with status {status!r}", f"{ptr}/retry_in_ms")
