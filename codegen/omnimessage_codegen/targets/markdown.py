"""Target `markdown`: docs/protocol.md, the field-by-field reference, from the schema."""

from __future__ import annotations

import json
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
    Union_,
    UnionRef,
    Verbatim,
)
from ._jinja import environment

EXAMPLE_TIMESTAMP = "2026-07-18T03:10:22.531Z"


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
        return f"[{t.name}](#{t.name.lower()})"
    if isinstance(t, ArrayOf):
        suffix = f", at least {t.min_items}" if t.min_items else ""
        return f"array of {md_type(t.item)}{suffix}"
    if isinstance(t, AnyOf):
        return " or ".join(md_type(o) for o in t.options)
    if isinstance(t, Verbatim):
        what = "object of string/number/boolean values" if t.shape == "scalar_map" else "object"
        return f"verbatim {what}"
    raise TypeError(t)


def example_line(model: Model, struct_name: str, payload: Any) -> str:
    env_tag = next(e.struct.tag for e in model.envelopes if struct_name in model.payload_members(e))
    msg = {"timestamp": EXAMPLE_TIMESTAMP, "type": env_tag, "payload": payload}
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def render(model: Model) -> dict[str, str]:
    env = environment()
    env.filters["md_type"] = md_type
    payload_groups: list[tuple[Union_ | None, Envelope]] = []
    for e in model.envelopes:
        if e.payload in model.unions:
            for part in model.unions[e.payload].parts:
                if part in model.unions:
                    payload_groups.append((model.unions[part], e))
        else:
            payload_groups.append((None, e))
    text = env.get_template("markdown/protocol.md.j2").render(
        m=model,
        groups=payload_groups,
        example=lambda name, p: example_line(model, name, p),
        shared=[
            s
            for s in model.structs.values()
            if s.tag is None
            and s.name not in {e.struct.name for e in model.envelopes}
            and s.name not in {e.payload for e in model.envelopes}
        ],
    )
    return {"protocol.md": text}
