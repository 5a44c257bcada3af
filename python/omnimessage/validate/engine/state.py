"""The validator's typed state: one `Session` per session of the input (the main one, or a child by
`origin` chain), its open streaming `Segment`s and the tool `Call`s awaiting their output."""

from __future__ import annotations

from collections import OrderedDict
from hashlib import blake2b
from typing import Final

from msgspec import Struct

from omnimessage.codec.utf16 import join_fragments

__all__ = [
    "MAX_CHILD_SESSIONS", "MAX_OPEN_CALLS", "MAX_OPEN_SEGMENTS", "MAX_SERVER_EVENT_TYPES", "SEGMENT_FRAGMENTS",
    "SEGMENT_PREFIX", "SEGMENT_TEXT", "Budget", "Call", "Key", "Segment", "Session",
]

SEGMENT_TEXT: Final = 1 << 20
"""How many characters of fragments the open segments of one input keep as text, all together (one
`Budget`; a character takes at most 4 bytes, so at most 4 MiB and a list entry per fragment). A segment
whose fragment would take the input past it (or that has more than `SEGMENT_FRAGMENTS` fragments) keeps a
digest from then on: its first `SEGMENT_PREFIX` characters, its length and a running hash of the rest, so
an endless segment costs constant memory; OM305 then names the first difference when it lies within
that prefix, else the lengths."""
SEGMENT_PREFIX: Final = 2048
"""How many characters of a segment's joined fragments a segment with a digest keeps verbatim; it also
hashes what follows in batches of about this many characters (see `SEGMENT_TEXT`)."""
SEGMENT_FRAGMENTS: Final = 256
"""How many fragments a segment keeps before it keeps a digest instead (see `SEGMENT_TEXT`)."""
MAX_OPEN_SEGMENTS: Final = 128
"""Open streaming segments (started or stopped, awaiting their complete message) per session; past
it one OM007, and further segments are not tracked."""
MAX_OPEN_CALLS: Final = 10_000
"""Tool calls awaiting their output per session; past it one OM007, and further calls are not tracked
(nor are outputs that answer no tracked call reported)."""
MAX_SERVER_EVENT_TYPES: Final = 64
"""Distinct `server_event` types an SSE result counts by name; past it one OM007, and further types
are counted together under `<other>`."""
MAX_CHILD_SESSIONS: Final = 128
"""Child sessions (distinct `origin` chains) per input; past it one OM007, and the messages of further
chains share one overflow session."""

Key = tuple[type[Struct], "str | None"]
"""A streaming segment: (its partial payload class, its tool_call_id or None)."""


def _high(ch: str) -> bool:
    return "\ud800" <= ch <= "\udbff"


def _utf8(text: str) -> bytes:
    """The UTF-8 of `text` with split surrogate pairs joined up and lone surrogates as `surrogatepass`
    writes them: one-to-one with the UTF-16 code units JavaScript compares. A copy of msgspec's cached
    UTF-8 for a string the fast path has encoded."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return join_fragments((text,)).encode("utf-8", "surrogatepass")


class Budget:
    """The characters the open segments of one input may still keep as text (`SEGMENT_TEXT`)."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = SEGMENT_TEXT


class Segment:
    """One streaming segment: its fragments since `start` (a bounded digest of them once they are many),
    and what the complete message is checked against."""

    __slots__ = (
        "budget", "chars", "digest", "hashed", "images", "images_line", "line", "name", "parts", "pending", "prefix",
        "size", "stop_line", "tainted",
    )

    def __init__(self, line: int, budget: Budget, tainted: bool = False) -> None:
        self.line = line
        self.budget = budget  # the input's, shared by its open segments: what they keep as text
        self.parts: list[str] = []  # the fragments (with a digest: those not hashed yet)
        self.size = 0  # characters in `parts` (without a digest: taken from `budget`)
        self.digest: blake2b | None = None  # the running hash of what follows the prefix (`_utf8` of it)
        self.prefix = ""  # the first SEGMENT_PREFIX code points of the fragments (with a digest)
        self.hashed = 0  # bytes hashed
        self.chars = 0  # characters hashed (split surrogate pairs joined up)
        self.pending = ""  # a high surrogate ending the text hashed so far, held back: its pair may follow
        self.name: str | None = None
        self.images: list[str] | None = None
        self.images_line = 0
        self.stop_line = 0
        self.tainted = tainted  # opened without a start: its fragments are not compared

    def add(self, fragment: str) -> None:
        """Append a fragment: kept while the input's budget holds; past that, hashed (a few at a time).
        (The fused loop, `fused.py`, does the same inline.)"""
        parts = self.parts
        parts.append(fragment)
        n = len(fragment)
        self.size += n
        if self.digest is None:
            budget = self.budget
            budget.left -= n
            if budget.left < 0 or len(parts) > SEGMENT_FRAGMENTS:
                self.flush()
        elif self.size > SEGMENT_PREFIX or len(parts) > SEGMENT_FRAGMENTS:
            self.flush()

    def release(self) -> None:
        """The segment is no longer open: what it kept as text goes back to the input's budget."""
        if self.digest is None:
            self.budget.left += self.size
            self.size = 0
            self.parts = []

    def flush(self) -> None:
        """Keep a digest from now on: the fragments held so far fill the prefix, what lies beyond it is hashed."""
        if self.digest is None:
            self.digest = blake2b(digest_size=16)
            self.budget.left += self.size  # from now on bounded by SEGMENT_PREFIX per segment, not the budget
        parts = self.parts
        text = "".join(parts)
        self.parts = []
        self.size = 0
        room = SEGMENT_PREFIX - len(self.prefix)
        if room > 0:  # as given: pairs split across fragments are joined when read
            self.prefix += text[:room]
            text = text[room:]
            parts = [text]
            if len(self.prefix) == SEGMENT_PREFIX and _high(self.prefix[-1]):
                self.pending = self.prefix[-1]  # hashed with what follows it: its pair may
        if not text:
            return
        if self.pending:
            text = self.pending + text
            parts = [text]
            self.pending = ""
        try:
            # The fragments' own UTF-8 (copies of what msgspec's encoding of their lines cached), but for
            # ASCII, which is its own UTF-8: one copy of the joined text.
            data = text.encode("utf-8") if text.isascii() else b"".join([p.encode("utf-8") for p in parts])
        except UnicodeEncodeError:  # surrogates: pairs split across fragments joined up, a last high half held back
            text = join_fragments((text,))
            if _high(text[-1]):
                self.pending = text[-1]
                text = text[:-1]
            data = text.encode("utf-8", "surrogatepass")
        self.digest.update(data)
        self.hashed += len(data)
        self.chars += len(text)

    def _head(self) -> str:
        """The prefix, less a high surrogate ending a full one (hashed with what follows it)."""
        prefix = self.prefix
        return prefix[:-1] if len(prefix) == SEGMENT_PREFIX and _high(prefix[-1]) else prefix

    def joins_to(self, full: str) -> bool:
        """Whether the fragments join to `full` (with a digest, after `flush`): `full` begins with the
        prefix and the rest hashes to the digest."""
        if len(self.prefix) < SEGMENT_PREFIX:  # nothing hashed: the prefix holds every fragment
            return join_fragments((self.prefix,)) == full
        assert self.digest is not None
        head = _utf8(self._head())
        data = _utf8(full)
        if not data.startswith(head):
            return False
        last = self.digest
        tail = b""
        if self.pending:
            last = last.copy()
            tail = self.pending.encode("utf-8", "surrogatepass")
            last.update(tail)
        n = len(head)
        return len(data) - n == self.hashed + len(tail) and \
            blake2b(memoryview(data)[n:], digest_size=16).digest() == last.digest()

    def joined_chars(self) -> int:
        """How many characters the fragments join to, split surrogate pairs joined up (with a digest, after
        `flush`)."""
        if len(self.prefix) < SEGMENT_PREFIX:
            return len(join_fragments((self.prefix,)))
        return len(join_fragments((self._head(),))) + self.chars + len(self.pending)

    def joined_prefix(self) -> str:
        """The first characters of the joined fragments (at most SEGMENT_PREFIX code points kept)."""
        return join_fragments((self.prefix,))


class Call:
    """A tool call awaiting its output."""

    __slots__ = ("decision", "decision_line", "line", "started")

    def __init__(self, line: int) -> None:
        self.line = line
        self.decision: str | None = None
        self.decision_line = 0
        self.started = 0  # line of the first output fragment


class Session:
    """The state of one session of the input: the main one, or a child (by `origin` chain)."""

    __slots__ = (
        "awaiting", "blind", "blind_pairs", "calls", "closed", "comp", "dropped_calls", "dropped_segs", "expect",
        "label", "mcp", "opening", "req",
        "segs", "ts", "ts_line", "usage", "usage_reported",
    )

    def __init__(self, label: str = "") -> None:
        self.label = label
        self.segs: dict[Key, Segment] = {}  # open segments
        self.awaiting: dict[Key, Segment] = {}  # stopped segments awaiting their complete message
        self.expect: tuple[Key, int] | None = None  # the segment whose complete message must come next
        self.calls: dict[str, Call] = {}
        self.dropped_segs = 0  # segments not tracked past MAX_OPEN_SEGMENTS
        self.dropped_calls = 0  # calls not tracked past MAX_OPEN_CALLS
        self.closed: OrderedDict[str, int] = OrderedDict()  # answered call id -> line of its output
        self.req = 0  # line of the open request_begin
        self.usage = 0  # line of the open request's token_usage
        self.usage_reported = False
        self.comp: tuple[int, str, str] | None = None  # open compaction: line, reason, mode
        self.mcp: tuple[int, frozenset[str]] | None = None  # open MCP connect: line, servers
        self.opening = False  # a completed compaction_end, then only the new context's records so far
        self.blind = False
        """What came before is unknown (a stream joined mid-session, or after a gap): an output or approval
        for a call never seen, a fragment of a segment whose start was never seen, prove nothing."""
        self.blind_pairs: set[str] = set()
        """Pairs (`req`, `comp`, `mcp`) whose begin may lie before the stream: their first end or lone
        `token_usage` proves nothing; cleared for a pair at its first begin or end."""
        self.ts: str | None = None
        self.ts_line = 0
