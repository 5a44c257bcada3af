"""Canonical sample lines built from the schema's intermediate model.

Expected bytes are written with the standard library's `json` (compact separators, no ASCII
escaping), which spells strings and integers exactly as `JSON.stringify` does, with keys in
schema order: an oracle independent of the codec under test.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

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

MODEL: Model = load_schema()
TS = "2026-07-18T03:10:22.531Z"
VERBATIM_SAMPLE = {"signature": "EqQBCkYIBxgCKkA", "n": 1}


def dumps(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def sample_value(t: TypeRef, *, full: bool, pick: int = 0) -> Any:
    if isinstance(t, Prim):
        if t.kind == "string":
            return "s"
        if t.kind == "integer":
            return max(t.minimum or 0, 1) + pick
        if t.kind == "number":
            return 12.5 if pick % 2 else 7
        if t.kind == "boolean":
            return True
        return None
    if isinstance(t, Const):
        return t.value
    if isinstance(t, EnumRef):
        values = MODEL.enums[t.name].values
        return values[pick % len(values)]
    if isinstance(t, StructRef):
        return sample_struct(t.name, full=full, pick=pick)
    if isinstance(t, UnionRef):
        return sample_struct(MODEL.unions[t.name].members[0], full=full, pick=pick)
    if isinstance(t, ArrayOf):
        return [sample_value(t.item, full=full, pick=pick)]
    if isinstance(t, AnyOf):
        return sample_value(t.options[pick % len(t.options)], full=full, pick=pick)
    if isinstance(t, Verbatim):
        return dict(VERBATIM_SAMPLE) if t.shape == "object" else {"ok": True, "n": 2, "s": "x"}
    raise TypeError(t)


def sample_struct(name: str, *, full: bool, pick: int = 0) -> dict[str, Any]:
    s = MODEL.structs[name]
    out: dict[str, Any] = {}
    if s.tag is not None:
        out["type"] = s.tag
    for f in s.fields:
        if f.required or full:
            out[f.name] = sample_value(f.type, full=full, pick=pick)
    return out


def envelope_of(payload_struct: str) -> str:
    for e in MODEL.envelopes:
        if payload_struct in MODEL.payload_members(e):
            assert e.struct.tag is not None
            return e.struct.tag
    raise KeyError(payload_struct)


def message(payload_struct: str, payload: dict[str, Any], origin: list[str] | None = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"timestamp": TS, "type": envelope_of(payload_struct), "payload": payload}
    if origin:
        msg["origin"] = origin
    return msg


def payload_structs() -> list[str]:
    return [m for e in MODEL.envelopes for m in MODEL.payload_members(e)]


def canonical_samples() -> Iterator[tuple[str, bytes]]:
    """(id, canonical line) for every payload kind, all optional fields present and absent,
    every enum value in every enum-typed position, and every anyOf branch."""
    for name in payload_structs():
        yield f"{name}-minimal", dumps(message(name, sample_struct(name, full=False)))
        yield f"{name}-full", dumps(message(name, sample_struct(name, full=True)))
        widest = max(
            [len(MODEL.enums[f.type.name].values) for f in _all_fields(name) if isinstance(f.type, EnumRef)] + [2]
        )
        for pick in range(1, widest):
            yield f"{name}-full-pick{pick}", dumps(message(name, sample_struct(name, full=True, pick=pick)))
    for depth in (1, 2, 3):
        origin = [f"session-2026-07-18-03-1{i}-00-0000000{i}" for i in range(depth)]
        yield f"origin-{depth}", dumps(message("TextPayload", sample_struct("TextPayload", full=False), origin))
    for name in ("SessionMetaPayload", "RequestBeginPayload", "PartialTextPayload"):
        child = ["session-2026-07-18-03-11-02-9f8e7d6c"]
        yield f"origin-{name}", dumps(message(name, sample_struct(name, full=True), child))


def _all_fields(name: str) -> list[Any]:
    out = []
    for f in MODEL.structs[name].fields:
        out.append(f)
        t = f.type.item if isinstance(f.type, ArrayOf) else f.type
        if isinstance(t, StructRef):
            out.extend(_all_fields(t.name))
    return out
