"""`omnimessage schema diff OLD NEW`: every change between two schema versions, classified.

A **reader** breaks when something it must handle appears: a new message or event kind, a new
enum value, a new required field (or a field that becomes required, or a type that widens). A
**writer** breaks when something it writes is retired: a kind, an enum value or a field removed,
or a field narrowed. Everything else (an optional field added, a description changed) is
**compatible**. OLD and NEW are protocol versions (`omnimessage.schema.versions.versions()`, derived
from the canonical schema) or paths to schema files. The exit status gates a CI job, as
`buf breaking` and Weaver's `registry diff` do: 0 when nothing breaks (or only what `--allow`
names), 1 when a change breaks a reader or a writer, 2 for a usage error or a schema it cannot
read (a `$ref` or `oneOf` cycle, an enum of lists, a keyword of the wrong JSON type: one line,
never a traceback).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["CLASSES", "Change", "MalformedSchema", "diff", "facts", "load", "render_json", "render_text"]

READER: Final = "reader-breaking"
WRITER: Final = "writer-breaking"
COMPATIBLE: Final = "compatible"
CLASSES: Final = (READER, WRITER, COMPATIBLE)


@dataclass(frozen=True, slots=True)
class Change:
    kind: str
    """kind-added, kind-removed, value-added, value-removed, field-added, field-removed,
    field-required, field-optional, field-type-changed."""
    where: str
    """The schema object (`$defs` name, `name.field` for a field's own enum)."""
    what: str
    classes: tuple[str, ...]

    @property
    def message(self) -> str:
        verb = self.kind.split("-", 1)[1].replace("-", " ")
        noun = self.kind.split("-", 1)[0]
        return f"{noun} {self.what} {verb} ({self.where})"


class MalformedSchema(ValueError):
    """A schema whose shape the diff cannot read (a `$ref` or `oneOf` cycle, an enum of lists, a
    member that is not the JSON type the keyword needs): exit status 2, never 1."""


def _obj(node: Any, where: str) -> dict[str, Any]:
    if not isinstance(node, dict):
        raise MalformedSchema(f"{where} is a {type(node).__name__}, not an object")
    return node


def _list(node: Any, where: str) -> list[Any]:
    if not isinstance(node, list):
        raise MalformedSchema(f"{where} is a {type(node).__name__}, not an array")
    return node


def _ref(node: dict[str, Any]) -> str | None:
    r = node.get("$ref")
    return r.rsplit("/", 1)[-1] if isinstance(r, str) else None


def _type_sig(doc: dict[str, Any], node: Any, seen: frozenset[str] = frozenset()) -> str:
    """A field's type, as a comparable string (references resolved to their shape, not their name)."""
    node = _obj(node, "a property schema")
    ref = _ref(node)
    if ref is not None:
        if ref in seen:
            raise MalformedSchema(f"$ref cycle through $defs/{ref}")
        target = _obj(doc["$defs"].get(ref, {}), f"$defs/{ref}")
        if "enum" in target or "properties" in target or "oneOf" in target:
            return f"ref:{ref}"
        return _type_sig(doc, target, seen | {ref})
    if "const" in node:
        return f"const:{node['const']}"
    if "anyOf" in node:
        return "anyOf(" + ",".join(sorted(_type_sig(doc, o, seen) for o in _list(node["anyOf"], "anyOf"))) + ")"
    t = node.get("type")
    if t == "array":
        return f"array<{_type_sig(doc, node.get('items', {}), seen)}>"
    bounds = [f"{k}={node[k]}" for k in ("minimum", "maximum", "minItems") if k in node]
    return str(t) + (f"[{','.join(bounds)}]" if bounds else "")


def facts(doc: dict[str, Any]) -> dict[str, Any]:
    """What a diff compares: the kinds of each union (by `type` const), every object's fields
    (required, type), every enum's values (a def's, or a field's own)."""
    defs: dict[str, Any] = _obj(doc.get("$defs", {}), "$defs")
    kinds: dict[str, set[str]] = {}
    fields: dict[str, dict[str, tuple[bool, str]]] = {}
    enums: dict[str, set[Any]] = {}

    def members(union: dict[str, Any], path: tuple[str, ...]) -> Iterator[str]:
        for o in _list(union.get("oneOf", []), f"$defs/{path[-1]}/oneOf"):
            name = _ref(_obj(o, f"an item of $defs/{path[-1]}/oneOf"))
            d = _obj(defs.get(name or "", {}), f"$defs/{name}")
            if "oneOf" in d and "properties" not in d:
                if name in path:
                    raise MalformedSchema(f"oneOf cycle through $defs/{name}")
                yield from members(d, (*path, name or ""))
            else:
                props = _obj(d.get("properties", {}), f"$defs/{name}/properties")
                const = _obj(props.get("type", {}), f"$defs/{name}/properties/type").get("const")
                if isinstance(const, str):
                    yield const
                elif name:
                    yield name

    for name, d in defs.items():
        d = _obj(d, f"$defs/{name}")
        if "oneOf" in d and "properties" not in d:
            kinds[name] = set(members(d, (name,)))
        if "enum" in d:
            enums[name] = _enum(d["enum"], f"$defs/{name}/enum")
        if "properties" in d:
            req = set(x for x in _list(d.get("required", []), f"$defs/{name}/required") if isinstance(x, str))
            fields[name] = {}
            for p, pd in _obj(d["properties"], f"$defs/{name}/properties").items():
                pd = _obj(pd, f"$defs/{name}/properties/{p}")
                if p == "type" and "const" in pd:
                    continue
                fields[name][p] = (p in req, _type_sig(doc, pd))
                if "enum" in pd:
                    enums[f"{name}.{p}"] = _enum(pd["enum"], f"$defs/{name}/properties/{p}/enum")
    return {"kinds": kinds, "fields": fields, "enums": enums}


def _enum(values: Any, where: str) -> set[Any]:
    """An enum's values; only JSON scalars are compared (an enum of lists or objects is malformed here)."""
    for v in _list(values, where):
        if isinstance(v, (list, dict)):
            raise MalformedSchema(f"{where} holds a {type(v).__name__}: the diff compares scalar values only")
    return set(values)


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Every change from `old` to `new`, classified; in a stable order (by where, then what)."""
    a, b = facts(old), facts(new)
    out: list[Change] = []
    for u in sorted(set(a["kinds"]) | set(b["kinds"])):
        ka, kb = a["kinds"].get(u, set()), b["kinds"].get(u, set())
        out += [Change("kind-added", u, repr(k), (READER,)) for k in sorted(kb - ka)]
        out += [Change("kind-removed", u, repr(k), (WRITER,)) for k in sorted(ka - kb)]
    for e in sorted(set(a["enums"]) | set(b["enums"])):
        if e not in a["enums"] or e not in b["enums"]:
            continue  # a new or removed enum comes with its field or kind
        va, vb = a["enums"][e], b["enums"][e]
        out += [Change("value-added", e, repr(v), (READER,)) for v in sorted(vb - va, key=repr)]
        out += [Change("value-removed", e, repr(v), (WRITER,)) for v in sorted(va - vb, key=repr)]
    for obj in sorted(set(a["fields"]) & set(b["fields"])):
        fa, fb = a["fields"][obj], b["fields"][obj]
        for f in sorted(set(fa) | set(fb)):
            if f not in fa:
                required = fb[f][0]
                out.append(Change("field-added", obj, f"{f!r}" + (" (required)" if required else " (optional)"),
                                  (READER,) if required else (COMPATIBLE,)))
            elif f not in fb:
                out.append(Change("field-removed", obj, repr(f), (WRITER,)))
            else:
                (ra, ta), (rb, tb) = fa[f], fb[f]
                if not ra and rb:
                    out.append(Change("field-required", obj, repr(f), (READER, WRITER)))
                elif ra and not rb:
                    out.append(Change("field-optional", obj, repr(f), (READER,)))
                if ta != tb:
                    out.append(Change("field-type-changed", obj, f"{f!r}: {ta} -> {tb}", (READER, WRITER)))
    return out


def load(spec: str) -> tuple[str, dict[str, Any]]:
    """A version id of the canonical schema, or a schema file: (its label, the schema)."""
    from omnimessage.schema.versions import derive, versions

    if spec in versions():
        return spec, derive(spec)
    if os.path.isfile(spec):
        with open(spec, encoding="utf-8") as f:
            doc = json.load(f)
        if not isinstance(doc, dict) or not isinstance(doc.get("$defs"), dict):
            raise ValueError(f"{spec}: not a JSON Schema with $defs")
        return spec, doc
    raise ValueError(f"{spec!r} is neither a protocol version ({', '.join(versions())}) nor a schema file")


def summary(changes: list[Change]) -> dict[str, int]:
    return {c: sum(c in ch.classes for ch in changes) for c in CLASSES}


def render_text(old: str, new: str, changes: list[Change]) -> str:
    from omnimessage.text.sanitize import sanitize

    lines = [f"schema diff {sanitize(old)} -> {sanitize(new)}: {len(changes)} change(s)"]
    for ch in changes:
        lines.append(f"  {'+'.join(ch.classes):34} {sanitize(ch.message)}")
    s = summary(changes)
    lines.append(", ".join(f"{n} {c}" for c, n in s.items()))
    return "\n".join(lines) + "\n"


def render_json(old: str, new: str, changes: list[Change]) -> str:
    doc = {"old": old, "new": new,
           "changes": [{"kind": c.kind, "where": c.where, "what": c.what, "classes": list(c.classes),
                        "message": c.message} for c in changes],
           "summary": summary(changes)}
    return json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
