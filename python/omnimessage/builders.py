"""Builders: construct messages the way the reference producer does.

Complete model messages carry `stop_reason="completed"` unless told otherwise (the reference
builders always write it); every other optional field is left out unless given. Timestamps
default to now, in `Date.toISOString()` form (`2026-07-18T03:10:22.531Z`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
from msgspec import UNSET, Raw, UnsetType

from . import _scan
from ._generated import models as m
from ._write import write_json

__all__ = [
    "abort",
    "approval_decision",
    "assistant_text",
    "compaction_begin",
    "compaction_end",
    "event",
    "hook",
    "image_url",
    "inline_data",
    "inline_thinking",
    "mcp_connect_begin",
    "mcp_connect_end",
    "model",
    "now",
    "partial_text",
    "partial_thinking",
    "partial_tool_call",
    "partial_tool_call_output",
    "raw_json",
    "request_begin",
    "request_end",
    "session_meta",
    "subagent",
    "thinking",
    "token_counts",
    "token_usage",
    "tool_call",
    "tool_call_output",
    "tool_definition",
    "tool_list_ready",
    "user_text",
    "with_origin",
]

JsonObject = Mapping[str, Any] | bytes | str | Raw
_EMPTY_OBJECT = re.compile(rb"\{[ \t\r\n]*\}")


def now() -> str:
    """The current time as `Date.toISOString()` writes it (UTC, milliseconds, `Z`)."""
    t = datetime.now(UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def raw_json(value: JsonObject) -> Raw:
    """A verbatim JSON object: exact text (bytes/str/Raw, checked, kept byte for byte) or a
    mapping (written as `JSON.stringify` would write it)."""
    if isinstance(value, Mapping):
        return Raw(write_json(value).encode("utf-8"))
    data = bytes(value) if isinstance(value, Raw) else value.encode("utf-8") if isinstance(value, str) else value
    try:
        node = _scan.scan(data.decode("utf-8"))
    except (UnicodeDecodeError, _scan.ScanError) as exc:
        raise ValueError(f"not a JSON text: {exc}") from None
    if node.kind != _scan.OBJ:
        raise ValueError("a verbatim value must be a JSON object")
    return Raw(data.strip(b" \t\r\n"))


def _opt(value: Any) -> Any:
    return UNSET if value is None else value


def _fid(fidelity: JsonObject | None) -> Raw | UnsetType:
    """A verbatim value, or UNSET when absent or empty (the reference builders omit `{}`)."""
    if fidelity is None:
        return UNSET
    raw = raw_json(fidelity)
    return UNSET if _EMPTY_OBJECT.fullmatch(bytes(raw)) else raw


def model(payload: m.ModelPayload, *, timestamp: str | None = None) -> m.ModelMessage:
    """Wrap a model payload in its envelope."""
    return m.ModelMessage(timestamp=timestamp or now(), payload=payload)


def event(payload: m.EventPayload, *, timestamp: str | None = None) -> m.EventMessage:
    """Wrap an event payload in its envelope."""
    return m.EventMessage(timestamp=timestamp or now(), payload=payload)


def with_origin(msg: m.Message, session_id: str) -> m.Message:
    """The message forwarded one hop up: `session_id` prepended to its `origin` chain."""
    chain = [] if msg.origin is UNSET else list(msg.origin)
    return msgspec.structs.replace(msg, origin=[session_id, *chain])


# --- session_meta ---------------------------------------------------------------


def session_meta(
    *,
    session_id: str,
    provider: str,
    model_id: str,
    model_context_window: int | float | str,
    system_prompt: str,
    agent_state: str,
    workspace: str,
    source: m.SessionSource | None = None,
    timestamp: str | None = None,
) -> m.SessionMetaMessage:
    payload = m.SessionMetaPayload(
        session_id=session_id,
        provider=provider,
        model_id=model_id,
        model_context_window=model_context_window,
        system_prompt=system_prompt,
        agent_state=agent_state,
        workspace=workspace,
        source=_opt(source),
    )
    return m.SessionMetaMessage(timestamp=timestamp or now(), payload=payload)


# --- complete model messages ------------------------------------------------------


def user_text(text: str, *, sender: m.Sender | None = None, timestamp: str | None = None) -> m.ModelMessage:
    """User input; `sender` names who wrote it when it was not the human."""
    return model(
        m.TextPayload(role="user", text=text, stop_reason="completed", sender=_opt(sender)), timestamp=timestamp
    )


def assistant_text(
    text: str,
    *,
    stop_reason: m.StopReason = "completed",
    fidelity: JsonObject | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    payload = m.TextPayload(role="assistant", text=text, stop_reason=stop_reason, fidelity=_fid(fidelity))
    return model(payload, timestamp=timestamp)


def thinking(
    text: str,
    *,
    stop_reason: m.StopReason = "completed",
    fidelity: JsonObject | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    payload = m.ThinkingPayload(role="assistant", thinking=text, stop_reason=stop_reason, fidelity=_fid(fidelity))
    return model(payload, timestamp=timestamp)


def inline_thinking(
    data: str,
    mime_type: str,
    *,
    stop_reason: m.StopReason = "completed",
    fidelity: JsonObject | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    payload = m.InlineThinkingPayload(
        role="assistant", data=data, mime_type=mime_type, stop_reason=stop_reason, fidelity=_fid(fidelity)
    )
    return model(payload, timestamp=timestamp)


def tool_call(
    name: str,
    arguments: str,
    tool_call_id: str,
    *,
    stop_reason: m.StopReason = "completed",
    fidelity: JsonObject | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    """A tool call; `arguments` is the JSON text the model wrote, kept as a string."""
    payload = m.ToolCallPayload(
        role="assistant",
        name=name,
        arguments=arguments,
        tool_call_id=tool_call_id,
        stop_reason=stop_reason,
        fidelity=_fid(fidelity),
    )
    return model(payload, timestamp=timestamp)


def tool_call_output(
    output: str,
    tool_call_id: str,
    *,
    images: Sequence[str] | None = None,
    stop_reason: m.StopReason = "completed",
    timestamp: str | None = None,
) -> m.ModelMessage:
    """A tool's result; `images` (data URLs) is omitted when empty."""
    payload = m.ToolCallOutputPayload(
        role="user",
        output=output,
        images=list(images) if images else UNSET,
        tool_call_id=tool_call_id,
        stop_reason=stop_reason,
    )
    return model(payload, timestamp=timestamp)


def image_url(url: str, *, stop_reason: m.StopReason = "completed", timestamp: str | None = None) -> m.ModelMessage:
    return model(m.ImageUrlPayload(role="user", image_url=url, stop_reason=stop_reason), timestamp=timestamp)


def inline_data(
    data: str,
    mime_type: str,
    *,
    role: m.Role = "user",
    stop_reason: m.StopReason = "completed",
    fidelity: JsonObject | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    payload = m.InlineDataPayload(
        role=role, data=data, mime_type=mime_type, stop_reason=stop_reason, fidelity=_fid(fidelity)
    )
    return model(payload, timestamp=timestamp)


# --- streaming fragments -----------------------------------------------------------


def partial_text(
    event_type: m.StreamEventType,
    text: str,
    *,
    stop_reason: m.StopReason | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    payload = m.PartialTextPayload(role="assistant", event_type=event_type, text=text, stop_reason=_opt(stop_reason))
    return model(payload, timestamp=timestamp)


def partial_thinking(
    event_type: m.StreamEventType,
    text: str,
    *,
    stop_reason: m.StopReason | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    payload = m.PartialThinkingPayload(
        role="assistant", event_type=event_type, thinking=text, stop_reason=_opt(stop_reason)
    )
    return model(payload, timestamp=timestamp)


def partial_tool_call(
    event_type: m.StreamEventType,
    name: str,
    arguments: str,
    tool_call_id: str,
    *,
    stop_reason: m.StopReason | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    payload = m.PartialToolCallPayload(
        role="assistant",
        event_type=event_type,
        name=name,
        arguments=arguments,
        tool_call_id=tool_call_id,
        stop_reason=_opt(stop_reason),
    )
    return model(payload, timestamp=timestamp)


def partial_tool_call_output(
    event_type: m.StreamEventType,
    output: str,
    tool_call_id: str,
    *,
    images: Sequence[str] | None = None,
    stop_reason: m.StopReason | None = None,
    timestamp: str | None = None,
) -> m.ModelMessage:
    payload = m.PartialToolCallOutputPayload(
        role="user",
        event_type=event_type,
        output=output,
        images=list(images) if images else UNSET,
        tool_call_id=tool_call_id,
        stop_reason=_opt(stop_reason),
    )
    return model(payload, timestamp=timestamp)


# --- events --------------------------------------------------------------------------


def tool_list_ready(tools: Sequence[m.ToolDefinition], *, timestamp: str | None = None) -> m.EventMessage:
    return event(m.ToolListReadyPayload(tools=list(tools)), timestamp=timestamp)


def tool_definition(name: str, description: str, parameters: JsonObject | None = None) -> m.ToolDefinition:
    return m.ToolDefinition(name=name, description=description, parameters=_fid(parameters))


def mcp_connect_begin(servers: Sequence[str], *, timestamp: str | None = None) -> m.EventMessage:
    return event(m.McpConnectBeginPayload(servers=list(servers)), timestamp=timestamp)


def mcp_connect_end(
    status: m.StopReason,
    results: Sequence[m.McpServerResult],
    *,
    error_code: m.ErrorCode | None = None,
    error_message: str | None = None,
    timestamp: str | None = None,
) -> m.EventMessage:
    payload = m.McpConnectEndPayload(
        status=status, results=list(results), error_code=_opt(error_code), error_message=_opt(error_message)
    )
    return event(payload, timestamp=timestamp)


def request_begin(*, timestamp: str | None = None) -> m.EventMessage:
    return event(m.RequestBeginPayload(), timestamp=timestamp)


def request_end(
    status: m.StopReason,
    *,
    error_code: m.ErrorCode | None = None,
    error_message: str | None = None,
    attempt: int | None = None,
    retry_in_ms: int | float | None = None,
    timestamp: str | None = None,
) -> m.EventMessage:
    payload = m.RequestEndPayload(
        status=status,
        error_code=_opt(error_code),
        error_message=_opt(error_message),
        attempt=_opt(attempt),
        retry_in_ms=_opt(retry_in_ms),
    )
    return event(payload, timestamp=timestamp)


def approval_decision(
    decision: m.ApprovalDecision, tool_call_id: str, *, timestamp: str | None = None
) -> m.EventMessage:
    return event(m.ApprovalDecisionPayload(decision=decision, tool_call_id=tool_call_id), timestamp=timestamp)


def token_counts(*, cache_read: int = 0, cache_write: int = 0, output: int = 0, total: int = 0) -> m.TokenCounts:
    return m.TokenCounts(cache_read=cache_read, cache_write=cache_write, output=output, total=total)


def token_usage(session: m.TokenCounts, request: m.TokenCounts, *, timestamp: str | None = None) -> m.EventMessage:
    return event(m.TokenUsagePayload(session=session, request=request), timestamp=timestamp)


def compaction_begin(
    reason: m.CompactionReason, mode: m.CompactionMode, context: int, turns: int, *, timestamp: str | None = None
) -> m.EventMessage:
    payload = m.CompactionBeginPayload(reason=reason, mode=mode, context=context, turns=turns)
    return event(payload, timestamp=timestamp)


def compaction_end(
    reason: m.CompactionReason,
    mode: m.CompactionMode,
    status: m.StopReason,
    *,
    attempt: int | None = None,
    error_code: m.ErrorCode | None = None,
    error_message: str | None = None,
    timestamp: str | None = None,
) -> m.EventMessage:
    payload = m.CompactionEndPayload(
        reason=reason,
        mode=mode,
        status=status,
        attempt=_opt(attempt),
        error_code=_opt(error_code),
        error_message=_opt(error_message),
    )
    return event(payload, timestamp=timestamp)


_ABSENT: Any = object()


def abort(
    error_code: m.AbortErrorCode | None = None,
    *,
    error_message: str | None = None,
    reason: str | None = _ABSENT,
    timestamp: str | None = None,
) -> m.EventMessage:
    """An abort event; `reason=None` writes the legacy `"reason":null` (distinct from absent)."""
    payload = m.AbortPayload(
        error_code=_opt(error_code),
        error_message=_opt(error_message),
        reason=UNSET if reason is _ABSENT else reason,
    )
    return event(payload, timestamp=timestamp)


def subagent(session_id: str, *, timestamp: str | None = None) -> m.EventMessage:
    return event(m.SubagentPayload(session_id=session_id), timestamp=timestamp)


def hook(
    hook_point: m.HookPoint,
    name: str,
    *,
    decision: m.HookDecision | None = None,
    reason: str | None = None,
    output: JsonObject | None = None,
    timestamp: str | None = None,
) -> m.EventMessage:
    payload = m.HookPayload(
        hook=hook_point, name=name, decision=_opt(decision), reason=_opt(reason), output=_fid(output)
    )
    return event(payload, timestamp=timestamp)
