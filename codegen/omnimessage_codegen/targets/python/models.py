"""Emitter `models.py` (and the package `__init__.py`) of target `python`: msgspec structs, one per
payload, in canonical field order.

Why not datamodel-code-generator: out of the box it moves required fields before optional
ones (breaking the canonical key order), maps the open `fidelity` object to an empty Struct
(silent data loss) and emits an envelope union msgspec cannot decode. The fixes need more
than custom templates (field order and verbatim typing are decided before templating), so
this emitter renders the intermediate model directly.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...model import AnyOf, ArrayOf, Const, EnumRef, Field, Model, Prim, StructRef, TypeRef, UnionRef, Verbatim
from .._jinja import environment, wrap

MODULE = "models.py"


def enum_const(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.upper())
    return "".join(out) + "_VALUES"


def _int(p: Prim, base: str) -> str:
    meta = []
    if p.minimum is not None:
        meta.append(f"ge={p.minimum}")
    if p.maximum is not None:
        meta.append(f"le={p.maximum}")
    return f"Annotated[{base}, Meta({', '.join(meta)})]" if meta else base


def py_type(t: TypeRef) -> str:
    if isinstance(t, Prim):
        if t.kind == "string":
            return "str"
        if t.kind == "boolean":
            return "bool"
        if t.kind == "null":
            return "None"
        if t.kind == "integer":
            return _int(t, "int")
        if t.kind == "number":
            return f"{_int(t, 'int')} | {_int(t, 'float')}"
    if isinstance(t, Const):
        return f'Literal["{t.value}"]'
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return t.name
    if isinstance(t, ArrayOf):
        inner = f"list[{py_type(t.item)}]"
        return f"Annotated[{inner}, Meta(min_length={t.min_items})]" if t.min_items else inner
    if isinstance(t, AnyOf):
        return " | ".join(py_type(o) for o in t.options)
    if isinstance(t, Verbatim):
        return "Raw"
    raise TypeError(f"no Python type for {t!r}")


def field_type(f: Field, aliases: Mapping[str, object]) -> str:
    """A field's annotation: its type, `| UnsetType` when optional (with `None` kept last)."""
    base = f.alias if f.alias and f.alias in aliases else py_type(f.type)
    if f.required:
        return base
    parts = base.split(" | ")
    if parts[-1] == "None":
        return " | ".join([*parts[:-1], "UnsetType", "None"])
    return f"{base} | UnsetType"


def render(model: Model) -> dict[str, str]:
    env = environment()
    # Every wrapped description lands in a docstring: a backslash in the schema's prose (`\ud800`)
    # must stay a backslash, not start an escape.
    env.filters["wrap"] = lambda text, *args: wrap(text, *args).replace("\\", "\\\\")
    env.filters["py_type"] = py_type
    env.filters["enum_const"] = enum_const
    env.filters["field_type"] = lambda f: field_type(f, model.aliases)
    payload_structs = [m for e in model.envelopes for m in model.payload_members(e)]
    ctx = {
        "m": model,
        "structs": model.structs_in_dependency_order(),
        "envelope_names": {e.struct.name for e in model.envelopes},
        "number_paths": {n: model.number_paths(n) for n in payload_structs if model.number_paths(n)},
    }
    tag_to_class = {(e.struct.tag, model.structs[m].tag): m for e in model.envelopes for m in model.payload_members(e)}
    ctx["verbatim_by_class"] = {tag_to_class[k]: v for k, v in model.verbatim_locations().items()}
    models = env.get_template("python/models.py.j2").render(**ctx)
    init = env.get_template("python/__init__.py.j2").render(**ctx)
    return {MODULE: models, "__init__.py": init}
