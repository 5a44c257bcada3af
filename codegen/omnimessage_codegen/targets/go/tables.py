"""Emitter `tables.go` of target `go`: the schema's tables the runtime reads (limits, the
rejection categories, every object's keys in canonical order, where each payload keeps verbatim
values and its fragment field, the number locations), and `tables_test.go`, which checks that the
runtime's category constants are exactly the schema's."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .._shapes import payload_rows
from .common import camel, doc, go_str
from .context import base, fields_var


def _path(path: tuple[str, ...]) -> str:
    return "{" + ", ".join(go_str(p) for p in path) + "}"


def render(model: Model) -> dict[str, str]:
    payloads = []
    for envelope, st, locs in payload_rows(model):
        frag = st.fragment_of
        shape = {"scalar_map": "om.ShapeScalarMap", "object": "om.ShapeObject"}
        payloads.append(
            {
                "envelope": go_str(envelope),
                "tag": go_str(st.tag or ""),
                "verbatim": ", ".join(f"{{Path: []string{_path(p)}, Shape: {shape[s]}}}" for p, s in locs),
                "fragment": go_str(frag[1] if frag else ""),
                "complete": go_str(model.structs[frag[0]].tag or "" if frag else ""),
            }
        )
    fields = [
        {"var": fields_var(st), "name": st.name, "names": [go_str(k) for k in model.source["$defs"][n]["properties"]]}
        for n, st in model.structs.items()
    ]
    numbers = [
        {"name": go_str(st.name), "paths": [_path(p) for p in model.number_paths(st.name)]}
        for st in model.structs.values()
        if model.number_paths(st.name)
    ]
    cats = [
        {
            "lit": go_str(r.name),
            "lexical": "true" if r.lexical else "false",
            "rule": go_str(r.rule.id if r.rule else ""),
            "doc": doc(r.description, "\t"),
        }
        for r in model.rejections
    ]
    env = environment()
    ctx = {
        **base(model),
        "limits": [{"name": camel(k), "key": k, "value": v} for k, v in model.limits.items()],
        "payloads": payloads,
        "fields": fields,
        "numbers": numbers,
        "categories": cats,
        "schema_id": go_str(model.schema_id),
        "protocol": go_str(model.protocol or ""),
        "versions": [go_str(v) for v in model.versions],
    }
    return {
        "tables.go": env.get_template("go/tables.go.j2").render(**ctx),
        "tables_test.go": env.get_template("go/tables_test.go.j2").render(**ctx),
    }
