"""The rules over messages, one small function each, grouped by family (`streaming` OM3xx, `pairing`
OM4xx, `vocabulary` OM5xx, `origin` OM6xx, `values` OM70x, `files` OM2xx/OM803), and `CHECKS`, the
one table that says which run on a payload type, in order.

A check is `check(ctx, session, payload, line, message)`: `ctx` the `Context` (options, the file
being read, `emit`), `session` the state of the session the message belongs to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from omnimessage._generated.models import (
    FRAGMENT_OF,
    AbortPayload,
    ApprovalDecisionPayload,
    CompactionBeginPayload,
    CompactionEndPayload,
    HookPayload,
    ImageUrlPayload,
    InlineDataPayload,
    InlineThinkingPayload,
    McpConnectBeginPayload,
    McpConnectEndPayload,
    Message,
    RequestBeginPayload,
    RequestEndPayload,
    SessionMetaPayload,
    SubagentPayload,
    TextPayload,
    ThinkingPayload,
    TokenUsagePayload,
    ToolCallOutputPayload,
    ToolCallPayload,
    ToolListReadyPayload,
)
from omnimessage.validate.engine.checks import files, origin, pairing, streaming, values, vocabulary
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.state import Session

__all__ = ["CHECKS", "DISPATCH", "Check"]

Check = Callable[[Context, Session, Any, int, Message], None]
"""One rule (or a few of one family) over one payload type. The payload is `Any` here only because
a `Callable` cannot say "the type of its row": each check is typed with its own payload class."""

CHECKS: Final[dict[type, tuple[Check, ...]]] = {
    SessionMetaPayload: (origin.meta_session_id, values.paths, files.meta_place, streaming.meta_on_stream),
    TextPayload: (values.sender, pairing.assistant_role_output, streaming.complete),
    ThinkingPayload: (pairing.assistant_output, streaming.complete),
    InlineThinkingPayload: (pairing.assistant_output,),
    InlineDataPayload: (pairing.assistant_role_output,),
    ImageUrlPayload: (values.image_url,),
    ToolCallPayload: (pairing.assistant_output, streaming.complete, values.arguments, pairing.call),
    ToolCallOutputPayload: (values.output_images, streaming.complete, pairing.answer),
    **{partial: (streaming.fragment,) for partial in FRAGMENT_OF},
    ToolListReadyPayload: (files.tools_announced,),
    McpConnectBeginPayload: (pairing.mcp_begin,),
    McpConnectEndPayload: (pairing.mcp_end, vocabulary.mcp_end),
    RequestBeginPayload: (pairing.request_begin, values.prefix_digests),
    RequestEndPayload: (pairing.request_end, vocabulary.request_end),
    ApprovalDecisionPayload: (pairing.approval,),
    TokenUsagePayload: (pairing.token_usage,),
    CompactionBeginPayload: (pairing.compaction_begin,),
    CompactionEndPayload: (pairing.compaction_end, vocabulary.compaction_end),
    AbortPayload: (vocabulary.abort,),
    SubagentPayload: (origin.subagent,),
    HookPayload: (vocabulary.hook,),
}


def _nothing(ctx: Context, s: Session, p: object, line: int, msg: Message) -> None:
    return None


def _chain(checks: tuple[Check, ...]) -> Check:
    """One callable running `checks` in order: the hot path pays one call per message, not a loop."""
    if not checks:
        return _nothing
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks

        def two(ctx: Context, s: Session, p: object, line: int, msg: Message) -> None:
            a(ctx, s, p, line, msg)
            b(ctx, s, p, line, msg)

        return two
    if len(checks) == 3:
        a, b, c = checks

        def three(ctx: Context, s: Session, p: object, line: int, msg: Message) -> None:
            a(ctx, s, p, line, msg)
            b(ctx, s, p, line, msg)
            c(ctx, s, p, line, msg)

        return three

    def each(ctx: Context, s: Session, p: object, line: int, msg: Message) -> None:
        for check in checks:
            check(ctx, s, p, line, msg)

    return each


DISPATCH: Final[dict[type, Check]] = {cls: _chain(checks) for cls, checks in CHECKS.items()}
"""`CHECKS` with each row made one callable (what the validator calls per message)."""
