"""OM4xx pairing and order: calls and outputs, approvals, requests and their token usage,
compactions, MCP connects; and what is still open at the end of the input."""

from __future__ import annotations

from omnimessage._generated.models import (
    UNSET,
    ApprovalDecisionPayload,
    CompactionBeginPayload,
    CompactionEndPayload,
    InlineDataPayload,
    McpConnectBeginPayload,
    McpConnectEndPayload,
    Message,
    RequestBeginPayload,
    RequestEndPayload,
    TextPayload,
    TokenUsagePayload,
    ToolCallOutputPayload,
    ToolCallPayload,
)
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.state import MAX_OPEN_CALLS, Call, Session

__all__ = [
    "answer", "approval", "assistant_output", "assistant_role_output", "call", "compaction_begin",
    "compaction_end", "mcp_begin", "mcp_end", "request_begin", "request_end", "token_usage",
    "unclosed",
]


def assistant_output(ctx: Context, s: Session, p: object, line: int, msg: Message) -> None:
    """OM407: the model's output ends with the request's token_usage."""
    if s.usage and not s.usage_reported:
        s.usage_reported = True
        ctx.emit("OM407", line, f"assistant output after the request's token_usage (line {s.usage}), "
                                f"which is the last message of the model stream{s.label}")


def assistant_role_output(ctx: Context, s: Session, p: TextPayload | InlineDataPayload, line: int,
                          msg: Message) -> None:
    if p.role == "assistant":
        assistant_output(ctx, s, p, line, msg)


def call(ctx: Context, s: Session, p: ToolCallPayload, line: int, msg: Message) -> None:
    """OM403: a tool_call_id names one call."""
    tid = p.tool_call_id
    old = s.calls.get(tid)
    if old is not None:
        ctx.emit("OM403", line, f"tool_call_id {tid!r} is already used by the call on line {old.line}{s.label}",
                 "/payload/tool_call_id")
    elif tid in s.closed:
        ctx.emit("OM403", line, f"tool_call_id {tid!r} is already used by an answered call{s.label}",
                 "/payload/tool_call_id")
    if old is None and len(s.calls) >= MAX_OPEN_CALLS:
        s.dropped_calls += 1
        ctx.cap_reached("calls", line, f"more than {MAX_OPEN_CALLS} tool calls await their output{s.label}; "
                                       "further calls are not tracked")
        return
    s.calls[tid] = Call(line)


def answer(ctx: Context, s: Session, p: ToolCallOutputPayload, line: int, msg: Message) -> None:
    """OM401, OM402: one output per call, after it; OM405: a denied call's output is aborted."""
    tid = p.tool_call_id
    c = s.calls.pop(tid, None)
    if c is None:
        first = s.closed.get(tid)
        if first is not None:
            ctx.emit("OM402", line, f"a second complete output for call {tid!r} (the first is on line {first})"
                                    f"{s.label}", "/payload/tool_call_id")
        elif not s.dropped_calls and not s.blind:  # (past the cap, or before the stream: perhaps a call not seen)
            ctx.emit("OM401", line, f"output for {tid!r}, which no earlier tool_call has{s.label}",
                     "/payload/tool_call_id")
        return
    closed = s.closed
    closed[tid] = line
    if len(closed) > ctx.window:
        closed.popitem(last=False)
    if c.decision in ("deny", "forbidden") and p.stop_reason != "aborted":
        reason = "completed (absent)" if p.stop_reason is UNSET else repr(p.stop_reason)
        ctx.emit("OM405", line, f"call {tid!r} was denied ({c.decision!r}, line {c.decision_line}) but "
                                f"its output's stop_reason is {reason}", "/payload/stop_reason")


def approval(ctx: Context, s: Session, p: ApprovalDecisionPayload, line: int, msg: Message) -> None:
    """OM404: one approval_decision per call, between the call and its output."""
    tid = p.tool_call_id
    c = s.calls.get(tid)
    if c is None:
        if tid in s.closed:
            ctx.emit("OM404", line, f"approval_decision for {tid!r} after the call's output (line "
                                    f"{s.closed[tid]}){s.label}", "/payload/tool_call_id")
        elif not s.dropped_calls and not s.blind:
            ctx.emit("OM404", line, f"approval_decision for {tid!r}, which no earlier tool_call has{s.label}",
                     "/payload/tool_call_id")
        return
    if c.decision is not None:
        ctx.emit("OM404", line, f"a second approval_decision for {tid!r} (the first is on line "
                                f"{c.decision_line}){s.label}")
        return
    if c.started:
        ctx.emit("OM404", line, f"approval_decision for {tid!r} after its output started on line "
                                f"{c.started}{s.label}")
    c.decision = p.decision
    c.decision_line = line


def request_begin(ctx: Context, s: Session, p: RequestBeginPayload, line: int, msg: Message) -> None:
    """OM406: requests do not nest."""
    if s.blind_pairs:
        s.blind_pairs.discard("req")
    if s.req:
        ctx.emit("OM406", line, f"request_begin while the request begun on line {s.req} is still open{s.label}")
    s.req = line
    s.usage = 0
    s.usage_reported = False


def request_end(ctx: Context, s: Session, p: RequestEndPayload, line: int, msg: Message) -> None:
    """OM406: an end closes a begun request; OM408: a completed request reported its token_usage."""
    if not s.req:
        if "req" not in s.blind_pairs:
            ctx.emit("OM406", line, f"request_end without an open request_begin{s.label}")
        s.blind_pairs.discard("req")
    elif p.status == "completed" and not s.usage:
        ctx.emit("OM408", line, f"the request begun on line {s.req} completed without token_usage{s.label}")
    s.req = 0
    s.usage = 0
    s.usage_reported = False


def token_usage(ctx: Context, s: Session, p: TokenUsagePayload, line: int, msg: Message) -> None:
    """OM407: one token_usage per request, inside it."""
    if not s.req and s.comp is not None and not ctx.trace:
        return  # a compaction attempt's usage: its request events go to the trace only (facts 3)
    if not s.req:
        if "req" not in s.blind_pairs:
            ctx.emit("OM407", line, f"token_usage outside a request (no open request_begin){s.label}")
    elif s.usage:
        ctx.emit("OM407", line, f"a second token_usage in the request begun on line {s.req} (the first is on "
                                f"line {s.usage}){s.label}")
    else:
        s.usage = line


def compaction_begin(ctx: Context, s: Session, p: CompactionBeginPayload, line: int, msg: Message) -> None:
    """OM409: compactions do not nest."""
    s.blind_pairs.discard("comp")
    if s.comp is not None:
        ctx.emit("OM409", line, f"compaction_begin while the compaction begun on line {s.comp[0]} is open"
                                f"{s.label}")
    s.comp = (line, p.reason, p.mode)


def compaction_end(ctx: Context, s: Session, p: CompactionEndPayload, line: int, msg: Message) -> None:
    """OM409: an end closes the begun compaction, with its reason and mode."""
    comp = s.comp
    if comp is None:
        if "comp" not in s.blind_pairs:
            ctx.emit("OM409", line, f"compaction_end without compaction_begin{s.label}")
        s.blind_pairs.discard("comp")
    elif (comp[1], comp[2]) != (p.reason, p.mode):
        ctx.emit("OM409", line, f"compaction_end {p.reason}/{p.mode} does not match the compaction_begin "
                                f"{comp[1]}/{comp[2]} on line {comp[0]}{s.label}")
    s.comp = None
    s.opening = p.status == "completed"  # a new context opens: its records may follow (OM309)


def mcp_begin(ctx: Context, s: Session, p: McpConnectBeginPayload, line: int, msg: Message) -> None:
    """OM410: MCP connects do not nest."""
    s.blind_pairs.discard("mcp")
    if s.mcp is not None:
        ctx.emit("OM410", line, f"mcp_connect_begin while the connect begun on line {s.mcp[0]} is open"
                                f"{s.label}")
    s.mcp = (line, frozenset(p.servers))


def mcp_end(ctx: Context, s: Session, p: McpConnectEndPayload, line: int, msg: Message) -> None:
    """OM410: an end closes the begun connect, with results for the servers it lists."""
    mcp = s.mcp
    if mcp is None:
        if "mcp" not in s.blind_pairs:
            ctx.emit("OM410", line, f"mcp_connect_end without mcp_connect_begin{s.label}")
        s.blind_pairs.discard("mcp")
    else:
        for i, res in enumerate(p.results):
            if res.server not in mcp[1]:
                ctx.emit("OM410", line, f"a result for server {res.server!r}, which the mcp_connect_begin on "
                                        f"line {mcp[0]} does not list", f"/payload/results/{i}/server")
    s.mcp = None


def unclosed(ctx: Context, s: Session) -> None:
    """OM420, OM421, OM422: what is still open at the end of the input."""
    if s.req:
        ctx.emit("OM420", s.req, f"the request begun here has no request_end by the end of the input{s.label}")
    for tid, c in s.calls.items():
        ctx.emit("OM421", c.line, f"tool call {tid!r} has no output by the end of the input{s.label}")
    if s.comp is not None:
        ctx.emit("OM422", s.comp[0], f"the compaction begun here has no compaction_end{s.label}")
    if s.mcp is not None:
        ctx.emit("OM422", s.mcp[0], f"the MCP connect begun here has no mcp_connect_end{s.label}")
