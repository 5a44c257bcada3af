"""Emitter `tables.rs` of target `rust`: the schema's tables the runtime reads (limits, the
rejection categories, every object's keys in canonical order, where each payload keeps verbatim
values and its fragment field, the number locations)."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .._names import upper_snake
from .._shapes import payload_rows
from .common import camel, doc, rust_str


def _path(path: tuple[str, ...]) -> str:
    return "&[" + ", ".join(rust_str(p) for p in path) + "]"


def render(model: Model) -> dict[str, str]:
    payloads = []
    for envelope, st, locs in payload_rows(model):
        frag = st.fragment_of
        payloads.append(
            {
                "envelope": rust_str(envelope),
                "tag": rust_str(st.tag or ""),
                "verbatim": [
                    {"path": _path(p), "shape": "ScalarMap" if shape == "scalar_map" else "Object"} for p, shape in locs
                ],
                "fragment": f"Some({rust_str(frag[1])})" if frag else "None",
                "complete": f"Some({rust_str(model.structs[frag[0]].tag or '')})" if frag else "None",
            }
        )
    fields = [
        {
            "const": upper_snake(st.name) + "_FIELDS",
            "name": st.name,
            "names": [rust_str(k) for k in model.source["$defs"][st.name]["properties"]],
        }
        for st in model.structs.values()
    ]
    numbers = [
        {"name": rust_str(st.name), "paths": [_path(p) for p in model.number_paths(st.name)]}
        for st in model.structs.values()
        if model.number_paths(st.name)
    ]
    cats = [
        {
            "variant": camel(r.name),
            "lit": rust_str(r.name),
            "lexical": "true" if r.lexical else "false",
            "rule": f"Some({rust_str(r.rule.id)})" if r.rule else "None",
            "doc": doc(r.description, "    "),
        }
        for r in model.rejections
    ]
    text = environment().get_template("rust/tables.rs.j2").render(
        m=model,
        limits={k: v for k, v in model.limits.items()},
        payloads=payloads,
        fields=fields,
        numbers=numbers,
        categories=cats,
        schema_id=rust_str(model.schema_id),
        protocol=rust_str(model.protocol or ""),
        versions=[rust_str(v) for v in model.versions],
    )
    return {"tables.rs": text}
