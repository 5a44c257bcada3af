"""Reading a provider's streaming events, which are input: plain dicts from JSON or from an SDK's
`model_dump()`, read defensively (a wrong shape is a `StreamError` naming the event and the JSON
pointer, never a crash)."""

from __future__ import annotations

import json
from typing import Any

from ._translate import StreamError

__all__ = ["num", "obj", "parse_arguments", "text"]


def obj(value: object, event: int, pointer: str) -> dict[str, Any]:
    """`value` as an object; None reads as an empty one, anything else is an error."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise StreamError(event, f"{pointer or 'the event'} is not an object")
    return value


def text(d: dict[str, Any], key: str) -> str:
    value = d.get(key)
    return value if isinstance(value, str) else ""


def num(d: dict[str, Any], key: str) -> int:
    value = d.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def count(d: dict[str, Any], key: str) -> int | None:
    """A token count the event may carry: an integer, or None (absent, or anything else)."""
    value = d.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_arguments(raw: str, event: int) -> Any:
    """A tool call's streamed arguments, parsed (an empty string is no arguments); JSON that does
    not parse is an error, as the gateway's `parse_tool_call_arguments` makes it."""
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise StreamError(event, f"a tool call's arguments are not JSON: {exc}") from None
    except RecursionError:
        raise StreamError(event, "a tool call's arguments are nested too deeply") from None
