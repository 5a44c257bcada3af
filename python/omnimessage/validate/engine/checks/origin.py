"""OM6xx origin chains and session ids (facts 1, 7): the child sessions of a stream, the ids they
and `subagent` pointers hold."""

from __future__ import annotations

import re
from typing import Final

from omnimessage._generated.models import UNSET, Message, SessionMetaMessage, SessionMetaPayload, SubagentPayload
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.state import MAX_CHILD_SESSIONS, Session
from omnimessage.validate.engine.wording import describe, short

__all__ = ["child", "meta_session_id", "subagent", "unsafe_id"]

unsafe_id: Final = re.compile(r"[\x00-\x1f\x7f/\\]|\.\.").search
"""A session id that is not safe as a file name component (`None` when it is)."""


def child(ctx: Context, msg: Message, origin: list[str], line: int) -> Session:
    """The session a forwarded message belongs to; OM602, OM603, OM605 when a chain first appears,
    OM204 (no origin in a trace), OM604 (a forwarded session_meta names its chain's last session)."""
    key = tuple(origin)
    s = ctx.children.get(key)
    if s is None and len(ctx.children) >= MAX_CHILD_SESSIONS:
        ctx.cap_reached("children", line, f"more than {MAX_CHILD_SESSIONS} child sessions (origin chains); the "
                                          "messages of further ones share one session")
        if ctx.overflow is None:
            ctx.overflow = Session(" (child sessions beyond the cap)")
        return ctx.overflow
    if s is None:
        s = ctx.children[key] = Session(f" (child session {'/'.join(short(i, 60) for i in origin)})")
        for i, sid in enumerate(origin):
            if not sid or unsafe_id(sid):
                ctx.emit("OM602", line, f"origin holds the unsafe session id {short(sid, 60)}", f"/origin/{i}")
        if len(set(origin)) != len(origin):
            ctx.emit("OM603", line, f"origin {origin!r} names a session more than once", "/origin")
        if ctx.midstream and type(msg) is not SessionMetaMessage:  # it may have begun before the stream
            s.blind = True
            s.blind_pairs = {"req", "comp", "mcp"}
        elif not ctx.trace and type(msg) is not SessionMetaMessage:
            ctx.emit("OM605", line, f"the first message of child {origin[-1]!r} is {describe(msg)}, not its "
                                    f"session_meta")
    if ctx.trace:
        ctx.emit("OM204", line, f"a message forwarded from child {origin[-1]!r} (origin) in a trace", "/origin")
    elif type(msg) is SessionMetaMessage and msg.payload.session_id != origin[-1]:
        ctx.emit("OM604", line, f"session_meta of {msg.payload.session_id!r} forwarded with origin ending in "
                                f"{origin[-1]!r}", "/payload/session_id")
    return s


def meta_session_id(ctx: Context, s: Session, p: SessionMetaPayload, line: int, msg: Message) -> None:
    """OM602: a session_id is a safe file name component."""
    sid = p.session_id
    if not sid or unsafe_id(sid):
        ctx.emit("OM602", line, f"session_id {short(sid, 60)} is not a safe session id", "/payload/session_id")


def subagent(ctx: Context, s: Session, p: SubagentPayload, line: int, msg: Message) -> None:
    """OM602: a subagent pointer's session_id is safe; collected for the trace root's OM805."""
    sid = p.session_id
    if not sid or unsafe_id(sid):
        ctx.emit("OM602", line, f"subagent session_id {short(sid, 60)} is not a safe session id (it is "
                                f"never used as a path)", "/payload/session_id")
    elif ctx.collect_subagents and msg.origin is UNSET:
        ctx.subagents.append((sid, ctx.source, line))
