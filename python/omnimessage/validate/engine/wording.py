"""How findings name values, segments and messages."""

from __future__ import annotations

from typing import Final

from omnimessage._generated.models import FRAGMENT_OF, Message, SessionMetaMessage
from omnimessage.text.sanitize import clip_text
from omnimessage.validate.engine.state import Key

__all__ = ["COMPLETE_NAMES", "PART_NAMES", "describe", "first_diff", "short", "what"]

# partial class -> its `type`, and -> the `type` of the complete payload it streams (from the schema)
PART_NAMES: Final[dict[type, str]] = {cls: str(cls.__struct_config__.tag) for cls in FRAGMENT_OF}
COMPLETE_NAMES: Final[dict[type, str]] = {
    cls: str(complete.__struct_config__.tag) for cls, (complete, _) in FRAGMENT_OF.items()
}


def short(s: str, n: int = 40) -> str:
    r = repr(s)
    return r if len(r) <= n else r[: n - 4] + "...'"


def first_diff(a: str, b: str) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def what(key: Key) -> str:
    """A segment's name: `partial_tool_call 'call_1'` (a long id clipped, `omnimessage.text.sanitize.clip_text`)."""
    cls, tid = key
    return PART_NAMES[cls] + (f" {clip_text(tid)!r}" if tid is not None else "")


def describe(msg: Message) -> str:
    """A message's kind: `session_meta`, `text`, `partial_text (delta)`."""
    if type(msg) is SessionMetaMessage:
        return "session_meta"
    p = msg.payload
    tag = type(p).__struct_config__.tag
    ev = getattr(p, "event_type", None)
    return f"{tag} ({ev})" if ev else str(tag)
