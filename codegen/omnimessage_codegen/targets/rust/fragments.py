"""Emitter `fragments.rs` of target `rust`: the aggregator's table, how the segment of each streaming
partial adds up to its complete payload (the model's `assemblies`, from `x-omnimessage-fragment-of`),
as match arms over the payload union."""

from __future__ import annotations

from ...model import EVENT_FIELD, Model
from .._fragments import Spelled, expression, fragments
from .._jinja import environment
from .._shapes import variant
from .common import camel, ident, rust_str, rust_type

_SPELLED: Spelled = {  # how each field of a complete payload is written (see `_fragments.expression`)
    "text": lambda name: "text",
    "stop": lambda name: f"stop(p.{name})",
    "copy": lambda name: f"p.{name}.clone()",
    "carry": lambda name: f"carried.{name}.clone().filter(|v| !v.is_empty())",
    "absent": lambda name: "None",
}


def _fixed(enum: str | None, value: str) -> str:
    return f"{rust_str(value)}.to_string()" if enum is None else f"{enum}::{camel(value)}"


def render(model: Model) -> dict[str, str]:
    fr = fragments(model)
    if fr is None:
        return {}
    rows = [
        {
            "partial": f"{fr.union}::{variant(r.partial.name)}",
            "complete": f"{fr.union}::{variant(r.complete.name)}",
            "complete_struct": r.complete.name,
            "tag": rust_str(r.partial.tag or ""),
            "key": None if r.assembly.key is None else ident(r.assembly.key),
            "text": ident(r.assembly.text),
            "text_lit": rust_str(r.assembly.text),
            "carried": [ident(n) for n in r.assembly.carried],
            "fields": [
                {"name": ident(a.name), "value": expression(a, f, ident(a.name), _SPELLED, _fixed)} for a, f in r.fields
            ],
        }
        for r in fr.rows
    ]
    carried = [
        {"ident": ident(f.name), "lit": rust_str(f.name), "type": rust_type(model, st, f)} for st, f in fr.carried
    ]
    text = environment().get_template("rust/fragments.rs.j2").render(
        m=model, union=fr.union, rows=rows, carried=carried, event_enum=fr.event_enum, stop_enum=fr.stop_enum,
        event=ident(EVENT_FIELD),
    )
    return {"fragments.rs": text}
