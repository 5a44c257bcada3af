"""Emitter `builders.py` of target `python`: one builder function per `x-omnimessage-builders` entry.

The builders construct messages the way the reference producer does: fixed fields written,
defaults (`stop_reason="completed"`) filled in, every other optional field absent unless
given, an empty verbatim value (`{}` in any form) left out, an empty optional array left out.
The hand-written helpers they call (`now`, `verbatim`, ...) are imported by name from `omnimessage.bind`
(written in `omnimessage._builder_support`), so the output works in any project.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ...model import AnyOf, ArrayOf, Builder, Const, EnumRef, Field, Model, Prim, StructRef, TypeRef, UnionRef, Verbatim
from .._jinja import environment

MODULE = "builders.py"


def param_type(t: TypeRef) -> str:
    if isinstance(t, Prim):
        return {"string": "str", "integer": "int", "number": "int | float", "boolean": "bool", "null": "None"}[t.kind]
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return f"m.{t.name}"
    if isinstance(t, ArrayOf):
        return f"Sequence[{param_type(t.item)}]"
    if isinstance(t, AnyOf):
        return " | ".join(param_type(o) for o in t.options)
    if isinstance(t, Verbatim):
        return "JsonObject"
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


def _param(b: Builder, f: Field, optional_positional: bool) -> tuple[str, str]:
    """(signature entry, value expression) of the parameter giving field `f`."""
    p = b.param(f.name)
    ptype = param_type(f.type)
    defaults = dict(b.defaults)
    if f.name in defaults:
        sig, value = f"{p}: {ptype} = {py_literal(defaults[f.name])}", p
    elif f.required and not optional_positional:
        sig, value = f"{p}: {ptype}", p
    elif nullable(f.type):
        sig, value = f"{p}: {ptype} = ABSENT", f"UNSET if {p} is ABSENT else {p}"
    else:
        sig, value = f"{p}: {ptype} | None = None", f"UNSET if {p} is None else {p}"
    if isinstance(f.type, Verbatim):
        value = f"verbatim({p})"
    elif isinstance(f.type, ArrayOf):
        value = f"list({p})" if f.required else f"list({p}) if {p} else UNSET"
    return sig, value


def py_builder(model: Model, b: Builder) -> PyBuilder:
    st = model.structs[b.struct]
    fields = {f.name: f for f in st.fields}
    fixed = dict(b.fixed)
    params: list[str] = []
    values: dict[str, str] = {}
    seen_default = False
    for name in b.positional:
        f = fields[name]
        seen_default = seen_default or not f.required or name in dict(b.defaults)
        sig, values[name] = _param(b, f, seen_default)
        params.append(sig)
    env = model.envelope_of(b.struct)
    if b.keyword or env is not None:
        params.append("*")
    for name in b.keyword:
        sig, values[name] = _param(b, fields[name], False)
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
    builders = [py_builder(model, b) for b in model.builders]
    text = "\n".join(p for b in builders for p in b.params)
    ctx = {
        "m": model,
        "builders": builders,
        "uses_absent": "ABSENT" in text,
        "uses_verbatim": "JsonObject" in text,
        "uses_sequence": "Sequence[" in text,
    }
    return {MODULE: environment().get_template("python/builders.py.j2").render(**ctx)}
