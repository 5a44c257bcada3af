"""Emitter `check.ts` of target `typescript`: the strict validators of the decoder's slow path.

They walk a position-aware tree in document order and refuse with the same category, JSON
pointer and detail as the Python binding (which follows msgspec's conversion order: the
discriminator first, then the members in document order, then the first missing required key
in schema order).
"""

from __future__ import annotations

from ...model import AnyOf, ArrayOf, Const, EnumRef, Model, Prim, Struct, StructRef, TypeRef, UnionRef, Verbatim
from .._names import upper_snake
from .common import UnsupportedShape, array_helper_name, array_items, js, render_template


def msgspec_name(t: TypeRef) -> str:
    """How msgspec (and so the Python binding) names a type in `expected ...` details."""
    if isinstance(t, Prim):
        return {"string": "str", "integer": "int", "number": "int | float", "boolean": "bool", "null": "null"}[t.kind]
    if isinstance(t, (Const, EnumRef)):
        return "str"
    if isinstance(t, (StructRef, UnionRef, Verbatim)):
        return "object"
    if isinstance(t, ArrayOf):
        return "array"
    if isinstance(t, AnyOf):
        return " | ".join(msgspec_name(o) for o in t.options)
    raise UnsupportedShape(f"no name for {t!r}")


def check_expr(model: Model, t: TypeRef, c: str, p: str) -> str:
    """A JS expression giving the first Problem of node `c` at pointer `p`, or null."""
    if isinstance(t, Prim):
        if t.kind == "string":
            return f"cStr({c}, {p})"
        if t.kind == "boolean":
            return f"cBool({c}, {p})"
        if t.kind == "null":
            return f"cNull({c}, {p})"
        lo = "-Infinity" if t.minimum is None else str(t.minimum)
        hi = "Infinity" if t.maximum is None else str(t.maximum)
        if t.kind == "integer":
            return f"cInt({c}, {p}, {lo}, {hi})"
        return f'cNum({c}, {p}, {lo}, {hi}, "int | float")'
    if isinstance(t, Const):
        return f"cConst({c}, {p}, {js(t.value)})"
    if isinstance(t, EnumRef):
        return f"cEnum({c}, {p}, {upper_snake(t.name)}_SET)"
    if isinstance(t, StructRef):
        st = model.structs[t.name]
        if st.tag is not None:
            return f"cTagged({c}, {p}, {js(st.tag)}, cs_{t.name})"
        return f"cs_{t.name}({c}, {p})"
    if isinstance(t, UnionRef):
        return f"cu_{t.name}({c}, {p})"
    if isinstance(t, ArrayOf):
        return f"ca_{array_helper_name(t.item)[4:]}({c}, {p}, {t.min_items})"
    if isinstance(t, Verbatim):
        # Shape and depth of verbatim values are checked by the lexical pass, before this one.
        return "null"
    if isinstance(t, AnyOf):
        name = msgspec_name(t)
        branches = []
        for o in t.options:
            if not isinstance(o, Prim) or o.kind == "integer":
                raise UnsupportedShape("anyOf options must be string, number, boolean or null")
            if o.kind == "string":
                branches.append(f"{c}.kind === STR ? null")
            elif o.kind == "null":
                branches.append(f"{c}.kind === LIT && {c}.value === null ? null")
            elif o.kind == "boolean":
                branches.append(f"{c}.kind === LIT && {c}.value !== null ? null")
            else:
                lo = "-Infinity" if o.minimum is None else str(o.minimum)
                hi = "Infinity" if o.maximum is None else str(o.maximum)
                branches.append(f"{c}.kind === NUM ? cRange({c}, {p}, {lo}, {hi})")
        return "(" + " : ".join(branches) + f" : wrongType({c}, {p}, {js(name)}))"
    raise UnsupportedShape(f"cannot check {t!r}")


def struct_checker(model: Model, st: Struct) -> list[str]:
    """Body of `cs_<Struct>(n, p)`: members in document order, then missing required keys."""
    lines = [
        'if (n.kind !== OBJ) return wrongType(n, p, "object");',
        "const keys = n.keys as readonly string[];",
    ]
    if st.fields:
        lines.append("const items = n.items as readonly JsonNode[];")
    required = [f for f in st.fields if f.required]
    if required:
        lines.append("let seen = 0;")
    lines.append("for (let i = 0; i < keys.length; i++) {")
    if st.fields:
        lines.append("  const c = items[i] as JsonNode;")
    lines.append("  let r: Problem | null;")
    lines.append("  switch (keys[i]) {")
    if st.tag is not None:
        lines.append('    case "type":')
        lines.append("      continue;")
    for f in st.fields:
        lines.append(f"    case {js(f.name)}:")
        if f.required:
            bit = required.index(f)
            lines.append(f"      seen |= {1 << bit};")
        lines.append(f"      r = {check_expr(model, f.type, 'c', 'p + ' + js('/' + f.name))};")
        lines.append("      break;")
    lines.append("    default:")
    lines.append("      return unexpected(n, i, p);")
    lines.append("  }")
    lines.append("  if (r !== null) return r;")
    lines.append("}")
    if len(required) > 30:
        raise UnsupportedShape(f"{st.name}: too many required fields for a bit set")
    for bit, f in enumerate(required):
        lines.append(f"if ((seen & {1 << bit}) === 0) return missing(n, p, {js(f.name)});")
    lines.append("return null;")
    return lines


def render(model: Model) -> dict[str, str]:
    checkers = {st.name: struct_checker(model, st) for st in model.structs_in_dependency_order()}
    array_check = {array_helper_name(t)[4:]: check_expr(model, t, "c", 'p + "/" + i') for t in array_items(model)}
    body = [*checkers.values(), *array_check.values()]
    # cNum and cConst only when a checker calls them (`noUnusedLocals`; a small schema may need neither)
    calls = {name: any(f"{name}(" in str(text) for text in body) for name in ("cNum", "cConst")}
    return render_template(model, "check.ts", checkers=checkers, array_check=array_check, calls=calls)
