"""A session's lines as a timeline: turns, requests with their retries, folded streaming segments,
tool calls with their approvals and outputs, subagents nested along the `origin` chain.

Built for people, not for checking: lines are read leniently (`json.loads`; a line that does not
parse is an `undecodable` entry and the validator's findings say why). Bounded: at most
:data:`MAX_LINE_BYTES` of a line are kept (the rest is counted), and the caller caps how many lines
are read (:func:`read_entries`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final

__all__ = ["MAX_LINE_BYTES", "Ctx", "Entry", "Node", "build", "read_entries"]

MAX_LINE_BYTES: Final = 256 * 1024
"""The longest line parsed for the timeline; a longer one is shown by its size alone."""

_COMPLETE_OF: Final = {
    "partial_text": "text",
    "partial_thinking": "thinking",
    "partial_tool_call": "tool_call",
    "partial_tool_call_output": "tool_call_output",
}


@dataclass(slots=True)
class Entry:
    """One line of an input: its number, what it parsed to (None: it did not), its size."""

    path: str
    line: int
    obj: dict[str, Any] | None
    size: int
    too_long: bool = False

    @property
    def payload(self) -> dict[str, Any]:
        p = self.obj.get("payload") if self.obj else None
        return p if isinstance(p, dict) else {}

    @property
    def kind(self) -> str:
        """`session_meta`, the payload type (`text`, `request_end`, ...), or `undecodable`."""
        if self.obj is None:
            return "undecodable"
        if self.obj.get("type") == "session_meta":
            return "session_meta"
        t = self.payload.get("type")
        return t if isinstance(t, str) else str(self.obj.get("type", "unknown"))

    @property
    def origin(self) -> tuple[str, ...]:
        o = self.obj.get("origin") if self.obj else None
        return tuple(str(x) for x in o) if isinstance(o, list) and o else ()


@dataclass(slots=True)
class Node:
    """A box of the timeline: `turn`, `request`, `call` (a tool call with its approval and output),
    `child` (a subagent), `fold` (a streaming segment), or `entry` (one line)."""

    kind: str
    entry: Entry | None = None
    items: list[Node] = field(default_factory=list)
    fold: Node | None = None  # the streaming segment a complete message was folded from
    label: str = ""
    chain: tuple[str, ...] = ()  # a `child`: its origin chain (`Ctx.children` key)


@dataclass(slots=True)
class Ctx:
    """One session (the main one, or a subagent along an `origin` chain) being laid out."""

    chain: tuple[str, ...] = ()
    root: list[Node] = field(default_factory=list)
    turn: Node | None = None
    request: Node | None = None
    attempts: int = 0
    folds: dict[tuple[str, str], Node] = field(default_factory=dict)
    calls: dict[str, Node] = field(default_factory=dict)
    children: dict[tuple[str, ...], Ctx] = field(default_factory=dict)
    usage: list[Entry] = field(default_factory=list)

    def _into(self) -> list[Node]:
        if self.request is not None:
            return self.request.items
        return self.turn.items if self.turn is not None else self.root

    def add(self, e: Entry) -> None:
        k, p = e.kind, e.payload
        if k == "text" and p.get("role") == "user" and p.get("sender") in (None, "user", "parent_agent"):
            self.turn = Node("turn", label=f"turn {sum(1 for n in self.root if n.kind == 'turn') + 1}")
            self.root.append(self.turn)
            self.request = None
            self.attempts = 0
        if k in _COMPLETE_OF:
            key = (k, str(p.get("tool_call_id", "")))
            fold = self.folds.get(key)
            if fold is None or p.get("event_type") == "start":
                fold = self.folds[key] = Node("fold", label=k)
                self._into().append(fold)  # where it began; moved into its complete message if one follows
            fold.items.append(Node("entry", e))
            if p.get("event_type") == "stop":
                fold.label = k + ":stopped"
            return
        node = Node("entry", e)
        for pk, ck in _COMPLETE_OF.items():
            if ck == k:
                key = (pk, str(p.get("tool_call_id", "")))
                fold = self.folds.get(key)
                if fold is not None and fold.label.endswith(":stopped"):
                    del self.folds[key]
                    _remove(self, fold)
                    node.fold = fold
        if k == "request_begin":
            self.attempts += 1
            retry = f" · attempt {self.attempts}" if self.attempts > 1 else ""
            self.request = Node("request", label="request" + retry)
            self.request.items.append(node)
            (self.turn.items if self.turn is not None else self.root).append(self.request)
            return
        if k == "request_end" and self.request is not None:
            self.request.items.append(node)
            status = p.get("status")
            self.request.label += f" · {status}" if isinstance(status, str) else ""
            if status != "retryable":
                self.attempts = 0
            self.request = None
            return
        if k == "token_usage":
            self.usage.append(e)
        cid = str(p.get("tool_call_id", ""))
        if k == "tool_call":
            call = Node("call", label=str(p.get("name", "")))
            call.items.append(node)
            self.calls[cid] = call
            self._into().append(call)
            return
        if k in ("approval_decision", "tool_call_output") and cid in self.calls:
            self.calls[cid].items.append(node)
            return
        self._into().append(node)


def _remove(ctx: Ctx, fold: Node) -> None:
    """Take a fold out of the box it was placed in (searched from the newest boxes)."""
    for box in _boxes(ctx):
        for i in range(len(box) - 1, -1, -1):
            if box[i] is fold:
                del box[i]
                return


def _boxes(ctx: Ctx) -> Iterator[list[Node]]:
    if ctx.request is not None:
        yield ctx.request.items
    if ctx.turn is not None:
        yield ctx.turn.items
        yield from (n.items for n in reversed(ctx.turn.items) if n.kind == "request")
    yield ctx.root
    yield from (n.items for n in reversed(ctx.root) if n.kind in ("request", "turn"))


def build(entries: list[Entry]) -> Ctx:
    """Lay the entries of one input out as the main session's timeline (subagents in `children`)."""
    main = Ctx()
    for e in entries:
        chain = e.origin
        if not chain:
            main.add(e)
            continue
        ctx = main
        for depth in range(1, len(chain) + 1):
            sub = chain[:depth]
            nxt = ctx.children.get(sub)
            if nxt is None:
                nxt = ctx.children[sub] = Ctx(chain=sub)
                ctx._into().append(Node("child", label=sub[-1], chain=sub))
            ctx = nxt
        ctx.add(e)
    return main


def read_entries(fh: BinaryIO, path: str, max_lines: int) -> tuple[list[Entry], bool]:
    """The first `max_lines` lines of `fh` as entries, and whether the input goes on after them."""
    out: list[Entry] = []
    while True:
        raw = fh.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return out, False
        if len(out) == max_lines:
            return out, True
        size = len(raw)
        too_long = size > MAX_LINE_BYTES and not raw.endswith(b"\n")
        while too_long:  # skip the rest of the line, counting its bytes
            rest = fh.readline(1 << 20)
            size += len(rest)
            if not rest or rest.endswith(b"\n"):
                break
        obj: Any = None
        if not too_long:
            try:
                obj = json.loads(raw)
            except ValueError:  # UnicodeDecodeError included
                obj = None
        out.append(Entry(path, len(out) + 1, obj if isinstance(obj, dict) else None, size, too_long))
