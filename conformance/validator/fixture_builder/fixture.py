"""One fixture (`Fx`): its lines, options and expected findings, with builders for every message
kind; `FIXTURES` collects them in declaration order."""

from __future__ import annotations

import json
from typing import Any

from omnimessage.codec.api import canonicalize

SID = "session-2026-07-18-03-10-22-0a1b2c3d"
CHILD = "session-2026-07-18-03-11-05-4e5f6a7b"


class Fx:
    """One fixture: lines (or SSE text, or a directory), options, expected findings."""

    def __init__(self, rule: str, name: str, profile: str, about: str, **options: Any) -> None:
        self.rule, self.name, self.profile, self.about, self.options = rule, name, profile, about, options
        self.lines: list[bytes] = []
        self.expected: list[dict[str, Any]] = []
        self.ms = 1784344222000
        self.tail = b"\n"

    # -- timestamps and lines ----------------------------------------------------------
    def ts(self) -> str:
        self.ms += 7
        s, ms = divmod(self.ms, 1000)
        import datetime

        d = datetime.datetime.fromtimestamp(s, datetime.UTC)
        return d.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms:03d}Z"

    def line(self, env: str, payload: dict[str, Any], origin: list[str] | None = None, ts: str | None = None) -> int:
        obj: dict[str, Any] = {"timestamp": ts or self.ts(), "type": env, "payload": payload}
        if origin is not None:
            obj["origin"] = origin
        return self.raw(canonicalize(json.dumps(obj, ensure_ascii=False).encode()))

    def obj(self, obj: dict[str, Any]) -> int:
        """A line encoded as is (for lines the strict decoder refuses)."""
        return self.raw(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode())

    def raw(self, data: bytes) -> int:
        if b"@TS@" in data:
            data = data.replace(b"@TS@", self.ts().encode())
        self.lines.append(data)
        return len(self.lines)

    def expect(self, rule: str, line: int, **extra: Any) -> None:
        self.expected.append({"rule": rule, "line": line, **extra})

    # -- messages ----------------------------------------------------------------------
    def meta(self, sid: str = SID, origin: list[str] | None = None, **over: Any) -> int:
        p = {
            "session_id": sid, "provider": "anthropic", "model_id": "claude-sonnet-4", "model_context_window": 200000,
            "system_prompt": "You are a helpful agent.", "agent_state": "/home/agent/.agent/state",
            "workspace": "/home/agent/work", "source": "user" if origin is None else "subagent",
        }
        p.update(over)
        return self.line("session_meta", p, origin)

    def tools(self) -> int:
        return self.ev({"type": "tool_list_ready", "tools": [
            {"name": "read_file", "description": "Read a file", "parameters": {"type": "object"}}]})

    def ev(self, payload: dict[str, Any], origin: list[str] | None = None) -> int:
        return self.line("event_msg", payload, origin)

    def model(self, payload: dict[str, Any], origin: list[str] | None = None) -> int:
        return self.line("model_msg", payload, origin)

    def user(self, text: str = "list the files", origin: list[str] | None = None) -> int:
        return self.model({"type": "text", "role": "user", "text": text}, origin)

    def say(self, text: str = "Here they are.", origin: list[str] | None = None) -> int:
        return self.model({"type": "text", "role": "assistant", "text": text, "stop_reason": "completed"}, origin)

    def begin(self, origin: list[str] | None = None) -> int:
        return self.ev({"type": "request_begin"}, origin)

    def usage(self, origin: list[str] | None = None) -> int:
        c = {"cache_read": 10, "cache_write": 5, "output": 20, "total": 35}
        return self.ev({"type": "token_usage", "session": c, "request": c}, origin)

    def end(self, status: str = "completed", origin: list[str] | None = None, **extra: Any) -> int:
        return self.ev({"type": "request_end", "status": status, **extra}, origin)

    def call(self, tid: str = "toolu_1", name: str = "read_file", args: str = '{"path":"a.txt"}') -> int:
        return self.model({"type": "tool_call", "role": "assistant", "name": name, "arguments": args,
                           "tool_call_id": tid, "stop_reason": "completed"})

    def approve(self, tid: str = "toolu_1", decision: str = "allow") -> int:
        return self.ev({"type": "approval_decision", "decision": decision, "tool_call_id": tid})

    def out(self, tid: str = "toolu_1", output: str = "hello", stop: str = "completed", **extra: Any) -> int:
        return self.model({"type": "tool_call_output", "role": "user", "output": output, **extra,
                           "tool_call_id": tid, "stop_reason": stop})

    def ptext(self, et: str, text: str = "", **extra: Any) -> int:
        return self.model({"type": "partial_text", "role": "assistant", "event_type": et, "text": text, **extra})

    def pcall(self, et: str, args: str = "", tid: str = "toolu_1", name: str = "read_file") -> int:
        return self.model({"type": "partial_tool_call", "role": "assistant", "event_type": et, "name": name,
                           "arguments": args, "tool_call_id": tid})

    def pout(self, et: str, output: str = "", tid: str = "toolu_1", **extra: Any) -> int:
        return self.model({"type": "partial_tool_call_output", "role": "user", "event_type": et, "output": output,
                           **extra, "tool_call_id": tid})

    def turn(self, tid: str = "toolu_1") -> None:
        """A complete, valid turn with a tool call (trace form)."""
        self.user()
        self.begin()
        self.call(tid)
        self.usage()
        self.end()
        self.approve(tid)
        self.out(tid)
        self.begin()
        self.say()
        self.usage()
        self.end()

    def streamed_turn(self) -> None:
        """A complete, valid turn in stream form: every assistant message streamed."""
        self.user()
        self.begin()
        self.pcall("start")
        self.pcall("delta", '{"path":')
        self.pcall("delta", '"a.txt"}')
        self.pcall("stop")
        self.call()
        self.usage()
        self.end()
        self.approve()
        self.pout("start")
        self.pout("delta", "hel")
        self.pout("delta", "lo")
        self.pout("stop")
        self.out()
        self.begin()
        self.ptext("start")
        self.ptext("delta", "Here they")
        self.ptext("delta", " are.")
        self.ptext("stop", stop_reason="completed")
        self.say()
        self.usage()
        self.end()


FIXTURES: list[Any] = []


def fx(rule: str, name: str, profile: str, about: str, **options: Any) -> Fx:
    f = Fx(rule, name, profile, about, **options)
    FIXTURES.append(f)
    return f


def trace(rule: str, name: str, about: str, **options: Any) -> Fx:
    f = fx(rule, name, "trace", about, **options)
    f.meta()
    f.tools()
    return f


def stream(rule: str, name: str, about: str, **options: Any) -> Fx:
    return fx(rule, name, "stream", about, **options)


def M(env: str, payload: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A message as a dict; `@TS@` becomes the fixture's next timestamp when the line is written."""
    return {"timestamp": "@TS@", "type": env, "payload": payload, **more}


# Material several rule groups share
# A crash heal (facts 9): the writer prefixes its next record with a line feed.
TORN = b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"tool_call","role":"assistant","name":"rea'
U = {"type": "text", "role": "user", "text": "hi"}
CB = {"type": "compaction_begin", "reason": "context", "mode": "summarize", "context": 180000, "turns": 12}
IMG = "data:image/png;base64,iVBORw0KGgo="


def out_prefix(f: Fx) -> None:
    f.user()
    f.begin()
    f.call()
    f.usage()
    f.end()
    f.approve()


MR = {"server": "files", "transport": "stdio", "status": "completed", "duration_ms": 12.5, "tools": 4}
