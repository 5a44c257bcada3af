"""Target `typescript`: types, validators and canonical encoders for the TypeScript binding.

Everything the TypeScript runtime (`typescript/src/`) knows about the schema comes from here:

* `types.ts`: one interface per payload with a literal `type`, the named payload unions, the
  envelope types (`ModelMessage<P>`, ...), every enum as a string-literal union plus a frozen
  array of its values; JSDoc from the schema descriptions.
* `schema.ts`: the schema `$id`, the limits, the rejection categories, the canonical field
  order of every object, where verbatim values and `number` values sit.
* `validate.ts`: fast validators for values produced by `JSON.parse` (or built in code).
* `encode.ts`: canonical encoders, one per object, writing keys in schema order.
* `check.ts`: the strict validators of the decoder's slow path. They walk a position-aware
  tree in document order and refuse with the same category, JSON pointer and detail as the
  Python binding (which follows msgspec's conversion order: the discriminator first, then the
  members in document order, then the first missing required key in schema order).

The generated modules import nothing from outside their folder, so `omnimessage generate
--target typescript --out DIR` gives a project a self-contained module set; the npm package's
hand-written runtime supplies the scanner, `RawJson` and the codec on top of it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..loader import schema_path
from ..model import (
    AnyOf,
    ArrayOf,
    Const,
    EnumRef,
    Field,
    Model,
    Prim,
    Struct,
    StructRef,
    TypeRef,
    UnionRef,
    Verbatim,
)
from ._jinja import environment

FILES = ("types.ts", "schema.ts", "validate.ts", "encode.ts", "check.ts", "index.ts")


class UnsupportedShape(ValueError):
    """The schema uses a construct this target cannot express faithfully."""


def upper_snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("_")
        out.append(ch.upper())
    return "".join(out)


def js(value: object) -> str:
    """A JavaScript literal for a JSON value (strings double-quoted, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


def js_str(s: str) -> str:
    """A JS string literal, single-quoted when that avoids escaping double quotes."""
    if '"' in s and "'" not in s and "\\" not in s and all(" " <= c <= "~" for c in s):
        return "'" + s + "'"
    return js(s)


def doc(text: str, indent: str = "") -> str:
    """A JSDoc block for `text` (`*/` neutralised), wrapped to 100 columns."""
    from ._jinja import wrap

    text = text.replace("*/", "*\\/")
    one = f"{indent}/** {text} */"
    if "\n" not in text and len(one) <= 100:
        return one
    body = wrap(text, width=100, indent=indent + " * ")
    return f"{indent}/**\n{body}\n{indent} */"


def _tag_positions(model: Model) -> dict[str, int]:
    """Index of the `type` discriminator among each tagged object's properties.

    The intermediate model drops the discriminator from `Struct.fields`; its position is part
    of the canonical key order (envelopes write it second), so it is read from the schema the
    model was built from (checked by `$id`).
    """
    doc_ = json.loads(schema_path().read_text(encoding="utf-8"))
    if doc_.get("$id") != model.schema_id:
        raise UnsupportedShape(f"schema {schema_path()} is {doc_.get('$id')!r}, the model is {model.schema_id!r}")
    out: dict[str, int] = {}
    for name, st in model.structs.items():
        if st.tag is not None:
            props = list(doc_["$defs"][name]["properties"])
            out[name] = props.index("type")
    return out


# ---------------------------------------------------------------------------
# TypeScript types
# ---------------------------------------------------------------------------


def verbatim_type(v: Verbatim) -> str:
    if v.alias:
        return v.alias
    if v.shape == "scalar_map":
        return "VerbatimJson<{ [key: string]: string | number | boolean }>"
    return "VerbatimJson<{ [key: string]: unknown }>"


def ts_type(t: TypeRef) -> str:
    if isinstance(t, Prim):
        return {"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "null": "null"}[
            t.kind
        ]
    if isinstance(t, Const):
        return js(t.value)
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return t.name
    if isinstance(t, ArrayOf):
        item = ts_type(t.item)
        if " " in item:
            item = f"({item})"
        if t.min_items:
            return "readonly [" + ", ".join([item] * t.min_items) + f", ...{item}[]]"
        return f"readonly {item}[]"
    if isinstance(t, AnyOf):
        return " | ".join(ts_type(o) for o in t.options)
    if isinstance(t, Verbatim):
        return verbatim_type(t)
    raise UnsupportedShape(f"no TypeScript type for {t!r}")


def field_ts_type(model: Model, f: Field) -> str:
    if f.alias and f.alias in model.aliases:
        return f.alias
    return ts_type(f.type)


def range_note(t: TypeRef) -> str:
    """What the JSDoc adds about a numeric field's range."""
    if isinstance(t, Prim) and t.kind in ("integer", "number"):
        kind = "An integer" if t.kind == "integer" else "A number"
        lo, hi = t.minimum, t.maximum
        if lo is not None and hi is not None:
            return f"{kind} from {lo} to {hi}."
        if lo is not None:
            return f"{kind} >= {lo}."
        if hi is not None:
            return f"{kind} <= {hi}."
        return f"{kind}."
    return ""


# ---------------------------------------------------------------------------
# Fast validators (values from JSON.parse or built in code)
# ---------------------------------------------------------------------------


def array_helper_name(item: TypeRef) -> str:
    if isinstance(item, Prim):
        return f"arr_{item.kind}"
    if isinstance(item, (StructRef, UnionRef, EnumRef)):
        return f"arr_{item.name}"
    raise UnsupportedShape(f"arrays of {item!r} are not supported")


def fast_expr(t: TypeRef, x: str) -> str:
    """A JS boolean expression: is `x` a valid value of type `t`?"""
    if isinstance(t, Prim):
        if t.kind == "string":
            return f'typeof {x} === "string"'
        if t.kind == "boolean":
            return f'typeof {x} === "boolean"'
        if t.kind == "null":
            return f"{x} === null"
        lo = "-Infinity" if t.minimum is None else str(t.minimum)
        hi = "Infinity" if t.maximum is None else str(t.maximum)
        if t.kind == "integer":
            return f"isInt({x}, {lo}, {hi})"
        return f"isNum({x}, {lo}, {hi})"
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
        return "(" + " || ".join(fast_expr(o, x) for o in t.options) + ")"
    if isinstance(t, Verbatim):
        return f'vb({x}, "{t.shape}")'
    raise UnsupportedShape(f"cannot validate {t!r}")


def array_items(model: Model) -> list[TypeRef]:
    """Distinct item types of every array in the schema, in a stable order."""
    seen: dict[str, TypeRef] = {}

    def walk(t: TypeRef) -> None:
        if isinstance(t, ArrayOf):
            seen.setdefault(array_helper_name(t.item), t.item)
            walk(t.item)
        elif isinstance(t, AnyOf):
            for o in t.options:
                walk(o)

    for st in model.structs.values():
        for f in st.fields:
            walk(f.type)
    for a in model.aliases.values():
        walk(a.type)
    return [seen[k] for k in sorted(seen)]


# ---------------------------------------------------------------------------
# Encoders
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Strict (slow-path) checkers over the position-aware tree
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Render
# ---------------------------------------------------------------------------


def _field_types(model: Model, into_any_of: bool = True) -> list[TypeRef]:
    """Every type a struct field or alias uses, array items included (and anyOf options)."""
    out: list[TypeRef] = []

    def walk(t: TypeRef) -> None:
        out.append(t)
        if isinstance(t, ArrayOf):
            walk(t.item)
        elif isinstance(t, AnyOf) and into_any_of:
            for o in t.options:
                walk(o)

    for st in model.structs.values():
        for f in st.fields:
            walk(f.type)
    for a in model.aliases.values():
        walk(a.type)
    return out


def usage(model: Model) -> dict[str, object]:
    """What the generated modules need, so that they declare nothing unused (a project that
    compiles them with `noUnusedLocals` must not fail on them)."""
    types = _field_types(model)
    direct = _field_types(model, into_any_of=False)
    referenced = {t.name for t in types if isinstance(t, UnionRef)} | {e.payload for e in model.envelopes}
    return {
        "bool": any(isinstance(t, Prim) and t.kind == "boolean" for t in direct),
        "null": any(isinstance(t, Prim) and t.kind == "null" for t in direct),
        "tagged_ref": any(isinstance(t, StructRef) and model.structs[t.name].tag is not None for t in types),
        "unions": [u for u in model.unions.values() if u.name in referenced],
        # enums some field is checked against (an enum only named in docs, such as a subset kept
        # for the builders, gets no checker set)
        "enums": [e for e in model.enums.values() if e.name in {t.name for t in types if isinstance(t, EnumRef)}],
    }


def param(name: str, body: list[str]) -> str:
    """A parameter's name, `_`-prefixed when the body does not use it (`noUnusedParameters`)."""
    used = any(re.search(rf"\b{re.escape(name)}\b", line) for line in body)
    return name if used else "_" + name


def render(model: Model) -> dict[str, str]:
    env = environment()
    env.filters["js"] = js
    env.filters["doc"] = doc
    env.filters["upper_snake"] = upper_snake
    env.filters["ts_type"] = ts_type
    tag_pos = _tag_positions(model)
    envelope_names = {e.struct.name for e in model.envelopes}
    payload_structs = {m for e in model.envelopes for m in model.payload_members(e)}
    structs = model.structs_in_dependency_order()

    def field_order(st: Struct) -> list[str]:
        names = [f.name for f in st.fields]
        if st.tag is not None:
            names.insert(tag_pos[st.name], "type")
        return names

    def field_type(f: Field) -> str:
        return field_ts_type(model, f)

    def field_doc(f: Field) -> str:
        note = range_note(f.type)
        return f.description + (f" {note}" if note else "")

    fast = {
        st.name: [(f.name, f.required, fast_expr(f.type, f"f{i}")) for i, f in enumerate(st.fields)] for st in structs
    }
    arrays = array_items(model)
    array_fast = {array_helper_name(t): fast_expr(t, "a[i]") for t in arrays}
    array_encode = {array_helper_name(t)[4:]: encode_array_item(t) for t in arrays}
    array_check = {array_helper_name(t)[4:]: check_expr(model, t, "c", 'p + "/" + i') for t in arrays}
    verbatim = {
        (env_tag, p_tag): [("/".join(path), shape) for path, shape in locs]
        for (env_tag, p_tag), locs in model.verbatim_locations().items()
    }
    payload_by_tag = {
        e.struct.tag: [(model.structs[mem].tag, mem) for mem in model.payload_members(e)] for e in model.envelopes
    }
    ctx: dict[str, Any] = {
        "m": model,
        "structs": structs,
        "envelope_names": envelope_names,
        "payload_structs": payload_structs,
        "field_order": field_order,
        "field_type": field_type,
        "field_doc": field_doc,
        "fast": fast,
        "array_fast": array_fast,
        "array_encode": array_encode,
        "array_check": array_check,
        "encoders": {st.name: struct_encoder(model, st, tag_pos) for st in structs},
        "checkers": {st.name: struct_checker(model, st) for st in structs},
        "verbatim": verbatim,
        "payload_by_tag": payload_by_tag,
        "number_paths": {n: model.number_paths(n) for n in sorted(payload_structs) if model.number_paths(n)},
        "limits": model.limits,
        "uses": usage(model),
        "param": param,
        "union_expect": {
            **{
                u.name: "one of " + ", ".join(str(model.structs[x].tag) for x in u.members)
                for u in model.unions.values()
            },
            "OmniMessage": "one of " + ", ".join(str(e.struct.tag) for e in model.envelopes),
        },
    }
    return {name: env.get_template(f"typescript/{name}.j2").render(**ctx) for name in FILES}
