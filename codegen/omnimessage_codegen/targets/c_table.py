"""Target `c`: the table of the Python binding's native canonical-form verifier (`omv_table.h`).

The verifier (python/omnimessage/_native/verify.c, hand-written, schema-agnostic) walks one line
once and proves it is the canonical encoding of a message msgspec has already decoded; this
header is all it knows about the schema: per object, its keys in canonical order (the `type`
discriminator at its place), and for each value whether objects inside it are a struct, a
union member chosen by its `type`, a verbatim value (and its shape), or not allowed at all.

`OMV_TABLE_ID` is a digest of the table; the runtime uses the compiled verifier only when the
header it ships carries the same id as the extension (a stale build falls back to pure Python).
"""

from __future__ import annotations

import hashlib

from ..model import AnyOf, ArrayOf, Model, Struct, StructRef, TypeRef, UnionRef, Verbatim
from ..version import generator_version
from . import Target
from ._shapes import UnsupportedShape

HEADER = "omv_table.h"

KIND_SCALAR = "OMV_SCALAR"  # strings, numbers, literals, arrays of them: no object anywhere
KIND_TAG = "OMV_TAG"
KIND_STRUCT = "OMV_STRUCT"
KIND_UNION = "OMV_UNION"
VERBATIM_KINDS = {"object": "OMV_VERBATIM_OBJECT", "scalar_map": "OMV_VERBATIM_SCALAR_MAP"}


def _kind(t: TypeRef, structs: dict[str, int], unions: dict[str, int], where: str) -> tuple[str, int]:
    """(kind, ref) of a value: what the objects inside it are."""
    if isinstance(t, StructRef):
        return KIND_STRUCT, structs[t.name]
    if isinstance(t, UnionRef):
        return KIND_UNION, unions[t.name]
    if isinstance(t, Verbatim):
        if t.shape not in VERBATIM_KINDS:
            raise UnsupportedShape(f"{where}: verbatim shape {t.shape!r}")
        return VERBATIM_KINDS[t.shape], 0
    if isinstance(t, ArrayOf):
        kind, ref = _kind(t.item, structs, unions, where)
        if kind in VERBATIM_KINDS.values():
            raise UnsupportedShape(f"{where}: an array of verbatim values")
        return kind, ref
    if isinstance(t, AnyOf):
        kinds = {_kind(o, structs, unions, where) for o in t.options} - {(KIND_SCALAR, 0)}
        if len(kinds) > 1:
            raise UnsupportedShape(f"{where}: one value that may be objects of different kinds")
        return kinds.pop() if kinds else (KIND_SCALAR, 0)
    return KIND_SCALAR, 0


def _keys(model: Model, st: Struct) -> list[str]:
    """The struct's keys in canonical order, `type` (the discriminator) at its place."""
    props = list(model.source["$defs"][st.name]["properties"])
    names = [f.name for f in st.fields]
    if [p for p in props if p != "type" or st.tag is None] != names:
        raise UnsupportedShape(f"#/$defs/{st.name}: the fields do not follow the schema's properties")
    return props


def _c_str(s: str) -> str:
    if not s.isascii() or not s.isprintable() or '"' in s or "\\" in s or len(s) > 255:
        raise UnsupportedShape(f"a key or tag the table cannot spell: {s!r}")
    return f'"{s}", {len(s)}'


def render(model: Model) -> dict[str, str]:
    order = list(model.structs.values())
    structs = {st.name: i for i, st in enumerate(order)}
    # union 0: the root (the envelopes); then the schema's unions
    union_names = ["the envelopes (the root)", *model.unions]
    union_members: list[list[str]] = [[e.struct.name for e in model.envelopes]]
    union_members += [list(u.members) for u in model.unions.values()]
    unions = {name: i + 1 for i, name in enumerate(model.unions)}
    fields: list[str] = []
    struct_rows: list[str] = []
    tag_at: dict[str, int] = {}
    rows: dict[str, list[str]] = {}  # a struct's field rows, without the comment
    for st in order:
        first = len(fields)
        keys = _keys(model, st)
        by_name = {f.name: f for f in st.fields}
        for key in keys:
            if key == "type" and st.tag is not None:
                tag_at[st.name] = len(fields) - first
                fields.append(f"    {{{_c_str(key)}, {KIND_TAG}, 0}},  /* {st.name} */")
                continue
            kind, ref = _kind(by_name[key].type, structs, unions, f"#/$defs/{st.name}/properties/{key}")
            fields.append(f"    {{{_c_str(key)}, {kind}, {ref}}},  /* {st.name} */")
        rows[st.name] = [row.split("  /*")[0] for row in fields[first:]]
        tag = _c_str(st.tag) if st.tag is not None else "0, 0"
        struct_rows.append(f"    {{{tag}, {first}, {len(fields) - first}}},  /* {len(struct_rows)}: {st.name} */")
    member_rows: list[str] = []
    union_rows: list[str] = []
    for i, members in enumerate(union_members):
        if not members:
            raise UnsupportedShape("a union without members")
        at = {tag_at.get(m, -1) for m in members}
        first_keys = {tuple(rows[m][: tag_at.get(m, 0)]) for m in members}
        if len(at) != 1 or -1 in at or len(first_keys) != 1:
            raise UnsupportedShape(f"union {i}: its members must share the keys before `type`, and have one")
        union_rows.append(f"    {{{len(member_rows)}, {len(members)}, {at.pop()}}},  /* {i}: {union_names[i]} */")
        member_rows += [f"    {structs[m]},  /* {m} */" for m in members]
    body = "\n".join([
        f"#define OMV_MAX_DEPTH {model.limits.get('max_depth', 512)}",
        "",
        "static const omv_field OMV_FIELDS[] = {", *fields, "};",
        "static const omv_struct OMV_STRUCTS[] = {", *struct_rows, "};",
        "static const unsigned short OMV_UNION_MEMBERS[] = {", *member_rows, "};",
        "static const omv_union OMV_UNIONS[] = {  /* first member, members, index of the `type` key */",
        *union_rows, "};",
        "#define OMV_ROOT_UNION 0",
        "",
    ])
    digest = hashlib.sha256(body.encode()).hexdigest()[:32]
    head = (
        f"/* Generated by `omnimessage generate --target c` (omnimessage {generator_version()}) from schema "
        f"{model.schema_id}; do not edit. */\n"
        "/* The canonical-form verifier's table (python/omnimessage/_native/verify.c includes it after verify.h). */\n"
        f'#define OMV_TABLE_ID "{digest}"\n'
    )
    return {HEADER: head + body}


TARGET = Target(
    "c",
    "the table of the Python binding's native canonical-form verifier (a C header)",
    (render,),
    writes=(HEADER,),
    documented=False,
)
