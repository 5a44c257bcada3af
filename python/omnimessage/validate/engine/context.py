"""What every rule sees besides its message: the input's options, its sessions, the file being read,
and `emit` to report a finding. The `Validator` is one; rules take it as `ctx`."""

from __future__ import annotations

from typing import Final

from omnimessage.codec.errors import DecodeError
from omnimessage.schema.versions import Protocol, resolve
from omnimessage.validate.engine.finding import Finding
from omnimessage.validate.engine.rules import PROFILES, RULES, Severity
from omnimessage.validate.engine.state import Budget, Session

__all__ = ["Context"]

# Findings about values, not given for a message that had to be repaired after a refusal
# (the refusal itself is reported; its neutralised fields would only echo it).
_VALUE_RULES: Final = frozenset({"OM305", "OM306", "OM307", "OM405", "OM408", "OM501", "OM502", "OM506", "OM507"})


class Context:
    """The state one input is validated in (see `Validator` for the arguments)."""

    # Slots: every rule reads and writes these once or more per line. An instance dict of this many
    # keys is no shared-key dict, and CPython 3.11 then specialises no method call on the object.
    __slots__ = (
        "_pending", "blank_at", "budget", "canonical", "capped", "children", "collect_subagents", "expect_session",
        "file_lines", "file_msgs", "file_started", "gated", "head", "heal", "legacy", "legacy_line", "lenient",
        "line", "lines", "main", "messages", "meta", "meta_line", "midstream", "overflow", "profile", "protocol",
        "repaired",
        "rotated", "source", "subagents", "tools", "trace", "truncated", "ts_hour", "ts_second", "window",
    )

    def __init__(
        self,
        profile: str,
        *,
        legacy: bool,
        lenient: bool,
        truncated: bool,
        source: str,
        canonical: bool,
        collect_subagents: bool,
        window: int,
        protocol: Protocol | None = None,
    ) -> None:
        if profile not in PROFILES:
            raise ValueError(f"unknown profile {profile!r}: expected one of {', '.join(PROFILES)}")
        self.profile = profile
        self.protocol = protocol or resolve(None, legacy=legacy, lenient=lenient)
        self.legacy = self.protocol.legacy
        self.lenient = self.protocol.lenient
        self.gated = self.protocol.gated  # an older version's vocabulary: OM117, and its own spellings quiet
        self.truncated = truncated
        self.source = source
        self.canonical = canonical
        self.collect_subagents = collect_subagents
        self.subagents: list[tuple[str, str, int]] = []
        """(child session id, source, line) of each `subagent` pointer (with `collect_subagents`)."""
        self.lines = 0
        self.messages = 0
        self.window = window  # how many answered call ids a session remembers
        self.trace = profile == "trace"
        self.midstream = False  # the stream may start mid-session: see `unknown_past`
        self.main = Session()
        self.budget = Budget()  # the characters open segments may still keep as text (state.SEGMENT_TEXT)
        self.children: dict[tuple[str, ...], Session] = {}  # at most MAX_CHILD_SESSIONS (state.py)
        self.overflow: Session | None = None  # the session of every child chain past MAX_CHILD_SESSIONS
        self.capped: dict[str, int] = {}  # what went beyond a cap (OM007): how many times
        self._pending: list[Finding] = []
        self.line = 0
        self.repaired = False  # the message was repaired after a refusal: no findings about its values
        self.legacy_line = False  # an old record (retired spellings applied): it predates the error pair
        self.ts_hour = ""  # the date and hour of the last valid timestamp
        self.ts_second = ""  # ... and its date and time up to the second
        # the file being read (trace rotation: one session over several files)
        self.file_started = True
        self.file_lines = 0
        self.file_msgs = 0
        self.meta_line = 0
        self.expect_session: str | None = None
        self.rotated = False
        self.heal: tuple[str, int, str, DecodeError] | None = None  # a heal, until the next line confirms it
        self.blank_at = 0  # the file line number of the last empty line
        self.head = False  # inside a rotated file's head: session_meta, MCP connect pair, tool_list_ready
        self.tools = False  # the session announced tools (a tool_list_ready with tools)
        self.meta: tuple[str, str, str, str] | None = None
        """(source, provider, model_id, date) of the first main-session `session_meta` (`--summary-by`)."""

    def emit(self, rule_id: str, line: int, message: str, pointer: str = "", severity: Severity | None = None) -> None:
        if self.repaired and rule_id in _VALUE_RULES:
            return
        if self.legacy_line and rule_id == "OM506":
            return
        if self.gated and rule_id.startswith("OM75"):
            return  # under its own version a spelling is not retired (OM117 reports one that is)
        self._pending.append(
            Finding(rule_id, severity or RULES[rule_id].severity, message, self.source, line, pointer)
        )

    def allows(self, behaviour: str) -> bool:
        """Whether the protocol validated against has a behaviour of `x-omnimessage-behaviours`."""
        return behaviour in self.protocol.behaviours

    def cap_reached(self, what: str, line: int, message: str) -> None:
        """OM007 once per kind of state (`what`) and input: a cap on open state was reached; what goes
        beyond it is counted (`capped`), not kept."""
        n = self.capped.get(what, 0)
        self.capped[what] = n + 1
        if not n:
            self.emit("OM007", line, message)

    def sessions(self) -> list[Session]:
        extra = [] if self.overflow is None else [self.overflow]
        return [self.main, *self.children.values(), *extra]

    def restart(self) -> None:
        """The producer restarted here (a crash heal in a trace, a new SSE epoch): what it had in flight
        is gone. Open segments, requests, compactions and MCP connects are forgotten without a finding;
        tool calls still await their output (a resumed session may answer them)."""
        self.discontinuity()
        for s in self.sessions():
            s.req = s.usage = 0
            s.usage_reported = False
            s.comp = s.mcp = None

    def unknown_past(self) -> None:
        """What came before this point is unknown: a stream joined mid-session, or one that resumed
        after a gap (`resync_required`). Each session known so far, and each child first seen without
        its `session_meta` from now on, judges only what such a stream proves: no OM401/OM404 for a
        call never seen, no OM301 for a fragment whose start was never seen, no OM406/OM407/OM409/OM410
        for an end (or a `token_usage`) whose begin was never seen, no OM605. What was open is forgotten
        (its end, or a call's output, may have been in the gap): no OM420/OM421/OM422 for it either."""
        self.midstream = True
        self.discontinuity()
        for s in self.sessions():
            s.blind = True
            s.blind_pairs = {"req", "comp", "mcp"}
            s.req = s.usage = 0
            s.usage_reported = False
            s.comp = s.mcp = None
            s.calls.clear()

    def discontinuity(self) -> None:
        """The stream has a gap (an SSE `resync_required`): forget open streaming segments, which the
        gap may have cut, without reporting them. Pairing state (calls, requests) is kept: outputs
        may legitimately arrive after the gap."""
        for s in self.sessions():
            for seg in (*s.segs.values(), *s.awaiting.values()):
                seg.release()
            s.segs.clear()
            s.awaiting.clear()
            s.expect = None
