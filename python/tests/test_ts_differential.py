"""Cross-language differential test: the TypeScript binding against the Python one.

Both bindings are fed the same generated lines: every payload kind with random subsets of its
optional fields, random unicode (astral characters, U+2028/U+2029, control characters, quotes
and backslashes), origin chains, verbatim values written every odd way (whitespace, key order,
duplicate keys, escapes, number spellings, nesting), non-canonical spellings of the rest, and
defects of every rejection category (schema-level, lexical and byte-level, sometimes two at
once). They must agree on every line: the same canonical bytes, or the same refusal (category,
JSON pointer, byte offset and detail). Canonical outputs are fed back in, so the TypeScript
fast path (canonical lines) is compared as much as its strict path.
"""

from __future__ import annotations

import base64
import json
import random
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import omnimessage as om
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

REPO = Path(__file__).resolve().parents[2]
TS_DIR = REPO / "typescript"
HARNESS = TS_DIR / "test" / "differential-harness.mjs"
NODE = shutil.which("node")
MODEL: Model = load_schema()
SEED = 20260718
N_MESSAGES = 10_000

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH: the TypeScript binding cannot run here")

Result = tuple[Any, ...]

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
        return self.rng.choice([" ", "  ", "\t", "\r", "\n", " \t "])


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
            return self.rng.choice(["", "", "", " ", "\t", "  ", "\n", "\r\n "])

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


# ---------------------------------------------------------------------------
# Defects
# ---------------------------------------------------------------------------


def _objects(v: J, path: tuple[str, ...] = ()) -> Iterator[tuple[J, tuple[str, ...]]]:
    if v.kind == "obj":
        yield v, path
        for k, x in v.members:
            yield from _objects(x, (*path, k))
    elif v.kind == "arr":
        for i, x in enumerate(v.items):
            yield from _objects(x, (*path, str(i)))


def _values(v: J) -> Iterator[J]:
    yield v
    for _, x in v.members:
        yield from _values(x)
    for x in v.items:
        yield from _values(x)


def mutate(g: Gen, msg: J) -> None:
    """Apply one defect to the tree, in place."""
    rng = g.rng
    objs = list(_objects(msg))
    target, _ = rng.choice(objs)
    values = [v for v in _values(msg) if v is not msg]
    kind = rng.randrange(12)
    if kind == 0 and target.members:  # missing_field
        del target.members[rng.randrange(len(target.members))]
    elif kind == 1:  # unexpected_field
        key = rng.choice(["extra", "__proto__", "constructor", "Type", g.text(short=True)])
        target.members.insert(rng.randrange(len(target.members) + 1), (key, s("x")))
    elif kind == 2 and values:  # wrong_type
        v = rng.choice(values)
        repl = rng.choice([s("1"), num("1"), J("lit", text="null"), J("lit", text="true"), J("arr"), obj()])
        v.kind, v.members, v.items, v.text = repl.kind, repl.members, repl.items, repl.text
    elif kind == 3:  # invalid_value / unknown_type: a string value replaced
        strs = [v for v in values if v.kind == "str"]
        if strs:
            rng.choice(strs).text = rng.choice(
                ["failed", "benchmark", "bot", "", "request_begin", "text", g.text(short=True)]
            )
    elif kind == 4 and target.members:  # duplicate_key (sometimes spelled with an escape)
        k, v = rng.choice(target.members)
        target.members.append((k, v))
    elif kind == 5:  # lone surrogate in a string or a key
        strs = [v for v in values if v.kind == "str"]
        if strs and rng.random() < 0.8:
            v = rng.choice(strs)
            at = rng.randrange(len(v.text) + 1)
            v.text = v.text[:at] + rng.choice(["\ud800", "\udc00", "\udbff"]) + v.text[at:]
        elif target.members:
            i = rng.randrange(len(target.members))
            k, v = target.members[i]
            target.members[i] = (k + "\udfff", v)
    elif kind == 6:  # numbers: beyond the double range, or integers written with a fraction
        nums = [v for v in values if v.kind == "num"]
        if nums:
            rng.choice(nums).text = rng.choice(
                ["1e400", "-1e400", "1.0", "1e2", "1.5", "-1", "9007199254740992", "1" * 401, "9" * 309, "1" * 350]
            )
    elif kind == 7:  # empty origin, or origin items of the wrong type
        msg.members.append(("origin", J("arr", items=[] if rng.random() < 0.5 else [num("1")])))
    elif kind == 8:  # a verbatim value that is not an object, or a hook output member of the wrong type
        raws = [v for v in values if v.kind == "raw"]
        if raws:
            rng.choice(raws).text = rng.choice(["[]", '"x"', "null", "1", '{"a":null}', '{"a":[1]}', '{"a":{}}'])
    elif kind == 9:  # deep nesting beyond max_depth, in a verbatim value or not
        n = rng.randrange(480, 900)
        target.members.append(("deep", J("raw", text="[" * n + "]" * n)))
    elif kind == 10:  # payload or envelope type of another kind
        p = msg.get("payload")
        dest = p if p is not None and p.kind == "obj" and rng.random() < 0.7 else msg
        t = dest.get("type")
        if t is not None:
            t.kind, t.text = (
                "str",
                rng.choice(["request_begin", "text", "model_msg", "event_msg", "session_meta", "nope"]),
            )
    else:  # a value where an object belongs
        p = msg.get("payload")
        if p is not None:
            p.kind, p.members, p.items, p.text = rng.choice(
                [("arr", [], [], ""), ("str", [], [], "p"), ("lit", [], [], "null")]
            )


def corrupt(g: Gen, line: bytes) -> bytes:
    """A byte-level defect: invalid UTF-8, torn line, trailing data, BOM, broken grammar."""
    rng = g.rng
    at = rng.randrange(len(line) + 1)
    kind = rng.randrange(8)
    if kind == 0:
        return (
            line[:at]
            + rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80"])
            + line[at:]
        )
    if kind == 1:
        return line[: rng.randrange(len(line))]
    if kind == 2:
        return line + rng.choice([b" x", b"{}", b",", b"\x00", b" \n"])
    if kind == 3:
        return b"\xef\xbb\xbf" + line
    if kind == 4:
        return line.replace(b"}", b",}", 1)
    if kind == 5 and line:
        return line[:at] + line[at + 1 :]
    if kind == 6:
        junk = [
            b'"',
            b"{",
            b"]",
            b":",
            b"01",
            b"NaN",
            b"'",
            b"//",
            b"\x01",
            b"\t",
            b"\x00",
            b"\\",
            b"\\x",
            b"\\u12",
            b"\\uZZZZ",
        ]
        return line[:at] + rng.choice(junk) + line[at:]
    return line.replace(b":", b": -", 1)


def generate(g: Gen, n: int) -> list[bytes]:
    lines: list[bytes] = []
    for i in range(n):
        msg = g.message()
        r = g.rng.random()
        if r < 0.3:
            for _ in range(1 + (g.rng.random() < 0.25)):
                mutate(g, msg)
        canonical = g.rng.random() < 0.5
        data = write(msg, Style(g.rng, canonical)).encode("utf-8", "surrogatepass")
        if g.rng.random() < 0.08:
            data = corrupt(g, data)
        if i % 7 == 0:
            data += b"\n"
        lines.append(data)
    return lines


_PARTIALS = [st for st in MODEL.structs.values() if st.fragment_of is not None]
_HIGH = [0xD800, 0xD83D, 0xDBFF]
_LOW = [0xDC00, 0xDE00, 0xDFFF]


def split_surrogate_lines(g: Gen, n: int) -> list[bytes]:
    """Streaming partials whose fragment field holds lone surrogates (a pair split between two
    deltas, wire contract 4.1), written canonically or not; some with a lone half elsewhere too
    (another field, a key, the origin), under another envelope, or with another defect."""
    lines: list[bytes] = []
    rng = g.rng
    for i in range(n):
        st = rng.choice(_PARTIALS)
        assert st.fragment_of is not None
        payload = g.struct(st.name, 2)
        frag = payload.get(st.fragment_of[1])
        assert frag is not None and frag.kind == "str"
        high, low = chr(rng.choice(_HIGH)), chr(rng.choice(_LOW))
        r = rng.random()
        if r < 0.35:
            frag.text += high  # the high half ends this delta
        elif r < 0.6:
            frag.text = low + frag.text  # the low half starts the next
        elif r < 0.8:
            frag.text = low + frag.text + high
        else:
            at = rng.randrange(len(frag.text) + 1)
            frag.text = frag.text[:at] + rng.choice([high, low, low + high]) + frag.text[at:]
        env = "model_msg" if rng.random() < 0.95 else "event_msg"
        msg = obj(("timestamp", s("2026-07-18T03:10:22.531Z")), ("type", s(env)), ("payload", payload))
        if rng.random() < 0.2:
            msg.members.append(("origin", J("arr", items=[s(g.text(short=True))])))
        r = rng.random()
        if r < 0.1:  # a lone half in another string of the line (refused there)
            others = [v for v in _values(msg) if v.kind == "str" and v is not frag]
            rng.choice(others).text += rng.choice([high, low])
        elif r < 0.15:  # in a key
            k, v = payload.members[-1]
            payload.members[-1] = (k + low, v)
        elif r < 0.3:
            mutate(g, msg)
        data = write(msg, Style(rng, rng.random() < 0.5)).encode("utf-8", "surrogatepass")
        if i % 5 == 0:
            data += b"\n"
        lines.append(data)
    return lines


# ---------------------------------------------------------------------------
# Running both bindings
# ---------------------------------------------------------------------------


def python_result(data: bytes, lenient: bool) -> Result:
    try:
        msg = om.decode(data, lenient=lenient)
    except om.DecodeError as err:
        return ("err", err.category, err.pointer, err.offset, err.detail)
    return ("out", om.encode(msg), isinstance(msg, om.OpaqueMessage))


def ensure_built() -> None:
    if (TS_DIR / "dist" / "index.js").is_file():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("typescript/dist is not built and npm is missing: run `make setup`")
    if not (TS_DIR / "node_modules").is_dir():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=TS_DIR, check=True)
    subprocess.run([npm, "run", "--silent", "build"], cwd=TS_DIR, check=True)


def typescript_results(lines: list[bytes], *modes: str) -> list[Result]:
    ensure_built()
    assert NODE is not None
    inp = "".join(base64.b64encode(x).decode("ascii") + "\n" for x in lines)
    proc = subprocess.run(
        [NODE, str(HARNESS), *modes], input=inp.encode(), capture_output=True, check=False, timeout=600
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    out: list[Result] = []
    for raw in proc.stdout.splitlines():
        r = json.loads(raw)
        if "crash" in r:
            out.append(("crash", r["crash"]))
        elif "err" in r:
            category, pointer, offset, detail = r["err"]
            out.append(("err", category, pointer, offset, detail))
        else:
            out.append(("out", base64.b64decode(r["out"]), r["opaque"]))
    assert len(out) == len(lines), proc.stderr.decode(errors="replace")
    return out


def compare(lines: list[bytes], lenient: bool, *modes: str) -> tuple[int, list[str]]:
    ts = typescript_results(lines, *modes)
    diffs: list[str] = []
    for data, t in zip(lines, ts, strict=True):
        p = python_result(data, lenient)
        if p != t:
            diffs.append(f"{data[:300]!r}\n    python:     {str(p)[:300]}\n    typescript: {str(t)[:300]}")
    return len(lines), diffs


def _fail_on(diffs: list[str], n: int) -> None:
    if diffs:
        shown = "\n".join(diffs[:15])
        pytest.fail(f"{len(diffs)} of {n} lines differ between Python and TypeScript:\n{shown}")


@pytest.fixture(scope="module")
def corpus() -> list[bytes]:
    return generate(Gen(SEED), N_MESSAGES)


def test_strict_decode_and_encode_agree(corpus: list[bytes]) -> None:
    n, diffs = compare(corpus, False)
    _fail_on(diffs, n)
    # Feed the canonical outputs back: the TypeScript fast path must agree too.
    canon = [r[1] for r in (python_result(x, False) for x in corpus) if r[0] == "out"]
    assert len(canon) > N_MESSAGES // 3, f"only {len(canon)} valid lines: the generator is off"
    verdicts = {python_result(x, False)[1] for x in corpus if python_result(x, False)[0] == "err"}
    assert len(verdicts) >= 12, f"categories covered: {sorted(verdicts)}"
    n2, diffs2 = compare(canon, False)
    _fail_on(diffs2, n2)
    assert n + n2 >= 10_000


def test_lenient_and_string_input_agree(corpus: list[bytes]) -> None:
    sample = corpus[: N_MESSAGES // 4]
    n, diffs = compare(sample, True, "lenient")
    _fail_on(diffs, n)
    # Lines handed to the TypeScript decoder as JS strings instead of bytes.
    text = [x for x in sample if _is_utf8(x)]
    n, diffs = compare(text, False, "strict", "string")
    _fail_on(diffs, n)


def test_split_surrogates_in_fragments_agree() -> None:
    """Lone halves in a partial's fragment field: accepted alike, re-encoded to the same bytes;
    elsewhere refused alike (strict and lenient, bytes and JS strings, canonical outputs fed back)."""
    lines = split_surrogate_lines(Gen(SEED + 1), 2000)
    n, diffs = compare(lines, False)
    _fail_on(diffs, n)
    results = [python_result(x, False) for x in lines]
    accepted = [r[1] for r in results if r[0] == "out"]
    refused = {r[1] for r in results if r[0] == "err"}
    assert len(accepted) > len(lines) // 2, f"only {len(accepted)} accepted: the generator is off"
    assert sum(b"\\ud" in x for x in accepted) > len(lines) // 3  # lone halves written as \\udXXX
    assert "lone_surrogate" in refused, sorted(refused)
    n, diffs = compare(accepted, False)  # canonical lines, the TypeScript fast path's turn
    _fail_on(diffs, n)
    n, diffs = compare(lines, True, "lenient")
    _fail_on(diffs, n)
    n, diffs = compare(lines, False, "strict", "string")
    _fail_on(diffs, n)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@pytest.mark.parametrize(
    "flags", [[], ["--check"], ["--keep-invalid"], ["--lenient"]], ids=lambda f: " ".join(f) or "plain"
)
def test_cli_canonicalize_agrees(corpus: list[bytes], flags: list[str]) -> None:
    ensure_built()
    assert NODE is not None
    lines = [x.rstrip(b"\n") for x in corpus[:800] if b"\n" not in x.rstrip(b"\n") and b"\r" not in x]
    data = b"\n".join(lines) + b'\n{"timestamp":"2026-07-18T03:10:22.531Z","type":"ev'

    def run(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [*argv, "canonicalize", *flags], input=data, capture_output=True, check=False, timeout=300
        )

    py = run([sys.executable, "-m", "omnimessage"])
    ts = run([NODE, str(TS_DIR / "bin" / "omnimessage.mjs")])
    assert (ts.returncode, ts.stderr.decode(errors="replace")) == (py.returncode, py.stderr.decode(errors="replace"))
    assert ts.stdout == py.stdout


def test_huge_keys_and_values_are_quoted_alike() -> None:
    """Details quote at most 200 characters (code points: an astral character is one in both)."""
    head = b'{"timestamp":"t","type":"event_msg","payload":'
    big = "é😀\U0001f600" + "k" * 300 + "😀" * 300
    lines = [
        head + f'{{"type":"request_begin","{big}":1}}}}'.encode(),
        head + f'{{"type":"request_begin","{big}":1,"{big}":2}}}}'.encode(),
        head + f'{{"type":"{big}"}}}}'.encode(),
        head + f'{{"type":"request_end","status":"{big}"}}}}'.encode(),
        head + f'{{"type":"request_end","status":"{big[:199]}\\ud83d\\ude00x"}}}}'.encode(),
        head + b'{"type":"request_end","status":"completed","attempt":1.' + b"0" * 500 + b"}}",
        head + b'{"type":"request_end","status":"completed","attempt":1.' + b"5" * 500 + b"}}",
    ]
    n, diffs = compare(lines, False)
    _fail_on(diffs, n)
    assert all(len(str(python_result(x, False)[4])) < 300 for x in lines)
