"""The validator's hot path fused into one function a line: `step`.

The reference is the general path, `Validator.feed_raw` -> `_check` -> `checks.DISPATCH`, one call per
stage and per check. `step` does the same for the common line, a canonical message the native fast
path decodes: the envelope (line counts, session routing, the timestamp's fast path, the streaming
expectation) inline, and for the most common line of a stream, a `delta` of an open segment, one
handler per partial kind, made from the schema's fragment table (`FRAGMENT_OF`); every other payload
goes to its checks through `checks.guarded.GUARDED` (`DISPATCH` with the common chains written out,
each check behind its own early exit). Whatever is not that common case (a refusal, CR LF, a heal, a
gated protocol, a last line without line feed, a trace file's first message or its head, an origin
chain, a timestamp that is not plainly later, a fragment some rule may report on) goes to the general
path, or to the check that decides it: the findings are the reference's
(python/tests/test_validate_fused.py runs both over every fixture, corpus and damaged variant).

With the accelerator built, `run` hands the stream's lines to its `deltas` (`DELTAS`,
python/omnimessage/_native/deltas.c) first: it takes every delta of an open segment of the main session
that no rule reports on and needs no flush (the counters, the clock, the fragment, the size and the
budget, as the loop and its handler do), and gives back the first line it leaves, decoded, where the loop
goes on. Without it the loop alone does the same (the tests run both ways and compare the state each
leaves too). While it runs, the validator's counters, clock and budget are written back only when it
returns: an iterator of lines that reads them (a generator watching `v.lines`) sees them as they were
when it was called. Without the native fast path at all (OMNIMESSAGE_PURE=1) `step` takes the general path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from types import MemberDescriptorType
from typing import Any, Final, Protocol

from omnimessage._generated.models import (
    FRAGMENT_OF,
    UNSET,
    McpConnectBeginPayload,
    McpConnectEndPayload,
    SessionMetaPayload,
    ToolCallOutputPayload,
    ToolListReadyPayload,
)
from omnimessage.codec.tables import RUNTIME
from omnimessage.validate.engine.checks.guarded import GUARDED
from omnimessage.validate.engine.checks.streaming import expectation
from omnimessage.validate.engine.checks.values import FRACTIONS, timestamp
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.finding import Finding
from omnimessage.validate.engine.state import (
    MAX_OPEN_SEGMENTS,
    SEGMENT_FRAGMENTS,
    SEGMENT_PREFIX,
    Budget,
    Segment,
    Session,
)

__all__ = ["FRAGMENTS", "OPENING", "TS_NEXT", "Engine", "run", "step"]


class Engine(Protocol):
    """What the loop calls of the `Validator` (`engine`, which imports this module) besides its `Context`."""

    def feed(self, item: Any, *, line: int | None = None, terminated: bool = True) -> Sequence[Finding]: ...

    def feed_raw(self, raw: bytes | None, line: int, terminated: bool = True) -> None: ...

    def _check(self, msg: Any, line: int) -> None: ...


OPENING: Final = (McpConnectBeginPayload, McpConnectEndPayload, ToolListReadyPayload, SessionMetaPayload)
"""What may follow a completed compaction_end while the new context opens (its records, then its meta)."""
_NATIVE: Final = RUNTIME.native


def _ts_plain(ts: str, second: str, prev: str | None) -> bool:
    """Whether `ts` is in the second `second` (already checked), ends in a fraction the rules accept, and
    is not earlier than `prev` (then `values.timestamp` has nothing to report)."""
    return ts[:19] == second and ts[19:] in FRACTIONS and (
        prev is None or (len(ts) == 24 == len(prev) and ts >= prev))


def _ts_native() -> Callable[[str, str, str | None], bool] | None:
    """The accelerator's `ts_next` (`_ts_plain` in C, python/omnimessage/_native/module.c), when the
    fast path is native and the build has it."""
    if _NATIVE is None:
        return None
    try:
        from omnimessage import _accel  # type: ignore[attr-defined]
    except ImportError:
        return None
    found: Callable[[str, str, str | None], bool] | None = getattr(_accel, "ts_next", None)
    return found


TS_NEXT: Final = _ts_native() or _ts_plain
"""The timestamp fast path the fused loop takes: native when it can."""
_TOOL_CALL_ID: Final = "tool_call_id"


_KEYED, _TOOL_SIDE, _NAMED, _WITH_IMAGES = 1, 2, 4, 8  # the flags of a partial class (deltas.c's too)


def _traits(cls: type) -> int:
    """The flags of a partial payload class: its segments are per tool call (keyed by tool_call_id), it
    streams the tool's output rather than the model's, it names a tool (OM306), it carries images (OM307)."""
    fields = cls.__struct_fields__  # type: ignore[attr-defined]
    return ((_KEYED if _TOOL_CALL_ID in fields else 0) | (_TOOL_SIDE if FRAGMENT_OF[cls][0] is ToolCallOutputPayload
                                                          else 0)
            | (_NAMED if "name" in fields else 0) | (_WITH_IMAGES if "images" in fields else 0))


def _fragment(cls: type, field: str) -> Callable[[Session, Any, int, Budget], bool]:
    """The handler of a fragment of `cls` (a partial payload class streaming `field`): what
    `streaming.fragment` does with a start, delta or stop that no rule reports on; False (having
    changed nothing) for any other, which the general path then takes."""
    flags = _traits(cls)
    keyed = bool(flags & _KEYED)
    tool_side = bool(flags & _TOOL_SIDE)  # the tool's output, not the model's
    named = bool(flags & _NAMED)  # OM306: one tool name a segment
    with_images = bool(flags & _WITH_IMAGES)  # OM307: images; the general path judges them

    def fragment(s: Session, p: Any, line: int, budget: Budget) -> bool:
        if not tool_side and s.usage and not s.usage_reported:
            return False  # OM407
        if with_images and p.images is not UNSET:
            return False
        tid = p.tool_call_id if keyed else None
        key = (cls, tid)
        segs = s.segs
        et = p.event_type
        if et == "start":
            if key in segs or key in s.awaiting or len(segs) + len(s.awaiting) >= MAX_OPEN_SEGMENTS:
                return False  # OM302, OM303, OM007
            seg = segs[key] = Segment(line, budget)
            if named and p.name:
                seg.name = p.name
        else:
            got = segs.get(key)
            if got is None or (et == "stop" and s.comp is not None):
                return False  # OM301, a segment not tracked; a compaction's summary
            seg = got
            if named:
                name = p.name
                if name:
                    if seg.name is None:
                        seg.name = name
                    elif seg.name != name and not seg.tainted:
                        return False  # OM306
        if tool_side:
            c = s.calls.get(tid)  # type: ignore[arg-type]
            if c is not None and not c.started:
                c.started = line
        # Segment.add, inline
        text: str = getattr(p, field)
        parts = seg.parts
        parts.append(text)
        n = len(text)
        seg.size += n
        if seg.digest is None:
            budget.left -= n
            if budget.left < 0 or len(parts) > SEGMENT_FRAGMENTS:
                seg.flush()
        elif seg.size > SEGMENT_PREFIX or len(parts) > SEGMENT_FRAGMENTS:
            seg.flush()
        if et == "stop":  # awaiting its complete message, which must come next (OM303)
            del segs[key]
            seg.stop_line = line
            s.awaiting[key] = seg
            s.expect = (key, line)
        return True

    return fragment


FRAGMENTS: Final[dict[type, Callable[[Session, Any, int, Budget], bool]]] = {
    partial: _fragment(partial, field) for partial, (_, field) in FRAGMENT_OF.items()
}
"""Partial payload class -> the handler of its common fragments, one per row of `FRAGMENT_OF`."""

DeltasFn = Callable[[object, Iterator[object], Context, Session, Budget, tuple[Any, ...], bool, bool],
                    "tuple[object, Any] | None"]
DELTAS_SPEC: Final = (
    {partial: (field, _traits(partial)) for partial, (_, field) in FRAGMENT_OF.items()}, UNSET, SEGMENT_FRAGMENTS,
    SEGMENT_PREFIX, MemberDescriptorType,
)
"""What `DELTAS` takes a delta by: partial class -> (its fragment field, its `_traits`); the caps; the type
of the attributes it reads directly (`__slots__` and msgspec fields)."""


def _deltas_native() -> DeltasFn | None:
    """The accelerator's `deltas` (python/omnimessage/_native/deltas.c), when the fast path is native and
    the build has it."""
    if _NATIVE is None:
        return None
    try:
        from omnimessage import _accel  # type: ignore[attr-defined]
    except ImportError:
        return None
    found: DeltasFn | None = getattr(_accel, "deltas", None)
    return found if _NATIVE is getattr(_accel, "decode", None) else None  # (it decodes as that does)


DELTAS: DeltasFn | None = _deltas_native()
"""The common stream line in C, when built: from a line on, the deltas of open segments of the main
session that no rule reports on, as `run` takes them (the loop alone does the same without it)."""


def step(v: Context, raw: bytes, line: int, terminated: bool) -> None:
    """`v.feed_raw(raw, line, terminated)` (`raw` without its line feed), fused for the common line (see
    the module); findings go to `v.take()`. Without the native fast path (OMNIMESSAGE_PURE=1, a build
    without the accelerator) the loop has nothing to fuse: the general path takes the line."""
    if terminated and _NATIVE is not None:
        v.line = line - 1
        run(v, iter((raw,)), False, stripped=True)
    else:
        engine: Engine = v  # type: ignore[assignment]
        engine.feed_raw(raw, line, terminated)


def _count(v: Context, n: int) -> None:
    """Count `n` main-session messages `run` dispatched without counting them."""
    v.lines += n
    v.file_lines += n
    v.messages += n
    if v.trace:
        v.file_msgs += n


def run(v: Context, items: Iterator[object], with_lf: bool, *, stripped: bool = False) -> bool:
    """Feed `items` (numbered on from `v.line`), as `Validator.validate_lines` takes them, until one
    produces findings (True: they wait in `v.take()`, more items may follow) or none are left (False).

    A line of bytes is terminated when it ends with a line feed (taken off) or `with_lf` is false (as
    in `validate_lines`); with `stripped`, every line is given without its line feed, terminated. Every
    other item goes to `v.feed`.

    The lines after `base` up to `v.line` went to the checks (which read no line counter: `lines`,
    `file_lines`, `messages`, `file_msgs`) and are not counted yet: `_count` counts them before the
    general path is called, and when the loop returns (an exception from a check may leave them short).
    (`not v.file_msgs` reads the same meanwhile: in a trace such a line needs a message before it in its
    file.)"""
    engine: Engine = v  # type: ignore[assignment]  # (a Validator: its Context and the Engine calls)
    native = _NATIVE
    main = v.main
    fragments = FRAGMENTS
    budget = v.budget
    dispatch = GUARDED
    ts_next = TS_NEXT
    unset = UNSET
    trace = v.trace  # (the profile and the protocol: fixed when the validator is made)
    gated = v.gated
    base = v.line
    deltas = DELTAS if native is not None and not trace else None
    spec = DELTAS_SPEC
    for item in items:
        # The last message is freed before the next is decoded, as in a plain decode loop: the reallocs of
        # msgspec's scratch buffer then copy less (0.7M to 1.0M instructions on the trace bench in one pair
        # of callgrind runs; what they copy moves about as much with the heap's layout from run to run).
        msg = payload = None
        if deltas is not None and v.heal is None and not gated:
            # the common lines in C, from this one on (counted there: `base` moves past them); the first it
            # leaves comes back, decoded or not
            before = v.line
            got = deltas(item, items, v, main, budget, spec, with_lf, stripped)
            base += v.line - before
            if got is None:
                break
            item, msg = got
        if type(item) is not bytes or native is None:
            if v.line != base:
                _count(v, v.line - base)
            if isinstance(item, (bytes, bytearray, memoryview, str)):
                ends = bytes(item[-1:]) == b"\n" if not isinstance(item, str) else item.endswith("\n")
                found = engine.feed(item, terminated=ends or not with_lf)
            else:
                found = engine.feed(item)
            base = v.line
            if found:
                v._pending = list(found)  # (feed took them)
                return True
            continue
        line = v.line + 1
        last = item[-1] if item else -1  # (raw's last byte, once raw is known)
        if stripped:
            raw = item
        elif last == 10:
            raw = item[:-1]
            last = raw[-1] if raw else -1
        elif with_lf:  # a last line without its line feed
            if line - 1 != base:
                _count(v, line - 1 - base)
            engine.feed_raw(item, line, False)
            base = line
            if v._pending:
                return True
            continue
        else:
            raw = item
        if msg is None and v.heal is None and not gated and last != 13:
            msg = native(raw)
        if msg is None or msg is False:  # (False: `deltas` had it refused)
            if line - 1 != base:
                _count(v, line - 1 - base)
            engine.feed_raw(raw, line, True)
            base = line
            if v._pending:
                return True
            continue
        # Validator.feed_raw, what it does with such a line
        v.line = line
        if msg.origin is not unset or (trace and (not v.file_msgs or v.head)):
            if line - 1 != base:
                _count(v, line - 1 - base)
            v.lines += 1
            v.file_lines += 1
            engine._check(msg, line)  # a child session's message; a trace file's first or its head
            base = line
            if v._pending:
                return True
            continue
        # Validator._check, inline: a message of the main session, not a trace file's first or head
        ts = msg.timestamp
        if ts_next(ts, v.ts_second, main.ts):
            main.ts = ts
            main.ts_line = line
        else:
            timestamp(v, main, ts, line, False)
        payload = msg.payload
        cls = type(payload)
        if main.opening and not isinstance(payload, OPENING):
            main.opening = False
        if main.expect is not None:
            expectation(v, main, payload, line)
        if trace or (handler := fragments.get(cls)) is None or not handler(main, payload, line, budget):
            dispatch[cls](v, main, payload, line, msg)
        if v._pending:
            _count(v, line - base)
            return True
    n = v.line - base
    if n:  # `_count`, inline: a `step` ends here
        v.lines += n
        v.file_lines += n
        v.messages += n
        if trace:
            v.file_msgs += n
    return False
