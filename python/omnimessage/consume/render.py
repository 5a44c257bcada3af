"""`RenderModel`: the live state a UI draws from one session's stream, whatever the transport.

Messages are grouped into nested cards by their `origin` chain, outer to inner (no origin: the
root card; `["a"]`: the card of child session `a` inside the root; `["a", "b"]`: the card of `b`
inside `a`'s). A card holds items in arrival order:

- a complete message, kept as the exact bytes of its line;
- a segment: a streamed partial (`partial_text`, `partial_thinking`, `partial_tool_call`,
  `partial_tool_call_output`) keyed by its partial type and `tool_call_id`, holding its fragments
  joined so far (UTF-16 joined: a surrogate pair split between two deltas is one character) and
  its images; `open` until its `stop`;
- a child card, at the position where its first message arrived.

A complete message takes its segment's slot: it replaces, in place, the segment of its kind and
`tool_call_id` that is still open in that card, or that was stopped by the card's previous message
(the producer writes the complete message right after its segment's `stop`, protocol facts 3). So a
card draws a streamed message where its segment started (`Card.messages`); `Card.arrived` lists
them in the order they arrived, which is the order of the stream and of the trace. A stop not
followed by its complete message (inside a compaction the reference streams the summary's partials
and stores the complete text in the trace only, protocol facts 3) leaves a closed segment, which
stays: the card's next message, whatever it is, closes it for good, and a new `start` of the same
key opens a new segment after it. The TypeScript `RenderModel` follows the same rule. A `delta` or
`stop` whose `start` was never seen (a stream joined mid-segment) opens the segment where it
arrives.

`apply` takes a `MessageEvent` (the bytes it carries are kept), a `Resync` (`reset()`: the model
is emptied, as the server asks), an `omnimessage` message (kept as `encode(message)`), or a line's
bytes (decoded strictly); server events, reconnects and invalid messages change nothing.

Caps (hostile input; each raises `RenderLimitError`, nothing is kept beyond it): `max_bytes` on
everything kept (complete lines and fragments, 256 MiB by default), `max_open_segments` on
segments not yet replaced (1,024), `max_depth` on an origin chain (32), `max_cards` (4,096).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from msgspec import UNSET

from omnimessage.codec.api import decode, encode
from omnimessage.codec.utf16 import join_fragments

from .._generated import models as m
from .._generated.models import FRAGMENT_OF
from .events import ConsumeError, MessageEvent, Resync

__all__ = ["Card", "RenderLimitError", "RenderModel", "Segment"]

MAX_BYTES: Final = 256 * 1024 * 1024
MAX_OPEN_SEGMENTS: Final = 1024
MAX_DEPTH: Final = 32
MAX_CARDS: Final = 4096

_PARTIAL_TAG: Final = {cls: str(cls.__struct_config__.tag) for cls in FRAGMENT_OF}
_FIELD: Final = {cls: name for cls, (_, name) in FRAGMENT_OF.items()}
_TAG_OF_COMPLETE: Final = {complete: _PARTIAL_TAG[cls] for cls, (complete, _) in FRAGMENT_OF.items()}


class RenderLimitError(ConsumeError):
    """The stream went beyond one of the model's caps."""


@dataclass(eq=False, slots=True)
class Segment:
    """A streamed segment: its partial type, `tool_call_id`, fragments so far, images, and whether it
    is still open (no `stop` yet)."""

    type: str
    tool_call_id: str | None
    parts: list[str] = field(default_factory=list)
    images: list[str] | None = None
    open: bool = True
    size: int = 0

    @property
    def text(self) -> str:
        return join_fragments(self.parts)


@dataclass(eq=False, slots=True)
class Card:
    """One session's card: its origin chain and its items (`bytes`: a complete message's line;
    `Segment`; `Card`)."""

    origin: tuple[str, ...]
    items: list[bytes | Segment | Card] = field(default_factory=list)
    children: dict[str, Card] = field(default_factory=dict)
    slots: dict[tuple[str, str | None], int] = field(default_factory=dict)
    """Segment key -> the index in `items` of its segment not yet replaced (open, or `awaiting`)."""
    awaiting: tuple[str, str | None] | None = None
    """The key of the segment the card's last message stopped: only the next message may replace it."""
    order: list[int] = field(default_factory=list)
    """The index in `items` of each complete message, in the order the messages arrived."""

    @property
    def messages(self) -> list[bytes]:
        """The complete messages of this card as drawn (exact line bytes): a message that replaced its
        segment stands where the segment started."""
        return [x for x in self.items if isinstance(x, bytes)]

    @property
    def arrived(self) -> list[bytes]:
        """The complete messages of this card in the order they arrived (the order of the stream, and
        of the trace)."""
        return [self.items[i] for i in self.order]  # type: ignore[misc]

    def walk(self) -> list[Card]:
        """This card and every card inside it, depth first in item order."""
        out = [self]
        for x in self.items:
            if isinstance(x, Card):
                out += x.walk()
        return out

    def snapshot(self) -> dict[str, Any]:
        items: list[dict[str, Any]] = []
        for x in self.items:
            if isinstance(x, bytes):
                items.append({"message": x.decode("utf-8")})
            elif isinstance(x, Segment):
                seg: dict[str, Any] = {"type": x.type, "tool_call_id": x.tool_call_id, "text": x.text,
                                       "open": x.open}
                if x.images is not None:
                    seg["images"] = list(x.images)
                items.append({"segment": seg})
            else:
                items.append({"card": x.snapshot()})
        return {"origin": list(self.origin), "items": items}


class RenderModel:
    def __init__(self, *, max_bytes: int = MAX_BYTES, max_open_segments: int = MAX_OPEN_SEGMENTS,
                 max_depth: int = MAX_DEPTH, max_cards: int = MAX_CARDS) -> None:
        self.max_bytes = max_bytes
        self.max_open_segments = max_open_segments
        self.max_depth = max_depth
        self.max_cards = max_cards
        self.reset()

    def reset(self) -> None:
        """Forget everything (on a `Resync`)."""
        self.root = Card(())
        self.bytes = 0
        self.cards = 1
        self.open_segments = 0

    def snapshot(self) -> dict[str, Any]:
        """The root card as plain JSON: `{"origin": [...], "items": [{"message": line} |
        {"segment": {"type", "tool_call_id", "text", "open"[, "images"]}} | {"card": ...}]}`."""
        return self.root.snapshot()

    def card(self, origin: tuple[str, ...] | list[str] = ()) -> Card | None:
        """The card of an origin chain (None: no message of it arrived)."""
        card = self.root
        for sid in origin:
            nxt = card.children.get(sid)
            if nxt is None:
                return None
            card = nxt
        return card

    def apply(self, item: object) -> None:
        """Apply one event, message or line (see the module's documentation)."""
        if isinstance(item, Resync):
            self.reset()
        elif isinstance(item, MessageEvent):
            self._apply(item.message, item.raw)
        elif isinstance(item, bytes | bytearray | memoryview):
            raw = bytes(item)
            self._apply(decode(raw), raw)
        elif isinstance(item, m.SessionMetaMessage | m.ModelMessage | m.EventMessage):
            self._apply(item, encode(item))

    def _take(self, n: int) -> None:
        if self.bytes + n > self.max_bytes:
            raise RenderLimitError(f"the render model would hold more than {self.max_bytes} bytes")
        self.bytes += n

    def _card(self, origin: tuple[str, ...]) -> Card:
        if len(origin) > self.max_depth:
            raise RenderLimitError(f"an origin chain deeper than {self.max_depth}")
        card = self.root
        for i, sid in enumerate(origin):
            nxt = card.children.get(sid)
            if nxt is None:
                if self.cards >= self.max_cards:
                    raise RenderLimitError(f"more than {self.max_cards} cards")
                self.cards += 1
                nxt = card.children[sid] = Card(origin[: i + 1])
                card.items.append(nxt)
            card = nxt
        return card

    def _apply(self, msg: Any, raw: bytes) -> None:
        card = self._card(() if msg.origin is UNSET else tuple(msg.origin))
        p = msg.payload
        tag = _PARTIAL_TAG.get(type(p))
        if tag is not None:
            self._fragment(card, (tag, getattr(p, "tool_call_id", None)), p)
            return
        self._take(len(raw))
        done = _TAG_OF_COMPLETE.get(type(p))
        key = None if done is None else (done, getattr(p, "tool_call_id", None))
        self._settle(card, key)
        slot = None if key is None else card.slots.pop(key, None)
        if slot is None:
            card.order.append(len(card.items))
            card.items.append(raw)
            return
        card.order.append(slot)
        seg = card.items[slot]
        assert isinstance(seg, Segment)
        self.bytes -= seg.size
        self.open_segments -= 1
        card.items[slot] = raw

    def _settle(self, card: Card, keep: tuple[str, str | None] | None) -> None:
        """A message arrived in `card`: the segment its previous message stopped is replaced only by this
        message (when it is the complete message of `keep`); otherwise it stays, closed for good."""
        key, card.awaiting = card.awaiting, None
        if key is not None and key != keep and card.slots.pop(key, None) is not None:
            self.open_segments -= 1

    def _fragment(self, card: Card, key: tuple[str, str | None], p: Any) -> None:
        self._settle(card, None)
        slot = card.slots.get(key)
        seg = None if slot is None else card.items[slot]
        if p.event_type == "start" and isinstance(seg, Segment):
            del card.slots[key]  # a new segment of a key still open: the old one stays where it is
            self.open_segments -= 1
            seg = None
        if not isinstance(seg, Segment):
            if self.open_segments >= self.max_open_segments:
                raise RenderLimitError(f"more than {self.max_open_segments} segments awaiting their message")
            seg = Segment(key[0], key[1])
            card.slots[key] = len(card.items)
            card.items.append(seg)
            self.open_segments += 1
        text: str = getattr(p, _FIELD[type(p)])
        n = len(text.encode("utf-8", "surrogatepass"))
        images = getattr(p, "images", UNSET)
        if images is not UNSET:
            n += sum(len(x) for x in images)
        self._take(n)
        seg.size += n
        if text:
            seg.parts.append(text)
        if images is not UNSET:
            seg.images = list(images)
        if p.event_type == "stop":
            seg.open = False
            card.awaiting = key
