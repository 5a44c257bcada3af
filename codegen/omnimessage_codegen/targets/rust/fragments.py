"""Emitter `fragments.rs` of target `rust`: the aggregator's table, how the segment of each streaming
partial adds up to its complete payload (the model's `assemblies`, from `x-omnimessage-fragment-of`),
as match arms over the payload union."""

from __future__ import annotations

from ...model import EVENT_FIELD, Assembled, EnumRef, Field, Model
from .._fragments import fragments
from .._jinja import environment
from .._shapes import UnsupportedShape, variant
from .common import camel, ident, rust_str, rust_type


def _value(a: Assembled, f: Field) -> str:
    """The expression of field `f` of the complete payload (`p` the last fragment, `text` the
    fragments joined, `carried` what fragments carried whole, `stop` the stop rule)."""
    name = ident(a.name)
    if a.how == "text":
        return "text"
    if a.how == "stop":
        return f"stop(p.{name})"
    if a.how == "copy":
        return f"p.{name}.clone()"
    if a.how == "carry":
        return f"carried.{name}.clone().filter(|v| !v.is_empty())"
    if a.how == "absent":
        return "None"
    if a.how == "fixed" and isinstance(f.type, EnumRef):
        return f"{f.type.name}::{camel(a.value or '')}"
    if a.how == "fixed":
        return f"{rust_str(a.value or '')}.to_string()"
    raise UnsupportedShape(f"{f.name}: no Rust expression for {a.how!r}")


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
            "fields": [{"name": ident(a.name), "value": _value(a, f)} for a, f in r.fields],
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
