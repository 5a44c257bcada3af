"""A stream with everything the HTML report lays out, and findings on known lines.

A user turn; a request that fails `retryable` and its retry; a text streamed in fragments; a tool
call streamed, approved and answered; a subagent (forwarded with `origin`) with its own request;
token usage; and three mistakes: a tool output for a call never made (OM401, an error), a
timestamp that goes backwards (OM702, a warning), an unclosed tool-call segment at the end (OM308).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CHILD = "session-2026-07-18-03-12-03-9f8e7d6c"


def _msg(i: int, kind: str, payload: dict[str, Any], origin: list[str] | None = None, ts: str = "") -> str:
    stamp = ts or f"2026-07-18T03:12:{i // 10:02d}.{i % 10}00Z"
    obj: dict[str, Any] = {"timestamp": stamp, "type": kind, "payload": payload}
    if origin:
        obj["origin"] = origin
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def usage(total: int, req: int) -> dict[str, Any]:
    return {"type": "token_usage", "session": {"cache_read": 0, "cache_write": 0, "output": 10, "total": total},
            "request": {"cache_read": 0, "cache_write": 0, "output": 10, "total": req}}


def lines() -> list[str]:
    ev, mm = "event_msg", "model_msg"
    p: list[tuple[str, dict[str, Any], list[str] | None]] = [
        (mm, {"type": "text", "role": "user", "text": "Summarise src/, please.", "stop_reason": "completed"}, None),
        (ev, {"type": "request_begin"}, None),
        (ev, {"type": "request_end", "status": "retryable", "error_code": "timeout", "error_message": "upstream 504",
              "attempt": 1, "retry_in_ms": 2000}, None),
        (ev, {"type": "request_begin"}, None),
        (mm, {"type": "partial_text", "role": "assistant", "event_type": "start", "text": ""}, None),
        (mm, {"type": "partial_text", "role": "assistant", "event_type": "delta", "text": "Asking a helper"}, None),
        (mm, {"type": "partial_text", "role": "assistant", "event_type": "stop", "text": ""}, None),
        (mm, {"type": "text", "role": "assistant", "text": "Asking a helper", "stop_reason": "completed"}, None),
        (mm, {"type": "partial_tool_call", "role": "assistant", "event_type": "start", "name": "run_subagent",
              "arguments": "", "tool_call_id": "toolu_07"}, None),
        (mm, {"type": "partial_tool_call", "role": "assistant", "event_type": "delta", "name": "run_subagent",
              "arguments": "{\"task\":\"src\"}", "tool_call_id": "toolu_07"}, None),
        (mm, {"type": "partial_tool_call", "role": "assistant", "event_type": "stop", "name": "run_subagent",
              "arguments": "", "tool_call_id": "toolu_07"}, None),
        (mm, {"type": "tool_call", "role": "assistant", "name": "run_subagent", "arguments": "{\"task\":\"src\"}",
              "tool_call_id": "toolu_07", "stop_reason": "completed"}, None),
        (ev, {"type": "approval_decision", "decision": "allow", "tool_call_id": "toolu_07"}, None),
        (ev, usage(1060, 1060), None),
        (ev, {"type": "request_end", "status": "completed"}, None),
        ("session_meta", {"session_id": CHILD, "provider": "anthropic", "model_id": "claude-haiku-4-5",
                          "model_context_window": 200000, "system_prompt": "You read code.",
                          "agent_state": "/tmp/a", "workspace": "/tmp/w", "source": "subagent"}, [CHILD]),
        (ev, {"type": "request_begin"}, [CHILD]),
        (mm, {"type": "text", "role": "assistant", "text": "src/ holds main.ts", "stop_reason": "completed"}, [CHILD]),
        (ev, usage(300, 300), [CHILD]),
        (ev, {"type": "request_end", "status": "completed"}, [CHILD]),
        (mm, {"type": "tool_call_output", "role": "user", "output": "src/ holds main.ts", "tool_call_id": "toolu_07",
              "stop_reason": "completed"}, None),
        (mm, {"type": "tool_call_output", "role": "user", "output": "stray", "tool_call_id": "toolu_99",
              "stop_reason": "completed"}, None),  # OM401 on line 22
        (ev, {"type": "request_begin"}, None),
        (mm, {"type": "text", "role": "assistant", "text": "Done: src/ holds main.ts.", "stop_reason": "completed"},
         None),
        (ev, usage(1400, 340), None),
        (ev, {"type": "request_end", "status": "completed"}, None),
        (mm, {"type": "text", "role": "user", "text": "Thanks. List it?", "stop_reason": "completed"}, None),
        (ev, {"type": "request_begin"}, None),
        (mm, {"type": "partial_tool_call", "role": "assistant", "event_type": "start", "name": "ls", "arguments": "",
              "tool_call_id": "toolu_08"}, None),  # OM308: never closed
    ]
    out = [_msg(i, k, pl, o) for i, (k, pl, o) in enumerate(p, 1)]
    out[25] = _msg(26, p[25][0], p[25][1], None, ts="2026-07-18T03:11:00.000Z")  # OM702 on line 26
    return out


ERROR_LINE, WARNING_LINE = 22, 26


def write(path: Path) -> Path:
    path.write_text("\n".join(lines()) + "\n", encoding="utf-8")
    return path
