"""The typed intermediate model the templates render from.

It is deliberately small: exactly the shapes the OmniMessage schema uses, so that every
template can be exhaustive over them and anything new in the schema fails loudly in the
loader instead of being rendered wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Prim:
    """A JSON primitive: `string`, `integer`, `number`, `boolean` or `null`."""

    kind: str
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class Const:
    """A single allowed string value (discriminators, fixed roles)."""

    value: str


@dataclass(frozen=True)
class EnumRef:
    name: str


@dataclass(frozen=True)
class StructRef:
    name: str


@dataclass(frozen=True)
class UnionRef:
    name: str


@dataclass(frozen=True)
class ArrayOf:
    item: TypeRef
    min_items: int = 0
    max_items: int | None = None  # read from the testee protocol only (its caps on an answer)


@dataclass(frozen=True)
class AnyOf:
    options: tuple[TypeRef, ...]


@dataclass(frozen=True)
class Verbatim:
    """An open JSON value carried as its exact source bytes.

    `shape` is what the schema still says about it: `object` (any members) or
    `scalar_map` (an object whose member values are strings, numbers or booleans).
    """

    shape: str
    alias: str | None = None


TypeRef = Prim | Const | EnumRef | StructRef | UnionRef | ArrayOf | AnyOf | Verbatim


@dataclass(frozen=True)
class Field:
    name: str
    type: TypeRef
    required: bool
    description: str
    alias: str | None = None  # the named $def the property refers to, when it is a plain alias


@dataclass(frozen=True)
class Struct:
    name: str
    description: str
    fields: tuple[Field, ...]
    tag: str | None = None  # value of the `type` discriminator, when the object has one
    examples: tuple[object, ...] = ()
    fragment_of: tuple[str, str] | None = None  # a streaming partial: (complete struct, fragment field)

    @property
    def optional_fields(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if not f.required)


@dataclass(frozen=True)
class Enum:
    name: str
    description: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Union_:
    """A `oneOf` of structs discriminated by their `type` const (nested unions flattened)."""

    name: str
    description: str
    members: tuple[str, ...]
    parts: tuple[str, ...]  # the direct `oneOf` entries, unions or structs


@dataclass(frozen=True)
class Alias:
    """A named $def that is a plain string/array/verbatim type (Timestamp, Origin, ...)."""

    name: str
    description: str
    type: TypeRef


@dataclass(frozen=True)
class Envelope:
    """An envelope kind: a struct whose `type` const selects the payload union."""

    struct: Struct
    payload: str  # name of the payload struct or union


@dataclass(frozen=True)
class Builder:
    """A builder function (the schema's `x-omnimessage-builders` on a struct).

    `positional` and `keyword` name the struct's fields the caller gives, in signature order;
    `fixed` fields are written with their value and are no parameter; `defaults` are written
    when the caller gives nothing; `params` renames a field's parameter (snake_case). Every
    other optional field stays absent. A verbatim value given empty (`{}`) is left out.
    """

    name: str  # snake_case; each target spells it its own way
    struct: str
    doc: str
    positional: tuple[str, ...]
    keyword: tuple[str, ...]
    fixed: tuple[tuple[str, object], ...] = ()
    defaults: tuple[tuple[str, object], ...] = ()
    params: tuple[tuple[str, str], ...] = ()

    def param(self, field_name: str) -> str:
        return dict(self.params).get(field_name, field_name)


@dataclass(frozen=True)
class Guard:
    """A type guard (the schema's `x-omnimessage-guard` on an envelope or a payload union).

    On an envelope: is a message of that kind. On a payload union: is a message of the
    envelope that admits the union whose payload is a member (and, in TypeScript, is a payload
    a member: `typescript_payload`).
    """

    of: str  # the envelope struct or the payload union
    envelope: str  # the envelope struct the guard narrows to
    python: str
    typescript: str
    doc: str
    typescript_payload: str | None = None
    payload_doc: str = ""


TESTEE_PROTOCOL = "testee-protocol"
"""Model.kind of conformance/testee-protocol.schema.json (loaded by :mod:`.testee_loader`)."""


# The protocol's fields of a streamed segment (wire contract section 4): every partial has an
# `event_type` (start/delta/stop) and may carry a `stop_reason` on its `stop`; `tool_call_id`, where a
# partial has one, tells apart the segments of different tool calls.
EVENT_FIELD = "event_type"
STOP_FIELD = "stop_reason"
SEGMENT_KEY_FIELD = "tool_call_id"


@dataclass(frozen=True)
class Assembled:
    """One field of a complete payload, and where an aggregator takes it from.

    `how` is `text` (the fragments joined), `stop` (the `stop` fragment's `stop_reason`: `completed`
    when it has none, `aborted` when the segment never closed), `fixed` (the partial's constant,
    `value`), `copy` (the last fragment's value, absent when it has none), `carry` (an optional array
    no fragment has in pieces: the last value a fragment carried, an empty one left out) or `absent`
    (fragments do not have it).
    """

    name: str
    how: str
    value: str | None = None


@dataclass(frozen=True)
class Assembly:
    """How the segment of a streaming partial adds up to its complete payload
    (`x-omnimessage-fragment-of`): the complete payload's fields in schema order, each with its source."""

    partial: str  # the partial struct
    complete: str  # the complete struct
    envelope: str  # the envelope struct that carries both
    text: str  # the fragment field
    key: str | None  # SEGMENT_KEY_FIELD when the partial has it
    fields: tuple[Assembled, ...]

    @property
    def carried(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.how == "carry")


@dataclass(frozen=True)
class RejectionRule:
    """The validator rule that reports a rejection category (its entry's `rule`)."""

    id: str  # stable rule id, `OM101`
    name: str  # kebab-case rule name
    summary: str  # one line, for tables
    explanation: str  # what is refused and why
    hint: str  # how to fix a producer


@dataclass(frozen=True)
class Rejection:
    """A category a strict decoder refuses a line with (the schema's `x-omnimessage-rejections`)."""

    name: str
    lexical: bool  # invisible to JSON Schema, which only sees parsed values
    description: str
    rule: RejectionRule | None = None  # absent for categories a reader decides (`truncated`)


@dataclass
class Model:
    schema_id: str
    title: str
    description: str
    kind: str = "message"  # or TESTEE_PROTOCOL: which schema a target renders (Target.schema)
    enums: dict[str, Enum] = field(default_factory=dict)
    structs: dict[str, Struct] = field(default_factory=dict)
    unions: dict[str, Union_] = field(default_factory=dict)
    aliases: dict[str, Alias] = field(default_factory=dict)
    envelopes: tuple[Envelope, ...] = ()
    order: tuple[str, ...] = ()  # $defs order of the schema
    rejections: tuple[Rejection, ...] = ()
    limits: dict[str, int] = field(default_factory=dict)
    builders: tuple[Builder, ...] = ()
    guards: tuple[Guard, ...] = ()
    assemblies: tuple[Assembly, ...] = ()  # one per streaming partial, in schema order
    source: dict[str, Any] = field(default_factory=dict, repr=False)  # the schema document itself

    @property
    def protocol(self) -> str | None:
        """The protocol version the schema describes: `x-omnimessage-protocol` of a version's derived
        schema (`omnimessage schema --protocol V`), else the newest of `x-omnimessage-versions`
        (the canonical schema is the newest version); None for a schema with no versions."""
        pinned = self.source.get("x-omnimessage-protocol")
        if isinstance(pinned, str):
            return pinned
        listed = list(self.source.get("x-omnimessage-versions") or ())
        return str(listed[-1]) if listed else None

    @property
    def versions(self) -> tuple[str, ...]:
        """Every protocol version of the schema, oldest first (`x-omnimessage-versions`): what a runtime
        generated from it accepts bindings of (docs/bindings.md, "Versions"); () for a schema with none."""
        return tuple(str(v) for v in self.source.get("x-omnimessage-versions") or ())

    def envelope_of(self, struct: str) -> Envelope | None:
        """The envelope whose payload admits struct `struct` (None for nested structs)."""
        return next((e for e in self.envelopes if struct in self.payload_members(e)), None)

    def payload_members(self, envelope: Envelope) -> tuple[str, ...]:
        """The payload struct names an envelope admits."""
        if envelope.payload in self.unions:
            return self.unions[envelope.payload].members
        return (envelope.payload,)

    def by_envelope(self) -> dict[str, list[str]]:
        """Per envelope kind (its `type`): the structs and unions below it, each nested struct with
        the first envelope that reaches it, every name after the names it refers to; the targets
        that split their codec into one file per envelope group by this."""
        assigned: set[str] = set()
        out: dict[str, list[str]] = {}
        for env in self.envelopes:
            names: list[str] = []

            def visit(name: str, names: list[str] = names) -> None:
                if name in assigned:
                    return
                assigned.add(name)
                if name in self.unions:
                    for m in self.unions[name].members:
                        visit(m)
                    names.append(name)
                    return
                for f in self.structs[name].fields:
                    t = f.type
                    while isinstance(t, ArrayOf):
                        t = t.item
                    if isinstance(t, (StructRef, UnionRef)):
                        visit(t.name)
                names.append(name)

            visit(env.payload)
            visit(env.struct.name)
            out[env.struct.tag or ""] = names
        return out

    def structs_in_dependency_order(self) -> list[Struct]:
        """Structs ordered so that every struct comes after the structs it refers to."""
        seen: set[str] = set()
        out: list[Struct] = []

        def refs(t: TypeRef) -> list[str]:
            if isinstance(t, StructRef):
                return [t.name]
            if isinstance(t, UnionRef):
                return list(self.unions[t.name].members)
            if isinstance(t, ArrayOf):
                return refs(t.item)
            if isinstance(t, AnyOf):
                return [n for o in t.options for n in refs(o)]
            return []

        def visit(name: str) -> None:
            if name in seen:
                return
            seen.add(name)
            for f in self.structs[name].fields:
                for r in refs(f.type):
                    visit(r)
            out.append(self.structs[name])

        for name in self.order:
            if name in self.structs:
                visit(name)
        return out

    def verbatim_locations(self) -> dict[tuple[str, str | None], list[tuple[tuple[str, ...], str]]]:
        """Where verbatim values sit, per (envelope tag, payload tag).

        Paths are relative to the payload; `*` stands for any array index.
        """
        out: dict[tuple[str, str | None], list[tuple[tuple[str, ...], str]]] = {}

        def walk(t: TypeRef, path: tuple[str, ...], acc: list[tuple[tuple[str, ...], str]]) -> None:
            if isinstance(t, Verbatim):
                acc.append((path, t.shape))
            elif isinstance(t, StructRef):
                for f in self.structs[t.name].fields:
                    walk(f.type, (*path, f.name), acc)
            elif isinstance(t, ArrayOf):
                walk(t.item, (*path, "*"), acc)
            elif isinstance(t, AnyOf):
                for o in t.options:
                    walk(o, path, acc)

        for env in self.envelopes:
            assert env.struct.tag is not None
            for member in self.payload_members(env):
                acc: list[tuple[tuple[str, ...], str]] = []
                walk(StructRef(member), (), acc)
                if acc:
                    out[(env.struct.tag, self.structs[member].tag)] = acc
        return out

    def number_paths(self, name: str) -> list[tuple[str, ...]]:
        """Paths (from struct `name`) to `number` values, which take ECMAScript number
        spelling; `*` is any array index."""
        out: list[tuple[str, ...]] = []

        def walk(t: TypeRef, path: tuple[str, ...]) -> None:
            if isinstance(t, Prim) and t.kind == "number":
                out.append(path)
            elif isinstance(t, AnyOf):
                if any(isinstance(o, Prim) and o.kind == "number" for o in t.options):
                    out.append(path)
            elif isinstance(t, StructRef):
                for f in self.structs[t.name].fields:
                    walk(f.type, (*path, f.name))
            elif isinstance(t, ArrayOf):
                walk(t.item, (*path, "*"))

        walk(StructRef(name), ())
        return out
