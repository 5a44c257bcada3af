"""Fresh characters right after a number token (schema/README.md section 1.3): only ASCII letters
belong to the token, so a non-ASCII letter, digit or mark after a top-level number is trailing
data, and after a member value a grammar error either way."""

from __future__ import annotations

import random
import re

from .draft import Edit, _Draft

__all__ = ["EDITS"]

_AFTER = (
    "é", "ß", "\u03b1", "ж", "中", "ª", "²", "\u0661", "\uff11", "\u0301", "\U00031350", "\U0001d400", "\u00a0", "€",
    "x", "Z", "_", "e", "E", ".", "+",
)
_TOP = ("0", "1", "-1", "12.5", "1e5", "-0", "7E-3")
_MEMBER_NUMBER = re.compile(rb":(-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)(?=[,}\]])")


def _after_number(rng: random.Random, d: _Draft) -> bool:
    ch = rng.choice(_AFTER).encode("utf-8")
    hits = list(_MEMBER_NUMBER.finditer(d.data))
    if hits and rng.random() < 0.5:
        end = rng.choice(hits).end(1)
        d.data = d.data[:end] + ch + d.data[end:]
        return True
    rest = rng.choice([b"", b"", b" ", b"{}", b"1", d.data[:-1][:40]])
    d.data = rng.choice(_TOP).encode() + ch + rest + b"\n"
    return True


EDITS: dict[str, tuple[Edit, bool]] = {"after-number": (_after_number, False)}
"""Byte edits of this family: (edit, whether it makes a schema defect)."""
