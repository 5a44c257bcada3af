"""The validator's typed state: one `Session` per session of the input (the main one, or a child by
`origin` chain), its open streaming `Segment`s and the tool `Call`s awaiting their output."""

from __future__ import annotations

from collections import OrderedDict

from msgspec import Struct

__all__ = ["Call", "Key", "Segment", "Session"]

Key = tuple[type[Struct], "str | None"]
"""A streaming segment: (its partial payload class, its tool_call_id or None)."""


class Segment:
    """One streaming segment: its fragments since `start`, and what the complete message is checked against."""

    __slots__ = ("images", "images_line", "line", "name", "parts", "stop_line", "tainted")

    def __init__(self, line: int, tainted: bool = False) -> None:
        self.line = line
        self.parts: list[str] = []
        self.name: str | None = None
        self.images: list[str] | None = None
        self.images_line = 0
        self.stop_line = 0
        self.tainted = tainted  # opened without a start: its fragments are not compared


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
        "awaiting", "calls", "closed", "comp", "expect", "label", "mcp", "req", "segs", "ts", "ts_line", "usage",
        "usage_reported",
    )

    def __init__(self, label: str = "") -> None:
        self.label = label
        self.segs: dict[Key, Segment] = {}  # open segments
        self.awaiting: dict[Key, Segment] = {}  # stopped segments awaiting their complete message
        self.expect: tuple[Key, int] | None = None  # the segment whose complete message must come next
        self.calls: dict[str, Call] = {}
        self.closed: OrderedDict[str, int] = OrderedDict()  # answered call id -> line of its output
        self.req = 0  # line of the open request_begin
        self.usage = 0  # line of the open request's token_usage
        self.usage_reported = False
        self.comp: tuple[int, str, str] | None = None  # open compaction: line, reason, mode
        self.mcp: tuple[int, frozenset[str]] | None = None  # open MCP connect: line, servers
        self.ts: str | None = None
        self.ts_line = 0
