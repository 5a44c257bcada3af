"""`GUARDED`: `DISPATCH` for the fused loop (`fused.py`), with the chains of the most common payloads
written out, each check behind its own early exit (the condition it starts with: when that does not
hold, it returns having done nothing) and the common case of a few done inline.

The reference stays `DISPATCH` (the general path): every row here calls the same checks in the same
order, each when its condition says it may do something; python/tests/test_validate_fused.py holds
the fused loop, and so these rows, to that path over every fixture, corpus and damaged variant.
"""

from __future__ import annotations

from typing import Final

import msgspec

from omnimessage._generated.models import (
    UNSET,
    Message,
    RequestBeginPayload,
    RequestEndPayload,
    TextPayload,
    ThinkingPayload,
    ToolCallOutputPayload,
    ToolCallPayload,
)
from omnimessage.validate.engine.checks import DISPATCH, Check, pairing, streaming, values, vocabulary
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.state import MAX_OPEN_CALLS, Call, Session

__all__ = ["GUARDED"]

_decode: Final = msgspec.json.decode
_DecodeError: Final = msgspec.DecodeError
_DIGEST: Final = values.DIGEST
_DENIED: Final = ("deny", "forbidden")


def text(ctx: Context, s: Session, p: TextPayload, line: int, msg: Message) -> None:
    """values.sender, pairing.assistant_role_output, streaming.complete."""
    if p.role == "assistant":
        if p.sender is not UNSET:
            values.sender(ctx, s, p, line, msg)
        if s.usage and not s.usage_reported:
            pairing.assistant_output(ctx, s, p, line, msg)
    if s.segs or s.awaiting:
        streaming.complete(ctx, s, p, line, msg)


def thinking(ctx: Context, s: Session, p: ThinkingPayload, line: int, msg: Message) -> None:
    """pairing.assistant_output, streaming.complete."""
    if s.usage and not s.usage_reported:
        pairing.assistant_output(ctx, s, p, line, msg)
    if s.segs or s.awaiting:
        streaming.complete(ctx, s, p, line, msg)


def tool_call(ctx: Context, s: Session, p: ToolCallPayload, line: int, msg: Message) -> None:
    """pairing.assistant_output, streaming.complete, values.arguments, pairing.call (a new call inline)."""
    if s.usage and not s.usage_reported:
        pairing.assistant_output(ctx, s, p, line, msg)
    if s.segs or s.awaiting:
        streaming.complete(ctx, s, p, line, msg)
    try:
        _decode(p.arguments)
    except (_DecodeError, RecursionError):
        values.arguments(ctx, s, p, line, msg)  # (decodes again, and reports)
    tid = p.tool_call_id
    calls = s.calls
    if tid in calls or tid in s.closed or len(calls) >= MAX_OPEN_CALLS:
        pairing.call(ctx, s, p, line, msg)
    else:
        calls[tid] = Call(line)


def tool_call_output(ctx: Context, s: Session, p: ToolCallOutputPayload, line: int, msg: Message) -> None:
    """values.output_images, streaming.complete, pairing.answer (the output of a call not denied inline)."""
    if p.images is not UNSET:
        values.output_images(ctx, s, p, line, msg)
    if s.segs or s.awaiting:
        streaming.complete(ctx, s, p, line, msg)
    tid = p.tool_call_id
    calls = s.calls
    c = calls.get(tid)
    if c is None or c.decision in _DENIED:
        pairing.answer(ctx, s, p, line, msg)
        return
    del calls[tid]
    closed = s.closed
    closed[tid] = line
    if len(closed) > ctx.window:
        closed.popitem(last=False)


def request_begin(ctx: Context, s: Session, p: RequestBeginPayload, line: int, msg: Message) -> None:
    """pairing.request_begin (a request opened with none open inline), values.prefix_digests."""
    if s.blind_pairs or s.req:
        pairing.request_begin(ctx, s, p, line, msg)
    else:
        s.req = line
        s.usage = 0
        s.usage_reported = False
    h = p.prefix_hash
    head = p.prefix_head_hash
    if (h is not UNSET and not _DIGEST(h)) or (head is not UNSET and not _DIGEST(head)):
        values.prefix_digests(ctx, s, p, line, msg)


def request_end(ctx: Context, s: Session, p: RequestEndPayload, line: int, msg: Message) -> None:
    """pairing.request_end (the end of an open request inline), vocabulary.request_end."""
    status = p.status
    if s.req and (s.usage or status != "completed"):
        s.req = 0
        s.usage = 0
        s.usage_reported = False
    else:
        pairing.request_end(ctx, s, p, line, msg)
    if status != "completed" or p.error_code is not UNSET or p.error_message is not UNSET or p.retry_in_ms is not UNSET:
        vocabulary.request_end(ctx, s, p, line, msg)


_ROWS: Final[dict[type, Check]] = {
    TextPayload: text,
    ThinkingPayload: thinking,
    ToolCallPayload: tool_call,
    ToolCallOutputPayload: tool_call_output,
    RequestBeginPayload: request_begin,
    RequestEndPayload: request_end,
}

GUARDED: Final[dict[type, Check]] = {**DISPATCH, **_ROWS}
"""`DISPATCH` with the rows of `_ROWS` (their `CHECKS` chains, guarded) in place: what the fused loop calls."""
