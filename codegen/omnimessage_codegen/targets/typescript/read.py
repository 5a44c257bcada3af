"""Emitter `read.ts` of target `typescript` (full): one-pass readers of canonical lines.

A canonical line has one spelling per message: keys in schema order, optional keys only when
set, strings and numbers as `JSON.stringify` writes them. So a reader per object can match the
line's keys and punctuation as exact literals (the schema's field order, merged into one literal
between two values), read each value by the field's type (enum and const sets, integer ranges,
verbatim shapes), and build the message in the same walk. Anything else fails the read, and the
decoder takes its general path, which decides (typescript/src/codec.ts).

The readers call a `Reader` (the package's `CanonicalReader`, typescript/src/canonical.ts) for the
tokens; what they read of strings and verbatim values, they read in the encoders' order, so the
decoder can keep it for `encode` (the `Replay` of typescript/src/verifier.ts).
"""

from __future__ import annotations

from dataclasses import dataclass

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
    Union_,
    UnionRef,
    Verbatim,
)
from .common import (
    UnsupportedShape,
    _tag_positions,
    array_helper_name,
    array_items,
    js,
    js_str,
    render_template,
    usage,
)

# A field read: `None` stands for the struct's `type` discriminator.
Entry = tuple[str, Field | None]


@dataclass
class Reads:
    """What the emitted readers refer to, so that nothing unused is declared (`noUnusedLocals`)."""

    enums: set[str]
    full: set[str]  # tagged structs read from their `{` (a field of that struct type, not a union member)


def _range(x: str, t: Prim) -> list[str]:
    tests = []
    if t.kind == "integer":
        tests.append(f"!Number.isInteger({x})")
    if t.minimum is not None:
        tests.append(f"{x} < {t.minimum}")
    if t.maximum is not None:
        tests.append(f"{x} > {t.maximum}")
    return [f"if ({' || '.join(tests)}) r.fail();"] if tests else []


def _prim_option(o: TypeRef, where: str) -> Prim:
    if not isinstance(o, Prim) or o.kind == "integer":
        raise UnsupportedShape(f"{where}: anyOf options must be string, number, boolean or null")
    return o


def read_value(model: Model, t: TypeRef, x: str, depth: str, where: str, reads: Reads) -> list[str]:
    """Statements that read a value of type `t` into a new `const x` (the value sits at `depth`)."""
    if isinstance(t, Prim):
        if t.kind == "string":
            return [f"const {x} = r.str();"]
        if t.kind in ("integer", "number"):
            return [f"const {x} = r.num();", *_range(x, t)]
        if t.kind == "boolean":
            return [f"const {x} = r.bool();"]
        if t.kind == "null":
            return ['r.need("null");', f"const {x} = null;"]
    if isinstance(t, Const):
        return [f"const {x} = r.str();", f"if ({x} !== {js(t.value)}) r.fail();"]
    if isinstance(t, EnumRef):
        reads.enums.add(t.name)
        return [f"const {x} = r.str();", f"if (!is{t.name}({x})) r.fail();"]
    if isinstance(t, StructRef):
        if model.structs[t.name].tag is not None:
            reads.full.add(t.name)
            return [f"const {x} = rf_{t.name}(r, {depth});"]
        return [f"const {x} = r_{t.name}(r, {depth});"]
    if isinstance(t, UnionRef):
        return [f"const {x} = ru_{t.name}(r, {depth});"]
    if isinstance(t, ArrayOf):
        return [f"const {x} = ra_{array_helper_name(t.item)[4:]}(r, {depth}, {t.min_items});"]
    if isinstance(t, AnyOf):
        # The first character of the token says which option it can be.
        out = [f"const {x}c = r.peek();", f"let {x}: string | number | boolean | null;"]
        branches = []
        for o in (_prim_option(o, where) for o in t.options):
            if o.kind == "string":
                branches.append((f"{x}c === 34", [f"{x} = r.str();"]))
            elif o.kind == "number":
                branches.append(
                    (f"({x}c === 45 || ({x}c >= 48 && {x}c <= 57))", [f"const {x}n = r.num();", *_range(f"{x}n", o), f"{x} = {x}n;"])
                )
            elif o.kind == "boolean":
                branches.append((f"({x}c === 116 || {x}c === 102)", [f"{x} = r.bool();"]))
            else:
                branches.append((f"{x}c === 110", ['r.need("null");', f"{x} = null;"]))
        for i, (cond, body) in enumerate(branches):
            out.append(("if" if i == 0 else "} else if") + f" ({cond}) {{")
            out.extend("  " + b for b in body)
        out += ["} else r.fail();"]
        return out
    if isinstance(t, Verbatim):
        return [f'const {x} = r.verbatim("{t.shape}", {depth});']
    raise UnsupportedShape(f"cannot read {t!r}")


def entries(model: Model, st: Struct, tag_pos: dict[str, int]) -> list[Entry]:
    out: list[Entry] = [(f.name, f) for f in st.fields]
    if st.tag is not None:
        out.insert(tag_pos[st.name], ("type", None))
    return out


def struct_reader(model: Model, st: Struct, ents: list[Entry], start: int, reads: Reads) -> list[str]:
    """Statements of a reader of `st` from entry `start` on (entries before it are read already,
    held by parameters `p0`, `p1`, ...; with `start > 0` the discriminator is read too), up to its `}`."""
    lines: list[str] = []
    pending = "" if start else "{"  # punctuation and keys still to match, merged into one literal
    written = start > 0  # a member has surely been read: the next one is after a comma
    dynamic = False  # an optional member may come first: `n` says whether one was read
    built = False  # the object exists (from the first optional member on, members are assigned)
    members: list[str] = [f"{name}: p{i}" for i, (name, _) in enumerate(ents[:start])]
    if start:
        members[-1] = f"type: {js(st.tag)}"

    def flush() -> None:
        nonlocal pending
        if pending:
            lines.append(f"r.need({js_str(pending)});")
            pending = ""

    def build() -> None:
        nonlocal built
        if not built:
            lines.append("const o: any = { " + ", ".join(members) + " };" if members else "const o: any = {};")
            built = True

    for i, (name, f) in enumerate(ents[start:], start):
        key = js(name) + ":"
        if f is None:
            if dynamic:
                raise UnsupportedShape(f"{st.name}: the discriminator after an optional first member")
            pending += ("," if written else "") + key + js(st.tag)
            written = True
            members.append(f"type: {js(st.tag)}")
            continue
        value = read_value(model, f.type, f"f{i}", "d + 1", f"{st.name}.{name}", reads)
        if f.required:
            if dynamic:
                flush()
                lines.append(f"r.need(n ? {js_str(',' + key)} : {js_str(key)});")
                lines.append("n = true;")
            else:
                pending += ("," if written else "") + key
                flush()
            lines.extend(value)
            written = True
            if built:
                lines.append(f"o.{name} = f{i};")
            else:
                members.append(f"{name}: f{i}")
            continue
        flush()
        build()
        if written:
            lines.append(f"if (r.lit({js_str(',' + key)})) {{")
        else:
            if not dynamic:
                lines.append("let n = false;")
                dynamic = True
            lines.append(f"if (r.lit(n ? {js_str(',' + key)} : {js_str(key)})) {{")
            lines.append("  n = true;")
        lines.extend("  " + v for v in value)
        lines.append(f"  o.{name} = f{i};")
        lines.append("}")
    pending += "}"
    flush()
    build()
    lines.append("return o;")
    return lines


def _check_tag(tag: str | None, where: str) -> str:
    if tag is None or js(tag) != '"' + tag + '"' or any(c < " " for c in tag):
        raise UnsupportedShape(f"{where}: a discriminator read as a literal must need no escape")
    return tag


def union_reader(model: Model, name: str, members: list[str], tag_pos: dict[str, int], reads: Reads) -> list[str]:
    """Statements of a reader of a union: the members' common prefix, the discriminator, then
    the member's reader."""
    structs = [model.structs[m] for m in members]
    pos = {tag_pos[s.name] for s in structs if s.tag is not None}
    if len(pos) != 1 or any(s.tag is None for s in structs):
        raise UnsupportedShape(f"{name}: members must put their discriminator at the same place")
    k = pos.pop()
    prefixes = {tuple((f.name, f.type, f.required) for f in s.fields[:k]) for s in structs}
    if len(prefixes) != 1:
        raise UnsupportedShape(f"{name}: members must agree on the members before their discriminator")
    prefix = structs[0].fields[:k]
    lines: list[str] = []
    pending = "{"
    for i, f in enumerate(prefix):
        if not f.required:
            raise UnsupportedShape(f"{name}: an optional member before the discriminator")
        pending += ("," if i else "") + js(f.name) + ":"
        lines.append(f"r.need({js_str(pending)});")
        pending = ""
        lines.extend(read_value(model, f.type, f"p{i}", "d + 1", f"{name}.{f.name}", reads))
    pending += ("," if prefix else "") + '"type":'
    lines.append(f"r.need({js_str(pending)});")
    args = "".join(f", p{i}" for i in range(k))
    lines.append("switch (r.tag()) {")
    for s in structs:
        lines.append(f"  case {js(_check_tag(s.tag, s.name))}:")
        lines.append(f"    return r_{s.name}(r, d{args});")
    lines.append("}")
    lines.append("return r.fail();")
    return lines


def array_reader(model: Model, item: TypeRef, reads: Reads) -> list[str]:
    """Statements of `ra_<item>(r, d, min)`: an array at depth `d` (its items at `d + 1`)."""
    body = read_value(model, item, "x", "d + 1", array_helper_name(item) + "[]", reads)
    return [
        'r.need("[");',
        "const a: unknown[] = [];",
        'if (!r.lit("]")) {',
        "  do {",
        *("    " + b for b in body),
        "    a.push(x);",
        '  } while (r.lit(","));',
        '  r.need("]");',
        "}",
        "if (a.length < min) r.fail();",
        "return a;",
    ]


def render(model: Model) -> dict[str, str]:
    tag_pos = _tag_positions(model)
    reads = Reads(set(), set())
    referenced = usage(model)["unions"]
    assert isinstance(referenced, list)
    used = [u for u in referenced if isinstance(u, Union_)]
    union_members = {m for u in used for m in u.members} | {e.struct.name for e in model.envelopes}
    unions = {u.name: union_reader(model, u.name, list(u.members), tag_pos, reads) for u in used}
    root = union_reader(model, "OmniMessage", [e.struct.name for e in model.envelopes], tag_pos, reads)
    structs: dict[str, tuple[str, list[str]]] = {}  # name -> (parameters after `d`, statements)
    for st in model.structs_in_dependency_order():
        ents = entries(model, st, tag_pos)
        if st.tag is None:
            structs[st.name] = ("", struct_reader(model, st, ents, 0, reads))
        elif st.name in union_members:
            k = tag_pos[st.name]
            params = "".join(f", p{i}: any" for i in range(k))
            structs[st.name] = (params, struct_reader(model, st, ents, k + 1, reads))
    arrays = {array_helper_name(t)[4:]: array_reader(model, t, reads) for t in array_items(model)}
    full: dict[str, list[str]] = {}
    while todo := sorted(reads.full - set(full)):  # a full reader may need another
        for n in todo:
            full[n] = struct_reader(model, model.structs[n], entries(model, model.structs[n], tag_pos), 0, reads)
    full = dict(sorted(full.items()))
    return render_template(
        model,
        "read.ts",
        struct_readers=structs,
        full_readers=full,
        union_readers=unions,
        root_reader=root,
        array_readers=arrays,
        read_enums=sorted(reads.enums),
    )

