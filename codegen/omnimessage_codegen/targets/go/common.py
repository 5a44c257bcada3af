"""What the Go emitters share: names, Go types, decode and encode expressions per field.

The generated package (`messages`) sits on the hand-written runtime, the Go module's root package
`github.com/omnimessage/omnimessage/go`, which it imports as `om`; so the very same files work in
this module (`go/messages/`) and in a user's module that requires the runtime.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ...model import AnyOf, ArrayOf, Const, EnumRef, Field, Model, Prim, Struct, StructRef, TypeRef, UnionRef, Verbatim
from .._jinja import wrap

RUNTIME = "github.com/omnimessage/omnimessage/go"
PACKAGE = "messages"

# Go spells these words in capitals inside names (`tool_call_id` -> `ToolCallID`).
_INITIALISMS = {"id": "ID", "url": "URL", "mcp": "MCP", "ms": "MS"}


class UnsupportedShape(ValueError):
    """The schema uses a construct this target cannot express faithfully."""


def camel(name: str) -> str:
    """`tool_call_id` -> `ToolCallID`, `pre-tool-use` -> `PreToolUse`."""
    parts = [p for p in name.replace("-", "_").replace(".", "_").split("_") if p]
    out = "".join(_INITIALISMS.get(p, p[:1].upper() + p[1:]) for p in parts)
    if not out.isidentifier() or not out.isascii():
        raise UnsupportedShape(f"{name!r} has no Go name")
    return out


def lower_first(name: str) -> str:
    return name[:1].lower() + name[1:]


def go_str(s: str) -> str:
    """A Go string literal (JSON's escapes are Go's; ASCII out)."""
    return json.dumps(s, ensure_ascii=True)


def doc(text: str, indent: str = "") -> str:
    return wrap(text, width=100, indent=f"{indent}// ")


def variant(struct_name: str) -> str:
    """The short name of a payload or envelope: `TextPayload` -> `Text`."""
    for suffix in ("Payload", "Message"):
        if struct_name.endswith(suffix) and struct_name != suffix:
            return struct_name[: -len(suffix)]
    return struct_name


def is_fragment(st: Struct, f: Field) -> bool:
    return st.fragment_of is not None and st.fragment_of[1] == f.name


def go_type(model: Model, st: Struct, f: Field) -> str:
    """The Go type of a field's value (without the pointer of an optional field)."""
    if is_fragment(st, f):
        return "om.Fragment"
    return _type(model, f.type, f"{st.name}.{f.name}")


def _type(model: Model, t: TypeRef, where: str) -> str:
    if isinstance(t, Prim):
        if t.kind == "string":
            return "string"
        if t.kind == "integer":
            if t.minimum is None or t.minimum < 0:
                raise UnsupportedShape(f"{where}: integers need a minimum >= 0 (uint64)")
            return "uint64"
        if t.kind == "number":
            return "float64"
        if t.kind == "boolean":
            return "bool"
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return t.name
    if isinstance(t, ArrayOf):
        return "[]" + _type(model, t.item, where)
    if isinstance(t, Verbatim):
        return "om.Verbatim"
    if isinstance(t, AnyOf):
        kinds = sorted(o.kind if isinstance(o, Prim) else "?" for o in t.options)
        if kinds == ["number", "string"]:
            return "om.NumberOrString"
        if kinds == ["null", "string"]:
            return "om.NullString"
    raise UnsupportedShape(f"{where}: no Go type for {t!r}")


def _minimum(t: Prim) -> str:
    return "false, 0" if t.minimum is None else f"true, {float(t.minimum)!r}"


def decode_expr(model: Model, t: TypeRef, path: str, where: str, fragment: bool = False) -> str:
    """A call decoding a value of type `t` at `path` (a `*om.Path`) with the cursor `d`; it gives
    the value and an error."""
    if fragment:
        return f"d.Fragment({path})"
    if isinstance(t, Prim):
        if t.kind == "string":
            return f"d.String({path})"
        if t.kind == "integer":
            hi = t.maximum if t.maximum is not None else model.limits.get("max_safe_integer", 2**53 - 1)
            return f"d.Integer({path}, {t.minimum}, {hi})"
        if t.kind == "number":
            return f"d.Number({path}, {_minimum(t)})"
        if t.kind == "boolean":
            return f"d.Boolean({path})"
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return f"decode{t.name}(d, {path})"
    if isinstance(t, ArrayOf):
        item = _type(model, t.item, where)
        inner = decode_expr(model, t.item, "p", where)
        fn = f"func(d *om.De, p *om.Path) ({item}, error) {{ return {inner} }}"
        return f"om.DecodeArray(d, {path}, {t.min_items}, {fn})"
    if isinstance(t, Verbatim):
        return f"d.Verbatim({path}, {'true' if t.shape == 'scalar_map' else 'false'})"
    if isinstance(t, AnyOf):
        gt = _type(model, t, where)
        if gt == "om.NumberOrString":
            num = next(o for o in t.options if isinstance(o, Prim) and o.kind == "number")
            return f"d.NumberOrString({path}, {_minimum(num)})"
        return f"d.NullString({path})"
    raise UnsupportedShape(f"{where}: cannot decode {t!r}")


def encode_expr(model: Model, t: TypeRef, value: str, where: str, fragment: bool = False) -> str:
    """An expression appending the canonical encoding of `value` (of type `t`) to `out`."""
    if fragment or isinstance(t, (EnumRef, StructRef, UnionRef, Verbatim, AnyOf)):
        return f"{value}.AppendCanonical(out)"
    if isinstance(t, Prim):
        fn = {"string": "AppendString", "integer": "AppendUint", "number": "AppendFloat", "boolean": "AppendBool"}
        return f"om.{fn[t.kind]}(out, {value})"
    if isinstance(t, ArrayOf):
        item = _type(model, t.item, where)
        inner = encode_expr(model, t.item, "x", where)
        return f"om.AppendArray(out, {value}, func(out []byte, x {item}) []byte {{ return {inner} }})"
    raise UnsupportedShape(f"{where}: cannot encode {t!r}")


@dataclass(frozen=True)
class Item:
    """One property of an object in canonical order: a field, or a constant (tag or fixed role)."""

    key: str
    const: str | None  # the constant's value
    field: Field | None
    go: str = ""  # the Go field name
    ty: str = ""  # the Go type (without the pointer of an optional field)
    decode: str = ""
    encode: str = ""


def items(model: Model, st: Struct) -> list[Item]:
    props = list(model.source["$defs"][st.name]["properties"])
    by_name = {f.name: f for f in st.fields}
    out = []
    for key in props:
        f = by_name.get(key)
        if f is None:  # the `type` discriminator
            assert st.tag is not None
            out.append(Item(key, st.tag, None))
        elif isinstance(f.type, Const):
            out.append(Item(key, f.type.value, f))
        else:
            where = f"{st.name}.{key}"
            frag = is_fragment(st, f)
            name = camel(key)
            value = f"v.{name}" if f.required else f"(*v.{name})"
            out.append(
                Item(
                    key,
                    None,
                    f,
                    name,
                    go_type(model, st, f),
                    decode_expr(model, f.type, f"path.Key({go_str(key)})", where, frag),
                    encode_expr(model, f.type, value, where, frag),
                )
            )
    return out


def encode_plan(model: Model, st: Struct) -> list[dict[str, object]]:
    """The encoder of an object as steps: `lit` (literal JSON text between values), `req` (a
    required field's value) and `opt` (an optional field: its `,"key":` and value when set)."""
    steps: list[dict[str, object]] = []
    text = "{"
    first = True
    for it in items(model, st):
        sep = "" if first else ","
        if it.const is not None:
            text += f'{sep}"{it.key}":{json.dumps(it.const)}'
            first = False
            continue
        assert it.field is not None
        if it.field.required:
            steps.append({"kind": "lit", "text": go_str(text + f'{sep}"{it.key}":')})
            steps.append({"kind": "req", "item": it})
            text = ""
            first = False
        else:
            if first:
                raise UnsupportedShape(f"{st.name}.{it.key}: an optional field before every required one")
            if text:
                steps.append({"kind": "lit", "text": go_str(text)})
                text = ""
            steps.append({"kind": "opt", "item": it, "key": go_str(f',"{it.key}":')})
    steps.append({"kind": "lit", "text": go_str(text + "}")})
    return steps
