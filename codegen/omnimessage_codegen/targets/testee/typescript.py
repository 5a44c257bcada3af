"""Emitter of target `typescript-testee`: the testee protocol's lines as TypeScript types
(interfaces for objects, unions of literals, `readonly` arrays), for the TypeScript testee."""

from __future__ import annotations

from ...model import AnyOf, ArrayOf, Const, Model, Prim, StructRef, TypeRef
from .._names import upper_snake
from ._common import const_value, enum_fields, first_line, pascal, wrap

FILE = "testee-protocol.ts"


def ts_type(t: TypeRef) -> str:
    if isinstance(t, Prim):
        if t.kind == "integer" and t.minimum is not None and t.minimum == t.maximum:
            return str(t.minimum)
        return {"string": "string", "integer": "number", "null": "null"}[t.kind]
    if isinstance(t, Const):
        return f'"{t.value}"'
    if isinstance(t, AnyOf):
        return " | ".join(ts_type(o) for o in t.options)
    if isinstance(t, ArrayOf):
        inner = ts_type(t.item)
        return f"readonly ({inner})[]" if " " in inner else f"readonly {inner}[]"
    if isinstance(t, StructRef):
        return pascal(t.name)
    raise TypeError(f"no TypeScript type for {t!r}")


def _doc(text: str, indent: str = "") -> str:
    return f"{indent}/**\n{wrap(text, 100, indent + ' * ')}\n{indent} */"


def _alias(name: str, t: TypeRef, doc: str) -> list[str]:
    """A named type, and the value of a constant one."""
    out = [_doc(doc), f"export type {name} = {ts_type(t)};"]
    value = const_value(t)
    if value is not None:
        out += [f"/** The one value of `{name}`. */", f"export const {upper_snake(name)}: {name} = {ts_type(t)};"]
    return out


def render(model: Model) -> dict[str, str]:
    out = [wrap(first_line("typescript-testee", model), 100, "// "), "", _doc(model.title), "",
           f'export const SCHEMA_ID = "{model.schema_id}";']
    for name in model.order:
        if name in model.aliases:
            a = model.aliases[name]
            out += ["", *_alias(pascal(name), a.type, a.description)]
        elif name in model.structs:
            st = model.structs[name]
            enums = {f.name: pascal(name) + pascal(f.name) for f in enum_fields(st)}
            for f in enum_fields(st):
                out += ["", *_alias(enums[f.name], f.type, f"The values of `{name}.{f.name}`.")]
            out += ["", _doc(st.description), f"export interface {pascal(name)} {{"]
            for f in st.fields:
                if f.description:
                    out.append(_doc(f.description, "  "))
                typ = enums.get(f.name) or (pascal(f.alias) if f.alias else ts_type(f.type))
                out.append(f"  {f.name}{'' if f.required else '?'}: {typ};")
            out.append("}")
    for u in model.unions.values():
        members = " | ".join(pascal(m) for m in u.members)
        out += ["", _doc(u.description), f"export type {pascal(u.name)} = {members};"]
    return {FILE: "\n".join(out) + "\n"}
