"""Emitter `validate.ts` of target `typescript`: fast validators for values produced by
`JSON.parse` (or built in code)."""

from __future__ import annotations

from ...model import AnyOf, ArrayOf, Const, EnumRef, Model, Prim, StructRef, TypeRef, UnionRef, Verbatim
from .common import FULL, Flavour, UnsupportedShape, array_helper_name, array_items, js, render_template


def fast_expr(t: TypeRef, x: str, helpers: set[str]) -> str:
    """A JS boolean expression: is `x` a valid value of type `t`? Adds the local helpers it calls to `helpers`."""
    if isinstance(t, Prim):
        if t.kind == "string":
            return f'typeof {x} === "string"'
        if t.kind == "boolean":
            return f'typeof {x} === "boolean"'
        if t.kind == "null":
            return f"{x} === null"
        lo = "-Infinity" if t.minimum is None else str(t.minimum)
        hi = "Infinity" if t.maximum is None else str(t.maximum)
        helper = "isInt" if t.kind == "integer" else "isNum"
        helpers.add(helper)
        return f"{helper}({x}, {lo}, {hi})"
    if isinstance(t, Const):
        return f"{x} === {js(t.value)}"
    if isinstance(t, EnumRef):
        return f"is{t.name}({x})"
    if isinstance(t, StructRef):
        return f"v_{t.name}({x}, vb)"
    if isinstance(t, UnionRef):
        return f"u_{t.name}({x}, vb)"
    if isinstance(t, ArrayOf):
        return f"{array_helper_name(t.item)}({x}, {t.min_items}, vb)"
    if isinstance(t, AnyOf):
        return "(" + " || ".join(fast_expr(o, x, helpers) for o in t.options) + ")"
    if isinstance(t, Verbatim):
        return f'vb({x}, "{t.shape}")'
    raise UnsupportedShape(f"cannot validate {t!r}")


def render(model: Model, flavour: Flavour = FULL) -> dict[str, str]:
    helpers: set[str] = set()  # the local helpers the validators call: only those are written (`noUnusedLocals`)
    fast = {
        st.name: [(f.name, f.required, fast_expr(f.type, f"f{i}", helpers)) for i, f in enumerate(st.fields)]
        for st in model.structs_in_dependency_order()
    }
    array_fast = {array_helper_name(t): fast_expr(t, "a[i]", helpers) for t in array_items(model)}
    return render_template(model, "validate.ts", flavour, helpers=helpers, fast=fast, array_fast=array_fast)
