"""Fresh whitespace look-alikes around and inside a line's object (schema/README.md section 1.3):
JSON whitespace is space, tab, LF and CR only; the characters standard libraries also trim
(U+00A0, VT, FF, U+0085, U+2028, U+FEFF, ...) are grammar errors, in lenient mode too."""

from __future__ import annotations

import random

from .draft import Edit, _Draft

__all__ = ["EDITS"]

_LOOKALIKES = (
    "\u00a0", "\x0b", "\x0c", "\u0085", "\u1680", "\u2000", "\u200a", "\u200b", "\u2028", "\u2029",
    "\u202f", "\u205f", "\u3000", "\ufeff", "\u180e", "\x00", "\x1c", "\x1f",
)
_JSON_WS = (" ", "\t", "\r", " \t ")


def _whitespace(rng: random.Random, d: _Draft) -> bool:
    body = d.data[:-1] if d.data.endswith(b"\n") else d.data
    pieces = [rng.choice(_JSON_WS) for _ in range(rng.randint(0, 2))]
    pieces.insert(rng.randint(0, len(pieces)), rng.choice(_LOOKALIKES) if rng.random() < 0.85 else " ")
    ws = "".join(pieces).encode("utf-8", "surrogatepass")
    where = rng.random()
    if where < 0.35:
        body = ws + body
    elif where < 0.7 or not body.startswith(b"{"):
        body = body + ws
    else:  # right after the object's `{`, outside every string
        body = body[:1] + ws + body[1:]
    d.data = body + b"\n"
    return True


EDITS: dict[str, tuple[Edit, bool]] = {"whitespace-lookalike": (_whitespace, False)}
"""Byte edits of this family: (edit, whether it makes a schema defect)."""
