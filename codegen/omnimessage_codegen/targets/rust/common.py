"""What the Rust emitters share: names, Rust types, decode and encode expressions per field.

The generated code sits on the `omnimessage` crate's hand-written runtime and names it
`omnimessage::` (the crate declares `extern crate self as omnimessage`), so the very same files
work inside the crate (`rust/src/generated/`) and in a user's crate that depends on it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ...model import AnyOf, ArrayOf, Const, EnumRef, Field, Model, Prim, Struct, StructRef, TypeRef, UnionRef, Verbatim
from .._jinja import wrap

KEYWORDS = frozenset(
    "as break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref "
    "return self static struct super trait true type unsafe use where while async await dyn box".split()
)


class UnsupportedShape(ValueError):
    """The schema uses a construct this target cannot express faithfully."""


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


def variant(struct_name: str) -> str:
    """The variant of a payload or envelope in its enum: `TextPayload` -> `Text`."""
    for suffix in ("Payload", "Message"):
        if struct_name.endswith(suffix) and struct_name != suffix:
            return struct_name[: -len(suffix)]
    return struct_name


def is_fragment(st: Struct, f: Field) -> bool:
    return st.fragment_of is not None and st.fragment_of[1] == f.name


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
    """The encoder of an object as steps: `lit` (literal JSON text between values), `req` (a
    required field's value) and `opt` (an optional field: its `,"key":` and value when set)."""
    steps: list[dict[str, object]] = []
    text = "{"
    first = True
    for it in items(model, st):
        sep = "" if first else ","
        if it.const is not None:
            text += f'{sep}"{it.key}":"{it.const}"'
            first = False
            continue
        assert it.field is not None
        if it.field.required:
            steps.append({"kind": "lit", "bytes": byte_str(text + f'{sep}"{it.key}":')})
            steps.append({"kind": "req", "item": it})
            text = ""
            first = False
        else:
            if first:
                raise UnsupportedShape(f"{st.name}.{it.key}: an optional field before every required one")
            if text:
                steps.append({"kind": "lit", "bytes": byte_str(text)})
                text = ""
            steps.append({"kind": "opt", "item": it, "key": byte_str(f',"{it.key}":')})
    steps.append({"kind": "lit", "bytes": byte_str(text + "}")})
    return steps
