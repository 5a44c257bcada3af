"""The rendering context the Rust templates share: enums, structs with their items, unions,
envelopes, and which envelope's codec module each struct's impls go to."""

from __future__ import annotations

from typing import Any

from ...model import Model, Struct
from .._names import upper_snake
from .._shapes import check_enum_values, variant
from .common import camel, doc, encode_plan, ident, items, rust_str


def enums(model: Model) -> list[dict[str, Any]]:
    check_enum_values(model)
    return [
        {
            "name": e.name,
            "doc": doc(e.description),
            "vals": [{"value": v, "variant": camel(v), "lit": rust_str(v)} for v in e.values],
        }
        for e in model.enums.values()
    ]


def struct_ctx(model: Model, st: Struct) -> dict[str, Any]:
    its = items(model, st)
    return {
        "name": st.name,
        "doc": doc(st.description),
        "fields_const": upper_snake(st.name) + "_FIELDS",
        "keys": [rust_str(it.key) for it in its],
        "its": [
            {
                "index": n,
                "key": it.key,
                "lit": rust_str(it.key),
                "const": None if it.const is None else rust_str(it.const),
                "rust": it.rust,
                "var": "f_" + it.key,
                "ty": it.ty,
                "required": it.field is None or it.field.required,
                "stored": it.const is None,
                "decode": it.decode,
                "doc": doc(it.field.description, "    ") if it.field is not None else "",
            }
            for n, it in enumerate(its)
        ],
        "encode": encode_plan(model, st),
    }


def unions(model: Model) -> list[dict[str, Any]]:
    out = []
    for u in model.unions.values():
        out.append(
            {
                "name": u.name,
                "doc": doc(u.description),
                "members": [
                    {"struct": m, "variant": variant(m), "tag": rust_str(model.structs[m].tag or "")} for m in u.members
                ],
            }
        )
    return out


def envelopes(model: Model) -> list[dict[str, Any]]:
    out = []
    for env in model.envelopes:
        payload_union = env.payload in model.unions
        out.append(
            {
                "struct": env.struct.name,
                "variant": variant(env.struct.name),
                "tag": env.struct.tag,
                "lit": rust_str(env.struct.tag or ""),
                "module": "codec_" + ident(env.struct.tag or "").replace("r#", ""),
                "payload": env.payload,
                "payload_union": payload_union,
            }
        )
    return out


def codec_modules(model: Model) -> dict[str, list[str]]:
    """Per envelope: its codec module and the structs and unions whose impls it holds (each
    nested struct with the first envelope that reaches it: `Model.by_envelope`)."""
    groups = model.by_envelope()
    return {ctx["module"]: groups[ctx["tag"] or ""] for ctx in envelopes(model)}
