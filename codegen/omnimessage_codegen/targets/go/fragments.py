"""Emitter `fragments.go` of target `go`: the aggregator's table, how the segment of each streaming
partial adds up to its complete payload (the model's `assemblies`, from `x-omnimessage-fragment-of`),
as type switches over the payload union."""

from __future__ import annotations

from ...model import EVENT_FIELD, Assembled, EnumRef, Field, Model
from .._fragments import fragments
from .._imports import Imports
from .._imports import render as render_template
from .._jinja import environment
from .._shapes import UnsupportedShape
from .common import RUNTIME, camel, go_str, go_type
from .context import base, enum_const


def _value(a: Assembled, f: Field, imports: Imports) -> str | None:
    """The expression of field `f` of the complete payload (`p` the last fragment, `text` the
    fragments joined, `carried` what fragments carried whole, `stop` the stop rule); None leaves
    it unset."""
    name = camel(a.name)
    if a.how == "text":
        return "text"
    if a.how == "stop":
        return f"stop(p.{name})"
    if a.how == "copy":
        return f"p.{name}"
    if a.how == "carry":
        return f"{imports.use(RUNTIME, 'om')}.NonEmptySlice(carried.{name})"
    if a.how == "absent":
        return None
    if a.how == "fixed" and isinstance(f.type, EnumRef):
        return enum_const(f.type.name, a.value or "")
    if a.how == "fixed":
        return go_str(a.value or "")
    raise UnsupportedShape(f"{f.name}: no Go expression for {a.how!r}")


def render(model: Model) -> dict[str, str]:
    fr = fragments(model)
    if fr is None:
        return {}
    imports = Imports("go")
    rows = []
    for r in fr.rows:
        fields = [(camel(a.name), _value(a, f, imports)) for a, f in r.fields]
        rows.append({
            "partial": r.partial.name,
            "complete": r.complete.name,
            "tag": go_str(r.partial.tag or ""),
            "key": None if r.assembly.key is None else camel(r.assembly.key),
            "text": camel(r.assembly.text),
            "text_lit": go_str(r.assembly.text),
            "carried": [camel(n) for n in r.assembly.carried],
            "fields": [{"name": n, "value": v} for n, v in fields if v is not None],
        })
    carried = [{"name": camel(f.name), "lit": go_str(f.name), "type": go_type(model, st, f)} for st, f in fr.carried]
    text = render_template(
        environment(), "go/fragments.go.j2", imports, **base(model), union=fr.union,
        keyed=any(r["key"] for r in rows), rows=rows, carried=carried, event_enum=fr.event_enum, stop_enum=fr.stop_enum,
        event=camel(EVENT_FIELD),
    )
    return {"fragments.go": text}
