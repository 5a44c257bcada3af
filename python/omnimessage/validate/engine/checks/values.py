"""OM70x values the schema leaves open (schema/README.md section 8): timestamps, sender, image
URLs, tool arguments, paths."""

from __future__ import annotations

import datetime
import re
from typing import Final

import msgspec

from omnimessage._generated.models import (
    UNSET,
    ImageUrlPayload,
    Message,
    RequestBeginPayload,
    SessionMetaPayload,
    TextPayload,
    ToolCallOutputPayload,
    ToolCallPayload,
)
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.state import Session
from omnimessage.validate.engine.wording import short

__all__ = ["DIGEST", "arguments", "image_url", "images", "output_images", "paths", "sender", "timestamp"]

_TS: Final = re.compile(
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?Z"
).fullmatch
_TS_TAIL: Final = re.compile(r"[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?Z").fullmatch
_ABS_PATH: Final = re.compile(r"/|[A-Za-z]:[\\/]|\\\\").match
_DATA_URL: Final = re.compile(r"data:[^;,]+(?:;[^;,]+)*;base64,", re.I).match
_WEB_URL: Final = re.compile(r"https?://[^\s]+\Z", re.I).match


def _ts_key(ts: str) -> str:
    return ts[:19] + ts[19:-1].rstrip("0").rstrip(".")


def _real_date(ts: str) -> bool:
    try:
        datetime.date(int(ts[0:4]), int(ts[5:7]), int(ts[8:10]))
    except ValueError:
        return False
    return True


FRACTIONS: Final = frozenset(["Z", *(f".{i:0{n}d}Z" for n in (1, 2, 3) for i in range(10**n))])
"""What may follow the seconds of a timestamp, as producers write it (`.sss`): up to three digits."""


def timestamp(ctx: Context, s: Session, ts: str, line: int, head: bool) -> None:
    """OM701: ISO 8601 UTC; OM702: never earlier than the session's previous one (not in a rotated
    file's head, which may carry older ones: releases up to 0.2.4 rewrite the first file's
    session_meta and tool_list_ready messages as they were)."""
    # fast paths: the date and time up to the second were checked on an earlier message, only the
    # fraction is left; or the date and hour were, and MM:SS.fffZ is left
    second = ts[:19]
    if second != ctx.ts_second or ts[19:] not in FRACTIONS:
        hour = ts[:14]
        if (hour != ctx.ts_hour or _TS_TAIL(ts, 14) is None) and (
            _TS(ts) is None or (ts[8:10] > "28" and not _real_date(ts))
        ):
            ctx.emit("OM701", line, f"timestamp {short(ts)} is not ISO 8601 UTC (YYYY-MM-DDTHH:MM:SS.sssZ)",
                     "/timestamp")
            return
        ctx.ts_hour = hour
        ctx.ts_second = second
    if not head:
        prev = s.ts
        if prev is not None and (ts < prev if len(ts) == 24 == len(prev) else _ts_key(ts) < _ts_key(prev)):
            ctx.emit("OM702", line, f"timestamp {ts} is earlier than {prev} on line {s.ts_line}{s.label}",
                     "/timestamp")
        s.ts = ts
        s.ts_line = line


def sender(ctx: Context, s: Session, p: TextPayload, line: int, msg: Message) -> None:
    """OM703: no sender on an assistant text."""
    if p.role == "assistant" and p.sender is not UNSET:
        ctx.emit("OM703", line, f"sender {p.sender!r} on an assistant text", "/payload/sender")


def image_url(ctx: Context, s: Session, p: ImageUrlPayload, line: int, msg: Message) -> None:
    """OM704: an image_url is an http(s) URL or a base64 data URL."""
    url = p.image_url
    if _WEB_URL(url) is None and _DATA_URL(url) is None:
        ctx.emit("OM704", line, f"image_url {short(url)} is neither an http(s) URL nor a base64 data URL",
                 "/payload/image_url")


def images(ctx: Context, imgs: list[str], line: int) -> None:
    """OM704: a tool output's images are base64 data URLs."""
    for i, img in enumerate(imgs):
        if _DATA_URL(img) is None:
            ctx.emit("OM704", line, f"image {short(img)} is not a data:<mime>;base64, URL", f"/payload/images/{i}")


def output_images(ctx: Context, s: Session, p: ToolCallOutputPayload, line: int, msg: Message) -> None:
    if p.images is not UNSET:
        images(ctx, p.images, line)


def arguments(ctx: Context, s: Session, p: ToolCallPayload, line: int, msg: Message) -> None:
    """OM705: a tool call's arguments are a JSON text."""
    try:
        msgspec.json.decode(p.arguments)
    except (msgspec.DecodeError, RecursionError):
        ctx.emit("OM705", line, f"arguments {short(p.arguments)} is not a JSON text", "/payload/arguments")


def paths(ctx: Context, s: Session, p: SessionMetaPayload, line: int, msg: Message) -> None:
    """OM706: agent_state and workspace are absolute paths."""
    for field in ("agent_state", "workspace"):
        path = getattr(p, field)
        if _ABS_PATH(path) is None:
            ctx.emit("OM706", line, f"{field} {short(path)} is not an absolute path", f"/payload/{field}")


DIGEST: Final = re.compile(r"[0-9a-f]{32}").fullmatch
"""A request-prefix digest as llm/request-fingerprint.ts writes it (`None` when it is not one)."""


def prefix_digests(ctx: Context, s: Session, p: RequestBeginPayload, line: int, msg: Message) -> None:
    """OM707: the request-prefix digests are 32 lower-case hex digits (llm/request-fingerprint.ts digest)."""
    for name in ("prefix_hash", "prefix_head_hash"):
        v = getattr(p, name)
        if v is not UNSET and not DIGEST(v):
            ctx.emit("OM707", line, f"{name} {short(v)} is not 32 lower-case hexadecimal digits", f"/payload/{name}")
