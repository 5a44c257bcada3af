"""Fresh cases: messages and hostile edits of them, generated anew for every run from a seed.

The shipped cases are files; an implementation could look its answers up in them. Every run of
the runner therefore adds cases that no file holds: random messages of every kind, built from
the generated models (:mod:`omnimessage._generated.models`: every envelope, payload, field,
vocabulary and verbatim value, in schema order), written canonically or with odd whitespace,
key order and escapes, then given hostile edits (a byte flipped, a key duplicated, a field
dropped, added or given another type or value, a number re-spelled, a string with escapes or a
lone surrogate, a torn line, trailing data, invalid UTF-8, deep nesting, a line limit just
around the line). The expected answer of each is computed at run time by the reference binding
(the Python codec, read as a reader reads a one-line file: :class:`.testee.Binding`), never
written by hand. The same seed gives the same cases (for this version of the package), so
`--seed N` replays a failure.

Edits are combined so that the expected answer is unique: a case holds at most one defect the
contract lets implementations report in another order (a schema defect, schema/README.md
section 4), plus at most one lexical defect, whose precedence the contract fixes. A case whose
input happens to be one the shipped suite holds is drawn again. Caps: :data:`MAX_FRESH_CASES`
cases a run; a generated line stays below 64 KiB.
"""

from __future__ import annotations

import base64
import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec.inspect as mi

from .._generated import models
from ..errors import DecodeError
from .suite import FRESH_GROUP, Case, Suite

__all__ = [
    "DEFAULT_FRESH_CASES",
    "EDITS",
    "FRESH_GROUP",
    "MAX_FRESH_CASES",
    "POINTED_CATEGORIES",
    "fresh_cases",
    "new_seed",
]

DEFAULT_FRESH_CASES = 200
"""Fresh cases per run unless `--fresh N` says otherwise."""
MAX_FRESH_CASES = 100_000
"""The most fresh cases one run may ask for (each is generated and decoded by the reference)."""
MAX_SEED = 2**63 - 1

POINTED_CATEGORIES = frozenset(
    {"duplicate_key", "lone_surrogate", "invalid_number", "wrong_type", "missing_field", "unexpected_field",
     "unknown_type", "invalid_value"}
)
"""Refusals whose JSON pointer the contract fixes: fresh cases compare it (grammar refusals do not)."""

_LIMIT_BYTES = 64 * 1024


def new_seed() -> int:
    """A random seed for a run that was given none (printed, so the run can be replayed)."""
    return secrets.randbelow(2**32)


# ---------------------------------------------------------------------------
# a JSON tree that remembers spellings
# ---------------------------------------------------------------------------


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
        return self.rng.choice([" ", "  ", "\t", "\r", " \t"])

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


# ---------------------------------------------------------------------------
# random values from the generated models
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# hostile edits
# ---------------------------------------------------------------------------


@dataclass
class _Draft:
    """A case being built: the tree, then (once written) the bytes, and the request's settings."""

    tree: _J
    data: bytes = b""
    mode: str = "strict"
    max_line_bytes: int | None = None
    odd: bool = False
    edits: list[str] = field(default_factory=list)


def _walk(v: _J, depth: int = 0) -> Iterable[tuple[_J, int]]:
    yield v, depth
    if v.kind in ("obj", "arr"):
        for c in v.children():
            yield from _walk(c, depth + 1)


def _objects(d: _Draft) -> list[_J]:
    return [v for v, _ in _walk(d.tree) if v.kind == "obj"]


def _values(d: _Draft) -> list[_J]:
    return [v for v, _ in _walk(d.tree) if v is not d.tree]


def _become(v: _J, other: _J) -> None:
    v.kind, v.members, v.items, v.text, v.key_spellings = other.kind, other.members, other.items, other.text, {}


def _drop_field(rng: random.Random, d: _Draft) -> bool:
    objs = [o for o in _objects(d) if o.members]
    if not objs:
        return False
    o = rng.choice(objs)
    del o.members[rng.randrange(len(o.members))]
    o.key_spellings = {}
    return True


def _add_field(rng: random.Random, d: _Draft) -> bool:
    o = rng.choice(_objects(d))
    key = rng.choice(["extra", "Type", "__proto__", "payload ", "stop_reason2", _Gen(rng).text() or "k"])
    o.members.insert(rng.randint(0, len(o.members)), (key, _J("str", text="x")))
    o.key_spellings = {}
    return True


def _duplicate_key(rng: random.Random, d: _Draft) -> bool:
    objs = [o for o in _objects(d) if o.members]
    if not objs:
        return False
    o = rng.choice(objs)
    k, v = rng.choice(o.members)
    at = rng.randint(0, len(o.members))
    o.members.insert(at, (k, v))
    o.key_spellings = {}
    if k and rng.random() < 0.4:  # the copy spelt with an escape: the same key after unescaping
        i = rng.randrange(len(k))
        if ord(k[i]) < 0x10000:
            o.key_spellings[at] = _quote(k[:i], None)[:-1] + f"\\u{ord(k[i]):04x}" + _quote(k[i + 1 :], None)[1:]
    return True


def _wrong_type(rng: random.Random, d: _Draft) -> bool:
    values = _values(d)
    v = rng.choice(values)
    others = {"str": _J("str", text="1"), "num": _J("num", text="1"), "lit": _J("lit", text="null"),
              "bool": _J("lit", text="true"), "arr": _J("arr"), "obj": _J("obj")}
    kind = "bool" if v.text in ("true", "false") and v.kind == "lit" else v.kind
    choices = [x for k, x in others.items() if k != kind and not (k == "obj" and v.kind == "raw")]
    _become(v, rng.choice(choices))
    return True


def _bad_value(rng: random.Random, d: _Draft) -> bool:
    strs = [v for v in _values(d) if v.kind == "str" and isinstance(v.typ, mi.LiteralType)]
    if not strs:
        return False
    v = rng.choice(strs)
    v.text = rng.choice(["failed", "benchmark", "bot", "", "Completed", "text", "request_begin", "model_msg", "nope"])
    return True


def _respell_number(rng: random.Random, d: _Draft) -> bool:
    nums = [v for v in _values(d) if v.kind == "num"]
    if not nums:
        return False
    v = rng.choice(nums)
    if isinstance(v.typ, mi.IntType):
        v.text = rng.choice([v.text + ".0", v.text + "e0", v.text + "E+0", "1e2", "-0", "-1", str(2**53), "1" * 310,
                             v.text + ".5"])
    else:
        v.text = rng.choice([v.text + "0" if "." in v.text else v.text + ".0", v.text + "e0", "1e400", "-1e400",
                             "0.1e1", "1" * 320, "4.9e-324", "1.7976931348623157e308", "2E-7"])
    return True


def _escape_string(rng: random.Random, d: _Draft) -> bool:
    d.odd = True
    return True


def _lone_surrogate(rng: random.Random, d: _Draft) -> bool:
    strs = [v for v in _values(d) if v.kind == "str"]
    if strs and rng.random() < 0.85:
        v = rng.choice(strs)
        at = rng.randint(0, len(v.text))
        v.text = v.text[:at] + chr(rng.choice([0xD800, 0xDBFF, 0xDC00, 0xDFFF])) + v.text[at:]
        return True
    objs = [o for o in _objects(d) if o.members]
    if not objs:
        return False
    o = rng.choice(objs)
    i = rng.randrange(len(o.members))
    k, v = o.members[i]
    o.members[i] = (k + "\udc00", v)
    o.key_spellings = {}
    return True


def _nest(rng: random.Random, d: _Draft) -> bool:
    """Nesting around the depth limit, in a verbatim value or where the schema wants something else."""
    raws = [(v, depth) for v, depth in _walk(d.tree) if v.kind == "raw"]
    n = rng.randint(models.MAX_DEPTH - 8, models.MAX_DEPTH + 8)
    if raws and rng.random() < 0.6:
        v, depth = rng.choice(raws)
        k = max(1, n - depth - 1)
        v.text = '{"d":' + "[" * k + "1" + "]" * k + "}"
        return True
    objs = [(o, depth) for o, depth in _walk(d.tree) if o.kind == "obj"]
    o, depth = rng.choice(objs)
    k = max(1, n - depth - 1)
    o.members.append(("deep", _J("raw", text="[" * k + "]" * k)))
    o.key_spellings = {}
    return True


# byte-level edits (on the written line, LF included)


def _flip_byte(rng: random.Random, d: _Draft) -> bool:
    body = bytearray(d.data[:-1])
    if not body:
        return False
    at = rng.randrange(len(body))
    body[at] ^= 1 << rng.randrange(8)
    if body[at] == 0x0A:
        return False
    d.data = bytes(body) + b"\n"
    return True


def _truncate(rng: random.Random, d: _Draft) -> bool:
    body = d.data[:-1]
    d.data = body[: rng.randrange(len(body))] if rng.random() < 0.8 else body  # torn, or complete without its LF
    return True


def _trailing(rng: random.Random, d: _Draft) -> bool:
    d.data = d.data[:-1] + rng.choice([b" x", b"{}", b",", b"\x00", b" \t ", b" 1", b"]"]) + b"\n"
    return True


def _bom(rng: random.Random, d: _Draft) -> bool:
    d.data = b"\xef\xbb\xbf" + d.data
    return True


def _invalid_utf8(rng: random.Random, d: _Draft) -> bool:
    at = rng.randrange(len(d.data))
    bad = rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80"])
    d.data = d.data[:at] + bad + d.data[at:]
    return True


def _limit(rng: random.Random, d: _Draft) -> bool:
    body = len(d.data) - 1 if d.data.endswith(b"\n") else len(d.data)
    d.max_line_bytes = max(1, body + rng.randint(-3, 3))
    return True


def _lenient(rng: random.Random, d: _Draft) -> bool:
    d.mode = "lenient"
    return True


Edit = Callable[[random.Random, _Draft], bool]

TREE_EDITS: dict[str, tuple[Edit, bool]] = {
    # name: (edit, whether it makes a schema defect, which the contract lets implementations order freely)
    "drop-field": (_drop_field, True),
    "add-field": (_add_field, True),
    "wrong-type": (_wrong_type, True),
    "bad-value": (_bad_value, True),
    "respell-number": (_respell_number, True),
    "escapes": (_escape_string, False),
    "duplicate-key": (_duplicate_key, False),
    "lone-surrogate": (_lone_surrogate, False),
    "nest": (_nest, True),
}
BYTE_EDITS: dict[str, tuple[Edit, bool]] = {
    "flip-byte": (_flip_byte, True),
    "truncate": (_truncate, False),
    "trailing-data": (_trailing, False),
    "bom": (_bom, False),
    "invalid-utf8": (_invalid_utf8, False),
    "line-limit": (_limit, False),
    "lenient": (_lenient, False),
}
EDITS: tuple[str, ...] = (*TREE_EDITS, *BYTE_EDITS)
"""Every hostile edit, by the name a fresh case's id and tags carry."""


# ---------------------------------------------------------------------------
# the cases
# ---------------------------------------------------------------------------


def _reference(data: bytes, mode: str, limit: int | None) -> tuple[str, bytes | str, str] | None:
    """What the reference binding answers: ("encoded", bytes, "") or ("refused", category, pointer);
    None when it would not answer (an input it does not read as one line)."""
    from .testee import Binding

    binding = Binding()
    try:
        msg = binding.read_line(
            data, lenient=mode == "lenient", max_line_bytes=limit or models.DEFAULT_MAX_LINE_BYTES
        )
        return "encoded", binding.encode(msg), ""
    except DecodeError as exc:
        return "refused", exc.category, exc.pointer
    except ValueError:
        return None


def _describe(tree: _J) -> str:
    env = next((v.text for k, v in tree.members if k == "type" and v.kind == "str"), "?")
    payload = next((v for k, v in tree.members if k == "payload"), None)
    kind = ""
    if payload is not None and payload.kind == "obj":
        kind = next((v.text for k, v in payload.members if k == "type" and v.kind == "str"), "")
    return f"{env}/{kind}" if kind else env


def _draft(rng: random.Random) -> _Draft:
    d = _Draft(_Gen(rng).message())
    r = rng.random()
    n_edits = 0 if r < 0.15 else 1 if r < 0.75 else 2
    every = {**TREE_EDITS, **BYTE_EDITS}
    chosen: list[str] = []
    for _ in range(n_edits):  # at most one defect implementations may order freely
        free = any(every[e][1] for e in chosen)
        chosen.append(rng.choice([e for e in every if e not in chosen and not (free and every[e][1])]))
    for name in chosen:
        if name in TREE_EDITS and TREE_EDITS[name][0](rng, d):
            d.edits.append(name)
    d.odd = d.odd or rng.random() < 0.3
    d.data = _Writer(rng, d.odd).write(d.tree).encode("utf-8") + b"\n"
    # byte edits last; the line limit and the torn end apply to the line as finally sent
    for name in sorted((e for e in chosen if e in BYTE_EDITS), key=lambda e: e in ("truncate", "line-limit")):
        if BYTE_EDITS[name][0](rng, d):
            d.edits.append(name)
    return d


def fresh_cases(suite: Suite, seed: int, count: int = DEFAULT_FRESH_CASES) -> list[Case]:
    """`count` fresh cases drawn from `seed`, with the reference binding's answers; none has an input
    the shipped suite holds."""
    if not 0 <= count <= MAX_FRESH_CASES:
        raise ValueError(f"the number of fresh cases must be 0..{MAX_FRESH_CASES}, got {count}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"a seed is an integer 0..{MAX_SEED}, got {seed}")
    rng = random.Random(seed)
    shipped = {c.input.removesuffix(b"\n") for c in suite.cases}
    out: list[Case] = []
    seen: set[tuple[bytes, str, int | None]] = set()
    for _ in range(50 * count + 100):  # drafts are rarely drawn again; bounded all the same
        if len(out) == count:
            break
        d = _draft(rng)
        key = (d.data, d.mode, d.max_line_bytes)
        body = d.data.removesuffix(b"\n")
        if body in shipped or b"\n" in body or len(d.data) > _LIMIT_BYTES or key in seen:
            continue
        answer = _reference(d.data, d.mode, d.max_line_bytes)
        if answer is None or (
            # a flipped byte inside a key may make two schema defects (the key missing, another
            # unexpected), which implementations may report in either order: not one answer
            "flip-byte" in d.edits and answer[0] == "refused" and answer[1] in ("missing_field", "unexpected_field")
        ):
            continue
        seen.add(key)
        out.append(_case(seed, len(out), d, answer))
    if len(out) < count:
        raise RuntimeError(f"could not draw {count} fresh cases from seed {seed}")
    return out


def _case(seed: int, index: int, d: _Draft, answer: tuple[str, bytes | str, str]) -> Case:
    edits = d.edits or ["none"]
    what = _describe(d.tree)
    written = "written oddly" if d.odd else "written canonically"
    body = d.data.removesuffix(b"\n")
    common: dict[str, Any] = {
        "id": f"fresh.{seed}.{index:04d}.{'+'.join(edits)}",
        "group": FRESH_GROUP,
        "description": f"a generated {what} message, {written}; edits: {', '.join(edits)} (seed {seed})",
        "spec": "generated",
        "input": d.data,
        "mode": d.mode,
        "max_line_bytes": d.max_line_bytes,
        "tags": (FRESH_GROUP, *edits),
        "features": ("lenient",) if d.mode == "lenient" else (),
        "source": f"fresh case #{index} of seed {seed} (base64 {base64.b64encode(d.data[:48]).decode()}...)",
    }
    if answer[0] == "encoded":
        out = answer[1]
        assert isinstance(out, bytes)
        if out == body:
            return Case(expect="identical", output=body, **common)
        return Case(expect="canonical", output=out, **common)
    category = str(answer[1])
    pointer = answer[2] if category in POINTED_CATEGORIES else None
    return Case(expect="reject", category=category, pointer=pointer, **common)
