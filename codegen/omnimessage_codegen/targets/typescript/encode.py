"""Emitter `encode.ts` of target `typescript`: canonical encoders, one per object, writing keys
in schema order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...model import AnyOf, ArrayOf, Const, EnumRef, Model, Prim, Struct, StructRef, TypeRef, UnionRef, Verbatim
from .common import UnsupportedShape, _tag_positions, array_helper_name, array_items, js, js_str, render_template


@dataclass
class Lit:
    text: str


@dataclass
class Stmt:
    code: str


def encode_value(t: TypeRef, x: str, where: str, depth: str, lvalue: str = "") -> list[Lit | Stmt]:
    """Writer calls that write the canonical form of `x` (of type `t`).

    `lvalue` is where `x` was read from: a verbatim value the writer replaces (the decoder's
    writer swaps parsed objects for their source text) is stored back there.
    """
    if isinstance(t, Prim):
        if t.kind == "string":
            return [Stmt(f'w.string(str({x}, "{where}"));')]
        if t.kind in ("integer", "number"):
            return [Stmt(f'w.put(num({x}, "{where}"));')]
        if t.kind == "boolean":
            return [Stmt(f'w.put(bool({x}, "{where}"));')]
        if t.kind == "null":
            return [Stmt(f'w.put(nul({x}, "{where}"));')]
    if isinstance(t, (Const, EnumRef)):
        return [Stmt(f'w.string(str({x}, "{where}"));')]
    if isinstance(t, StructRef):
        return [Stmt(f"e_{t.name}(w, {x}, {depth});")]
    if isinstance(t, UnionRef):
        return [Stmt(f"eu_{t.name}(w, {x}, {depth});")]
    if isinstance(t, ArrayOf):
        return [Stmt(f'ea_{array_helper_name(t.item)[4:]}(w, {x}, {depth}, "{where}");')]
    if isinstance(t, AnyOf):
        kinds = []
        for o in t.options:
            if not isinstance(o, Prim) or o.kind == "integer":
                raise UnsupportedShape(f"{where}: anyOf options must be string, number, boolean or null")
            kinds.append(o.kind)
        tests = {
            "string": f'if (typeof {x} === "string") w.string({x});',
            "number": f'if (typeof {x} === "number") w.put(num({x}, "{where}"));',
            "boolean": f'if (typeof {x} === "boolean") w.put({x} ? "true" : "false");',
            "null": f'if ({x} === null) w.put("null");',
        }
        chain = " else ".join(tests[k] for k in kinds)
        return [Stmt(f'{chain} else bad({x}, "{where}", {js(" or ".join(kinds))});')]
    if isinstance(t, Verbatim):
        if not lvalue:
            raise UnsupportedShape(f"{where}: a verbatim value needs a place to be stored back")
        return [Stmt(f'{{ const r = w.verbatim({x}, "{t.shape}", {depth}); if (r !== {x}) {lvalue} = r; }}')]
    raise UnsupportedShape(f"cannot encode {t!r}")


def encode_array_item(item: TypeRef) -> list[str]:
    """Statements writing item `a[i]` of an array at depth `d` (items are at `d + 1`)."""
    stmts = merge(encode_value(item, "a[i]", "@ITEM@", "d + 1", "a[i]"))
    return [line.replace('"@ITEM@"', 'where + "[]"') for line in stmts]


def merge(parts: list[Lit | Stmt]) -> list[str]:
    """Writer statements, adjacent literals merged into one `w.put`."""
    out: list[str] = []
    pending = ""
    for p in parts:
        if isinstance(p, Lit):
            pending += p.text
        else:
            if pending:
                out.append(f"w.put({js_str(pending)});")
                pending = ""
            out.append(p.code)
    if pending:
        out.append(f"w.put({js_str(pending)});")
    return out


def struct_encoder(model: Model, st: Struct, tag_pos: dict[str, int]) -> list[str]:
    """Statements of `e_<Struct>(w, o, d)`: the object's canonical form, keys in schema order.

    `d` is the object's nesting depth (the envelope is 1); verbatim values get their own depth
    so that the writer can enforce `max_depth` inside them.
    """
    entries: list[tuple[str, Any]] = [(f.name, f) for f in st.fields]
    if st.tag is not None:
        entries.insert(tag_pos[st.name], ("type", None))
    lines: list[str] = [f"const v{i} = o.{name};" for i, (name, f) in enumerate(entries) if f is not None]
    parts: list[Lit | Stmt] = [Lit("{")]
    written = False  # a member has surely been written: the next one needs a comma
    dynamic = False  # an optional member may come first: `sep` tracks the comma
    for i, (name, f) in enumerate(entries):
        key = js(name) + ":"
        if f is None:
            parts.append(Lit(("," if written else "") + key + js(st.tag)))
            written = True
            continue
        value = encode_value(f.type, f"v{i}", f"{st.name}.{name}", "d + 1", f"o.{name}")
        if f.required:
            if dynamic:
                parts.append(Stmt(f"w.put(sep + {js_str(key)});"))
            else:
                parts.append(Lit(("," if written else "") + key))
            parts.extend(value)
            written = True
            continue
        lines.extend(merge(parts))
        parts = []
        body: list[Lit | Stmt] = []
        if written:
            body.append(Lit("," + key))
        else:
            if not dynamic:
                lines.append('let sep = "";')
                dynamic = True
            body += [Stmt(f"w.put(sep + {js_str(key)});"), Stmt('sep = ",";')]
        body.extend(value)
        lines.append(f"if (v{i} !== undefined) {{")
        lines.extend("  " + b for b in merge(body))
        lines.append("}")
    parts.append(Lit("}"))
    lines.extend(merge(parts))
    return lines


def render(model: Model) -> dict[str, str]:
    tag_pos = _tag_positions(model)
    encoders = {st.name: struct_encoder(model, st, tag_pos) for st in model.structs_in_dependency_order()}
    array_encode = {array_helper_name(t)[4:]: encode_array_item(t) for t in array_items(model)}
    return render_template(model, "encode.ts", encoders=encoders, array_encode=array_encode)
