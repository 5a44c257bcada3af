"""What the targets that compile their aggregator table (rust, go) share: the model's `assemblies`
laid out for match arms over the one payload union that carries the streaming partials."""

from __future__ import annotations

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
