"""A JSON tree that remembers spellings, and the writer that spells it canonically or oddly."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


@dataclass
class _J:
    """One JSON value: `obj` (members), `arr` (items), `str` (text), `num`/`lit`/`raw` (exact spelling).
    `verbatim`: a verbatim value (never edited inside); `typ`: the model type it was generated for."""

    kind: str
    members: list[tuple[str, _J]] = field(default_factory=list)
    items: list[_J] = field(default_factory=list)
    text: str = ""
    typ: Any = None
    key_spellings: dict[int, str] = field(default_factory=dict)  # member index -> the key as written

    def children(self) -> list[_J]:
        return [v for _, v in self.members] + self.items


_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _quote(text: str, odd: random.Random | None) -> str:
    """A JSON string as JSON.stringify writes it, or (with `odd`) with valid escapes spelt otherwise."""
    out = ['"']
    for ch in text:
        c = ord(ch)
        if ch in _SHORT:
            out.append(_SHORT[ch] if odd is None or odd.random() < 0.6 else f"\\u{c:04x}")
        elif c < 0x20 or 0xD800 <= c <= 0xDFFF:
            out.append(f"\\u{c:04x}" if odd is None or odd.random() < 0.5 else f"\\u{c:04X}")
        elif odd is not None and odd.random() < 0.05:
            if ch == "/":
                out.append("\\/")
            elif c > 0xFFFF:
                hi, lo = 0xD800 + ((c - 0x10000) >> 10), 0xDC00 + ((c - 0x10000) & 0x3FF)
                out.append(f"\\u{hi:04x}\\u{lo:04X}")
            else:
                out.append(f"\\u{c:04x}" if odd.random() < 0.5 else f"\\u{c:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class _Writer:
    """Writes a tree; `odd` spells it non-canonically (whitespace, key order, escapes)."""

    def __init__(self, rng: random.Random, odd: bool) -> None:
        self.rng, self.odd = rng, odd

    def ws(self) -> str:
        if not self.odd or self.rng.random() < 0.75:
            return ""
        # no CR: a raw CR inside a message is `line_break` (suite 3.0.0), and a message written
        # oddly is still a valid one; the `whitespace` edit puts CR where it is a defect
        return self.rng.choice([" ", "  ", "\t", " \t"])

    def write(self, v: _J) -> str:
        odd = self.rng if self.odd else None
        if v.kind == "obj":
            order = list(range(len(v.members)))
            if self.odd and self.rng.random() < 0.3:
                self.rng.shuffle(order)
            parts = []
            for i in order:
                k, x = v.members[i]
                key = v.key_spellings.get(i) or _quote(k, odd)
                parts.append(self.ws() + key + self.ws() + ":" + self.ws() + self.write(x) + self.ws())
            return "{" + (",".join(parts) if parts else self.ws()) + "}"
        if v.kind == "arr":
            inner = ",".join(self.ws() + self.write(x) + self.ws() for x in v.items)
            return "[" + (inner if v.items else self.ws()) + "]"
        if v.kind == "str":
            return _quote(v.text, odd)
        return v.text
