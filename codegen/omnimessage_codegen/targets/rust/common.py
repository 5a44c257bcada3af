"""What the Rust emitters share: names, Rust types, decode and encode expressions per field.

The generated code sits on the `omnimessage` crate's hand-written runtime and names it through one
module, `omnimessage::runtime` (the crate declares `extern crate self as omnimessage`), so the very
same files work inside the crate (`rust/src/generated/`) and in a user's crate that depends on it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ...model import AnyOf, ArrayOf, EnumRef, Field, Model, Prim, Struct, StructRef, TypeRef, UnionRef, Verbatim
from .._jinja import wrap
from .._shapes import UnsupportedShape, is_fragment, properties
from .._shapes import encode_plan as shared_encode_plan

KEYWORDS = frozenset(
    "as break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref "
    "return self static struct super trait true type unsafe use where while async await dyn box".split()
)


def camel(name: str) -> str:
    """`pre_tool_use` -> `PreToolUse`."""
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_") if part)


def ident(name: str) -> str:
    return f"r#{name}" if name in KEYWORDS else name


def rust_str(s: str) -> str:
    """A Rust string literal."""
    return json.dumps(s, ensure_ascii=False)


def byte_str(s: str) -> str:
    """A Rust byte-string literal of JSON text (ASCII only, checked)."""
    if not s.isascii():
        raise UnsupportedShape(f"non-ASCII name or value in a key: {s!r}")
    return 'b"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def doc(text: str, indent: str = "", inner: bool = False) -> str:
    mark = "//!" if inner else "///"
    return wrap(text, width=100, indent=f"{indent}{mark} ")


def rust_type(model: Model, st: Struct, f: Field) -> str:
    """The Rust type of a field's value (without the `Option` of an optional field)."""
    if is_fragment(st, f):
        return "Fragment"
    return _type(model, f.type, f"{st.name}.{f.name}")


def _type(model: Model, t: TypeRef, where: str) -> str:
    if isinstance(t, Prim):
        if t.kind == "string":
            return "String"
        if t.kind == "integer":
            if t.minimum is None or t.minimum < 0:
                raise UnsupportedShape(f"{where}: integers need a minimum >= 0 (u64)")
            return "u64"
        if t.kind == "number":
            return "f64"
        if t.kind == "boolean":
            return "bool"
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return t.name
    if isinstance(t, ArrayOf):
        return f"Vec<{_type(model, t.item, where)}>"
    if isinstance(t, Verbatim):
        return "Verbatim"
    if isinstance(t, AnyOf):
        kinds = tuple(o.kind if isinstance(o, Prim) else "?" for o in t.options)
        if sorted(kinds) == ["number", "string"]:
            return "NumberOrString"
        if sorted(kinds) == ["null", "string"]:
            return "Option<String>"
    raise UnsupportedShape(f"{where}: no Rust type for {t!r}")


def decode_expr(model: Model, st: Struct | None, t: TypeRef, path: str, where: str, fragment: bool = False) -> str:
    """An expression decoding a value of type `t` at `path` (a `&Path`) with the cursor `de`."""
    if fragment:
        return f"de.fragment({path})?"
    if isinstance(t, Prim):
        if t.kind == "string":
            return f"de.string({path})?"
        if t.kind == "integer":
            hi = t.maximum if t.maximum is not None else model.limits.get("max_safe_integer", 2**53 - 1)
            return f"de.integer({path}, {t.minimum}, {hi})?"
        if t.kind == "number":
            lo = "None" if t.minimum is None else f"Some({float(t.minimum)!r}_f64)"
            return f"de.number({path}, {lo})?"
        if t.kind == "boolean":
            return f"de.boolean({path})?"
    if isinstance(t, EnumRef):
        return f"de.enumerated::<{t.name}>({path})?"
    if isinstance(t, (StructRef, UnionRef)):
        return f"{t.name}::decode(de, {path})?"
    if isinstance(t, ArrayOf):
        inner = decode_expr(model, st, t.item, "p", where)
        return f"de.array({path}, {t.min_items}, |de, p| Ok({inner}))?"
    if isinstance(t, Verbatim):
        return f"de.verbatim({path}, {'true' if t.shape == 'scalar_map' else 'false'})?"
    if isinstance(t, AnyOf):
        rt = _type(model, t, where)
        if rt == "NumberOrString":
            num = next(o for o in t.options if isinstance(o, Prim) and o.kind == "number")
            lo = "None" if num.minimum is None else f"Some({float(num.minimum)!r}_f64)"
            return f"de.number_or_string({path}, {lo})?"
        return f"if de.null() {{ None }} else {{ Some(de.string({path})?) }}"
    raise UnsupportedShape(f"{where}: cannot decode {t!r}")


@dataclass(frozen=True)
class Item:
    """One property of an object in canonical order: a field, or a constant (tag or fixed role)."""

    key: str
    const: str | None  # the constant's value
    field: Field | None
    rust: str = ""  # the Rust field name
    ty: str = ""  # the Rust type (without Option)
    decode: str = ""


def items(model: Model, st: Struct) -> list[Item]:
    out = []
    for key, const, f in properties(model, st):
        if f is None or const is not None:
            out.append(Item(key, const, f))
        else:
            where = f"{st.name}.{key}"
            out.append(
                Item(
                    key,
                    None,
                    f,
                    ident(key),
                    rust_type(model, st, f),
                    decode_expr(model, st, f.type, f"&path.key({rust_str(key)})", where, is_fragment(st, f)),
                )
            )
    return out


def encode_plan(model: Model, st: Struct) -> list[dict[str, object]]:
    """The encoder of an object (`_shapes.encode_plan`), its literal text as Rust byte strings."""
    return shared_encode_plan(st.name, items(model, st), byte_str)
