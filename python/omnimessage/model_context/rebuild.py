"""Restore a session's model context from its trace, as the reference's resume rebuilds it.

    >>> import omnimessage as om
    >>> ctx = om.restore("traces/", "session-2026-09-14-19-03-27-b85e1c40")   # doctest: +SKIP
    >>> ctx.config.model_id, [line.raw for line in ctx.messages]              # doctest: +SKIP

What the reference (PenguinHarness, `Agent.resumeSession` in `packages/core/src/agent.ts`, the
replay in `packages/core/src/trace/resume.ts`) does, and what this module does with it:

- **Which file.** Only the session's highest-index trace file (`findLatestTraceFile`): one file is
  one model context. A compaction and an in-session model switch both start a new file with its
  own `session_meta`, so the earlier files hold earlier contexts and are not read. Two files with
  the highest index (under two day directories) are an error here: the reference would take
  whichever its directory listing gave first.
- **Which `session_meta`.** The newest file's first one (`messages.find(isSessionMeta)`): it is
  the runtime configuration (provider, model, system prompt, workspace) the resumed session runs
  with. None in the file is an error; so is one naming another session.
- **Which messages.** The committed history and the carry-over, replayed turn by turn
  (`omnimessage.model_context.replay` states the rules): committed requests' eligible input and their output,
  then the input no committed request answered. Events never count; a dropped turn's assistant
  output is lost, as in the reference.
- **Compaction closure.** When the file's last record is a `compaction_end` with status
  `completed` and no newer file exists, the context is closed: `messages` is empty and
  `context_closed` is true. In `summarize` mode the reference opens the next context with a
  `[context_summary]` user message it writes from the compaction output (`extractSummary`,
  `buildContextSummaryText`); `summary_from` holds the lines of that output, unsynthesized.
  An output whose text is blank once `[summary]` tags are removed voids the closure (the
  reference's pre-#83 rule) and the file is replayed like any other.
- **Torn lines and crash heals.** Blank lines, a torn last line and a torn record mid-file (a
  proper prefix of a record, what the trace writer's crash heal leaves) are skipped, as the
  reference's `readTraceTolerant` skips them, and listed in `skipped` by line number. Any other
  line that does not decode (spliced records, a schema break, a line over the size limit) is a
  `RestoreError` naming the file and the line: the reference would skip it and resume a shorter
  context, this module refuses.
- **Placeholders.** A committed `tool_call` whose output never reached the trace is answered by
  the reference's placeholder (`[interrupted: process exited before the tool finished]`,
  `stop_reason` `aborted`), synthesized in memory on every resume. Here it is a `ContextLine`
  with `line` None, built with this package's builder; its timestamp is that of the record where
  the reference synthesizes it (the committing `request_end`, or the file's last record).
- **Subagents.** A `subagent` event in a parent trace is a pointer to the child session's own
  trace; it is an event and never part of the parent's context. Restore a child by its own
  session id (its files sit in the same trace root).

- **Versions.** Strict by default. `lenient=True` keeps records of a newer version: an opaque
  event still delimits requests and compactions by its payload `type`, an opaque model message
  with a `role` is context (its bytes as they are). A `session_meta` of a newer version is a
  `RestoreError`.
- **Legacy traces.** A line in a retired spelling of an older release (rules OM751 to OM757) is
  read as its successor, as `validate --legacy` reads it, whether or not `lenient` is set: the
  reference's resume reads every record by its shape only, so an old trace resumes there too.
  Its number is listed in `retired`; `raw` stays the trace's bytes, `message` is the successor.
  A retired stop reason or status is never `completed`, so it weighs in the replay as it does in
  the reference (`status === "completed"`, `stop_reason === "completed"`). A legacy
  `session_meta` loses `tools` and `thinking_level` and reads `source: "benchmark"` as `cli`:
  `Agent.resumeSession` ignores the first two too (the tools come from the current agent state,
  the thinking level from the current configuration chain) and carries over only a `subagent` or
  `schedule` source, so `benchmark` and `cli` both resume with no origin. A `goal_finished`
  event (goal mode, no successor) is an event the replay passes over, as the reference does.

Every other message is the trace's line byte for byte (`ContextLine.raw`), `fidelity` included.
Memory: the context is held whole; its bytes are capped by `max_context_bytes`.

(The module is `restore_context`, not `restore`, so that the package's `omnimessage.restore`
stays the function.)
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, NamedTuple

import msgspec

from omnimessage._generated.builders import tool_call_output
from omnimessage._generated.models import DEFAULT_MAX_LINE_BYTES, Message, SessionMetaMessage, SessionMetaPayload
from omnimessage.codec.api import OpaqueMessage, encode
from omnimessage.model_context.replay import PLACEHOLDER_OUTPUT, Replay, Turn

__all__ = ["MAX_CONTEXT_BYTES", "ContextLine", "RestoreError", "Restored", "restore"]

MAX_CONTEXT_BYTES: Final = 256 * 1024 * 1024
"""The default cap on the bytes of the model messages a restore holds (the context and the input
of the request being replayed); past it, `RestoreError`."""


class RestoreError(ValueError):
    """A session that cannot be restored whole. `path` and `line` (1-based; None for the session or
    the file as a whole) name where; `str()` is `PATH:LINE: detail` (not yet sanitised: the file
    name and the detail may quote input, so a terminal gets them through `omnimessage.text.sanitize`)."""

    def __init__(self, path: str, line: int | None, detail: str) -> None:
        self.path, self.line, self.detail = path, line, detail
        super().__init__(f"{path}:{line}: {detail}" if line is not None else f"{path}: {detail}")


@dataclass(frozen=True, slots=True)
class ContextLine:
    """One message of a restored context: where it is and its exact bytes (no line feed).
    `line` is None for a pairing placeholder, which no trace holds."""

    path: str
    line: int | None
    raw: bytes
    message: Message | OpaqueMessage


@dataclass(frozen=True, slots=True)
class Restored:
    """A session's current context. `messages` is what the model is sent next (history then
    carry-over); `config` the runtime configuration from the newest file's `session_meta`."""

    session_id: str
    path: str
    meta: ContextLine
    history: tuple[ContextLine, ...]
    carry_over: tuple[ContextLine, ...]
    context_closed: bool
    summary_from: tuple[ContextLine, ...]
    skipped: tuple[int, ...]
    retired: tuple[int, ...] = ()
    """Line numbers read in a retired spelling, as its successor (see the module's documentation)."""

    @property
    def config(self) -> SessionMetaPayload:
        assert isinstance(self.meta.message, SessionMetaMessage)
        return self.meta.message.payload

    @property
    def messages(self) -> tuple[ContextLine, ...]:
        return self.history + self.carry_over


def _newest_file(root: str | os.PathLike[str], session_id: str) -> str:
    from omnimessage.traces import iter_sessions  # it indexes roots with the validator's code: loaded on use only

    for session in iter_sessions(root):
        if session.session_id != session_id:
            continue
        top = max(session.indices)
        files = [p for p, i in zip(session.files, session.indices, strict=True) if i == top]
        if len(files) > 1:
            raise RestoreError(files[1], None, f"two trace files with the highest index {top:03d} "
                                               f"(also {files[0]}): which context is current is unknown")
        return files[0]
    raise RestoreError(os.fspath(root), None, f"no trace file of session {session_id!r} "
                                              "(<yyyy-mm-dd>/<session_id>_<NNN>.jsonl)")


class _Record(NamedTuple):
    """What the replay reads of one record, from a typed message or a newer version's opaque one."""

    kind: str  # session_meta, model_msg, event_msg
    ptype: str  # the payload's type (empty for session_meta)
    fields: Mapping[str, object]  # the payload's fields the replay reads
    timestamp: str


_READ = ("role", "status", "mode", "stop_reason", "tool_call_id", "text")


def _record(msg: Message | OpaqueMessage, path: str, number: int) -> _Record:
    if not isinstance(msg, OpaqueMessage):
        p = msg.payload
        ptype = "" if isinstance(msg, SessionMetaMessage) else str(type(p).__struct_config__.tag)
        return _Record(msg.type, ptype, {k: getattr(p, k, None) for k in _READ}, msg.timestamp)
    # well-formed (lenient decoding checked it); the standard library's reader, as JSON.parse in the
    # TypeScript binding, also takes a lone surrogate escape, which msgspec's refuses
    env = json.loads(msg.raw)
    payload = env.get("payload") if isinstance(env, dict) else None
    kind = env.get("type") if isinstance(env, dict) else None
    if kind not in ("model_msg", "event_msg") or not isinstance(payload, dict) or (
            kind == "model_msg" and not isinstance(payload.get("role"), str)):
        raise RestoreError(path, number, f"{kind if isinstance(kind, str) else 'a record'} this protocol version "
                           "cannot read (a newer or a retired spelling): the context cannot be rebuilt from it "
                           f"({msg.error.category}: {msg.error.detail})")
    ts = env.get("timestamp")
    return _Record(kind, str(payload.get("type")), payload, ts if isinstance(ts, str) else "")


def _successor(raw: bytes) -> tuple[_Record, Message | None] | None:
    """A line in a retired spelling read as its successor (`validate --legacy`'s rewrite, then a
    strict decode), with what the replay reads of it; None when it holds no retired spelling or
    the successor does not decode either. A `goal_finished` event has no successor: its record
    only (the replay passes over it)."""
    from omnimessage.codec.api import decode
    from omnimessage.codec.errors import DecodeError
    from omnimessage.validate.engine.recover import generic, legacy_spots

    obj = generic(raw)
    spots = legacy_spots(obj, apply=True)
    if not spots:
        return None
    if any(spot.rule == "OM757" for spot in spots):
        ts = obj.get("timestamp")
        return _Record("event_msg", "goal_finished", obj["payload"], ts if isinstance(ts, str) else ""), None
    try:
        msg = decode(msgspec.json.encode(obj))
    except DecodeError:
        return None
    return _record(msg, "", 0), msg


def _turn(item: ContextLine, rec: _Record) -> Turn[ContextLine]:
    cid, role = rec.fields.get("tool_call_id"), str(rec.fields.get("role"))
    if rec.ptype == "tool_call_output" and isinstance(cid, str):
        return Turn(item, role, output_of=cid)
    if rec.ptype == "tool_call" and rec.fields.get("stop_reason") == "completed" and isinstance(cid, str):
        return Turn(item, role, completed_call=cid)
    return Turn(item, role)


def _placeholder(path: str) -> Callable[[str, object], Turn[ContextLine]]:
    def make(call_id: str, at: object) -> Turn[ContextLine]:
        msg = tool_call_output(PLACEHOLDER_OUTPUT, call_id, stop_reason="aborted", timestamp=str(at))
        return Turn(ContextLine(path, None, encode(msg), msg), "user", output_of=call_id)
    return make


def _is_blank(raw: bytes) -> bool:
    return not raw.strip(b" \t\r\n\v\f")


def _summary_blank(lines: list[ContextLine]) -> bool:
    """The reference voids a closure whose summary extracts empty (`extractSummary` in
    `omnimessage/markers/engine-blocks.ts`); approximated: the text is blank once summary tags go."""
    text = "".join(str(msgspec.json.decode(m.raw)["payload"].get("text") or "") for m in lines)
    for tag in ("[summary]", "[/summary]", "<summary>", "</summary>"):
        text = text.replace(tag, "")
    return not text.strip()


def restore(
    trace_root: str | os.PathLike[str],
    session_id: str,
    *,
    lenient: bool = False,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_context_bytes: int = MAX_CONTEXT_BYTES,
) -> Restored:
    """The context of `session_id` under `trace_root` as the reference's resume rebuilds it (see
    the module's documentation for each rule). `lenient` reads lines of a newer protocol version
    as `OpaqueMessage`s (an opaque model message is an error: its role is unknown).

    Raises `RestoreError` naming the file and line of what is wrong or missing,
    `FileNotFoundError`/`NotADirectoryError` when the root is no directory.
    """
    from omnimessage.reader import iter_messages
    from omnimessage.validate.engine.recover import HARD_CATEGORIES
    from omnimessage.validate.engine.torn import is_record_prefix

    path = _newest_file(trace_root, session_id)
    replay: Replay[ContextLine] = Replay(_placeholder(path))
    meta: ContextLine | None = None
    skipped: list[int] = []
    retired: list[int] = []
    held = 0
    last: _Record | None = None
    last_ts = ""  # of the last record read: a placeholder made at the end carries it
    request_text: list[ContextLine] = []  # assistant texts of the request being read
    completed_text: list[ContextLine] = []  # those of the last completed request
    for line in iter_messages(path, lenient=lenient, max_line_bytes=max_line_bytes):
        if line.error is not None:
            if line.error.category != "too_large" and (_is_blank(line.raw) or is_record_prefix(line.raw)):
                skipped.append(line.number)  # a crash heal's blank or torn line, or a torn tail
                continue
            err = line.error
            legacy = None if err.category in HARD_CATEGORIES else _successor(line.raw)
            if legacy is None:
                raise RestoreError(path, line.number, f"{err.category}: {err.detail}"
                                   + (f" (at {err.pointer})" if err.pointer else ""))
        else:
            legacy = _successor(line.raw) if isinstance(line.message, OpaqueMessage) else None
        if legacy is not None:
            retired.append(line.number)
            rec, read = legacy
            if read is None:  # goal_finished: no message, no part in the replay
                last, last_ts = rec, rec.timestamp or last_ts
                continue
            msg: Message | OpaqueMessage = read
        else:
            assert line.message is not None
            msg = line.message
            rec = _record(msg, path, line.number)
        last = rec
        last_ts = rec.timestamp or last_ts
        if rec.kind == "session_meta":
            if meta is None:
                assert isinstance(msg, SessionMetaMessage)  # an opaque one: _record refused it
                meta = ContextLine(path, line.number, line.raw, msg)
            continue
        if rec.kind == "event_msg":
            if rec.ptype == "request_begin":
                replay.request_begin()
                request_text = []
            elif rec.ptype == "request_end":
                completed = rec.fields.get("status") == "completed"
                if completed:
                    completed_text = request_text
                replay.request_end(completed, last_ts)  # an opaque end without a timestamp: the last one
                request_text = []
            elif rec.ptype in ("compaction_begin", "compaction_end"):
                replay.compaction(rec.ptype == "compaction_begin")
            continue
        if rec.ptype.startswith("partial_"):
            continue  # a streaming fragment: never stored as context
        held += len(line.raw)
        if held > max_context_bytes:
            raise RestoreError(path, line.number, f"the context exceeds {max_context_bytes} bytes (max_context_bytes)")
        item = ContextLine(path, line.number, line.raw, msg)
        replay.model(_turn(item, rec))
        if replay.in_request and rec.ptype == "text" and rec.fields.get("role") == "assistant":
            request_text.append(item)
    if meta is None:
        raise RestoreError(path, None, "no session_meta in the newest trace file: the runtime configuration is missing")
    named = meta.message.payload.session_id if isinstance(meta.message, SessionMetaMessage) else None
    if named != session_id:
        raise RestoreError(path, meta.line, f"session_meta names session {named!r}, the file {session_id!r}")
    if (last is not None and last.ptype == "compaction_end" and last.fields.get("status") == "completed"
            and (last.fields.get("mode") != "summarize" or not _summary_blank(completed_text))):
        summary = tuple(completed_text) if last.fields.get("mode") == "summarize" else ()
        return Restored(session_id, path, meta, (), (), True, summary, tuple(skipped), tuple(retired))
    carry = replay.finish(last_ts)
    return Restored(session_id, path, meta, tuple(t.item for t in replay.history), tuple(t.item for t in carry),
                    False, (), tuple(skipped), tuple(retired))
