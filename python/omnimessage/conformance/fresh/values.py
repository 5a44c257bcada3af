"""Random values from the generated models: every envelope, payload, field, vocabulary and
verbatim value, in schema order."""

from __future__ import annotations

import random
from typing import Any

import msgspec.inspect as mi

from ..._generated import models
from .tree import _J, _quote

_POOLS: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E), (0x20, 0x7E), (0x20, 0x7E), (0xA0, 0xFF), (0x391, 0x3C9), (0x400, 0x44F), (0x5D0, 0x5EA),
    (0x4E00, 0x4FFF), (0xAC00, 0xAD00), (0x1F300, 0x1F64F), (0x20000, 0x200FF),
)
_ODD_CHARS = ('"', "\\", "/", "\u2028", "\u2029", "\x7f", "\n", "\t", "\x00", "\x1b", "\u202e", "\ufeff", "\x85")


def _verbatim_shapes() -> dict[tuple[type, str], str]:
    """(struct class, field name) -> shape, for every verbatim value of the schema."""
    out: dict[tuple[type, str], str] = {}
    for payload, locations in models.VERBATIM_LOCATIONS.items():
        for path, shape in locations:
            info: Any = mi.type_info(payload)
            owner: type = payload
            for step in path[:-1]:
                if step == "*":
                    info = info.item_type
                    continue
                info = next(f.type for f in info.fields if f.name == step)
                if isinstance(info, mi.StructType):
                    owner = info.cls
            if isinstance(info, mi.ListType):
                info = info.item_type
            if isinstance(info, mi.StructType):
                owner = info.cls
            out[(owner, path[-1])] = shape
    return out


_SHAPES = _verbatim_shapes()
_ENVELOPES: Any = mi.type_info(models.Message)  # a union of the three envelope structs
_FRAGMENT_FIELDS = {(cls, name) for cls, (_, name) in models.FRAGMENT_OF.items()}


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def char(self) -> str:
        r = self.rng.random()
        if r < 0.1:
            return self.rng.choice(_ODD_CHARS)
        lo, hi = self.rng.choice(_POOLS)
        return chr(self.rng.randint(lo, hi))

    def text(self, longer: bool = False) -> str:
        n = self.rng.randrange(200, 2000) if longer else self.rng.randrange(0, 24)
        return "".join(self.char() for _ in range(n))

    def integer(self, lo: int, hi: int) -> str:
        r = self.rng.random()
        if r < 0.1:
            return str(lo)
        if r < 0.15:
            return str(hi)
        return str(self.rng.randint(lo, min(hi, 10 ** self.rng.randint(1, 16))))

    def number(self) -> str:
        """A non-negative number within the double range, spelt any valid way."""
        r = self.rng.random()
        if r < 0.35:
            return str(self.rng.randrange(0, 10**6))
        if r < 0.55:
            return repr(self.rng.random() * 10 ** self.rng.randint(-9, 25))
        if r < 0.7:
            return self.rng.choice(["0", "-0", "0.0", "1E2", "1e+21", "1e-7", "1.50", "0.1e1", "5e-324", "2.5E-3"])
        if r < 0.85:
            return str(self.rng.randrange(2**53, 10 ** self.rng.randint(17, 300)))
        return f"{self.rng.randint(1, 9)}.{self.rng.randrange(10**6)}e{self.rng.randint(-30, 300)}"

    def json_text(self, depth: int, scalar: bool) -> str:
        """Random JSON written oddly (a verbatim value's inside: every byte must survive)."""
        r = self.rng.random()
        if not scalar and depth < 5 and r < 0.15:
            return "[" + ", ".join(self.json_text(depth + 1, False) for _ in range(self.rng.randrange(0, 3))) + "]"
        if not scalar and depth < 5 and r < 0.3:
            return self.json_object(depth + 1, False)
        r = self.rng.random()
        if r < 0.4:
            return _quote(self.text(), self.rng)
        if r < 0.75:
            return self.rng.choice(
                ["1.0", "1E2", "-0", "1.5e400", "-1e-400", "18446744073709551617", "9007199254740993", "0", "3.25",
                 "1e0", "-7.5E-3", "1" * 80, "0.000"]
            )
        if r < 0.85:
            return '"' + self.rng.choice(["\\u00e9", "\\/", "\\u0041", "\\ud83d\\ude00", "\\ud800", "\\udc00x"]) + '"'
        return self.rng.choice(["true", "false"] if scalar else ["true", "false", "null"])

    def json_object(self, depth: int, scalar: bool) -> str:
        keys = ["a", "sig", "2", "", "é", "\\u0041", "n", "__proto__", "constructor", "a"]
        members = [
            self.rng.choice([" ", "", "\t"]) + '"' + self.rng.choice(keys) + '"' + self.rng.choice(["", " "]) + ":"
            + self.rng.choice(["", " "]) + self.json_text(depth, scalar)
            for _ in range(self.rng.randrange(0, 4))
        ]
        return "{" + ",".join(members) + "}"

    def value(self, t: Any, owner: type | None, name: str, depth: int) -> _J:
        if isinstance(t, mi.StrType):
            if name == "timestamp" and self.rng.random() < 0.7:
                ms = self.rng.randrange(10**3)
                return _J("str", text=f"2026-0{self.rng.randint(1, 9)}-1{self.rng.randint(0, 9)}T03:10:22.{ms:03d}Z",
                          typ=t)
            text = self.text(longer=self.rng.random() < 0.02)
            if (owner, name) in _FRAGMENT_FIELDS and self.rng.random() < 0.3:  # half of a pair cut off
                at = self.rng.randint(0, len(text))
                text = text[:at] + chr(self.rng.choice([0xD83D, 0xDE00, 0xD800, 0xDFFF])) + text[at:]
            return _J("str", text=text, typ=t)
        if isinstance(t, mi.LiteralType):
            return _J("str", text=str(self.rng.choice(t.values)), typ=t)
        if isinstance(t, mi.IntType):
            lo = t.ge if t.ge is not None else 0
            hi = t.le if t.le is not None else models.MAX_SAFE_INTEGER
            return _J("num", text=self.integer(lo, hi), typ=t)
        if isinstance(t, mi.FloatType):
            return _J("num", text=self.number(), typ=t)
        if isinstance(t, mi.BoolType):
            return _J("lit", text=self.rng.choice(["true", "false"]), typ=t)
        if isinstance(t, mi.NoneType):
            return _J("lit", text="null", typ=t)
        if isinstance(t, mi.UnionType):
            return self.value(self.rng.choice(t.types), owner, name, depth)
        if isinstance(t, mi.ListType):
            lo = t.min_length or 0
            return _J("arr", items=[self.value(t.item_type, owner, name, depth + 1)
                                    for _ in range(self.rng.randint(lo, max(lo, 3)))], typ=t)
        if isinstance(t, mi.StructType):
            return self.struct(t, depth)
        if isinstance(t, mi.RawType):
            scalar = _SHAPES.get((owner, name) if owner is not None else (type(None), name)) == "scalar_map"
            return _J("raw", text=self.json_object(depth, scalar), typ=t)
        raise TypeError(f"no generator for {t!r}")

    def struct(self, t: Any, depth: int) -> _J:
        members: list[tuple[str, _J]] = []
        for f in t.fields:
            if f.required or self.rng.random() < 0.5:
                members.append((f.encode_name, self.value(f.type, t.cls, f.name, depth + 1)))
        if t.tag_field is not None:  # canonical order: first in a payload, after `timestamp` in an envelope
            tag = _J("str", text=str(t.tag), typ=mi.LiteralType(values=(t.tag,)))
            members.insert(1 if t.cls in models.ENVELOPE_TAGS else 0, (t.tag_field, tag))
        return _J("obj", members=members, typ=t)

    def message(self) -> _J:
        return self.struct(self.rng.choice(_ENVELOPES.types), 0)
