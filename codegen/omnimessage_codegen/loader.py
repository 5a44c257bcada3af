"""Loads the canonical JSON Schema into the intermediate model.

Only the constructs the OmniMessage schema uses are understood; anything else raises
:class:`SchemaShapeError` naming the JSON pointer, so a schema change that a template
cannot express is caught at generation time.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from .model import (
    EVENT_FIELD,
    SEGMENT_KEY_FIELD,
    STOP_FIELD,
    Alias,
    AnyOf,
    ArrayOf,
    Assembled,
    Assembly,
    Builder,
    Const,
    Enum,
    EnumRef,
    Envelope,
    Field,
    Guard,
    Model,
    Prim,
    Rejection,
    RejectionRule,
    Struct,
    StructRef,
    TypeRef,
    Union_,
    UnionRef,
    Verbatim,
)
from .testee_loader import build_testee_model, is_testee_protocol, testee_schema_path

VERBATIM_KEYWORD = "x-omnimessage-verbatim"
FRAGMENT_KEYWORD = "x-omnimessage-fragment-of"
BUILDERS_KEYWORD = "x-omnimessage-builders"
GUARD_KEYWORD = "x-omnimessage-guard"
SCHEMA_FILE = "omnimessage.schema.json"  # in the `omnimessage` package: omnimessage/schema/SCHEMA_FILE


class SchemaShapeError(ValueError):
    """The schema uses a construct the generator does not know."""


def schema_path() -> Path:
    """Path of the canonical schema: package data of the `omnimessage` runtime, as `omnimessage schema` prints it.

    Found without importing the runtime (whose generated code this generator writes, so it must
    work while that code is stale or broken).
    """
    spec = importlib.util.find_spec("omnimessage")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(location) / "schema" / SCHEMA_FILE
        if path.is_file():
            return path
    raise FileNotFoundError(f"the omnimessage package carries no schema/{SCHEMA_FILE}: is it installed?")


def load_schema(path: Path | None = None) -> Model:
    """The model of a schema file (default: the canonical schema); the testee protocol's schema
    (its `$id` says so) is read by :mod:`.testee_loader` into a model of kind `testee-protocol`."""
    doc = json.loads((path or schema_path()).read_text(encoding="utf-8"))
    return build_testee_model(doc) if is_testee_protocol(doc) else build_model(doc)


def load_testee_protocol() -> Model:
    """The model of the testee protocol's schema the `omnimessage` package carries."""
    return load_schema(testee_schema_path())


def load_protocol(version: str) -> Model:
    """The model of one protocol version's schema, as `omnimessage schema --protocol VERSION` prints
    it (derived from the canonical schema's version marks by the runtime's `omnimessage.schema.versions`,
    imported here: unlike :func:`load_schema`, this needs an importable runtime). Raises
    `ValueError` naming the known versions for a version the schema does not list."""
    from omnimessage.schema.versions import derive, versions

    if version not in versions():
        raise ValueError(f"unknown protocol {version!r}; known: {', '.join(versions())}")
    return build_model(derive(version))


def _ref_name(ref: str, where: str) -> str:
    prefix = "#/$defs/"
    if not ref.startswith(prefix):
        raise SchemaShapeError(f"{where}: only local $defs references are supported, got {ref!r}")
    return ref[len(prefix) :]


def _kind(d: dict[str, Any]) -> str:
    if "oneOf" in d and "type" not in d:
        return "union"
    if d.get("type") == "string" and "enum" in d:
        return "enum"
    if d.get("type") == "object" and "properties" in d:
        return "struct"
    return "alias"


def _rejection(name: str, r: dict[str, Any]) -> Rejection:
    rule = r.get("rule")
    if rule is None:
        return Rejection(name, bool(r["lexical"]), r["description"])
    where = f"#/x-omnimessage-rejections/{name}/rule"
    keys = ("id", "name", "summary", "explanation", "hint")
    if sorted(rule) != sorted(keys) or not all(isinstance(rule[k], str) for k in keys):
        raise SchemaShapeError(f"{where}: a rule needs exactly the strings {', '.join(keys)}")
    return Rejection(name, bool(r["lexical"]), r["description"], RejectionRule(*(rule[k] for k in keys)))


def build_model(doc: dict[str, Any]) -> Model:
    defs: dict[str, dict[str, Any]] = doc["$defs"]
    kinds = {name: _kind(d) for name, d in defs.items()}
    model = Model(
        schema_id=doc["$id"],
        title=doc.get("title", ""),
        description=doc.get("description", ""),
        order=tuple(defs),
        rejections=tuple(_rejection(name, r) for name, r in doc.get("x-omnimessage-rejections", {}).items()),
        limits=dict(doc.get("x-omnimessage-limits", {})),
        source=doc,
    )

    def type_of(d: dict[str, Any], where: str) -> tuple[TypeRef, str | None]:
        if "$ref" in d:
            name = _ref_name(d["$ref"], where)
            kind = kinds.get(name)
            if kind == "enum":
                return EnumRef(name), None
            if kind == "struct":
                return StructRef(name), None
            if kind == "union":
                return UnionRef(name), None
            if kind == "alias":
                inner, _ = type_of(defs[name], f"#/$defs/{name}")
                if isinstance(inner, Verbatim):
                    inner = Verbatim(inner.shape, alias=name)
                return inner, name
            raise SchemaShapeError(f"{where}: unknown reference {name!r}")
        if "const" in d:
            if not isinstance(d["const"], str):
                raise SchemaShapeError(f"{where}: only string consts are supported")
            return Const(d["const"]), None
        if "anyOf" in d:
            opts = tuple(type_of(o, f"{where}/anyOf/{i}")[0] for i, o in enumerate(d["anyOf"]))
            return AnyOf(opts), None
        t = d.get("type")
        if d.get(VERBATIM_KEYWORD):
            if t != "object":
                raise SchemaShapeError(f"{where}: verbatim values must be objects")
            ap = d.get("additionalProperties")
            return Verbatim("scalar_map" if isinstance(ap, dict) else "object"), None
        if t == "array":
            item, _ = type_of(d["items"], f"{where}/items")
            return ArrayOf(item, d.get("minItems", 0)), None
        if t in ("string", "boolean", "null"):
            return Prim(t), None
        if t in ("integer", "number"):
            return Prim(t, d.get("minimum"), d.get("maximum")), None
        raise SchemaShapeError(f"{where}: unsupported construct {sorted(d)}")

    for name, d in defs.items():
        where = f"#/$defs/{name}"
        if "description" not in d:
            raise SchemaShapeError(f"{where}: every definition needs a description")
        kind = kinds[name]
        if kind == "enum":
            model.enums[name] = Enum(name, d["description"], tuple(d["enum"]))
        elif kind == "alias":
            model.aliases[name] = Alias(name, d["description"], type_of(d, where)[0])
        elif kind == "struct":
            if d.get("additionalProperties") is not False:
                raise SchemaShapeError(f"{where}: protocol objects must set additionalProperties: false")
            required = set(d.get("required", []))
            fields: list[Field] = []
            tag = None
            for pname, pd in d["properties"].items():
                pwhere = f"{where}/properties/{pname}"
                if "description" not in pd:
                    raise SchemaShapeError(f"{pwhere}: every property needs a description")
                ftype, alias = type_of(pd, pwhere)
                if pname == "type" and isinstance(ftype, Const):
                    tag = ftype.value
                    continue
                fields.append(Field(pname, ftype, pname in required, pd["description"], alias))
            unknown = required - set(d["properties"])
            if unknown:
                raise SchemaShapeError(f"{where}: required names unknown properties {sorted(unknown)}")
            frag = d.get(FRAGMENT_KEYWORD)
            fragment_of = (str(frag["payload"]), str(frag["field"])) if frag else None
            model.structs[name] = Struct(
                name, d["description"], tuple(fields), tag, tuple(d.get("examples", ())), fragment_of
            )

    for name, d in defs.items():
        if kinds[name] == "union":
            parts = tuple(_ref_name(o["$ref"], f"#/$defs/{name}/oneOf") for o in d["oneOf"])
            model.unions[name] = Union_(name, d["description"], (), parts)

    def flatten(name: str) -> tuple[str, ...]:
        if name in model.unions:
            return tuple(m for p in model.unions[name].parts for m in flatten(p))
        return (name,)

    for name, u in list(model.unions.items()):
        members = flatten(name)
        for m in members:
            if model.structs[m].tag is None:
                raise SchemaShapeError(f"#/$defs/{m}: union members need a `type` const discriminator")
        model.unions[name] = Union_(u.name, u.description, members, u.parts)

    for st in model.structs.values():
        if st.fragment_of is None:
            continue
        complete, frag_field = st.fragment_of
        where = f"#/$defs/{st.name}/{FRAGMENT_KEYWORD}"
        if complete not in model.structs:
            raise SchemaShapeError(f"{where}: unknown payload {complete!r}")
        for owner in (st, model.structs[complete]):
            f = next((f for f in owner.fields if f.name == frag_field), None)
            if f is None or f.type != Prim("string") or not f.required:
                raise SchemaShapeError(f"{where}: {owner.name} needs a required string field {frag_field!r}")

    envelopes = []
    for i, o in enumerate(doc["oneOf"]):
        name = _ref_name(o["$ref"], f"#/oneOf/{i}")
        st = model.structs[name]
        payload = next(f for f in st.fields if f.name == "payload")
        target = payload.type
        if not isinstance(target, (StructRef, UnionRef)) or st.tag is None:
            raise SchemaShapeError(f"#/$defs/{name}: an envelope needs a `type` const and a payload reference")
        envelopes.append(Envelope(st, target.name))
    model.envelopes = tuple(envelopes)
    model.builders = tuple(
        _builder(model, bname, name, spec)
        for name, d in defs.items()
        for bname, spec in d.get(BUILDERS_KEYWORD, {}).items()
    )
    model.guards = tuple(_guard(model, name, d[GUARD_KEYWORD]) for name, d in defs.items() if GUARD_KEYWORD in d)
    model.assemblies = tuple(_assembly(model, st) for st in model.structs.values() if st.fragment_of is not None)
    return model


def _assembly(model: Model, partial: Struct) -> Assembly:
    """Where each field of a partial's complete payload comes from (see :class:`Assembly`)."""
    assert partial.fragment_of is not None
    complete = model.structs[partial.fragment_of[0]]
    text = partial.fragment_of[1]
    where = f"#/$defs/{partial.name}/{FRAGMENT_KEYWORD}"
    env, env_c = model.envelope_of(partial.name), model.envelope_of(complete.name)
    if env is None or env != env_c:
        raise SchemaShapeError(f"{where}: {partial.name} and {complete.name} need the same envelope")
    theirs = {f.name: f for f in partial.fields}
    event = theirs.get(EVENT_FIELD)
    if event is None or not event.required or not isinstance(event.type, EnumRef):
        raise SchemaShapeError(f"{where}: {partial.name} needs a required enum field {EVENT_FIELD!r}")
    fields = []
    for f in complete.fields:
        mine = theirs.get(f.name)
        if f.name == text:
            fields.append(Assembled(f.name, "text"))
        elif f.name == STOP_FIELD and mine is not None and not f.required and not mine.required:
            fields.append(Assembled(f.name, "stop"))
        elif mine is None:
            if f.required:
                raise SchemaShapeError(
                    f"{where}: {complete.name}.{f.name} is required but {partial.name} has no such field"
                )
            fields.append(Assembled(f.name, "absent"))
        elif isinstance(mine.type, Const):
            fields.append(Assembled(f.name, "fixed", mine.type.value))
        elif not mine.required and not f.required and isinstance(f.type, ArrayOf) and mine.type == f.type:
            fields.append(Assembled(f.name, "carry"))  # not incremental: the one fragment that has it
        elif mine.type == f.type and (mine.required or not f.required):
            fields.append(Assembled(f.name, "copy"))
        else:
            raise SchemaShapeError(f"{where}: no rule assembles {complete.name}.{f.name} from {partial.name}.{f.name}")
    key = SEGMENT_KEY_FIELD if SEGMENT_KEY_FIELD in theirs else None
    return Assembly(partial.name, complete.name, env.struct.name, text, key, tuple(fields))


def _guard(model: Model, name: str, spec: dict[str, Any]) -> Guard:
    where = f"#/$defs/{name}/{GUARD_KEYWORD}"
    if set(spec) - {"python", "typescript", "doc", "typescript_payload", "payload_doc"}:
        raise SchemaShapeError(f"{where}: unknown keys {sorted(spec)}")
    envelope = next((e.struct.name for e in model.envelopes if e.struct.name == name), None)
    if envelope is None and name in model.unions:
        members = set(model.unions[name].members)
        envelope = next((e.struct.name for e in model.envelopes if members <= set(model.payload_members(e))), None)
    if envelope is None:
        raise SchemaShapeError(f"{where}: a guard belongs on an envelope or a payload union")
    return Guard(
        name,
        envelope,
        spec["python"],
        spec["typescript"],
        spec.get("doc", ""),
        spec.get("typescript_payload"),
        spec.get("payload_doc", ""),
    )


def _builder(model: Model, name: str, struct: str, spec: dict[str, Any]) -> Builder:
    where = f"#/$defs/{struct}/{BUILDERS_KEYWORD}/{name}"
    st = model.structs.get(struct)
    if st is None:
        raise SchemaShapeError(f"{where}: builders belong on objects")
    unknown_keys = set(spec) - {"doc", "positional", "keyword", "fixed", "defaults", "params"}
    if unknown_keys:
        raise SchemaShapeError(f"{where}: unknown keys {sorted(unknown_keys)}")
    b = Builder(
        name,
        struct,
        str(spec.get("doc", "")),
        tuple(spec.get("positional", ())),
        tuple(spec.get("keyword", ())),
        tuple(spec.get("fixed", {}).items()),
        tuple(spec.get("defaults", {}).items()),
        tuple(spec.get("params", {}).items()),
    )
    fields = {f.name: f for f in st.fields}
    given = [*b.positional, *b.keyword]
    fixed = [k for k, _ in b.fixed]
    named = [*given, *fixed, *(k for k, _ in b.defaults), *(k for k, _ in b.params)]
    strangers = sorted({n for n in named if n not in fields})
    if strangers:
        raise SchemaShapeError(f"{where}: names no field of {struct}: {strangers}")
    if len(set(given + fixed)) != len(given + fixed):
        raise SchemaShapeError(f"{where}: a field is given twice (positional, keyword, fixed)")
    if not {k for k, _ in b.defaults} <= set(given):
        raise SchemaShapeError(f"{where}: defaults only for parameters")
    missing = [f.name for f in st.fields if f.required and f.name not in given + fixed]
    if missing:
        raise SchemaShapeError(f"{where}: required fields {missing} are neither parameters nor fixed")
    return b
