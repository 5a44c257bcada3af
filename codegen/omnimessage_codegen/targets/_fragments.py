"""What the targets that compile their aggregator table (rust, go) share: the model's `assemblies`
laid out for match arms over the one payload union that carries the streaming partials."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..model import EVENT_FIELD, STOP_FIELD, Assembled, Assembly, Const, EnumRef, Field, Model, Struct
from ._shapes import UnsupportedShape


@dataclass(frozen=True)
class Row:
    """One streaming partial: its assembly and the complete payload's stored fields (its
    constants are no field of a compiled struct)."""

    assembly: Assembly
    partial: Struct
    complete: Struct
    fields: tuple[tuple[Assembled, Field], ...]


@dataclass(frozen=True)
class Fragments:
    union: str  # the payload union every partial and complete payload is a member of
    rows: tuple[Row, ...]
    event_enum: str  # the enum of EVENT_FIELD
    stop_enum: str  # the enum of STOP_FIELD
    carried: tuple[tuple[Struct, Field], ...]  # every field some fragment carries whole, first use


Spelled = Mapping[str, Callable[[str], str] | None]


def expression(
    a: Assembled, f: Field, name: str, spelled: Spelled, fixed: Callable[[str | None, str], str]
) -> str | None:
    """The expression of field `f` (called `name` in the target) of a complete payload, in one
    target's spelling: `spelled` maps each `how` but `fixed` to a function of `name` (over `p` the
    last fragment, `text` the fragments joined, `carried` what fragments carried whole, `stop` the
    stop rule), or to None to leave the field unset; `fixed` spells the partial's constant, given the
    complete field's enum (None for a string)."""
    if a.how == "fixed":
        return fixed(f.type.name if isinstance(f.type, EnumRef) else None, a.value or "")
    if a.how not in spelled:
        raise UnsupportedShape(f"{f.name}: no expression for {a.how!r}")
    spell = spelled[a.how]
    return None if spell is None else spell(name)


def fragments(model: Model) -> Fragments | None:
    """The streaming partials, None when the schema streams nothing."""
    if not model.assemblies:
        return None
    unions = {e.payload for e in model.envelopes for a in model.assemblies if e.struct.name == a.envelope}
    union = next(iter(unions))
    if len(unions) > 1 or union not in model.unions:
        raise UnsupportedShape(f"streaming partials need one payload union, not {', '.join(sorted(unions))}")
    rows: list[Row] = []
    carried: dict[str, tuple[Struct, Field]] = {}
    enums: dict[str, str] = {}
    for a in model.assemblies:
        partial, complete = model.structs[a.partial], model.structs[a.complete]
        mine = {f.name: f for f in partial.fields}
        theirs = {f.name: f for f in complete.fields}
        for name in (EVENT_FIELD, STOP_FIELD):
            t = mine[name].type if name in mine else None
            if not isinstance(t, EnumRef) or enums.setdefault(name, t.name) != t.name:
                raise UnsupportedShape(f"{a.partial}.{name}: the partials need one enum field {name!r}")
        for name in a.carried:
            carried.setdefault(name, (partial, mine[name]))
        fields = tuple((f, theirs[f.name]) for f in a.fields if not isinstance(theirs[f.name].type, Const))
        rows.append(Row(a, partial, complete, fields))
    return Fragments(union, tuple(rows), enums[EVENT_FIELD], enums[STOP_FIELD], tuple(carried.values()))
