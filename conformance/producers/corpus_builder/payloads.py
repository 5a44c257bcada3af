"""Payloads in the key order of the reference builders (omnimessage/builders.ts)."""

from __future__ import annotations

from typing import Any

from .js_json import stringify

# ---------------------------------------------------------------------------------------------
# Payloads in the key order of the reference builders (omnimessage/builders.ts). Optional keys
# are added only when set, at the position the builder's object spread puts them; stop_reason is
# always written ("completed" by default); fidelity only when it has a key; images only when
# non-empty; sender is assigned after construction, so it comes last (userText).
# ---------------------------------------------------------------------------------------------

Payload = dict[str, Any]


def text(role: str, body: str, stop_reason: str = "completed", fidelity: Payload | None = None,
         sender: str | None = None) -> Payload:
    p: Payload = {"type": "text", "role": role, "text": body, "stop_reason": stop_reason}
    if fidelity:
        p["fidelity"] = fidelity
    if sender is not None and sender != "user":
        p["sender"] = sender
    return p


def thinking(body: str, stop_reason: str = "completed", fidelity: Payload | None = None) -> Payload:
    p: Payload = {"type": "thinking", "role": "assistant", "thinking": body, "stop_reason": stop_reason}
    if fidelity:
        p["fidelity"] = fidelity
    return p


def tool_call(name: str, arguments: str, call_id: str, stop_reason: str = "completed",
              fidelity: Payload | None = None) -> Payload:
    p: Payload = {"type": "tool_call", "role": "assistant", "name": name, "arguments": arguments,
                  "tool_call_id": call_id, "stop_reason": stop_reason}
    if fidelity:
        p["fidelity"] = fidelity
    return p


def tool_output(output: str, call_id: str, stop_reason: str = "completed",
                images: list[str] | None = None) -> Payload:
    p: Payload = {"type": "tool_call_output", "role": "user", "output": output}
    if images:
        p["images"] = images
    p["tool_call_id"] = call_id
    p["stop_reason"] = stop_reason
    return p


def partial_text(event: str, body: str = "", stop_reason: str = "completed") -> Payload:
    return {"type": "partial_text", "role": "assistant", "event_type": event, "text": body,
            "stop_reason": stop_reason}


def partial_thinking(event: str, body: str = "", stop_reason: str = "completed") -> Payload:
    return {"type": "partial_thinking", "role": "assistant", "event_type": event, "thinking": body,
            "stop_reason": stop_reason}


def partial_tool_call(event: str, name: str, call_id: str, arguments: str = "",
                      stop_reason: str = "completed") -> Payload:
    return {"type": "partial_tool_call", "role": "assistant", "event_type": event, "name": name,
            "arguments": arguments, "tool_call_id": call_id, "stop_reason": stop_reason}


def partial_tool_output(event: str, call_id: str, output: str = "", stop_reason: str = "completed",
                        images: list[str] | None = None) -> Payload:
    p: Payload = {"type": "partial_tool_call_output", "role": "user", "event_type": event,
                  "output": output}
    if images:
        p["images"] = images
    p["tool_call_id"] = call_id
    p["stop_reason"] = stop_reason
    return p


def request_end(status: str, *, error_code: str | None = None, error_message: str | None = None,
                attempt: int | None = None, retry_in_ms: int | None = None,
                legacy_message: str | None = None) -> Payload:
    p: Payload = {"type": "request_end", "status": status}
    if legacy_message is not None:  # releases 0.1.3-0.2.0: requestEnd(status, message, retryInMs)
        p["message"] = legacy_message
    if error_code is not None:
        p["error_code"] = error_code
    if error_message is not None:
        p["error_message"] = error_message
    if attempt is not None:
        p["attempt"] = attempt
    if retry_in_ms is not None:
        p["retry_in_ms"] = retry_in_ms
    return p


def compaction_begin(reason: str, mode: str, context: int, turns: int) -> Payload:
    return {"type": "compaction_begin", "reason": reason, "mode": mode, "context": context,
            "turns": turns}


def compaction_end(reason: str, mode: str, status: str, *, attempt: int | None = None,
                   error_code: str | None = None, error_message: str | None = None) -> Payload:
    p: Payload = {"type": "compaction_end", "reason": reason, "mode": mode, "status": status}
    if attempt is not None:
        p["attempt"] = attempt
    if error_code is not None:
        p["error_code"] = error_code
    if error_message is not None:
        p["error_message"] = error_message
    return p


def hook(point: str, name: str, *, decision: str | None = None, reason: str | None = None,
         output: Payload | None = None) -> Payload:
    p: Payload = {"type": "hook", "hook": point, "name": name}
    if decision is not None:
        p["decision"] = decision
    if reason is not None:
        p["reason"] = reason
    if output is not None:
        p["output"] = output
    return p


def mcp_result(server: str, transport: str, status: str, duration_ms: int, *,
               tools: int | None = None, error_code: str | None = None,
               error_message: str | None = None, legacy_error: str | None = None) -> Payload:
    p: Payload = {"server": server, "transport": transport, "status": status, "duration_ms": duration_ms}
    if tools is not None:
        p["tools"] = tools
    if legacy_error is not None:  # releases 0.2.2-0.2.4 (McpServerConnectResult.error)
        p["error"] = legacy_error
    if error_code is not None:
        p["error_code"] = error_code
    if error_message is not None:
        p["error_message"] = error_message
    return p


def counts(cache_read: int, cache_write: int, output: int, total: int) -> Payload:
    return {"cache_read": cache_read, "cache_write": cache_write, "output": output, "total": total}


def args(obj: Payload) -> str:
    """Tool-call arguments as the reference writes them: JSON.stringify of the parsed object."""
    return stringify(obj)


def chunks(s: str, *sizes: int) -> list[str]:
    """Cut `s` at UTF-16 offsets, as `slice` does on a JavaScript string (pairs may split)."""
    units = s.encode("utf-16-le", "surrogatepass")
    out, at = [], 0
    for n in sizes:
        out.append(units[at:at + 2 * n].decode("utf-16-le", "surrogatepass"))
        at += 2 * n
    out.append(units[at:].decode("utf-16-le", "surrogatepass"))
    return [c for c in out if c]
