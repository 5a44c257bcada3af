"""Loads the testee protocol's JSON Schema (conformance/testee-protocol.schema.json) into the model.

The same :class:`~.model.Model` as the message schema's, with `kind` set to
:data:`~.model.TESTEE_PROTOCOL`: each object definition a :class:`~.model.Struct` (its `result`,
`role` or `hello` const a field, not a `type` tag), each `oneOf` of objects a
:class:`~.model.Union_`, each named scalar an :class:`~.model.Alias`. An inline `enum` of strings
is an :class:`~.model.AnyOf` of :class:`~.model.Const`, an integer `const` a
:class:`~.model.Prim` whose minimum is its maximum, `"type": [..., "null"]` an `AnyOf` with
`null`. Patterns are checks, not types: not carried. Anything else raises
:class:`~.loader.SchemaShapeError` naming the JSON pointer, as the message schema's loader does.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from .model import TESTEE_PROTOCOL, Alias, AnyOf, ArrayOf, Const, Field, Model, Prim, Struct, StructRef, TypeRef, Union_

ID_PREFIX = "urn:omnimessage:conformance:testee-protocol:"
SCHEMA_FILE = "testee-protocol.schema.json"  # in the package: omnimessage/conformance/suite/SCHEMA_FILE


class ProtocolShapeError(ValueError):
    """The testee protocol's schema uses a construct the generator does not know."""


def is_testee_protocol(doc: dict[str, Any]) -> bool:
    return str(doc.get("$id", "")).startswith(ID_PREFIX)


def testee_schema_path() -> Path:
    """The testee protocol's schema as the `omnimessage` package carries it (its conformance suite)."""
    spec = importlib.util.find_spec("omnimessage")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(location) / "conformance" / "suite" / SCHEMA_FILE
        if path.is_file():
            return path
    raise FileNotFoundError(f"the omnimessage package carries no conformance/suite/{SCHEMA_FILE}: is it installed?")


def _ref(d: dict[str, Any], where: str) -> str:
    ref = str(d["$ref"])
    if not ref.startswith("#/$defs/"):
        raise ProtocolShapeError(f"{where}: only local $defs references are supported, got {ref!r}")
    return ref[len("#/$defs/") :]


def _kind(d: dict[str, Any]) -> str:
    if "oneOf" in d and "properties" not in d:
        return "union"
    if d.get("type") == "object":
        return "struct"
    return "alias"


def build_testee_model(doc: dict[str, Any]) -> Model:
    defs: dict[str, dict[str, Any]] = doc["$defs"]
    kinds = {name: _kind(d) for name, d in defs.items()}
    model = Model(doc["$id"], doc.get("title", ""), doc.get("description", ""), kind=TESTEE_PROTOCOL,
                  order=tuple(defs), source=doc)

    def type_of(d: dict[str, Any], where: str) -> tuple[TypeRef, str | None]:
        if "$ref" in d:
            name = _ref(d, where)
            if kinds.get(name) == "struct":
                return StructRef(name), None
            if kinds.get(name) == "alias":
                return type_of(defs[name], f"#/$defs/{name}")[0], name
            raise ProtocolShapeError(f"{where}: a reference to {name!r}, which is no object and no scalar")
        if "const" in d:
            value = d["const"]
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise ProtocolShapeError(f"{where}: only string and integer consts are supported")
            return (Const(value) if isinstance(value, str) else Prim("integer", value, value)), None
        if "enum" in d:
            if not all(isinstance(v, str) for v in d["enum"]):
                raise ProtocolShapeError(f"{where}: only enums of strings are supported")
            return AnyOf(tuple(Const(v) for v in d["enum"])), None
        t = d.get("type")
        if isinstance(t, list):
            if t[-1:] != ["null"] or len(t) != 2:
                raise ProtocolShapeError(f"{where}: a list of types must be one type and `null`")
            return AnyOf((type_of({**d, "type": t[0]}, where)[0], Prim("null"))), None
        if t == "array":
            item, _ = type_of(d["items"], f"{where}/items")
            return ArrayOf(item, d.get("minItems", 0), d.get("maxItems")), None
        if t == "string":
            return Prim("string"), None
        if t == "integer":
            return Prim("integer", d.get("minimum"), d.get("maximum")), None
        raise ProtocolShapeError(f"{where}: unsupported construct {sorted(d)}")

    for name, d in defs.items():
        where = f"#/$defs/{name}"
        if "description" not in d:
            raise ProtocolShapeError(f"{where}: every definition needs a description")
        if kinds[name] == "alias":
            model.aliases[name] = Alias(name, d["description"], type_of(d, where)[0])
        elif kinds[name] == "struct":
            required = set(d.get("required", ()))
            unknown = required - set(d.get("properties", {}))
            if unknown:
                raise ProtocolShapeError(f"{where}: required names unknown properties {sorted(unknown)}")
            fields = []
            for pname, pd in d["properties"].items():
                ftype, alias = type_of(pd, f"{where}/properties/{pname}")
                fields.append(Field(pname, ftype, pname in required, pd.get("description", ""), alias))
            model.structs[name] = Struct(name, d["description"], tuple(fields))
        else:
            parts = tuple(_ref(o, f"{where}/oneOf/{i}") for i, o in enumerate(d["oneOf"]))
            strangers = [p for p in parts if kinds.get(p) != "struct"]
            if strangers:
                raise ProtocolShapeError(f"{where}: a union of objects only, not {strangers}")
            model.unions[name] = Union_(name, d["description"], parts, parts)
    return model
