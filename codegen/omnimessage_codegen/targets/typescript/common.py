"""What the TypeScript emitters share: literals, names, types, usage and the common context."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ...model import (
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
from .._jinja import environment, wrap
from .._names import upper_snake


class UnsupportedShape(ValueError):
    """The schema uses a construct this target cannot express faithfully."""


@dataclass(frozen=True)
class Flavour:
    """What a TypeScript target writes: `full` sits on the `omnimessage` npm package (imported by
    that name, through the generated `runtime.ts`); `types` imports nothing outside its folder."""

    target: str  # the target's name, as the files' header says it
    runtime: bool  # builders, encoders, checkers and `runtime.ts`, on the npm package


FULL = Flavour("typescript", runtime=True)
TYPES = Flavour("typescript-types", runtime=False)
# The npm package's entry for generated code: `register`, the builders' helpers (typescript/src/runtime.ts).
RUNTIME_MODULE = "omnimessage/runtime"


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
    text = text.replace("*/", "*\\/")
    one = f"{indent}/** {text} */"
    if "\n" not in text and len(one) <= 100:
        return one
    body = wrap(text, width=100, indent=indent + " * ")
    return f"{indent}/**\n{body}\n{indent} */"


def _tag_positions(model: Model) -> dict[str, int]:
    """Index of the `type` discriminator among each tagged object's properties.

    The intermediate model drops the discriminator from `Struct.fields`; its position is part
    of the canonical key order (envelopes write it second), so it is read from the schema
    document the model was built from.
    """
    out: dict[str, int] = {}
    for name, st in model.structs.items():
        if st.tag is not None:
            props = list(model.source["$defs"][name]["properties"])
            out[name] = props.index("type")
    return out


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


def array_helper_name(item: TypeRef) -> str:
    if isinstance(item, Prim):
        return f"arr_{item.kind}"
    if isinstance(item, (StructRef, UnionRef, EnumRef)):
        return f"arr_{item.name}"
    raise UnsupportedShape(f"arrays of {item!r} are not supported")


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


def context(model: Model, flavour: Flavour = FULL) -> dict[str, Any]:
    """What every TypeScript template may use (each emitter adds its own)."""
    tag_pos = _tag_positions(model)
    payload_structs = {m for e in model.envelopes for m in model.payload_members(e)}

    def field_order(st: Struct) -> list[str]:
        names = [f.name for f in st.fields]
        if st.tag is not None:
            names.insert(tag_pos[st.name], "type")
        return names

    def field_doc(f: Field) -> str:
        note = range_note(f.type)
        return f.description + (f" {note}" if note else "")

    return {
        "m": model,
        "target": flavour.target,
        "full": flavour.runtime,
        "runtime_module": RUNTIME_MODULE,
        "structs": model.structs_in_dependency_order(),
        "envelope_names": {e.struct.name for e in model.envelopes},
        "payload_structs": payload_structs,
        "field_order": field_order,
        "field_type": lambda f: field_ts_type(model, f),
        "field_doc": field_doc,
        "verbatim": {
            (env_tag, p_tag): [("/".join(path), shape) for path, shape in locs]
            for (env_tag, p_tag), locs in model.verbatim_locations().items()
        },
        "payload_by_tag": {
            e.struct.tag: [(model.structs[mem].tag, mem) for mem in model.payload_members(e)] for e in model.envelopes
        },
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


def render_template(model: Model, name: str, flavour: Flavour = FULL, **extra: Any) -> dict[str, str]:
    """File `name` from template `typescript/<name>.j2`, with the common context and `extra`."""
    env = environment()
    env.filters["js"] = js
    env.filters["doc"] = doc
    env.filters["upper_snake"] = upper_snake
    env.filters["ts_type"] = ts_type
    return {name: env.get_template(f"typescript/{name}.j2").render(**context(model, flavour), **extra)}
