"""Name spellings shared by the targets."""

from __future__ import annotations

__all__ = ["upper_snake"]


def upper_snake(name: str) -> str:
    """`ToolCallPayload` -> `TOOL_CALL_PAYLOAD` (a run of capitals stays one word)."""
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.upper())
    return "".join(out)
