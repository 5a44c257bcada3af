"""`Session`: one object that takes every message a producer emits and feeds all three channels.

The protocol's promise is that what is streamed, what is stored and what the model sees are one
structure: each message enters the output stream and is appended to the trace at the same moment,
and the server pushes it over SSE unchanged (protocol facts 7). A `Session` does that routing, the
way the reference engine does (PenguinHarness `packages/core/src/engine/context-engine.ts`:
`write`, `executeOne`, `startNewContext`):

- `emit(msg)`: the message goes to the caller's stream and to the SSE channel, as the same bytes;
  a complete, origin-less message is appended to the trace first (write, then send).
- `record(msg)`: trace only. The reference keeps some records out of the live stream: the user's
  input, and a compaction request's prompt, request events and (when its text streamed as
  partials) complete summary.
- Forwarded child messages (`origin` set, built with `child()`) go to the stream and SSE only;
  when a direct child's `session_meta` passes, a `subagent` pointer naming the child is appended
  to this trace (`executeOne`). The child writes its own trace.
- `new_context(meta, *head)`: a compaction or a model switch opened a new context. As in the
  reference, the trace rotates at the next trace write (a context nothing is written to leaves
  no file): `session_meta`, the MCP connect pair, `tool_list_ready`; the head's events are
  streamed at that moment too (the newest reference streams a new context's MCP pair and toolset
  as it opens). The `session_meta` is never streamed, except a child's first one (`start(...,
  announce=True)`), which its parent forwards.

As messages pass, the streaming discipline is checked with the aggregator: a segment opens with
`start`, and the complete message that follows its `stop` (emitted or recorded) must be the
fragments joined. A violation raises `StreamDisciplineError` before the message reaches any
channel: never a silent repair. The one exception is the reference's own: inside a forwarded
child's compaction, a stopped segment's complete message is in the child's trace only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from msgspec import UNSET

from omnimessage.codec.api import encode

from .._generated import models as m
from .._generated.builders import subagent
from .._generated.guards import is_partial, is_session_meta
from ..aggregate import Aggregator, segment_key
from ..builders import now, with_origin
from .sse import SseChannel
from .trace_writer import TraceRefused, TraceWriter, _kind, _refusal

__all__ = ["Session", "StreamDisciplineError"]

Outlet = Callable[[m.Message, bytes], object]


class StreamDisciplineError(ValueError):
    """A message that breaks the streaming discipline; nothing of it reached any channel."""


def _origin(msg: m.Message) -> tuple[str, ...]:
    return () if msg.origin is UNSET else tuple(msg.origin)


class Session:
    """Route one session's messages to its stream, its trace and its SSE channel.

    Args:
        trace: the session's `TraceWriter` (None: no trace).
        sse: the channel its messages are pushed to (None: no SSE).
        stream: called with each streamed message's line (its bytes and a LF), in order.
        clock: the timestamp of records the session makes itself (`subagent` pointers).
    """

    def __init__(self, trace: TraceWriter | None = None, sse: SseChannel | None = None, *,
                 stream: Callable[[bytes], object] | None = None, clock: Callable[[], str] = now,
                 session_id: str | None = None) -> None:
        self.trace = trace
        self.sse = sse
        self.session_id = session_id or (trace.session_id if trace is not None else None)
        self._clock = clock
        self._outlets: list[Outlet] = []
        if stream is not None:
            self._outlets.append(lambda _msg, line: stream(line))
        self._agg = Aggregator()
        self._compacting: set[tuple[str, ...]] = set()  # origins inside a compaction window
        self._pending: tuple[m.SessionMetaMessage, tuple[m.EventMessage, ...]] | None = None
        self._lock = threading.RLock()
        self.closed = False

    # -- what producers call --

    def start(self, meta: m.SessionMetaMessage, *, announce: bool = False) -> None:
        """The session's first context: its `session_meta` is appended to the trace now.
        `announce`: a child session's stream opens with it (its parent forwards it)."""
        if not is_session_meta(meta):
            raise TypeError("start() takes the session's session_meta")
        with self._lock:
            line = encode(meta) + b"\n"
            if self.trace is not None:
                self.trace.write(meta)
            if announce:
                self._push(meta, line)

    def emit(self, msg: m.Message) -> m.Message:
        """Stream a message (and store it, when the trace takes it); returns it, for `yield`."""
        if is_session_meta(msg) and msg.origin is UNSET:
            raise TypeError("a session_meta opens a context: use start() or new_context(), not emit()")
        with self._lock:
            # Encoded first: a message that would not be one line (ValueError) changes nothing,
            # neither the stream's state, nor the trace, nor the SSE channel.
            line = encode(msg) + b"\n"
            self._check(msg)
            if msg.origin is not UNSET:
                if is_session_meta(msg) and len(msg.origin) == 1:
                    self._store(subagent(msg.origin[0], timestamp=self._clock()))
            elif not is_partial(msg):
                self._store(msg)
            self._push(msg, line)
            return msg

    def record(self, msg: m.Message) -> None:
        """Store a message in the trace only (never streamed). A partial or an `origin` message is
        refused (`TraceRefused`) before it is checked or counted."""
        refusal = _refusal(msg)
        if refusal is not None:
            raise TraceRefused(refusal)
        with self._lock:
            self._check(msg)
            self._store(msg)

    def new_context(self, meta: m.SessionMetaMessage, *head: m.EventMessage) -> None:
        """A new model context (after a compaction or a model switch): its head is written, and
        the trace rotated, at the next trace write."""
        if not is_session_meta(meta):
            raise TypeError("a context opens with its session_meta")
        with self._lock:
            self._pending = (meta, head)

    def child(self, trace: TraceWriter, *, session_id: str | None = None) -> Session:
        """A child session (a subagent) whose stream is forwarded into this one, `origin` prepended."""
        child_id = session_id or trace.session_id
        forwarded = Session(trace, clock=self._clock, session_id=child_id)
        forwarded._outlets.append(lambda msg, _line: self.emit(with_origin(msg, child_id)))
        return forwarded

    def close(self) -> None:
        """End of the session's stream: a segment left open, or stopped without its complete
        message, is a `StreamDisciplineError`."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            if self._agg.open:
                raise StreamDisciplineError(f"segments never stopped: {_keys(self._agg.open)}")
            leftover = [msg for msg in self._agg.finish() if _origin(msg) not in self._compacting]
            if leftover:
                raise StreamDisciplineError(f"segments stopped without their complete message: {_names(leftover)}")

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self.close()

    # -- internals --

    def _check(self, msg: m.Message) -> None:
        if not isinstance(msg, (m.SessionMetaMessage, m.ModelMessage, m.EventMessage)):
            raise TypeError(f"a Session takes OmniMessages, not {type(msg).__name__}")
        if self.closed:
            raise StreamDisciplineError("the session is closed")
        agg = self._agg
        origin = _origin(msg)
        if is_partial(msg):
            p: Any = msg.payload
            key = segment_key(msg)
            if key not in agg.open and p.event_type != "start":
                raise StreamDisciplineError(f"a {p.event_type} fragment of a segment that never started: {key}")
            if key in agg.open and p.event_type == "start":
                raise StreamDisciplineError(f"a segment started again before it stopped: {key}")
        before = len(agg.mismatches)
        out = agg.feed(msg)
        passed = [] if is_partial(msg) else [msg]
        assembled = [x for x in out if x is not msg]
        if [x for x in out if x is msg] != passed:
            raise StreamDisciplineError("internal: the aggregator did not pass the message through")
        missing = [x for x in assembled if _origin(x) not in self._compacting]
        if missing:
            raise StreamDisciplineError(
                f"segments stopped without their complete message before this {_names([msg])}: {_names(missing)}")
        if len(agg.mismatches) > before:
            key, name = agg.mismatches[-1]
            raise StreamDisciplineError(f"the fragments of segment {key} do not join into the complete "
                                        f"message that followed their stop (field {name!r})")
        if isinstance(msg, m.EventMessage):
            if isinstance(msg.payload, m.CompactionBeginPayload):
                self._compacting.add(origin)
            elif isinstance(msg.payload, m.CompactionEndPayload):
                self._compacting.discard(origin)

    def _store(self, msg: m.Message) -> None:
        if self.trace is None:
            return
        if self._pending is not None:
            meta, head = self._pending
            self._pending = None
            self.trace.open_context(meta, *head)
            for record in head:
                self._agg.feed(record)
                self._push(record, encode(record) + b"\n")
        self.trace.write(msg)

    def _push(self, msg: m.Message, line: bytes) -> None:
        for outlet in self._outlets:
            outlet(msg, line)
        if self.sse is not None:
            self.sse.publish(line[:-1])


def _keys(segments: dict[Any, Any]) -> str:
    return ", ".join(repr(k) for k in segments)


def _names(msgs: list[m.Message]) -> str:
    return ", ".join(_kind(x) for x in msgs)
