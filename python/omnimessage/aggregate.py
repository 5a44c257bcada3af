"""Stream aggregation: turn `partial_*` fragments into complete messages.

A live stream carries, per segment, `start`, zero or more `delta`, then `stop`, and the
complete message immediately after the `stop`. A segment is keyed by its partial type and
`tool_call_id` (segments of different tools may interleave) and by its `origin` (streams of
nested subagents interleave too).

`Aggregator.feed` returns the complete messages a consumer that does not render fragments
should see, in stream order: non-partial messages pass through; a segment's complete message
is the one the producer sends after the `stop` (it carries `fidelity`, which fragments do
not). If a producer breaks the discipline and no complete message follows, the message
assembled from the fragments is emitted in its place, so nothing streamed is lost.
`Aggregator.open` exposes the text so far of every open segment, for live rendering.
Fragments are joined in UTF-16, as the JavaScript producer cut them: a surrogate pair split
between two deltas (wire contract section 4.1) is one character again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from msgspec import UNSET, Struct

from omnimessage.codec.utf16 import join_fragments

from ._generated import models as m
from ._generated.guards import is_partial
from ._generated.models import FRAGMENT_OF

__all__ = ["Aggregator", "Segment", "SegmentKey"]

SegmentKey = tuple[tuple[str, ...], str, str | None]
"""(origin chain, partial type, tool_call_id or None)."""

# partial class -> (complete class, fragment field), from the schema's `x-omnimessage-fragment-of`
_TEXT_FIELD: dict[type, str] = {cls: field for cls, (_, field) in FRAGMENT_OF.items()}
_COMPLETE_OF: dict[type, type[Struct]] = {cls: complete for cls, (complete, _) in FRAGMENT_OF.items()}
_TAG: dict[type, str] = {cls: str(cls.__struct_config__.tag) for cls in FRAGMENT_OF}


@dataclass
class Segment:
    """One streamed segment: its fragments so far."""

    key: SegmentKey
    first: m.ModelMessage
    parts: list[str] = field(default_factory=list)
    images: list[str] | None = None
    closed: m.ModelMessage | None = None  # the `stop` fragment, once seen

    @property
    def text(self) -> str:
        """The fragments so far, joined in UTF-16: a surrogate pair split between two deltas
        (JavaScript producers cut at any UTF-16 offset) is one character again."""
        return join_fragments(self.parts)

    def assemble(self) -> m.ModelMessage:
        """The complete message the fragments add up to."""
        last = self.closed or self.first
        partial: Any = last.payload
        cls = _COMPLETE_OF[type(partial)]
        fragment_field = _TEXT_FIELD[type(partial)]
        stop = partial.stop_reason if self.closed is not None else "aborted"
        kwargs: dict[str, Any] = {}
        for name in cls.__struct_fields__:  # the complete payload's fields, from the fragments
            if name == fragment_field:
                kwargs[name] = self.text
            elif name == "stop_reason":
                kwargs[name] = "completed" if stop is UNSET else stop
            elif name == "images":  # not incremental: the one delta that carried them
                kwargs[name] = self.images or UNSET
            elif name in partial.__struct_fields__:
                kwargs[name] = getattr(partial, name)
        payload: Any = cls(**kwargs)  # one of the complete model payloads
        return m.ModelMessage(timestamp=last.timestamp, payload=payload, origin=last.origin)


def segment_key(msg: m.ModelMessage) -> SegmentKey:
    """What identifies a fragment's segment: its `origin` chain, partial type and `tool_call_id`."""
    p: Any = msg.payload
    origin = () if msg.origin is UNSET else tuple(msg.origin)
    return (origin, _TAG[type(p)], getattr(p, "tool_call_id", None))


def _complete_key(msg: m.ModelMessage) -> SegmentKey | None:
    """The key of the segment a complete message would close."""
    for pcls, ccls in _COMPLETE_OF.items():
        if type(msg.payload) is ccls:
            origin = () if msg.origin is UNSET else tuple(msg.origin)
            return (origin, _TAG[pcls], getattr(msg.payload, "tool_call_id", None))
    return None


class Aggregator:
    """Feed stream messages in order; get complete messages back."""

    def __init__(self) -> None:
        self.open: dict[SegmentKey, Segment] = {}
        self._awaiting: dict[SegmentKey, Segment] = {}  # stopped, complete message not yet seen
        self.mismatches: list[tuple[SegmentKey, str]] = []  # segments whose fragments != complete message

    def feed(self, msg: m.Message) -> list[m.Message]:
        """Take the next stream message; return what a consumer that stores or renders complete
        messages gets from it (often nothing).

        A fragment (`partial_*`) opens or extends its segment and returns nothing. A complete
        message is returned as it is; when it closes a segment, its fragments joined in UTF-16 are
        checked against it and a difference is recorded in `mismatches`. Every other message
        (events, `session_meta`) is returned as it is, after any stopped segment whose complete
        message never came, assembled from its fragments.
        """
        out: list[m.Message] = []
        if is_partial(msg):
            self._fragment(msg, out)
            return out
        key = _complete_key(msg) if isinstance(msg, m.ModelMessage) else None
        seg = self._awaiting.pop(key, None) if key is not None else None
        self._flush_awaiting(out)
        if seg is not None:
            self._compare(seg, msg)
        out.append(msg)
        return out

    def finish(self) -> list[m.Message]:
        """End of stream: segments never completed are emitted as assembled (unclosed ones `aborted`)."""
        out: list[m.Message] = []
        self._flush_awaiting(out)
        for seg in self.open.values():
            out.append(seg.assemble())
        self.open.clear()
        return out

    def _fragment(self, msg: m.ModelMessage, out: list[m.Message]) -> None:
        p: Any = msg.payload
        key = segment_key(msg)
        if key in self._awaiting:  # a new segment with the same key: the old one never completed
            out.append(self._awaiting.pop(key).assemble())
        seg = self.open.get(key)
        if seg is None:
            seg = self.open[key] = Segment(key, msg)
        seg.parts.append(getattr(p, _TEXT_FIELD[type(p)]))
        if getattr(p, "images", UNSET) is not UNSET:
            seg.images = list(p.images)
        if p.event_type == "stop":
            seg.closed = msg
            del self.open[key]
            self._awaiting[key] = seg

    def _flush_awaiting(self, out: list[m.Message]) -> None:
        for seg in self._awaiting.values():
            out.append(seg.assemble())
        self._awaiting.clear()

    def _compare(self, seg: Segment, complete: m.Message) -> None:
        p: Any = complete.payload
        partial_cls = type(seg.first.payload)
        name = _TEXT_FIELD[partial_cls]
        if getattr(p, name) != seg.text:
            self.mismatches.append((seg.key, name))
        if partial_cls is m.PartialToolCallOutputPayload and (seg.images or []) != (
            [] if p.images is UNSET else list(p.images)
        ):
            self.mismatches.append((seg.key, "images"))
