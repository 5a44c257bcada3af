"""What the targets that compile their codec (rust, go) share: the shapes they refuse, payload and
fragment names, the schema's properties of an object in canonical order, and the encoder of an
object as literal text between values."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from ..model import Const, Field, Model, Struct


class UnsupportedShape(ValueError):
    """The schema uses a construct this target cannot express faithfully."""


def variant(struct_name: str) -> str:
    """The short name of a payload or envelope: `TextPayload` -> `Text`."""
    for suffix in ("Payload", "Message"):
        if struct_name.endswith(suffix) and struct_name != suffix:
            return struct_name[: -len(suffix)]
    return struct_name


def is_fragment(st: Struct, f: Field) -> bool:
    return st.fragment_of is not None and st.fragment_of[1] == f.name


def check_enum_values(model: Model) -> None:
    """Enum values are written as they are: each must need no escape."""
    for e in model.enums.values():
        for v in e.values:
            if not (v.isascii() and v.isprintable() and '"' not in v and "\\" not in v):
                raise UnsupportedShape(f"{e.name}: {v!r} needs escaping; enum values are written as they are")


def properties(model: Model, st: Struct) -> Iterator[tuple[str, str | None, Field | None]]:
    """The properties of an object in canonical order: (key, the constant's value or None, the
    field or None for the `type` discriminator)."""
    by_name = {f.name: f for f in st.fields}
    for key in model.source["$defs"][st.name]["properties"]:
        f = by_name.get(key)
        if f is None:
            assert st.tag is not None
            yield key, st.tag, None
        else:
            yield key, f.type.value if isinstance(f.type, Const) else None, f


class HasKey(Protocol):
    """An item of `encode_plan`: a property in canonical order."""

    @property
    def key(self) -> str: ...
    @property
    def const(self) -> str | None: ...
    @property
    def field(self) -> Field | None: ...


def encode_plan(name: str, its: Sequence[HasKey], literal: Callable[[str], str]) -> list[dict[str, object]]:
    """The encoder of an object as steps: `lit` (literal JSON text between values, as `literal`
    spells it in the target), `req` (a required field's value) and `opt` (an optional field: its
    `,"key":` and value when set)."""
    steps: list[dict[str, object]] = []
    text = "{"
    first = True
    for it in its:
        sep = "" if first else ","
        if it.const is not None:
            text += f'{sep}"{it.key}":"{it.const}"'
            first = False
            continue
        assert it.field is not None
        if it.field.required:
            steps.append({"kind": "lit", "bytes": literal(text + f'{sep}"{it.key}":')})
            steps.append({"kind": "req", "item": it})
            text = ""
            first = False
        else:
            if first:
                raise UnsupportedShape(f"{name}.{it.key}: an optional field before every required one")
            if text:
                steps.append({"kind": "lit", "bytes": literal(text)})
                text = ""
            steps.append({"kind": "opt", "item": it, "key": literal(f',"{it.key}":')})
    steps.append({"kind": "lit", "bytes": literal(text + "}")})
    return steps


def payload_rows(model: Model) -> Iterator[tuple[str, Struct, list[tuple[tuple[str, ...], str]]]]:
    """Every payload kind of every envelope kind: (envelope tag, payload struct, where it keeps
    verbatim values: (path from the payload, shape))."""
    locations = model.verbatim_locations()
    for envelope in model.envelopes:
        for member in model.payload_members(envelope):
            st = model.structs[member]
            yield envelope.struct.tag or "", st, locations.get((envelope.struct.tag or "", st.tag), [])

