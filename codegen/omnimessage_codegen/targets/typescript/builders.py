"""Emitter `builders.ts` of target `typescript`: one builder per `x-omnimessage-builders` entry.

The same builders as the Python target's `builders.py`, in camelCase: positional parameters
first, the keyword ones in an options object (with `timestamp` for messages). Payload objects
are built in canonical key order. The helpers they call (`rt.stamp`, `rt.verbatim`, ...) are the npm
package's (its `builder-support.ts`), handed over by the generated `runtime.ts`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...model import AnyOf, ArrayOf, Builder, Const, EnumRef, Field, Model, Prim, StructRef, TypeRef, UnionRef, Verbatim
from .._imports import Imports, render as render_template
from .._jinja import environment
from .common import FULL, js

MODULE = "builders.ts"
RUNTIME_MODULE = "./runtime.js"  # the generated module that hands over the npm package's helpers
RESERVED = {"arguments": "args"}


def camel(name: str) -> str:
    head, *rest = name.split("_")
    out = head + "".join(p[:1].upper() + p[1:] for p in rest)
    return RESERVED.get(out, out)


def param_type(model: Model, t: TypeRef, imports: Imports, alias: str | None = None) -> str:
    if alias and alias in model.aliases and not isinstance(t, Verbatim):
        return f"t.{alias}"
    if isinstance(t, Prim):
        return {"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "null": "null"}[
            t.kind
        ]
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return f"t.{t.name}"
    if isinstance(t, ArrayOf):
        return f"readonly {param_type(model, t.item, imports)}[]"
    if isinstance(t, AnyOf):
        return " | ".join(param_type(model, o, imports) for o in t.options)
    if isinstance(t, Verbatim):
        return imports.use(RUNTIME_MODULE, "JsonObjectInput", "type")
    if isinstance(t, Const):
        return "string"
    raise TypeError(f"no parameter type for {t!r}")


@dataclass(frozen=True)
class TsBuilder:
    name: str
    doc: str
    params: list[str]
    members: list[str]  # `key: expression` of the payload object, in canonical order
    struct: str
    envelope: tuple[str, str, bool] | None  # (type name, tag, generic over its payload)


def _value(b: Builder, f: Field, src: str) -> str:
    defaults = dict(b.defaults)
    if isinstance(f.type, Verbatim):
        return f'rt.verbatim({src}) as t.{b.struct}["{f.name}"]'
    if isinstance(f.type, ArrayOf):
        return f"[...{src}]" if f.required else f"rt.nonEmpty({src})"
    if f.name in defaults:
        return f"{src} ?? {js(defaults[f.name])}"
    return src


def ts_builder(model: Model, b: Builder, imports: Imports) -> TsBuilder:
    st = model.structs[b.struct]
    fields = {f.name: f for f in st.fields}
    fixed = dict(b.fixed)
    defaults = dict(b.defaults)
    env = model.envelope_of(b.struct)
    params: list[str] = []
    values: dict[str, str] = {}
    for name in b.positional:
        f = fields[name]
        p = camel(b.param(name))
        opt = "" if f.required and name not in defaults else "?"
        params.append(f"{p}{opt}: {param_type(model, f.type, imports, f.alias)}")
        values[name] = _value(b, f, p)
    opts: list[str] = []
    required_opt = False
    for name in b.keyword:
        f = fields[name]
        p = camel(b.param(name))
        opt = "" if f.required and name not in defaults else "?"
        required_opt = required_opt or not opt
        opts.append(f"{p}{opt}: {param_type(model, f.type, imports, f.alias)}")
        values[name] = _value(b, f, f"opts.{p}")
    if opts or env is not None:
        shape = "{ " + "; ".join(opts) + " }" if opts else ""
        otype = " & ".join(x for x in (imports.use(RUNTIME_MODULE, "Stamp", "type") if env is not None else "", shape) if x)
        params.append(f"opts: {otype}" + ("" if required_opt else " = {}"))
    members = []
    if st.tag is not None:
        members.append(f"type: {js(st.tag)}")
    for f in st.fields:
        if f.name in fixed:
            members.append(f"{f.name}: {js(fixed[f.name])}")
        elif f.name in values:
            v = values[f.name]
            members.append(f.name if v == f.name else f"{f.name}: {v}")
    envelope = None
    if env is not None:
        assert env.struct.tag is not None
        envelope = (env.struct.name, env.struct.tag, env.payload in model.unions)
    return TsBuilder(camel(b.name), b.doc, params, members, b.struct, envelope)


def render(model: Model) -> dict[str, str]:
    if not model.builders:
        return {}
    imports = Imports("typescript")
    builders = [ts_builder(model, b, imports) for b in model.builders]
    text = render_template(
        environment(), "typescript/builders.ts.j2", imports,
        m=model, target=FULL.target, builders=builders, runtime=RUNTIME_MODULE,
    )
    return {MODULE: text}
