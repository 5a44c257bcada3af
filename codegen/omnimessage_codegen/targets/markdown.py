"""Target `markdown`: docs/protocol.md, the field-by-field reference, from the schema.

Every `$defs` entry gets exactly one heading whose text is its name, so its anchor is
`#<name in lower case>` (the GitHub heading slug) and every type link can point at it:
the envelopes, then each envelope's payload tree (unions as `##` sections listing their
parts, their struct members as `###` sections), then whatever is left (shared objects,
named values, vocabularies). :func:`render` refuses to write a document that leaves a
definition out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..model import (
    AnyOf,
    ArrayOf,
    Const,
    EnumRef,
    Envelope,
    Model,
    Prim,
    StructRef,
    TypeRef,
    UnionRef,
    Verbatim,
)
from . import Target
from ._jinja import environment

EXAMPLE_TIMESTAMP = "2026-07-18T03:10:22.531Z"


def anchor(name: str) -> str:
    """The anchor of the heading `name` (a definition name: letters and digits only)."""
    return name.lower()


def link(name: str) -> str:
    return f"[{name}](#{anchor(name)})"


def md_type(t: TypeRef) -> str:
    if isinstance(t, Prim):
        bounds = []
        if t.minimum is not None:
            bounds.append(f">= {t.minimum}")
        if t.maximum is not None:
            bounds.append(f"<= {t.maximum}")
        return t.kind + (f" ({', '.join(bounds)})" if bounds else "")
    if isinstance(t, Const):
        return f'`"{t.value}"`'
    if isinstance(t, (EnumRef, StructRef, UnionRef)):
        return link(t.name)
    if isinstance(t, ArrayOf):
        suffix = f", at least {t.min_items}" if t.min_items else ""
        return f"array of {md_type(t.item)}{suffix}"
    if isinstance(t, AnyOf):
        return " or ".join(md_type(o) for o in t.options)
    if isinstance(t, Verbatim):
        what = "object of string/number/boolean values" if t.shape == "scalar_map" else "object"
        return f"verbatim {what}"
    raise TypeError(t)


def example_line(envelope_tag: str, payload: Any) -> str:
    msg = {"timestamp": EXAMPLE_TIMESTAMP, "type": envelope_tag, "payload": payload}
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Section:
    """One definition in the payload part of the document."""

    level: int  # heading level: 2 for unions and a struct that is a whole payload, 3 for union members
    name: str
    envelope: Envelope
    parent: str | None  # the union this definition is a part of


def payload_sections(model: Model) -> list[Section]:
    """Each envelope's payload tree, depth first; a definition reachable twice is written once."""
    out: list[Section] = []
    placed: set[str] = set()

    def walk(name: str, env: Envelope, parent: str | None) -> None:
        if name in placed:
            return
        placed.add(name)
        if name not in model.unions:
            out.append(Section(2 if parent is None else 3, name, env, parent))
            return
        out.append(Section(2, name, env, parent))
        parts = model.unions[name].parts
        for part in parts:
            if part not in model.unions and part not in placed:
                placed.add(part)
                out.append(Section(3, part, env, name))
        for part in parts:
            if part in model.unions:
                walk(part, env, name)

    for e in model.envelopes:
        walk(e.payload, e, None)
    return out


def render(model: Model) -> dict[str, str]:
    env = environment()
    env.filters["md_type"] = md_type
    env.filters["link"] = link
    envelope_names = [e.struct.name for e in model.envelopes]
    sections = payload_sections(model)
    placed = set(envelope_names) | {s.name for s in sections}
    # Whatever no envelope reaches: objects and unions used by fields, in schema order.
    shared = [n for n in model.order if n not in placed and (n in model.structs or n in model.unions)]
    documented = placed | set(shared) | set(model.aliases) | set(model.enums)
    missing = [n for n in model.order if n not in documented]
    if missing:
        raise ValueError(f"the protocol reference would leave out {', '.join(missing)}")
    defs = model.source.get("$defs", {})

    def since(struct: str, field: str | None = None) -> str:
        node = defs.get(struct, {})
        if field is not None:
            node = node.get("properties", {}).get(field, {})
        mark = node.get("x-omnimessage-version")
        return f"`{mark['since']}`" if isinstance(mark, dict) else ""

    text = env.get_template("markdown/protocol.md.j2").render(
        m=model,
        since=since,
        versions=list(model.source.get("x-omnimessage-versions", {}).items()),
        sections=sections,
        example=example_line,
        shared=shared,
    )
    return {"protocol.md": text}


TARGET = Target("markdown", "the field-by-field protocol reference (docs/protocol.md is this, written with --out docs)",
                (render,), writes=("protocol.md",))
