"""Random messages for differential testing: every payload kind, written every odd way.

`generate(Gen(seed), n)` gives lines of every payload kind with random subsets of its optional
fields, random unicode (astral characters, U+2028/U+2029, control characters, quotes and
backslashes), origin chains, verbatim values written every odd way (whitespace, key order,
duplicate keys, escapes, number spellings, nesting), non-canonical spellings of the rest, and
defects of every rejection category (schema-level, lexical and byte-level, sometimes two at
once): those are in `defects.py`. `write` and `Style` are the pieces, for fuzzers that mutate
on their own (fuzz/differential.py). Driven by the schema's intermediate model, so a new payload
kind or field is generated without a change here.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field

from omnimessage_codegen import load_schema
from omnimessage_codegen.model import (
    AnyOf,
    ArrayOf,
    Const,
    EnumRef,
    Model,
    Prim,
    StructRef,
    TypeRef,
    UnionRef,
    Verbatim,
)

__all__ = ["J", "MODEL", "Gen", "Style", "obj", "quote", "s", "write"]

MODEL: Model = load_schema()

# ---------------------------------------------------------------------------
# A tiny JSON tree that remembers how each value is to be written
# ---------------------------------------------------------------------------


@dataclass
class J:
    """One JSON value: kind `obj` (members), `arr` (items), `str`, `num` (spelling), `lit`, `raw`."""

    kind: str
    members: list[tuple[str, J]] = field(default_factory=list)
    items: list[J] = field(default_factory=list)
    text: str = ""  # str: the value; num/lit: the spelling; raw: the exact JSON text

    def get(self, key: str) -> J | None:
        return next((v for k, v in self.members if k == key), None)


def obj(*members: tuple[str, J]) -> J:
    return J("obj", members=list(members))


def s(text: str) -> J:
    return J("str", text=text)


def num(spelling: str) -> J:
    return J("num", text=spelling)


_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def quote(value: str, rng: random.Random | None = None) -> str:
    """A JSON string: as JSON.stringify writes it, or (with `rng`) with some escapes spelled oddly."""
    out = ['"']
    for ch in value:
        c = ord(ch)
        if ch in _SHORT:
            out.append(_SHORT[ch] if rng is None or rng.random() < 0.7 else f"\\u{c:04x}")
        elif c < 0x20 or 0xD800 <= c <= 0xDFFF:
            out.append(f"\\u{c:04x}" if rng is None or rng.random() < 0.5 else f"\\u{c:04X}")
        elif rng is not None and rng.random() < 0.04:
            if ch == "/":
                out.append("\\/")
            elif c > 0xFFFF:
                hi, lo = 0xD800 + ((c - 0x10000) >> 10), 0xDC00 + ((c - 0x10000) & 0x3FF)
                out.append(f"\\u{hi:04x}\\u{lo:04X}")
            else:
                out.append(f"\\u{c:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


@dataclass
class Style:
    """How a line is written: canonical, or with whitespace, shuffled keys and odd escapes."""

    rng: random.Random
    canonical: bool

    def ws(self) -> str:
        if self.canonical or self.rng.random() < 0.7:
            return ""
        # no CR or LF: inside a message they are `line_break` (schema/README.md section 1.5)
        return self.rng.choice([" ", "  ", "\t", "\t\t", "   ", " \t "])


def write(v: J, st: Style) -> str:
    if v.kind == "obj":
        members = list(v.members)
        if not st.canonical and st.rng.random() < 0.3:
            st.rng.shuffle(members)
        inner = ",".join(
            st.ws() + quote(k, None if st.canonical else st.rng) + st.ws() + ":" + st.ws() + write(x, st) + st.ws()
            for k, x in members
        )
        return "{" + (inner if members else st.ws()) + "}"
    if v.kind == "arr":
        inner = ",".join(st.ws() + write(x, st) + st.ws() for x in v.items)
        return "[" + (inner if v.items else st.ws()) + "]"
    if v.kind == "str":
        return quote(v.text, None if st.canonical else st.rng)
    return v.text  # num, lit, raw


# ---------------------------------------------------------------------------
# Random values
# ---------------------------------------------------------------------------

_ASSIGNED_BMP = [c for c in range(0xA0, 0xD800) if unicodedata.category(chr(c)) != "Cn"]
_ASSIGNED_ASTRAL = [c for c in range(0x1F300, 0x1FAFF) if unicodedata.category(chr(c)) != "Cn"] + [
    c for c in range(0x20000, 0x20200)
]


class Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def char(self) -> str:
        r = self.rng.random()
        if r < 0.55:
            return chr(self.rng.randrange(0x20, 0x7F))
        if r < 0.65:
            return self.rng.choice(['"', "\\", "/", "\u2028", "\u2029", "\x7f", "\n", "\t"])
        if r < 0.72:
            return chr(self.rng.randrange(0, 0x20))
        if r < 0.88:
            return chr(self.rng.choice(_ASSIGNED_BMP))
        return chr(self.rng.choice(_ASSIGNED_ASTRAL))

    def text(self, short: bool = False) -> str:
        if not short and self.chance(0.01):
            return "".join(self.char() for _ in range(self.rng.randrange(1000, 4000)))
        return "".join(self.char() for _ in range(self.rng.randrange(0, 8 if short else 30)))

    def int_spelling(self, lo: int, hi: int) -> str:
        r = self.rng.random()
        if r < 0.1:
            return str(lo)
        if r < 0.15:
            return str(hi)
        if r < 0.2 and lo == 0:
            return "-0"
        return str(self.rng.randrange(lo, min(hi, 10 ** self.rng.randrange(1, 17)) + 1))

    def number_spelling(self) -> str:
        """A valid, non-negative number, spelled canonically or not."""
        r = self.rng.random()
        if r < 0.3:
            return str(self.rng.randrange(0, 10**6))
        if r < 0.5:
            return repr(self.rng.random() * 10 ** self.rng.randrange(-8, 25))
        if r < 0.6:
            return self.rng.choice(
                ["0", "-0", "0.0", "-0.0", "1E2", "1e+21", "1e-7", "1.50", "0.1e1", "5e-324", "1e-400"]
            )
        if r < 0.7:  # integers beyond 2^53 and 2^64, spelled in full (up to 308 digits: still doubles)
            return str(self.rng.randrange(2**53, 10 ** self.rng.randrange(17, 308)))
        if r < 0.8:
            return f"{self.rng.randrange(1, 10)}.{self.rng.randrange(0, 10**6)}e{self.rng.randrange(-30, 300)}"
        return str(self.rng.randrange(0, 2**53))

    # --- verbatim values ---------------------------------------------------

    def json_text(self, depth: int, scalar: bool = False) -> str:
        """Random JSON text written oddly (exact bytes that must survive)."""

        def ws() -> str:
            return self.rng.choice(["", "", "", " ", "\t", "  ", "\t\t", " \t "])  # no CR or LF (line_break)

        r = self.rng.random()
        if not scalar and depth < 6 and r < 0.15:
            items = [self.json_text(depth + 1) for _ in range(self.rng.randrange(0, 4))]
            return "[" + ws() + ("," + ws()).join(items) + ws() + "]"
        if not scalar and depth < 6 and r < 0.3:
            return self.json_object(depth + 1)
        r = self.rng.random()
        if r < 0.4:
            return quote(self.text(short=True), self.rng)
        if r < 0.75:
            return self.rng.choice(
                [
                    "1.0",
                    "1E2",
                    "-0",
                    "1.5e400",
                    "-1e-400",
                    "18446744073709551617",
                    "9007199254740993",
                    "0",
                    "12",
                    "3.25",
                    "1e0",
                    "-7.5E-3",
                    "1" * 500,
                    "0.000",
                ]
            )
        if r < 0.85:
            return self.rng.choice(["\\u00e9", "\\/", "\\u0041", "\\ud83d\\ude00", "\\ud800", "\\udc00x", "\\\\"]).join(
                '""'
            )
        return self.rng.choice(["true", "false"] if scalar else ["true", "false", "null"])

    def json_object(self, depth: int, scalar: bool = False) -> str:
        def ws() -> str:
            return self.rng.choice(["", "", "", " ", "\t", "  "])

        keys = [
            self.rng.choice(["a", "sig", "2", "1", "", "é", "\\u0041", "n", "__proto__", "constructor"])
            for _ in range(3)
        ]
        members = [
            quote(self.text(short=True), self.rng) if k == "n" else ('"' + k + '"')
            for k in keys[: self.rng.randrange(0, 4)]
        ]
        parts = [ws() + k + ws() + ":" + ws() + self.json_text(depth, scalar) + ws() for k in members]
        return "{" + ",".join(parts) + (ws() if not parts else "") + "}"

    def verbatim(self, shape: str, base_depth: int) -> J:
        if self.chance(0.01):  # deep nesting, up to max_depth and past it
            n = self.rng.randrange(100, 515 - base_depth)
            return J("raw", text='{"d":' + "[" * n + "1" + "]" * n + "}")
        if self.chance(0.05):
            return J("raw", text="{}")
        return J("raw", text=self.json_object(base_depth, scalar=shape == "scalar_map"))

    # --- schema values ---------------------------------------------------------

    def value(self, t: TypeRef, depth: int) -> J:
        if isinstance(t, Prim):
            if t.kind == "string":
                return s(self.text())
            if t.kind == "integer":
                return num(self.int_spelling(t.minimum or 0, t.maximum or 2**53 - 1))
            if t.kind == "number":
                return num(self.number_spelling())
            if t.kind == "boolean":
                return J("lit", text=self.rng.choice(["true", "false"]))
            return J("lit", text="null")
        if isinstance(t, Const):
            return s(t.value)
        if isinstance(t, EnumRef):
            return s(self.rng.choice(MODEL.enums[t.name].values))
        if isinstance(t, StructRef):
            return self.struct(t.name, depth)
        if isinstance(t, UnionRef):
            return self.struct(self.rng.choice(MODEL.unions[t.name].members), depth)
        if isinstance(t, ArrayOf):
            n = self.rng.randrange(max(t.min_items, 0), 4)
            return J("arr", items=[self.value(t.item, depth + 1) for _ in range(n)])
        if isinstance(t, AnyOf):
            return self.value(self.rng.choice(t.options), depth)
        if isinstance(t, Verbatim):
            return self.verbatim(t.shape, depth)
        raise TypeError(t)

    def struct(self, name: str, depth: int) -> J:
        st = MODEL.structs[name]
        members: list[tuple[str, J]] = []
        if st.tag is not None:
            members.append(("type", s(st.tag)))
        for f in st.fields:
            if f.required or self.chance(0.5):
                members.append((f.name, self.value(f.type, depth + 1)))
        return obj(*members)

    def message(self) -> J:
        env = self.rng.choice(MODEL.envelopes)
        payload_name = self.rng.choice(MODEL.payload_members(env))
        members: list[tuple[str, J]] = [
            ("timestamp", s(self.rng.choice(["2026-07-18T03:10:22.531Z", "t", "", self.text(short=True)]))),
            ("type", s(str(env.struct.tag))),
            ("payload", self.struct(payload_name, 2)),
        ]
        if self.chance(0.2):
            members.append(
                ("origin", J("arr", items=[s(self.text(short=True)) for _ in range(self.rng.randrange(1, 4))]))
            )
        return obj(*members)
