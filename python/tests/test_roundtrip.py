"""Canonical lines of every payload kind round-trip byte for byte."""

from __future__ import annotations

import json

import pytest

import omnimessage as om
from omnimessage.codec import api as codec
from omnimessage_dev.synth.samples import MODEL, TS, canonical_samples, dumps, message, sample_struct

SAMPLES = list(canonical_samples())


@pytest.mark.parametrize(("case", "line"), SAMPLES, ids=[c for c, _ in SAMPLES])
def test_canonical_sample_roundtrips(case: str, line: bytes) -> None:
    msg = om.decode(line)
    assert om.encode(msg) == line
    assert om.encode(om.decode(line + b"\n")) == line


def test_samples_cover_every_kind_field_and_enum_value() -> None:
    seen_structs: set[str] = set()
    seen_fields: set[tuple[str, str]] = set()
    seen_values: set[tuple[str, str]] = set()
    value_to_enums: dict[str, list[str]] = {}
    for e in MODEL.enums.values():
        for v in e.values:
            value_to_enums.setdefault(v, []).append(e.name)

    def walk(obj: object, struct: str | None) -> None:
        if isinstance(obj, dict) and struct:
            seen_structs.add(struct)
            fields = {f.name: f for f in MODEL.structs[struct].fields}
            for k, v in obj.items():
                if k in fields:
                    seen_fields.add((struct, k))
                    f = fields[k]
                    t = getattr(f.type, "item", f.type)
                    if type(t).__name__ == "EnumRef" and isinstance(v, str):
                        seen_values.add((t.name, v))  # type: ignore[attr-defined]
                    if type(t).__name__ == "EnumRef" and isinstance(v, list):
                        seen_values.update((t.name, x) for x in v)  # type: ignore[attr-defined]
                    sub = getattr(t, "name", None) if type(t).__name__ == "StructRef" else None
                    if isinstance(v, list):
                        for item in v:
                            walk(item, sub)
                    else:
                        walk(v, sub)

    for _, line in SAMPLES:
        obj = json.loads(line)
        env = next(e.struct.name for e in MODEL.envelopes if e.struct.tag == obj["type"])
        walk(obj, env)
        ptag = obj["payload"].get("type")
        pname = next(
            s.name for s in MODEL.structs.values() if (s.tag == ptag if ptag else s.name == "SessionMetaPayload")
        )
        walk(obj["payload"], pname)
    for s in MODEL.structs.values():
        assert s.name in seen_structs, s.name
        for f in s.fields:
            assert (s.name, f.name) in seen_fields, (s.name, f.name)
    # every vocabulary some field uses (one only prose names, like AbortErrorCode, is in no message)
    used = {getattr(getattr(f.type, "item", f.type), "name", None) for s in MODEL.structs.values() for f in s.fields}
    for e in MODEL.enums.values():
        if e.name not in used:
            continue
        for v in e.values:
            assert (e.name, v) in seen_values, (e.name, v)


UNICODE = [
    "",
    "é中文😀",
    "\U0001f600\U0010ffff",
    "line\u2028sep\u2029para",
    "\x00\x01\x1f\x7f",
    '"quoted" \\ back/slash',
    "\b\f\n\r\t",
    "\ufeffbom-inside",
    "x" * (1 << 20),
]


@pytest.mark.parametrize("text", UNICODE, ids=[repr(u[:12]) for u in UNICODE])
def test_unicode_edge_cases_roundtrip(text: str) -> None:
    line = dumps(message("TextPayload", {"type": "text", "role": "user", "text": text}))
    msg = om.decode(line)
    assert msg.payload.text == text  # type: ignore[union-attr]
    assert om.encode(msg) == line


def test_many_images_roundtrip() -> None:
    images = [f"data:image/png;base64,{'A' * 1000}{i}" for i in range(500)]
    payload = {"type": "tool_call_output", "role": "user", "output": "ok", "images": images, "tool_call_id": "c"}
    line = dumps(message("ToolCallOutputPayload", payload))
    assert om.encode(om.decode(line)) == line


def test_null_reason_is_present_and_distinct_from_absent() -> None:
    with_null = dumps(message("AbortPayload", {"type": "abort", "reason": None}))
    absent = dumps(message("AbortPayload", {"type": "abort"}))
    assert om.encode(om.decode(with_null)) == with_null
    assert om.encode(om.decode(absent)) == absent
    assert b'"reason":null' in with_null


def test_fast_and_slow_paths_agree_on_every_sample() -> None:
    for _, line in SAMPLES:
        fast = om.decode(line)
        slow = codec._decode_slow(line, lenient=False)
        assert om.encode(slow) == om.encode(fast) == line


def test_schema_examples_are_canonical() -> None:
    for s in MODEL.structs.values():
        for ex in s.examples:
            assert isinstance(ex, dict)
            line = dumps(message(s.name, ex))
            assert om.encode(om.decode(line)) == line, s.name


def test_envelope_order_timestamp_first_origin_last() -> None:
    line = dumps(message("TextPayload", sample_struct("TextPayload", full=True), ["a", "b"]))
    out = om.encode(om.decode(line))
    assert out.startswith(b'{"timestamp":"' + TS.encode())
    assert out.endswith(b',"origin":["a","b"]}')
