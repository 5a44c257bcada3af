"""A session's lines as a timeline: turns, requests with their retries, folded streaming segments,
tool calls with their approvals and outputs, subagents nested along the `origin` chain.

Built for people, not for checking: lines are read leniently (`json.loads`; a line that does not
parse, or nests too deep for it, is an `undecodable` entry and the validator's findings say why).
Bounded in bytes, not only in lines: a line longer than :data:`MAX_LINE_BYTES` is not parsed;
a parsed line is kept as a summary (:func:`summary`: at most :data:`MAX_MEMBERS` payload members,
each string cut to :data:`MAX_TEXT_CHARS` characters, head and tail kept, any other nested value
as its JSON text cut the same way, the `origin` chain to its first :data:`MAX_NESTING` ids), and
:func:`read_entries` stops when the bytes kept (:func:`kept_bytes`) reach the caller's budget. An
`origin` chain is laid out in linear time: at most :data:`MAX_NESTING` nested subagent cards,
deeper hops shown in the deepest card.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Final

from omnimessage.text.sanitize import clip_text

__all__ = ["MAX_LINE_BYTES", "MAX_MEMBERS", "MAX_NESTING", "MAX_TEXT_CHARS", "Ctx", "Entry", "Node", "build",
           "kept_bytes", "read_entries", "summary"]

MAX_LINE_BYTES: Final = 256 * 1024
"""The longest line parsed for the timeline; a longer one is shown by its size alone."""
MAX_TEXT_CHARS: Final = 1200
"""A kept string (or nested value's JSON text) is cut to this many characters, head and tail kept."""
MAX_MEMBERS: Final = 32
"""Payload members kept of one line (the rest are counted)."""
MAX_NESTING: Final = 16
"""Subagent cards nested along an `origin` chain; deeper hops are shown in the deepest card."""
ENTRY_OVERHEAD: Final = 512
"""Bytes counted for one kept line besides its strings (its objects and the list slots)."""

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
    obj: dict[str, Any] | None  # the line's summary (see `summary`), None when it did not parse
    size: int
    too_long: bool = False
    depth: int = 0  # the length of its `origin` chain (`obj` keeps the first MAX_NESTING ids)

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
        return o if isinstance(o, tuple) else ()


@dataclass(slots=True)
class Node:
    """A box of the timeline: `turn`, `request`, `call` (a tool call with its approval and output),
    `child` (a subagent), `fold` (a streaming segment), or `entry` (one line)."""

    kind: str
    entry: Entry | None = None
    items: list[Node] = field(default_factory=list)
    fold: Node | None = None  # the streaming segment a complete message was folded from
    label: str = ""
    chain: tuple[str, ...] = ()  # a `child`: its origin chain (at most MAX_NESTING ids)
    ctx: Ctx | None = None  # a `child`: its session


@dataclass(slots=True)
class Ctx:
    """One session (the main one, or a subagent along an `origin` chain) being laid out."""

    chain: tuple[str, ...] = ()
    depth: int = 0  # the longest origin chain laid out in this card (> MAX_NESTING: deeper hops folded in)
    root: list[Node] = field(default_factory=list)
    turn: Node | None = None
    request: Node | None = None
    attempts: int = 0
    folds: dict[tuple[str, str], Node] = field(default_factory=dict)
    calls: dict[str, Node] = field(default_factory=dict)
    children: dict[str, Ctx] = field(default_factory=dict)  # by the next hop of the chain
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
    """Lay the entries of one input out as the main session's timeline (subagents in `children`):
    one step per kept hop of a line's chain (at most MAX_NESTING), so linear in the input."""
    main = Ctx()
    for e in entries:
        ctx = main
        for hop in e.origin:
            nxt = ctx.children.get(hop)
            if nxt is None:
                nxt = ctx.children[hop] = Ctx(chain=(*ctx.chain, hop))
                ctx._into().append(Node("child", label=hop, chain=nxt.chain, ctx=nxt))
            ctx = nxt
        ctx.depth = max(ctx.depth, e.depth)
        ctx.add(e)
    return main


def _cut(s: str) -> str:
    return clip_text(s, MAX_TEXT_CHARS)


def _small(v: Any) -> Any:
    """A payload value as kept: a scalar as is, a string cut, a flat object of at most
    MAX_MEMBERS scalars as such (token counts), anything else as its JSON text, cut."""
    if isinstance(v, str):
        return _cut(v)
    if v is None or isinstance(v, (bool, int, float)):
        return v
    if isinstance(v, dict) and len(v) <= MAX_MEMBERS and all(
            x is None or isinstance(x, (bool, int, float, str)) for x in v.values()):
        return {_cut(str(k)): _small(x) for k, x in v.items()}
    try:
        return _cut(json.dumps(v, ensure_ascii=False))
    except (RecursionError, ValueError):
        return "(a value nested too deep to show)"


def summary(obj: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """What the timeline keeps of a parsed line, and the length of its `origin` chain."""
    payload = obj.get("payload")
    kept: dict[str, Any] = {}
    if isinstance(payload, dict):
        for n, (k, v) in enumerate(payload.items()):
            if n == MAX_MEMBERS:
                kept["(more members)"] = len(payload) - MAX_MEMBERS
                break
            if k == "images" and isinstance(v, list):
                kept[k] = len(v)  # the count is what the timeline shows
                continue
            kept[_cut(str(k))] = _small(v)
    o = obj.get("origin")
    chain = tuple(_cut(str(x)) for x in o[:MAX_NESTING]) if isinstance(o, list) else ()
    out = {"timestamp": _small(obj.get("timestamp")), "type": _small(obj.get("type")), "payload": kept,
           "origin": chain}
    return out, len(o) if isinstance(o, list) else 0


def kept_bytes(e: Entry) -> int:
    """The bytes a kept line counts against the budget: its strings' UTF-8 bytes and
    ENTRY_OVERHEAD (an undecodable or too long line: the overhead alone)."""
    if e.obj is None:
        return ENTRY_OVERHEAD
    n = ENTRY_OVERHEAD
    stack: list[Any] = [e.obj]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            n += len(v.encode("utf-8", "surrogatepass")) + 64
        elif isinstance(v, dict):
            for k, x in v.items():
                n += len(k.encode("utf-8", "surrogatepass")) + 64
                stack.append(x)
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        else:
            n += 32
    return n


def read_entries(fh: BinaryIO, path: str, max_lines: int, max_bytes: int) -> tuple[list[Entry], bool, int]:
    """The first lines of `fh` as entries, at most `max_lines` of them and as many as keep at
    most `max_bytes` (:func:`kept_bytes`); whether the input goes on after them; the bytes kept."""
    out: list[Entry] = []
    kept = 0
    while True:
        raw = fh.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return out, False, kept
        if len(out) == max_lines or kept + ENTRY_OVERHEAD > max_bytes:
            return out, True, kept
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
            except (ValueError, RecursionError):  # UnicodeDecodeError included; nested deeper than json can
                obj = None
        small, depth = summary(obj) if isinstance(obj, dict) else (None, 0)
        del obj
        e = Entry(path, len(out) + 1, small, size, too_long, depth)
        cost = kept_bytes(e)
        if out and kept + cost > max_bytes:
            return out, True, kept
        kept += cost
        out.append(e)
