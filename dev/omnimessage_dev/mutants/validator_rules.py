"""Mutants that apply the protocol validator's rules (section 8) in the decoder, refusing lines
the wire contract keeps."""

from __future__ import annotations

from datetime import UTC, datetime

from omnimessage._generated.models import (
    Message,
    RequestEndPayload,
    SessionMetaPayload,
    TextPayload,
    ToolCallOutputPayload,
    ToolCallPayload,
)

from .refusal_tools import Stricter

__all__ = [
    "AssistantSenderRefused",
    "EmptyIdsRefused",
    "ErrorCodeOnSuccessRefused",
    "FutureTimestampRefused",
    "StopReasonOnUserRefused",
    "UnpairedToolOutputRefused",
]


class UnpairedToolOutputRefused(Stricter):
    """A tool_call_output with no tool_call before it in the stream refused (the pairing rule)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        return ("invalid_value", "/payload/tool_call_id") if isinstance(msg.payload, ToolCallOutputPayload) else None


class AssistantSenderRefused(Stricter):
    """`sender` on an assistant text refused (the validator's rule, not the schema's)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        p = msg.payload
        if isinstance(p, TextPayload) and p.role == "assistant" and isinstance(p.sender, str):
            return ("invalid_value", "/payload/sender")
        return None


class FutureTimestampRefused(Stricter):
    """A timestamp later than the clock refused (a skew check in the decoder)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        ts = msg.timestamp
        if len(ts) >= 4 and ts[:4].isdigit() and ts[:4] > str(datetime.now(UTC).year):
            return ("invalid_value", "/timestamp")
        return None


class StopReasonOnUserRefused(Stricter):
    """stop_reason on a user-role message refused (only replies stop)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        p = msg.payload
        if getattr(p, "role", None) == "user" and isinstance(getattr(p, "stop_reason", None), str):
            return ("unexpected_field", "/payload/stop_reason")
        return None


class ErrorCodeOnSuccessRefused(Stricter):
    """error_code on a request_end that completed refused (the error vocabulary rule)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        p = msg.payload
        if isinstance(p, RequestEndPayload) and p.status == "completed" and isinstance(p.error_code, str):
            return ("invalid_value", "/payload/error_code")
        return None


class EmptyIdsRefused(Stricter):
    """An empty session_id or tool_call_id refused (minLength: 1 in a typed binding)."""

    def refuse(self, msg: Message) -> tuple[str, str] | None:
        p = msg.payload
        if isinstance(p, SessionMetaPayload) and p.session_id == "":
            return ("invalid_value", "/payload/session_id")
        if isinstance(p, (ToolCallPayload, ToolCallOutputPayload)) and p.tool_call_id == "":
            return ("invalid_value", "/payload/tool_call_id")
        return None
