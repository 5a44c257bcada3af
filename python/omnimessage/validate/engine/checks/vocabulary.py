"""OM5xx the error vocabulary: `status`, `error_code`, `error_message`, `retry_in_ms` (facts 4, 5);
the decisions of each hook point (OM507); and the retired prose `abort.reason` (OM753)."""

from __future__ import annotations

from omnimessage._generated.models import (
    ABORT_ERROR_CODE_VALUES,
    UNSET,
    AbortPayload,
    CompactionEndPayload,
    HookPayload,
    McpConnectEndPayload,
    Message,
    RequestEndPayload,
    UnsetType,
)
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.state import Session

__all__ = ["HOOK_DECISIONS", "abort", "compaction_end", "hook", "mcp_end", "request_end", "status_fields"]


def status_fields(ctx: Context, status: str, code: str | UnsetType, message: str | UnsetType, line: int, ptr: str,
                  retry: float | UnsetType = UNSET, message_alone: bool = False) -> None:
    """OM501: no error with `completed`; OM506: an error status has its code, a code its message
    (`message_alone`: a failure with `error_message` and no `error_code` is what the producer writes
    there); OM502: `retry_in_ms` only when retryable."""
    if status == "completed":
        if code is not UNSET or message is not UNSET:
            which = " and ".join(n for n, v in (("error_code", code), ("error_message", message)) if v is not UNSET)
            ctx.emit("OM501", line, f"{which} with status 'completed'",
                     f"{ptr}/error_code" if code is not UNSET else f"{ptr}/error_message")
    elif message_alone and code is UNSET and message is not UNSET:
        pass
    elif status in ("retryable", "fatal") and code is UNSET:
        ctx.emit("OM506", line, f"status {status!r} without error_code", f"{ptr}/status")
    elif (code is UNSET) != (message is UNSET):
        have, miss = ("error_code", "error_message") if message is UNSET else ("error_message", "error_code")
        ctx.emit("OM506", line, f"{have} without {miss}", f"{ptr}/{have}")
    if retry is not UNSET and status != "retryable":
        ctx.emit("OM502", line, f"retry_in_ms with status {status!r}", f"{ptr}/retry_in_ms")


def request_end(ctx: Context, s: Session, p: RequestEndPayload, line: int, msg: Message) -> None:
    """Inside a compaction window the request is the summary's: the reference builds its
    `request_end` with `error_message` alone (no `error_code`), so OM506 does not ask for the pair."""
    status_fields(ctx, p.status, p.error_code, p.error_message, line, "/payload", p.retry_in_ms,
                  message_alone=s.comp is not None)


def compaction_end(ctx: Context, s: Session, p: CompactionEndPayload, line: int, msg: Message) -> None:
    status_fields(ctx, p.status, p.error_code, p.error_message, line, "/payload")


def mcp_end(ctx: Context, s: Session, p: McpConnectEndPayload, line: int, msg: Message) -> None:
    status_fields(ctx, p.status, p.error_code, p.error_message, line, "/payload")
    for i, res in enumerate(p.results):
        status_fields(ctx, res.status, res.error_code, res.error_message, line, f"/payload/results/{i}")


HOOK_DECISIONS: dict[str, frozenset[str]] = {
    "stop": frozenset({"continue", "stop"}),
    "pre_tool_use": frozenset({"allow", "deny"}),
}
"""The decisions each hook point gives (facts 4). `user_prompt` is absent: the reference's prompt
hook writes no `hook` event, so no decision of that point is known to check."""


def hook(ctx: Context, s: Session, p: HookPayload, line: int, msg: Message) -> None:
    """OM507: a hook's decision is one its point gives."""
    allowed = HOOK_DECISIONS.get(p.hook)
    if allowed is not None and p.decision is not UNSET and p.decision not in allowed:
        ctx.emit("OM507", line, f"decision {p.decision!r} at hook point {p.hook!r}, which decides "
                                f"{' or '.join(sorted(allowed))}", "/payload/decision")


def abort(ctx: Context, s: Session, p: AbortPayload, line: int, msg: Message) -> None:
    """OM505: an abort's error_code is one the reference writes on an abort; OM753: no prose reason."""
    if p.error_code is not UNSET and p.error_code not in ABORT_ERROR_CODE_VALUES:
        ctx.emit("OM505", line, f"abort.error_code {p.error_code!r}: the reference writes only "
                                f"{', '.join(ABORT_ERROR_CODE_VALUES)} on an abort", "/payload/error_code")
    if isinstance(p.reason, str):
        ctx.emit("OM753", line, "abort.reason is legacy prose; error_code and error_message replace it",
                 "/payload/reason")
