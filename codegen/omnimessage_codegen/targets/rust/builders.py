"""Emitter `builders_<envelope>.rs` of target `rust`: one function per `x-omnimessage-builders` entry
(grouped as the codec modules are; `mod.rs` re-exports them all as `builders`).

Positional fields (and required keyword fields without a default) are parameters in order; the
other keyword fields, and the `timestamp` of a builder that returns a whole message, are members
of an options struct (`Default`). `fixed` fields are written with their value, `defaults` apply
when an option is not given, a verbatim value or an array given empty is left out."""

from __future__ import annotations

from typing import Any

from ...model import ArrayOf, Builder, Const, EnumRef, Field, Model, Prim, Verbatim
from .._jinja import environment
from .._shapes import UnsupportedShape, variant
from .common import camel, doc, ident, rust_str, rust_type
from .context import codec_modules


def _literal(model: Model, f: Field, value: object) -> str:
    t = f.type
    if isinstance(t, EnumRef) and isinstance(value, str):
        if value not in model.enums[t.name].values:
            raise UnsupportedShape(f"{f.name}: {value!r} is not a value of {t.name}")
        return f"{t.name}::{camel(value)}"
    if isinstance(t, Prim) and t.kind == "integer" and isinstance(value, int):
        return str(value)
    if isinstance(t, Prim) and t.kind == "string" and isinstance(value, str):
        return f"{rust_str(value)}.to_owned()"
    raise UnsupportedShape(f"{f.name}: no Rust literal for {value!r}")


def _empty_rule(f: Field) -> str:
    return ".filter(|v| !v.is_empty())" if isinstance(f.type, (Verbatim, ArrayOf)) else ""


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
        ty = rust_type(model, st, f)
        p = ident(b.param(name))
        positional = name in b.positional or (f.required and name not in defaults)
        if positional:
            conv = ""
            if ty in ("String", "Fragment") and f.required:
                ptype, conv = f"impl Into<{ty}>", ".into()"
            else:
                ptype = ty if f.required else f"Option<{ty}>"
            params.append(f"{p}: {ptype}")
            values[name] = f"{p}{conv}" + ("" if f.required else _empty_rule(f))
        else:
            options.append({"name": p, "ty": ty, "doc": doc(f.description, "    ")})
            value = f"opts.{p}"
            if name in defaults:
                lit = _literal(model, f, defaults[name])
                value += f".unwrap_or({lit})" if f.required else f".or(Some({lit}))"
            values[name] = value + ("" if f.required else _empty_rule(f))
    for name, fixed_value in fixed.items():
        f = fields[name]
        if not isinstance(f.type, Const):
            lit = _literal(model, f, fixed_value)
            values[name] = lit if f.required else f"Some({lit})"
    members = []
    for f in st.fields:
        if isinstance(f.type, Const):
            continue
        if f.name not in values and f.required:
            raise UnsupportedShape(f"builder {b.name}: required field {f.name} has no value")
        members.append({"rust": ident(f.name), "value": values.get(f.name, "None")})
    ctx: dict[str, Any] = {
        "name": ident(b.name),
        "doc": doc(b.doc or f"Builds a `{st.name}`."),
        "struct": st.name,
        "params": params,
        "options": options,
        "options_type": camel(b.name) + "Options",
        "members": members,
        "envelope": None,
    }
    if env is not None:
        union = env.payload if env.payload in model.unions else None
        extra = []
        for f in env.struct.fields:
            if f.name in ("timestamp", "payload"):
                continue
            if f.required:
                raise UnsupportedShape(f"{env.struct.name}.{f.name}: a builder cannot fill a required envelope field")
            extra.append(ident(f.name))
        ctx["envelope"] = {
            "struct": env.struct.name,
            "variant": variant(env.struct.name),
            "payload": f"{union}::{variant(st.name)}(payload)" if union else "payload",
            "extra": extra,
        }
    if ctx["options"] or env is not None:
        ctx["params"] = [*params, f"opts: {ctx['options_type']}"]
    return ctx


def modules(model: Model) -> dict[str, list[Builder]]:
    """`builders_<envelope>` -> the builders of the structs that envelope's codec module holds."""
    out: dict[str, list[Builder]] = {}
    for module, names in codec_modules(model).items():
        mine = [b for b in model.builders if b.struct in names]
        if mine:
            out[module.replace("codec_", "builders_", 1)] = mine
    return out


def render(model: Model) -> dict[str, str]:
    env = environment()
    return {
        f"{name}.rs": env.get_template("rust/builders.rs.j2").render(m=model, builders=[_builder(model, b) for b in bs])
        for name, bs in modules(model).items()
    }
