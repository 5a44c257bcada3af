"""Lines spelled by hand, byte by byte, for the cases a canonical writer cannot produce (rejections,
lenient and hostile inputs): the envelope around a payload written as JSON text."""

from __future__ import annotations

from .schema_facts import TS

TIMESTAMP_MEMBER = f'"timestamp":"{TS}"'
REQUEST_BEGIN = '{"type":"request_begin"}'
GOOD_LINE = "{" + TIMESTAMP_MEMBER + ',"type":"event_msg","payload":' + REQUEST_BEGIN + "}"
"""A valid line (a `request_begin` event) without its line feed."""
GOOD_LINE_BYTES = GOOD_LINE.encode()


def event_line(payload: str, extra: str = "") -> str:
    """An `event_msg` line around the payload text (`extra`: more envelope members after it)."""
    return "{" + TIMESTAMP_MEMBER + ',"type":"event_msg","payload":' + payload + extra + "}\n"


def model_line(payload: str) -> str:
    """A `model_msg` line around the payload text."""
    return "{" + TIMESTAMP_MEMBER + ',"type":"model_msg","payload":' + payload + "}\n"


def user_text_line(text: str) -> str:
    """A user `text` message line; `text` is inserted as JSON string content, unescaped."""
    return model_line('{"type":"text","role":"user","text":"' + text + '"}')
