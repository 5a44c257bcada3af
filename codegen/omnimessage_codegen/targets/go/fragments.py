"""Emitter `fragments.go` of target `go`: the aggregator's table, how the segment of each streaming
partial adds up to its complete payload (the model's `assemblies`, from `x-omnimessage-fragment-of`),
as type switches over the payload union."""

from __future__ import annotations

from ...model import EVENT_FIELD, Model
from .._fragments import Spelled, expression, fragments
from .._imports import Imports
from .._imports import render as render_template
from .._jinja import environment
from .common import RUNTIME, camel, go_str, go_type
from .context import base, enum_const


def _spelled(imports: Imports) -> Spelled:
    """How each field of a complete payload is written (see `_fragments.expression`)."""
    return {
        "text": lambda name: "text",
        "stop": lambda name: f"stop(p.{name})",
        "copy": lambda name: f"p.{name}",
        "carry": lambda name: f"{imports.use(RUNTIME, 'om')}.NonEmptySlice(carried.{name})",
        "absent": None,
    }


def _fixed(enum: str | None, value: str) -> str:
    return go_str(value) if enum is None else enum_const(enum, value)


def render(model: Model) -> dict[str, str]:
    fr = fragments(model)
    if fr is None:
        return {}
    imports = Imports("go")
    spelled = _spelled(imports)
    rows = []
    for r in fr.rows:
        fields = [(camel(a.name), expression(a, f, camel(a.name), spelled, _fixed)) for a, f in r.fields]
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
