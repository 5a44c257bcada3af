"""Emitter `builders_<envelope>.go` of target `go`: one function per `x-omnimessage-builders` entry
(grouped as the codec files are).

Positional fields (and required keyword fields without a default) are parameters in order; the
other keyword fields, and the `Timestamp` of a builder that returns a whole message, are members
of an options struct (nil or "" for not given). `fixed` fields are written with their value,
`defaults` apply when an option is not given, a verbatim value or an array given empty is left out."""

from __future__ import annotations

from typing import Any

from ...model import ArrayOf, Builder, Const, EnumRef, Field, Model, Prim, Verbatim
from .._jinja import environment
from .._shapes import UnsupportedShape
from .common import camel, doc, go_str, go_type, lower_first
from .context import base, enum_const, file_groups

_KEYWORDS = frozenset(
    "break case chan const continue default defer else fallthrough for func go goto if import interface map "
    "package range return select struct switch type var".split()
)


def _param(name: str) -> str:
    p = lower_first(camel(name))
    return p + "_" if p in _KEYWORDS else p


def _literal(model: Model, f: Field, value: object) -> str:
    t = f.type
    if isinstance(t, EnumRef) and isinstance(value, str):
        if value not in model.enums[t.name].values:
            raise UnsupportedShape(f"{f.name}: {value!r} is not a value of {t.name}")
        return enum_const(t.name, value)
    if isinstance(t, Prim) and t.kind == "integer" and isinstance(value, int):
        return f"uint64({value})"
    if isinstance(t, Prim) and t.kind == "string" and isinstance(value, str):
        return go_str(value)
    raise UnsupportedShape(f"{f.name}: no Go literal for {value!r}")


def _non_empty(f: Field, value: str) -> str:
    """A verbatim value or an array given empty is left out."""
    if isinstance(f.type, Verbatim):
        return f"om.NonEmptyVerbatim({value})"
    if isinstance(f.type, ArrayOf):
        return f"om.NonEmptySlice({value})"
    return value


def _builder(model: Model, b: Builder) -> dict[str, Any]:
    st = model.structs[b.struct]
    fields = {f.name: f for f in st.fields}
    fixed, defaults = dict(b.fixed), dict(b.defaults)
    env = model.envelope_of(st.name)
    params: list[str] = []
    options: list[dict[str, str]] = []
    values: dict[str, str] = {}
    for name in [*b.positional, *b.keyword]:
        f = fields[name]
        if isinstance(f.type, Const):
            continue
        ty = go_type(model, st, f)
        positional = name in b.positional or (f.required and name not in defaults)
        if positional:
            p = _param(b.param(name))
            params.append(f"{p} {ty if f.required else '*' + ty}")
            values[name] = p if f.required else _non_empty(f, p)
        else:
            o = camel(b.param(name))
            options.append({"name": o, "ty": ty, "doc": doc(f.description, "\t")})
            value = f"opts.{o}"
            if name in defaults:
                lit = _literal(model, f, defaults[name])
                value = f"om.Deref({value}, {lit})" if f.required else f"om.Or({value}, {lit})"
            values[name] = value if f.required else _non_empty(f, value)
    for name, fixed_value in fixed.items():
        f = fields[name]
        if not isinstance(f.type, Const):
            lit = _literal(model, f, fixed_value)
            values[name] = lit if f.required else f"om.Ptr({lit})"
    members = []
    for f in st.fields:
        if isinstance(f.type, Const) or f.name not in values:
            if f.required and not isinstance(f.type, Const):
                raise UnsupportedShape(f"builder {b.name}: required field {f.name} has no value")
            continue
        members.append({"go": camel(f.name), "value": values[f.name]})
    name = "New" + camel(b.name)  # a constructor: `approval_decision` is also a vocabulary's name
    ctx: dict[str, Any] = {
        "name": name,
        "doc": doc(f"{name}: " + (b.doc or f"builds a {st.name}.")),
        "struct": st.name,
        "params": params,
        "options": options,
        "options_type": camel(b.name) + "Options",
        "members": members,
        "envelope": None,
    }
    if env is not None:
        for f in env.struct.fields:
            if f.name not in ("timestamp", "payload") and f.required:
                raise UnsupportedShape(f"{env.struct.name}.{f.name}: a builder cannot fill a required envelope field")
        ctx["envelope"] = {"struct": env.struct.name}
    if ctx["options"] or env is not None:
        ctx["params"] = [*params, f"opts {ctx['options_type']}"]
    return ctx


def render(model: Model) -> dict[str, str]:
    env = environment()
    out = {}
    for stem, names in file_groups(model).items():
        mine = [b for b in model.builders if b.struct in names]
        if mine:
            out[f"builders_{stem}.go"] = env.get_template("go/builders.go.j2").render(
                **base(model), builders=[_builder(model, b) for b in mine]
            )
    return out
