"""Untrusted bytes and text shown on one line: what a testee wrote, fit for a report or a terminal."""

from __future__ import annotations

__all__ = ["clip", "escape_bytes", "printable"]


def escape_bytes(data: bytes) -> str:
    """Printable ASCII as is (backslash doubled), every other byte as \\xNN: one line, no surprises."""
    out = []
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "".join(out)


def clip(data: bytes, limit: int = 160) -> str:
    """`data` escaped, cut after `limit` bytes (its length said when cut)."""
    return escape_bytes(data[:limit]) + (f"... ({len(data)} bytes)" if len(data) > limit else "")


def printable(s: str, limit: int = 2000) -> str:
    """`s` cut to `limit` characters, control characters (but newline and tab) as \\xNN."""
    s = "".join(c if c in "\n\t" or (c >= " " and c != "\x7f") else f"\\x{ord(c):02x}" for c in s[:limit])
    return s + ("..." if len(s) > limit else "")
