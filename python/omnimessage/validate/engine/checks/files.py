"""OM2xx what a stored trace file may hold, OM004 an empty input, and OM803/OM804 the files of a
rotated session (facts 7, 9)."""

from __future__ import annotations

from omnimessage._generated.models import (
    UNSET,
    McpConnectBeginPayload,
    McpConnectEndPayload,
    Message,
    SessionMetaMessage,
    SessionMetaPayload,
    ToolListReadyPayload,
)
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.state import Session
from omnimessage.validate.engine.wording import describe, short

__all__ = ["end_file", "meta_place", "opening", "rotated_head", "tools_announced"]


def opening(ctx: Context, msg: Message, line: int) -> None:
    """OM201: a trace file opens with session_meta (called for the file's first message). Only when
    the message is the file's first line: after a first line that did not decode, what the file
    opened with is unknown (and already reported)."""
    if type(msg) is not SessionMetaMessage and ctx.file_lines == 1:
        ctx.emit("OM201", line, f"the file opens with {describe(msg)}, not session_meta")


def rotated_head(ctx: Context, msg: Message, line: int) -> bool:
    """Whether `msg` belongs to the head of a rotated file: its session_meta, then the new context's
    MCP connect pair if any, then its tool_list_ready if the agent has tools (facts 9; OM803)."""
    kind = type(msg.payload)
    if (type(msg) is SessionMetaMessage and ctx.file_msgs == 1) or kind in (
        McpConnectBeginPayload, McpConnectEndPayload
    ):
        return True
    ctx.head = False
    if kind is ToolListReadyPayload:
        return True
    if ctx.tools:
        ctx.emit("OM803", line, f"the session announced tools, but this rotated file's head ends with "
                                f"{describe(msg)} before its tool_list_ready")
    return False


def tools_announced(ctx: Context, s: Session, p: ToolListReadyPayload, line: int, msg: Message) -> None:
    """The main session's tools: a rotated file's head then holds a tool_list_ready (OM803)."""
    if s is ctx.main:
        ctx.tools = bool(p.tools)


def meta_place(ctx: Context, s: Session, p: SessionMetaPayload, line: int, msg: Message) -> None:
    """OM202: one session_meta per trace file; OM804: the one the file name claims."""
    if msg.origin is not UNSET or not ctx.trace:
        return
    if ctx.meta is None:  # the producer, for `--summary-by` (cut: group keys come from input)
        ctx.meta = (str(p.source or "user")[:200], p.provider[:200], p.model_id[:200], msg.timestamp[:10])
    if ctx.meta_line:
        ctx.emit("OM202", line, f"a second session_meta in this file (the first is on line {ctx.meta_line})")
    else:
        ctx.meta_line = line
    if ctx.expect_session is not None and p.session_id != ctx.expect_session:
        ctx.emit("OM804", line, f"session_id {short(p.session_id, 60)} differs from the file name's "
                                f"{short(ctx.expect_session, 60)}", "/payload/session_id")


def end_file(ctx: Context) -> None:
    """OM004: the input is not empty; OM803: a rotated file does not end inside its head."""
    if ctx.file_lines == 0:
        ctx.emit("OM004", 0, "the input is empty")
    elif ctx.head and ctx.tools and ctx.file_msgs:
        ctx.emit("OM803", ctx.line, "the session announced tools, but this rotated file ends before its "
                                    "tool_list_ready")
    ctx.head = False
