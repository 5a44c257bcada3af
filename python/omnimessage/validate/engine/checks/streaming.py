"""OM3xx streaming discipline (facts 3): start / delta / stop fragments of a segment, then at once
its complete message, whose field equals the fragments joined.

Which partial streams which complete payload, and through which field, is the schema's
`x-omnimessage-fragment-of` (the generated `FRAGMENT_OF`): one handler serves every partial.
"""

from __future__ import annotations

import typing
from typing import Final

from omnimessage._generated.models import (
    FRAGMENT_OF,
    UNSET,
    Message,
    PartialTextPayload,
    PartialThinkingPayload,
    PartialToolCallOutputPayload,
    PartialToolCallPayload,
    SessionMetaPayload,
    TextPayload,
    ThinkingPayload,
    ToolCallOutputPayload,
    ToolCallPayload,
)
from omnimessage.codec.utf16 import join_fragments
from omnimessage.validate.engine.checks import values
from omnimessage.validate.engine.checks.pairing import assistant_output
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.rules import Severity
from omnimessage.validate.engine.state import MAX_OPEN_SEGMENTS, SEGMENT_PREFIX, Key, Segment, Session
from omnimessage.validate.engine.wording import COMPLETE_NAMES, PART_NAMES, first_diff, short, what

__all__ = ["complete", "expectation", "fragment", "meta_on_stream", "unclosed"]

Partial = PartialTextPayload | PartialThinkingPayload | PartialToolCallPayload | PartialToolCallOutputPayload
Complete = TextPayload | ThinkingPayload | ToolCallPayload | ToolCallOutputPayload

_TOOL_CALL_ID: Final = "tool_call_id"
_ROLE: Final = "role"
# partial class -> (its fragment field, whether its segments are per tool call (keyed by their
# tool_call_id), whether it streams the tool's output rather than the model's), from the schema
_FRAGMENTS: Final[dict[type, tuple[str, bool, bool]]] = {
    partial: (field, _TOOL_CALL_ID in partial.__struct_fields__, complete is ToolCallOutputPayload)
    for partial, (complete, field) in FRAGMENT_OF.items()
}
# complete payload class -> (the partial class streaming it, its fragment field, whether keyed, and
# the role its partials stream: a complete payload of another role (a user's text) closes no segment)
_STREAMED_BY: Final[dict[type, tuple[type, str, bool, str]]] = {
    complete: (partial, field, _FRAGMENTS[partial][1], *typing.get_args(typing.get_type_hints(partial)[_ROLE]))
    for partial, (complete, field) in FRAGMENT_OF.items()
}


def fragment(ctx: Context, s: Session, p: Partial, line: int, msg: Message) -> None:
    """OM203: no partials in a trace; OM301, OM302, OM303 via `_segment`; per kind OM306, OM307.

    The tool's output fragments mark its call's output as started (OM404 wants approvals before);
    the model's are assistant output (OM407)."""
    cls = type(p)
    if ctx.trace:
        ctx.emit("OM203", line, f"{PART_NAMES[cls]} in a trace")
        return
    field, keyed, tool_side = _FRAGMENTS[cls]
    tid: str | None = p.tool_call_id if keyed else None  # type: ignore[union-attr]
    if tool_side:
        c = s.calls.get(tid)  # type: ignore[arg-type]
        if c is not None and not c.started:
            c.started = line
    elif s.usage and not s.usage_reported:  # (the check's own condition: the hot path skips the call)
        assistant_output(ctx, s, p, line, msg)
    key = (cls, tid)
    seg = s.segs.get(key) if p.event_type == "delta" else None
    if seg is not None:  # the common case, a delta of an open segment: what `_segment` does with it
        seg.add(getattr(p, field))
    else:
        seg = _segment(ctx, s, key, p.event_type, line, getattr(p, field))
    if cls is PartialToolCallPayload:
        _tool_name(ctx, seg, p.name, line)  # type: ignore[union-attr]
    elif tool_side and p.images is not UNSET:  # type: ignore[union-attr]
        _output_images(ctx, seg, p.images, p.event_type, line)  # type: ignore[union-attr]


def _tool_name(ctx: Context, seg: Segment, name: str, line: int) -> None:
    """OM306: the fragments of a tool call name one tool."""
    if not name:
        pass  # the reference names the tool on the start only (`name: ""` on delta and stop)
    elif seg.name is None:
        seg.name = name
    elif seg.name != name and not seg.tainted:
        ctx.emit("OM306", line, f"tool name {name!r} differs from {seg.name!r} earlier in the segment",
                 "/payload/name")


def _output_images(ctx: Context, seg: Segment, images: list[str], et: str, line: int) -> None:
    """OM307: one delta of a streamed tool output carries its images (OM704 checks them)."""
    values.images(ctx, images, line)
    if et != "delta":
        ctx.emit("OM307", line, f"images on a {et} fragment; one delta carries them", "/payload/images")
    elif seg.images is not None:
        ctx.emit("OM307", line, f"images carried again; the delta on line {seg.images_line} already did",
                 "/payload/images")
    if seg.images is None:
        seg.images = images
        seg.images_line = line


def _segment(ctx: Context, s: Session, key: Key, event_type: str, line: int, fragment: str) -> Segment:
    """OM301: delta and stop continue an open segment; OM302: a start does not reopen one; OM303: nor
    comes before the complete message of the last one."""
    if event_type == "start":
        old = s.segs.get(key)
        if old is not None:
            ctx.emit("OM302", line, f"start of {what(key)} while the segment started on line "
                                    f"{old.line} is still open{s.label}")
            old.release()
        late = s.awaiting.pop(key, None)
        if late is not None:
            ctx.emit("OM303", line, f"start of {what(key)} before the complete message of the "
                                    f"segment stopped on line {late.stop_line}{s.label}")
            late.release()
        if old is None and _full(ctx, s, line):
            return Segment(line, ctx.budget, tainted=True)  # not tracked
        seg = s.segs[key] = Segment(line, ctx.budget)
    else:
        got = s.segs.get(key)
        if got is None and s.dropped_segs:
            return Segment(line, ctx.budget, tainted=True)  # perhaps a segment not tracked past the cap: counted only
        if got is None:
            if _full(ctx, s, line):
                return Segment(line, ctx.budget, tainted=True)
            was = s.awaiting.get(key)
            if was is None and s.blind:  # perhaps started before the stream: tracked, not judged
                seg = s.segs[key] = Segment(line, ctx.budget, tainted=True)
                seg.add(fragment)
                if event_type == "stop":
                    del s.segs[key]
                    seg.release()
                return seg
            after = f" (the last one stopped on line {was.stop_line})" if was is not None else ""
            ctx.emit("OM301", line, f"{event_type} of {what(key)} with no open segment{after}{s.label}")
            seg = s.segs[key] = Segment(line, ctx.budget, tainted=True)
        else:
            seg = got
    seg.add(fragment)
    if event_type == "stop":
        del s.segs[key]
        seg.stop_line = line
        if s.comp is not None and (key[0] is PartialTextPayload or (
                key[0] is PartialThinkingPayload and ctx.allows("compaction-streams-thinking"))):
            # The compaction summary streams its text, and since protocol `next` its thinking, with
            # no complete message after the stop (or the complete message alone): facts 3.
            seg.release()
            return seg
        s.awaiting[key] = seg
        s.expect = (key, line)
    return seg


def _full(ctx: Context, s: Session, line: int) -> bool:
    """OM007: a session holds at most MAX_OPEN_SEGMENTS open segments; past it they are counted only."""
    if len(s.segs) + len(s.awaiting) < MAX_OPEN_SEGMENTS:
        return False
    s.dropped_segs += 1
    ctx.cap_reached("segments", line, f"more than {MAX_OPEN_SEGMENTS} streaming segments open at once{s.label}; "
                                      "further segments are not checked")
    return True


def _streamed_key(p: object) -> Key | None:
    """The segment a payload would close: None unless it is a complete payload some partial streams,
    of the role the partials stream."""
    spec = _STREAMED_BY.get(type(p))
    if spec is None:
        return None
    partial, _, keyed, role = spec
    if getattr(p, _ROLE) != role:
        return None
    return (partial, getattr(p, _TOOL_CALL_ID) if keyed else None)


def complete(ctx: Context, s: Session, p: Complete, line: int, msg: Message) -> None:
    """OM304: the complete message follows its segment's stop; OM305: it equals the fragments joined;
    per kind OM306 (tool name), OM307 (images)."""
    if not (s.segs or s.awaiting):
        return
    key = _streamed_key(p)
    if key is None:
        return
    field = _STREAMED_BY[type(p)][1]
    seg = s.awaiting.pop(key, None)
    if seg is None:
        seg = s.segs.pop(key, None)
        if seg is None:
            return
        ctx.emit("OM304", line, f"the complete message arrived while the {what(key)} segment started "
                                f"on line {seg.line} was still open{s.label}")
        seg.stop_line = line
    if not seg.tainted:
        _joined(ctx, seg, getattr(p, field), field, line)
    seg.release()
    if seg.tainted:
        return
    if type(p) is ToolCallPayload:
        if seg.name is not None and seg.name != p.name:
            ctx.emit("OM306", line, f"the complete tool_call names {p.name!r}, its fragments {seg.name!r}",
                     "/payload/name")
    elif type(p) is ToolCallOutputPayload:
        streamed = seg.images or []
        final = [] if p.images is UNSET else p.images
        if streamed != final:
            ctx.emit("OM307", line, f"the complete output carries {len(final)} image(s), its fragments "
                                    f"{len(streamed)} (or different ones)", "/payload/images")


def _joined(ctx: Context, seg: Segment, full: str, field: str, line: int) -> None:
    """OM305: the complete field equals the fragments joined (kept, or hashed past SEGMENT_PREFIX)."""
    if seg.digest is None:
        plain = "".join(seg.parts)
        if plain == full:
            # A strictly decoded complete payload holds no lone surrogate, so when the plain join equals
            # it, no half of a pair is split across fragments either: the exact join is the same.
            return
        joined = join_fragments((plain,))
        if joined == full:
            return
        chars = len(joined)
    else:
        seg.flush()
        if seg.joins_to(full):
            return
        joined, chars = seg.joined_prefix(), seg.joined_chars()
    i = first_diff(joined, full)
    where = f"/payload/{field}"
    head = f"the fragments of lines {seg.line}-{seg.stop_line} join to {chars} characters, the complete {field} " \
           f"has {len(full)}"
    # with a digest, the last character kept may be half of a pair: a difference counts before it only
    if seg.digest is None or i + 20 < len(joined) - 1:
        ctx.emit("OM305", line, f"{head}; they differ from character {i} "
                                f"({short(joined[i:i + 20], 30)} vs {short(full[i:i + 20], 30)})", where)
    else:
        ctx.emit("OM305", line, f"{head}; the first {len(joined) - 21} characters agree, they differ beyond "
                                f"(the segment keeps only a digest past its first {SEGMENT_PREFIX})", where)


def expectation(ctx: Context, s: Session, p: object, line: int) -> None:
    """OM303: a stopped segment is followed at once by its complete message (another tool's output
    may come between: tools run in parallel)."""
    assert s.expect is not None
    key, stop_line = s.expect
    s.expect = None
    cls = type(p)
    partial = key[0]
    if _FRAGMENTS[partial][2] and cls in (partial, FRAGMENT_OF[partial][0]) and getattr(p, _TOOL_CALL_ID) != key[1]:
        # tools run in parallel: another tool's output may land between a stop and its complete
        if key in s.awaiting:
            s.expect = (key, stop_line)
        return
    got = _streamed_key(p)
    if got != key:
        tag = cls.__struct_config__.tag or "session_meta"  # type: ignore[attr-defined]
        ctx.emit("OM303", line, f"the {what(key)} segment stopped on line {stop_line} must be followed at once "
                                f"by its complete {COMPLETE_NAMES[key[0]]}; got {tag}{s.label}")
        gone = s.awaiting.pop(key, None)
        if gone is not None:
            gone.release()


def unclosed(ctx: Context, s: Session) -> None:
    """OM308: every segment is stopped, and followed by its complete message, by the end of the input."""
    sev: Severity = "warning" if ctx.truncated else "error"
    for key, seg in sorted(s.segs.items(), key=lambda kv: kv[1].line):
        ctx.emit("OM308", seg.line, f"the {what(key)} segment started here is never stopped{s.label}", severity=sev)
    for key, seg in sorted(s.awaiting.items(), key=lambda kv: kv[1].line):
        ctx.emit("OM308", seg.stop_line, f"the {what(key)} segment stopped here is not followed by its complete "
                                         f"{COMPLETE_NAMES[key[0]]}{s.label}", severity=sev)


def meta_on_stream(ctx: Context, s: Session, p: SessionMetaPayload, line: int, msg: Message) -> None:
    """OM309: a stream carries only forwarded (child) session_meta messages."""
    if msg.origin is UNSET and not ctx.trace:
        if s.opening and ctx.allows("model-switch-meta-on-stream"):
            s.opening = False  # a model switch: the new context's meta, last of its records (facts 11)
            return
        ctx.emit("OM309", line, "session_meta without origin on a stream (only a child's, forwarded, appears)")
