"""Property tests: canonical lines round-trip; fast and slow paths agree; nothing but
DecodeError escapes on mutated or random input."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import omnimessage as om
from omnimessage.codec import api as codec
from omnimessage_codegen.model import AnyOf, ArrayOf, Const, EnumRef, Prim, StructRef, TypeRef, UnionRef, Verbatim
from omnimessage_dev.synth.samples import MODEL, TS, canonical_samples, envelope_of, payload_structs

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
WS = st.sampled_from(["", " ", "\t", " \t", "\t "])  # no CR or LF: inside a message they are line_break


@st.composite
def json_text(draw: st.DrawFn, depth: int = 0) -> str:
    """Arbitrary JSON text in odd spellings (what a verbatim value may hold)."""
    kinds = ["num", "str", "lit"] + (["obj", "arr"] if depth < 4 else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "num":
        return draw(st.sampled_from(["0", "-0", "1.0", "1E2", "2.5e-3", "1e400", "18446744073709551617", "-12"]))
    if kind == "str":
        s = json.dumps(draw(TEXT), ensure_ascii=draw(st.booleans()))
        return s.replace("/", "\\/") if draw(st.booleans()) else s
    if kind == "lit":
        return draw(st.sampled_from(["true", "false", "null"]))
    if kind == "arr":
        items = draw(st.lists(json_text(depth + 1), max_size=3))
        return "[" + ",".join(draw(WS) + i + draw(WS) for i in items) + "]"
    return draw(json_object(depth + 1))


@st.composite
def json_object(draw: st.DrawFn, depth: int = 0, scalar: bool = False) -> str:
    keys = draw(st.lists(st.sampled_from(["a", "2", "1", "", "sig", "a"]), max_size=4))
    members = []
    for k in keys:
        value = draw(st.sampled_from(["1.0", '"x"', "true", "-0"])) if scalar else draw(json_text(depth + 1))
        members.append(draw(WS) + json.dumps(k) + draw(WS) + ":" + draw(WS) + value)
    return "{" + ",".join(members) + draw(WS) + "}"


def value_strategy(t: TypeRef) -> st.SearchStrategy[Any]:
    if isinstance(t, Prim):
        if t.kind == "string":
            return TEXT
        if t.kind in ("integer", "number"):
            return st.integers(t.minimum or 0, t.maximum if t.maximum is not None else 2**53)
        if t.kind == "null":
            return st.none()
        return st.booleans()
    if isinstance(t, Const):
        return st.just(t.value)
    if isinstance(t, EnumRef):
        return st.sampled_from(MODEL.enums[t.name].values)
    if isinstance(t, StructRef):
        return payload_strategy(t.name)
    if isinstance(t, UnionRef):
        return st.one_of([payload_strategy(m) for m in MODEL.unions[t.name].members])
    if isinstance(t, ArrayOf):
        return st.lists(value_strategy(t.item), min_size=t.min_items, max_size=3)
    if isinstance(t, AnyOf):
        return st.one_of([value_strategy(o) for o in t.options])
    if isinstance(t, Verbatim):
        return json_object(scalar=t.shape == "scalar_map").map(lambda s: RawText(s))
    raise AssertionError(t)


class RawText(str):
    """A verbatim value's exact text."""


def payload_strategy(name: str) -> st.SearchStrategy[dict[str, Any]]:
    s = MODEL.structs[name]

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        out: dict[str, Any] = {} if s.tag is None else {"type": s.tag}
        for f in s.fields:
            if f.required or draw(st.booleans()):
                out[f.name] = draw(value_strategy(f.type))
        return out

    return build()


def dump(obj: Any) -> str:
    if isinstance(obj, RawText):
        return str(obj)
    if isinstance(obj, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(v) for k, v in obj.items()) + "}"
    if isinstance(obj, list):
        return "[" + ",".join(dump(v) for v in obj) + "]"
    return json.dumps(obj, ensure_ascii=False)


@st.composite
def canonical_line(draw: st.DrawFn) -> bytes:
    name = draw(st.sampled_from(payload_structs()))
    msg: dict[str, Any] = {
        "timestamp": draw(st.just(TS) | TEXT),
        "type": envelope_of(name),
        "payload": draw(payload_strategy(name)),
    }
    if draw(st.booleans()):
        msg["origin"] = draw(st.lists(TEXT, min_size=1, max_size=3))
    return dump(msg).encode("utf-8")


@SETTINGS
@given(canonical_line())
def test_canonical_lines_roundtrip_byte_for_byte(line: bytes) -> None:
    assert om.encode(om.decode(line)) == line
    assert om.encode(codec._decode_slow(line, lenient=False)) == line


def outcome(fn: Any, data: bytes) -> tuple[str, Any]:
    try:
        return ("ok", om.encode(fn(data)))
    except om.DecodeError as exc:
        return ("refused", exc.category)


SEEDS = [line for _, line in canonical_samples()]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "dup"]))
        i = draw(st.integers(0, len(data)))
        if op == "flip" and i < len(data):
            data[i] = draw(st.sampled_from(b'{}[]",:\\0123456789.eE-+ tu\x00\xff\xc3'))
        elif op == "insert":
            data[i:i] = draw(st.sampled_from([b" ", b'"a":1,', b"\\u0000", b"\\ud800", b"1.0", b",", b"\xed\xa0\x80"]))
        elif op == "delete" and i < len(data):
            del data[i : i + draw(st.integers(1, 5))]
        elif op == "dup":
            j = draw(st.integers(0, len(data)))
            data[i:i] = data[min(i, j) : max(i, j)][:50]
    return bytes(data)


@SETTINGS
@given(mutated())
def test_mutations_only_raise_decode_error_and_paths_agree(data: bytes) -> None:
    fast = outcome(om.decode, data)
    slow = outcome(lambda d: codec._decode_slow(d, lenient=False), data)
    assert fast == slow
    if fast[0] == "ok":
        assert om.canonicalize(fast[1]) == fast[1]  # canonical output is a fixed point


@SETTINGS
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_decode_error(data: bytes) -> None:
    for lenient in (False, True):
        with contextlib.suppress(om.DecodeError):
            om.decode(data, lenient=lenient)
