"""The session model: a clock, and a session as one sequence of emissions going to the live
stream, the trace, or both, the way the reference's engine decides."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from .payloads import (
    Payload,
    counts,
    partial_text,
    partial_thinking,
    partial_tool_call,
    partial_tool_output,
    request_end,
    text,
    thinking,
    tool_call,
    tool_output,
)

# ---------------------------------------------------------------------------------------------
# Time: every builder stamps `new Date().toISOString()` when it builds the message
# (omnimessage/builders.ts nowIso), millisecond precision with `Z`.
# ---------------------------------------------------------------------------------------------


class Clock:
    def __init__(self, start: str) -> None:
        t = dt.datetime.strptime(start, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)
        self.ms = int(t.timestamp() * 1000)

    def tick(self, ms: int) -> str:
        self.ms += ms
        return self.iso()

    def iso(self) -> str:
        t = dt.datetime.fromtimestamp(self.ms // 1000, dt.UTC)
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.ms % 1000:03d}Z"




# ---------------------------------------------------------------------------------------------
# A session: the reference's engine appends each message to the trace at the moment it enters
# the output stream (engine/context-engine.ts: queue.push then this.write). Partials never reach
# the trace, origin-tagged messages never reach the trace (trace/writer.ts isRecordable), and a
# few messages go to one channel only: session_meta and the run's own input are written but
# never yielded (session.ts ensureMetaWritten, context-engine.ts runToCompletion), the compaction
# request's internals are trace-only, its streamed summary fragments are stream-only.
# ---------------------------------------------------------------------------------------------

PARTIALS = {"partial_text", "partial_thinking", "partial_tool_call", "partial_tool_call_output"}


class Session:
    def __init__(self, sid: str, clock: Clock, *, provider: str, model_id: str, window: int | str,
                 system_prompt: str, workspace: str, agent: str = "default_agent",
                 source: str | None = "user", legacy_meta: Payload | None = None,
                 meta_dt: int = 0) -> None:
        self.sid = sid
        self.clock = clock
        self.stream: list[dict[str, Any]] = []
        self.files: list[list[Any]] = [[]]
        self.pending_head: Callable[[], list[dict[str, Any]]] | None = None
        self.session_counts = counts(0, 0, 0, 0)
        self.forward: Callable[[dict[str, Any]], None] | None = None
        self.agent_state = f"/home/mira/.penguin/data/default_project/agents/{agent}/agent_state"
        self.meta_fields: dict[str, Any] = dict(provider=provider, model_id=model_id, window=window,
                                workspace=workspace, source=source, legacy=legacy_meta)
        self.meta = self.make_meta(system_prompt, meta_dt)

    # -- envelopes -------------------------------------------------------------------------
    def msg(self, kind: str, payload: Payload, dt_ms: int) -> dict[str, Any]:
        return {"timestamp": self.clock.tick(dt_ms), "type": kind, "payload": payload}

    def make_meta(self, system_prompt: str, dt_ms: int) -> dict[str, Any]:
        f = self.meta_fields
        p: Payload = {"session_id": self.sid, "provider": f["provider"], "model_id": f["model_id"],
                      "model_context_window": f["window"], "system_prompt": system_prompt}
        legacy: Payload | None = f["legacy"]
        if legacy:  # agent.ts at 0.0.1-0.2.1: tools (and, to 0.1.1, thinking_level) here
            p.update(legacy)
        p["agent_state"] = self.agent_state
        p["workspace"] = f["workspace"]
        if f["source"] is not None:
            p["source"] = f["source"]
        return self.msg("session_meta", p, dt_ms)

    # -- channels --------------------------------------------------------------------------
    def emit(self, m: dict[str, Any], *, stream: bool = True, trace: bool = True) -> dict[str, Any]:
        kind = m["payload"].get("type")
        if stream:
            self.stream.append(m)
            if self.forward is not None:
                self.forward(m)
        if trace:
            assert kind not in PARTIALS and "origin" not in m, "the writer never records these"
            if self.pending_head is not None:  # rotation is deferred to the first write after it
                head, self.pending_head = self.pending_head(), None
                self.files.append(list(head))
            self.files[-1].append(m)
        return m

    def model(self, payload: Payload, dt_ms: int, **kw: bool) -> dict[str, Any]:
        return self.emit(self.msg("model_msg", payload, dt_ms), **kw)

    def event(self, payload: Payload, dt_ms: int, **kw: bool) -> dict[str, Any]:
        return self.emit(self.msg("event_msg", payload, dt_ms), **kw)

    def write_meta(self) -> None:
        self.emit(self.meta, stream=False)

    def user_input(self, body: str, dt_ms: int, sender: str | None = None) -> dict[str, Any]:
        """A run's input: written to the trace, never yielded (the caller typed it)."""
        return self.model(text("user", body, sender=sender), dt_ms, stream=False)

    def torn(self, raw: bytes) -> None:
        """A crash mid-append: a proper prefix of a record, with no line feed, lands in the file."""
        self.files[-1].append(("raw", raw))

    def heal(self) -> None:
        """The next writer's first append is prefixed with a line feed (writer.ts probeTornTail)."""
        self.files[-1].append(("raw", b"\n"))

    # -- streamed segments (llm/generative-model.ts EventTranslator) ------------------------
    def stream_text(self, parts: list[str], *, gap: int = 40, stop_reason: str = "completed",
                    fidelity: Payload | None = None, complete_on_stream: bool = True,
                    complete_in_trace: bool = True) -> None:
        self.model(partial_text("start"), gap, trace=False)
        for part in parts:
            self.model(partial_text("delta", part), gap, trace=False)
        self.model(partial_text("stop", "", stop_reason), gap, trace=False)
        if complete_on_stream or complete_in_trace:
            self.model(text("assistant", "".join(parts), stop_reason, fidelity), 1,
                       stream=complete_on_stream, trace=complete_in_trace)

    def stream_thinking(self, parts: list[str], *, gap: int = 35, stop_reason: str = "completed",
                        fidelity: Payload | None = None) -> None:
        self.model(partial_thinking("start"), gap, trace=False)
        for part in parts:
            self.model(partial_thinking("delta", part), gap, trace=False)
        self.model(partial_thinking("stop", "", stop_reason), gap, trace=False)
        self.model(thinking("".join(parts), stop_reason, fidelity), 1)

    def stream_tool_call(self, name: str, call_id: str, arg_parts: list[str], *, gap: int = 30,
                         fidelity: Payload | None = None) -> None:
        # start carries the name; deltas and stop carry name "" (the translator's own comment:
        # "The delta doesn't repeat the name — leave it blank"); the complete call has the name.
        self.model(partial_tool_call("start", name, call_id), gap, trace=False)
        for part in arg_parts:
            self.model(partial_tool_call("delta", "", call_id, part), gap, trace=False)
        self.model(partial_tool_call("stop", "", call_id), gap, trace=False)
        self.model(tool_call(name, "".join(arg_parts), call_id, fidelity=fidelity), 1)

    # -- tool execution (environment/environment.ts executeTool) ---------------------------
    def output_start(self, call_id: str, dt_ms: int) -> None:
        self.model(partial_tool_output("start", call_id), dt_ms, trace=False)

    def output_delta(self, call_id: str, body: str, dt_ms: int, images: list[str] | None = None) -> None:
        self.model(partial_tool_output("delta", call_id, body, images=images), dt_ms, trace=False)

    def output_end(self, call_id: str, full: str, dt_ms: int, stop_reason: str = "completed",
                   images: list[str] | None = None) -> None:
        self.model(partial_tool_output("stop", call_id, "", stop_reason), dt_ms, trace=False)
        self.model(tool_output(full, call_id, stop_reason, images), 1)

    def run_tool(self, call_id: str, parts: list[str], *, gap: int = 120, stop_reason: str = "completed",
                 note: str | None = None, images: list[str] | None = None) -> None:
        self.output_start(call_id, gap)
        for part in parts:
            self.output_delta(call_id, part, gap)
        body = "".join(parts)
        if note:  # the tool's end note rides its own delta, "\n"-separated (appendNote)
            sep = "\n" if body else ""
            self.output_delta(call_id, sep + note, gap)
            body = body + sep + note
        if images:  # one delta carries the whole set, right before stop
            self.output_delta(call_id, "", gap, images=images)
        self.output_end(call_id, body, gap, stop_reason, images)

    # -- events ---------------------------------------------------------------------------
    def usage(self, request: Payload, dt_ms: int, *, stream: bool = True,
              extra: Payload | None = None) -> None:
        s = self.session_counts
        self.session_counts = counts(*(s[k] + request[k] for k in ("cache_read", "cache_write", "output", "total")))
        p: Payload = {"type": "token_usage", "session": dict(self.session_counts), "request": request}
        if extra:
            p.update(extra)
        self.event(p, dt_ms, stream=stream)

    def begin(self, dt_ms: int, *, stream: bool = True, extra: Payload | None = None) -> None:
        p: Payload = {"type": "request_begin"}
        if extra:
            p.update(extra)
        self.event(p, dt_ms, stream=stream)

    def end(self, dt_ms: int, status: str = "completed", *, stream: bool = True, **kw: Any) -> None:
        self.event(request_end(status, **kw), dt_ms, stream=stream)

    def approve(self, call_id: str, decision: str, dt_ms: int) -> None:
        self.event({"type": "approval_decision", "decision": decision, "tool_call_id": call_id}, dt_ms)
        if decision != "allow":  # context-engine.ts runTurn: one fixed aborted line, no partials
            line = "Tool call denied by policy." if decision == "forbidden" else "Tool call denied by user."
            self.model(tool_output(line, call_id, "aborted"), 1)

    def tool_list(self, tools: list[Payload], dt_ms: int) -> dict[str, Any]:
        return self.event({"type": "tool_list_ready", "tools": tools}, dt_ms)

    def rotate(self, head: Callable[[], list[dict[str, Any]]]) -> None:
        self.pending_head = head

    # -- subagents (agent.ts SubagentHandle.run, context-engine.ts executeOne) -------------
    def receive(self, m: dict[str, Any]) -> None:
        """A message forwarded from a child, already origin-tagged by the child's handle."""
        self.emit(m, trace=False)
        if m["type"] == "session_meta" and len(m["origin"]) == 1:
            self.event({"type": "subagent", "session_id": m["origin"][0]}, 2, stream=False)

    def adopt(self, child: Session) -> None:
        hop = child.sid

        def forward(m: dict[str, Any]) -> None:
            # withOrigin: {...msg, origin: [hop, ...(msg.origin ?? [])]} - origin stays last
            self.receive({**m, "origin": [hop, *m.get("origin", [])]})

        child.forward = forward

    def hand_over(self, m: dict[str, Any]) -> None:
        """Forward a child message the handle yields itself (its meta, its input)."""
        assert self.forward is not None
        self.forward(m)
