"""Emitter of target `python-testee`: the testee protocol's lines as TypedDicts.

TypedDicts, not msgspec structs: a testee builds its answer as a dict and writes it with
`json.dumps`, which escapes a lone surrogate in a pointer (msgspec refuses to encode one), and the
runner decodes what it needs with msgspec, which reads TypedDicts (unknown members skipped, the
`Meta` caps checked).
"""

from __future__ import annotations

from ...model import AnyOf, ArrayOf, Const, Field, Model, Prim, StructRef, TypeRef
from .._names import upper_snake
from ._common import const_value, enum_fields, first_line, pascal, wrap

FILE = "testee_protocol.py"


def py_type(t: TypeRef) -> str:
    if isinstance(t, Prim):
        if t.kind == "string":
            return "str"
        if t.kind == "null":
            return "None"
        if t.kind == "integer":
            if t.minimum is not None and t.minimum == t.maximum:
                return f"Literal[{t.minimum}]"
            meta = [f"{k}={v}" for k, v in (("ge", t.minimum), ("le", t.maximum)) if v is not None]
            return f"Annotated[int, Meta({', '.join(meta)})]" if meta else "int"
    if isinstance(t, Const):
        return f'Literal["{t.value}"]'
    if isinstance(t, AnyOf):
        if all(isinstance(o, Const) for o in t.options):
            return "Literal[" + ", ".join(f'"{o.value}"' for o in t.options if isinstance(o, Const)) + "]"
        return " | ".join(py_type(o) for o in t.options)
    if isinstance(t, ArrayOf):
        inner = f"list[{py_type(t.item)}]"
        meta = [f"{k}={v}" for k, v in (("min_length", t.min_items or None), ("max_length", t.max_items)) if v]
        return f"Annotated[{inner}, Meta({', '.join(meta)})]" if meta else inner
    if isinstance(t, StructRef):
        return pascal(t.name)
    raise TypeError(f"no Python type for {t!r}")


def _alias(name: str, t: TypeRef) -> list[str]:
    """A named type (a long `Literal` wrapped over lines: ruff's 120 columns), and the value of a constant one."""
    base = py_type(t)
    line = f"{name}: TypeAlias = {base}"
    if len(line) > 120 and base.startswith("Literal["):
        line = f"{name}: TypeAlias = Literal[\n{wrap(base[8:-1] + ',', 120, '    ')}\n]"
    value = const_value(t)
    if value is None:
        return [line]
    return [line, f"{upper_snake(name)}: Final[{name}] = {value!r}".replace("'", '"')]


def _field(f: Field, named: str | None) -> str:
    base = named or (pascal(f.alias) if f.alias else py_type(f.type))
    return f"    {f.name}: {base if f.required else f'NotRequired[{base}]'}"


def render(model: Model) -> dict[str, str]:
    out = ['"""' + wrap(first_line("python-testee", model), 100), "", wrap(model.title), '"""', "",
           "from __future__ import annotations", "",
           "from typing import Annotated, Final, Literal, NotRequired, TypeAlias, TypedDict", "",
           "from msgspec import Meta", "", f'SCHEMA_ID: Final = "{model.schema_id}"']
    for name in model.order:
        if name in model.aliases:
            a = model.aliases[name]
            out += ["", "", wrap(a.description, 100, "# "), *_alias(pascal(name), a.type)]
        elif name in model.structs:
            st = model.structs[name]
            enums = {f.name: pascal(name) + pascal(f.name) for f in enum_fields(st)}
            for f in enum_fields(st):
                out += ["", "", f"# The values of `{name}.{f.name}`.", *_alias(enums[f.name], f.type)]
            doc = wrap(st.description, 96, "    ").lstrip()
            out += ["", "", f"class {pascal(name)}(TypedDict):", f'    """{doc}"""', ""]
            for f in st.fields:
                if f.description:
                    out.append(wrap(f.description, 100, "    # "))
                out.append(_field(f, enums.get(f.name)))
    for u in model.unions.values():
        members = " | ".join(pascal(m) for m in u.members)
        out += ["", "", wrap(u.description, 100, "# "), f"{pascal(u.name)}: TypeAlias = {members}"]
    return {FILE: "\n".join(out) + "\n"}
