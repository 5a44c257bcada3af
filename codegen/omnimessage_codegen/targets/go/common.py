"""What the Go emitters share: names, Go types, decode and encode expressions per field.

The generated package (`messages`) sits on the hand-written runtime, the Go module's root package
`github.com/omnimessage/omnimessage/go`, which it imports as `om`; so the very same files work in
this module (`go/messages/`) and in a user's module that requires the runtime.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ...model import AnyOf, ArrayOf, EnumRef, Field, Model, Prim, Struct, StructRef, TypeRef, UnionRef, Verbatim
from .._imports import Imports
from .._jinja import wrap
from .._shapes import UnsupportedShape, is_fragment, properties
from .._shapes import encode_plan as shared_encode_plan

RUNTIME = "github.com/omnimessage/omnimessage/go"
PACKAGE = "messages"

# Go spells these words in capitals inside names (`tool_call_id` -> `ToolCallID`).
_INITIALISMS = {"id": "ID", "url": "URL", "mcp": "MCP", "ms": "MS"}


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


def go_type(model: Model, st: Struct, f: Field, imports: Imports | None = None) -> str:
    """The Go type of a field's value (without the pointer of an optional field); a type of the
    runtime is recorded in `imports`."""
    if is_fragment(st, f):
        return _om("Fragment", imports)
    return _type(model, f.type, f"{st.name}.{f.name}", imports)


def _om(name: str, imports: Imports | None) -> str:
    """`name` of the runtime package, recorded as used."""
    if imports is not None:
        imports.use(RUNTIME, "om")
    return f"om.{name}"


def _type(model: Model, t: TypeRef, where: str, imports: Imports | None = None) -> str:
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
        return "[]" + _type(model, t.item, where, imports)
    if isinstance(t, Verbatim):
        return _om("Verbatim", imports)
    if isinstance(t, AnyOf):
        kinds = sorted(o.kind if isinstance(o, Prim) else "?" for o in t.options)
        if kinds == ["number", "string"]:
            return _om("NumberOrString", imports)
        if kinds == ["null", "string"]:
            return _om("NullString", imports)
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


def items(model: Model, st: Struct, imports: Imports | None = None) -> list[Item]:
    """The properties of `st` in canonical order; the runtime's types they use are recorded in `imports`."""
    out = []
    for key, const, f in properties(model, st):
        if f is None or const is not None:
            out.append(Item(key, const, f))
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
                    go_type(model, st, f, imports),
                    decode_expr(model, f.type, f"path.Key({go_str(key)})", where, frag),
                    encode_expr(model, f.type, value, where, frag),
                )
            )
    return out


def encode_plan(model: Model, st: Struct) -> list[dict[str, object]]:
    """The encoder of an object (`_shapes.encode_plan`), its literal text as Go strings."""
    return shared_encode_plan(st.name, items(model, st), go_str)
