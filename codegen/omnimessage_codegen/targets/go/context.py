"""The rendering context the Go templates share: enums, structs with their items, unions,
envelopes, and which envelope's file each struct's decoder and encoder go to."""

from __future__ import annotations

from typing import Any

from ...model import Model, Struct
from .._imports import Imports
from .._shapes import check_enum_values
from .common import PACKAGE, RUNTIME, camel, doc, encode_plan, go_str, items, lower_first


def base(model: Model) -> dict[str, Any]:
    """What every template gets."""
    return {"m": model, "package": PACKAGE, "runtime": RUNTIME}


def enum_const(enum: str, value: str) -> str:
    """The constant of a vocabulary value: `Role` `user` -> `RoleUser`."""
    return enum + camel(value)


def enums(model: Model) -> list[dict[str, Any]]:
    check_enum_values(model)
    return [
        {
            "name": e.name,
            "doc": doc(e.description),
            "vals": [{"const": enum_const(e.name, v), "lit": go_str(v)} for v in e.values],
        }
        for e in model.enums.values()
    ]


def fields_var(st: Struct) -> str:
    return st.name + "Fields"


def struct_ctx(model: Model, st: Struct, imports: Imports | None = None) -> dict[str, Any]:
    its = items(model, st, imports)
    return {
        "name": st.name,
        "doc": doc(st.description),
        "tag": go_str(st.tag) if st.tag else None,
        "fields_var": fields_var(st),
        "n": len(its),
        "its": [
            {
                "index": n,
                "key": go_str(it.key),
                "const": None if it.const is None else go_str(it.const),
                "go": it.go,
                "ty": it.ty,
                "required": it.field is None or it.field.required,
                "stored": it.const is None,
                "decode": it.decode,
                "encode": it.encode,
                "doc": doc(it.field.description, "\t") if it.field is not None else "",
            }
            for n, it in enumerate(its)
        ],
        "encode": encode_plan(model, st),
    }


def unions(model: Model) -> list[dict[str, Any]]:
    return [
        {
            "name": u.name,
            "marker": "is" + u.name,
            "doc": doc(u.description),
            "members": [{"struct": m, "tag": go_str(model.structs[m].tag or "")} for m in u.members],
        }
        for u in model.unions.values()
    ]


def envelopes(model: Model) -> list[dict[str, Any]]:
    return [
        {"struct": env.struct.name, "tag": env.struct.tag or "", "lit": go_str(env.struct.tag or "")}
        for env in model.envelopes
    ]


def markers(model: Model) -> dict[str, list[str]]:
    """Per struct: the marker methods of the unions it is a member of (and `isMessage` for an
    envelope)."""
    out: dict[str, list[str]] = {}
    for u in model.unions.values():
        for m in u.members:
            out.setdefault(m, []).append("is" + u.name)
    for env in model.envelopes:
        out.setdefault(env.struct.name, []).append("isMessage")
    return out


def file_groups(model: Model) -> dict[str, list[str]]:
    """Per envelope: the file name stem (`model_msg`) and the structs and unions it holds."""
    return {lower_first(tag).replace("-", "_"): names for tag, names in model.by_envelope().items()}
