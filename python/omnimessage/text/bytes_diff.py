"""Where two byte strings first differ, for a person: the conformance runner's `wrong bytes`
(expected against got) and `canonicalize --check` (the file's line against its canonical form)."""

from __future__ import annotations

from omnimessage.text.sanitize import escape_bytes

__all__ = ["canonical_diff", "first_difference"]


def first_difference(
    expected: bytes, got: bytes, context: int = 24, labels: tuple[str, str] = ("expected", "got")
) -> str:
    """Where two byte strings first differ, shown in context with a caret under the byte (`labels`
    name the two sides)."""
    n = min(len(expected), len(got))
    i = next((k for k in range(n) if expected[k] != got[k]), n)
    if i == len(expected) == len(got):
        return "identical"
    lo = max(0, i - context)
    lead = "..." if lo else ""
    prefix = escape_bytes(expected[lo:i])
    a, b = labels
    width = max(len(a), len(b)) + 1

    def seg(data: bytes) -> str:
        tail = "..." if len(data) > i + context else ""
        return lead + escape_bytes(data[lo : i + context]) + tail

    if i == len(got):
        what = f"{b} ends early: {len(got)} bytes, {a} {len(expected)}"
    elif i == len(expected):
        what = f"{b} has {len(got) - len(expected)} extra bytes after the {a} {len(expected)}"
    else:
        what = f"{a} {len(expected)} bytes, {b} {len(got)}"
    return (
        f"first difference at byte {i} ({what})\n"
        f"  {a + ':':<{width}} {seg(expected)}\n"
        f"  {b + ':':<{width}} {seg(got)}\n"
        f"  {' ' * width} {' ' * (len(lead) + len(prefix))}^"
    )


def canonical_diff(raw: bytes, canonical: bytes) -> str:
    """A line of a file against its canonical bytes, indented under the `not canonical` line."""
    return "\n".join("  " + ln for ln in first_difference(raw, canonical, labels=("file", "canonical")).split("\n"))
