"""Emitter `builders.py` of target `python`: one builder function per `x-omnimessage-builders` entry.

The builders construct messages the way the reference producer does: fixed fields written,
defaults (`stop_reason="completed"`) filled in, every other optional field absent unless
given, an empty verbatim value (`{}` in any form) left out, an empty optional array left out.
The hand-written helpers they call (`now`, `verbatim`, ...) are imported by name from `omnimessage.runtime`
(written in `omnimessage.codec.verbatim`), so the output works in any project.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ...model import AnyOf, ArrayOf, Builder, Const, EnumRef, Field, Model, Prim, StructRef, TypeRef, UnionRef, Verbatim
from .._imports import Imports
from .._imports import render as render_template
from .._jinja import environment

MODULE = "builders.py"
RUNTIME = "omnimessage.runtime"  # the runtime's module generated code imports (`now`, `verbatim`, ...)


def param_type(t: TypeRef, imports: Imports) -> str:
    if isinstance(t, Prim):
        return {"string": "str", "integer": "int", "number": "int | float", "boolean": "bool", "null": "None"}[t.kind]
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return f"m.{t.name}"
    if isinstance(t, ArrayOf):
        return f"{imports.use('collections.abc', 'Sequence')}[{param_type(t.item, imports)}]"
    if isinstance(t, AnyOf):
        return " | ".join(param_type(o, imports) for o in t.options)
    if isinstance(t, Verbatim):
        return imports.use(RUNTIME, "JsonObject")
    if isinstance(t, Const):
        return "str"
    raise TypeError(f"no parameter type for {t!r}")


def py_literal(value: object) -> str:
    """A Python literal for a JSON scalar (strings double-quoted)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def nullable(t: TypeRef) -> bool:
    return isinstance(t, AnyOf) and Prim("null") in t.options


@dataclass(frozen=True)
class PyBuilder:
    name: str
    doc: str
    params: list[str]  # signature entries, `*` included
    kwargs: list[str]  # `field=expression` of the payload constructor
    struct: str
    envelope: str | None


def _param(b: Builder, f: Field, optional_positional: bool, imports: Imports) -> tuple[str, str]:
    """(signature entry, value expression) of the parameter giving field `f`."""
    p = b.param(f.name)
    ptype = param_type(f.type, imports)
    defaults = dict(b.defaults)

    def unset() -> str:
        return imports.use("msgspec", "UNSET")

    if isinstance(f.type, Verbatim):
        value = f"{imports.use(RUNTIME, 'verbatim')}({p})"
    elif isinstance(f.type, ArrayOf):
        value = f"list({p})" if f.required else f"list({p}) if {p} else {unset()}"
    else:
        value = ""  # below
    if f.name in defaults:
        sig, value = f"{p}: {ptype} = {py_literal(defaults[f.name])}", value or p
    elif f.required and not optional_positional:
        sig, value = f"{p}: {ptype}", value or p
    elif nullable(f.type):
        absent = imports.use(RUNTIME, "ABSENT")
        sig, value = f"{p}: {ptype} = {absent}", value or f"{unset()} if {p} is {absent} else {p}"
    else:
        sig, value = f"{p}: {ptype} | None = None", value or f"{unset()} if {p} is None else {p}"
    return sig, value


def py_builder(model: Model, b: Builder, imports: Imports) -> PyBuilder:
    st = model.structs[b.struct]
    fields = {f.name: f for f in st.fields}
    fixed = dict(b.fixed)
    params: list[str] = []
    values: dict[str, str] = {}
    seen_default = False
    for name in b.positional:
        f = fields[name]
        seen_default = seen_default or not f.required or name in dict(b.defaults)
        sig, values[name] = _param(b, f, seen_default, imports)
        params.append(sig)
    env = model.envelope_of(b.struct)
    if b.keyword or env is not None:
        params.append("*")
    for name in b.keyword:
        sig, values[name] = _param(b, fields[name], False, imports)
        params.append(sig)
    if env is not None:
        params.append("timestamp: str | None = None")
    kwargs = []
    for f in st.fields:
        if f.name in fixed:
            kwargs.append(f"{f.name}={py_literal(fixed[f.name])}")
        elif f.name in values:
            kwargs.append(f"{f.name}={values[f.name]}")
    return PyBuilder(b.name, b.doc, params, kwargs, b.struct, env.struct.name if env else None)


def render(model: Model) -> dict[str, str]:
    if not model.builders:
        return {}
    imports = Imports("python")
    builders = [py_builder(model, b, imports) for b in model.builders]
    text = render_template(environment(), "python/builders.py.j2", imports, m=model, builders=builders, runtime=RUNTIME)
    return {MODULE: text}
