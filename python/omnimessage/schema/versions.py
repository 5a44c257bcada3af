"""Protocol versions, read from the schema's version marks (schema/README.md section 10).

The canonical schema is the newest version. `x-omnimessage-versions` lists every version in
order; `x-omnimessage-version` (`{"since": V}`) marks each payload kind and property,
`x-omnimessage-value-versions` the enum values that came later, `x-omnimessage-retired` what
older versions hold and the newest does not (each with `since` and `until`, the version that
retired it), and `x-omnimessage-behaviours` the stream behaviours the validator keys on.

From those marks this module answers, for a version V: what it is (:func:`resolve`, including the
two spellings `legacy` and `newer` of `validate --legacy` / `--lenient`), which features of a
message are not part of V (:func:`outside`), which version a trace shows (:func:`detect`), and
the schema of V alone (:func:`derive`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from omnimessage.schema.file import schema_text

__all__ = ["AUTO", "LEGACY", "NEWER", "Detection", "Protocol", "Spot", "derive", "detect", "names", "newest",
           "outside", "resolve", "versions"]

LEGACY: Final = "legacy"
"""`--legacy`: every release up to the newest, each retired spelling read as its successor (OM75x)."""
NEWER: Final = "newer"
"""`--lenient`: a release newer than this schema: unknown fields and types are warnings (OM115, OM116)."""
AUTO: Final = "auto"
"""Read the version from the input (:func:`detect`)."""

_ENVELOPE_DEF: Final = {"session_meta": "SessionMetaMessage", "model_msg": "ModelMessage", "event_msg": "EventMessage"}


@cache
def _doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(schema_text())
    return doc


def versions(doc: dict[str, Any] | None = None) -> tuple[str, ...]:
    """Every protocol version, oldest first."""
    return tuple((doc or _doc())["x-omnimessage-versions"])


def newest(doc: dict[str, Any] | None = None) -> str:
    return versions(doc)[-1]


def names() -> tuple[str, ...]:
    """What `--protocol` accepts."""
    return (*versions(), LEGACY, NEWER, AUTO)


def _rank(v: str, doc: dict[str, Any] | None = None) -> int:
    return versions(doc).index(v)


def _since(node: dict[str, Any]) -> str | None:
    mark = node.get("x-omnimessage-version")
    return mark.get("since") if isinstance(mark, dict) else None


@dataclass(frozen=True, slots=True)
class Protocol:
    """How a version reads: `version` (a schema version; the newest for `legacy` / `newer`),
    `legacy` (retired spellings accepted as OM75x warnings), `lenient` (unknown fields and types
    as warnings), `behaviours` (the behaviour ids of `x-omnimessage-behaviours` it has)."""

    name: str
    version: str
    legacy: bool
    lenient: bool
    behaviours: frozenset[str]

    @property
    def gated(self) -> bool:
        """Whether messages are checked against an older version's vocabulary (OM117)."""
        return self.version != newest()


def resolve(name: str | None = None, *, legacy: bool = False, lenient: bool = False) -> Protocol:
    """The protocol `name` stands for (None: the newest), combined with `--legacy` / `--lenient`."""
    doc = _doc()
    name = name or newest(doc)
    if name == LEGACY:
        legacy, name = True, newest(doc)
    elif name == NEWER:
        lenient, name = True, newest(doc)
    elif name not in versions(doc):
        raise ValueError(f"unknown protocol {name!r}: expected one of {', '.join(names())}")
    rank = _rank(name, doc)
    behaviours = frozenset(b for b, spec in doc.get("x-omnimessage-behaviours", {}).items()
                           if _rank(spec["since"], doc) <= rank)
    label = name if not (legacy or lenient) else "+".join([name] + [LEGACY] * legacy + [NEWER] * lenient)
    # an older version reads its own retired spellings: the legacy machinery rewrites them
    return Protocol(label, name, legacy or rank < _rank(newest(doc), doc), lenient, behaviours)


@dataclass(frozen=True, slots=True)
class Spot:
    """A feature of a message with its version range: `since` <= V < `until` (None: still live)."""

    pointer: str
    what: str
    since: str
    until: str | None


def _resolve_ref(doc: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = doc["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _members(doc: dict[str, Any], union: dict[str, Any]) -> Iterable[dict[str, Any]]:
    for o in union.get("oneOf", ()):
        d = _resolve_ref(doc, o)
        if "oneOf" in d and "properties" not in d:
            yield from _members(doc, d)
        else:
            yield d


@cache
def _retired_index() -> dict[tuple[str, str, str], dict[str, Any]]:
    """(def name, 'value' | 'property' | 'kind', name) -> retired entry."""
    out = {}
    for e in _doc().get("x-omnimessage-retired", {}).values():
        where = e["in"].rsplit("/", 1)[-1]
        for kind in ("value", "property", "kind"):
            if kind in e:
                out[(where, kind, e[kind])] = e
    return out


def _payload_def(doc: dict[str, Any], env: str, ptype: object) -> tuple[str | None, dict[str, Any] | None]:
    """The $def name and schema of a payload (by envelope and payload type)."""
    env_def = doc["$defs"].get(_ENVELOPE_DEF.get(env, ""))
    if env_def is None:
        return None, None
    payload = _resolve_ref(doc, env_def["properties"]["payload"])
    if env == "session_meta":
        return "SessionMetaPayload", payload
    for m in _members(doc, payload):
        if m.get("properties", {}).get("type", {}).get("const") == ptype:
            name = next(n for n, d in doc["$defs"].items() if d is m)
            return name, m
    return None, None


def _walk(doc: dict[str, Any], name: str, node: dict[str, Any], value: dict[str, Any], ptr: str,
          out: list[Spot]) -> None:
    props = node.get("properties", {})
    retired = _retired_index()
    for key, v in value.items():
        p = props.get(key)
        here = f"{ptr}/{key}"
        if p is None:
            e = retired.get((name, "property", key))
            if e is not None:
                out.append(Spot(here, f"field {key!r}", e["since"], e["until"]))
            continue
        since = _since(p)
        if since is not None:
            out.append(Spot(here, f"field {key!r}", since, None))
        target = _resolve_ref(doc, p)
        tname = p["$ref"].rsplit("/", 1)[-1] if "$ref" in p else ""
        if "enum" in target and isinstance(v, str):
            _value(target, tname, v, here, out)
        elif target.get("type") == "object" and "properties" in target and isinstance(v, dict):
            _walk(doc, tname, target, v, here, out)
        elif target.get("type") == "array" and isinstance(v, list):
            item = target.get("items", {})
            iname = item["$ref"].rsplit("/", 1)[-1] if "$ref" in item else ""
            inode = _resolve_ref(doc, item)
            for i, elem in enumerate(v[:64]):
                if isinstance(elem, dict) and "properties" in inode:
                    _walk(doc, iname, inode, elem, f"{here}/{i}", out)


def _value(enum: dict[str, Any], name: str, v: str, ptr: str, out: list[Spot]) -> None:
    later = enum.get("x-omnimessage-value-versions", {})
    if v in enum["enum"]:
        since = later.get(v, {}).get("since") or _since(enum)
        if since is not None:
            out.append(Spot(ptr, f"value {v!r}", since, None))
        return
    e = _retired_index().get((name, "value", v))
    if e is not None:
        out.append(Spot(ptr, f"value {v!r}", e["since"], e["until"]))


def features(obj: Any) -> list[Spot]:
    """Every versioned feature a message (as plain JSON values) shows: its kind, its fields, its
    enum values, retired ones included, each with its version range."""
    if not isinstance(obj, dict) or not isinstance(obj.get("payload"), dict):
        return []
    doc = _doc()
    env = obj.get("type")
    payload: dict[str, Any] = obj["payload"]
    ptype = payload.get("type")
    out: list[Spot] = []
    name, node = _payload_def(doc, env if isinstance(env, str) else "", ptype)
    if node is None:
        e = _retired_index().get(("EventPayload", "kind", ptype)) if env == "event_msg" and isinstance(ptype, str) \
            else None
        if e is not None:
            out.append(Spot("/payload/type", f"event {ptype!r}", e["since"], e["until"]))
        return out
    assert name is not None
    since = _since(node)
    if since is not None and env != "session_meta":
        out.append(Spot("/payload/type", f"{'event' if env == 'event_msg' else 'message'} {ptype!r}", since, None))
    _walk(doc, name, node, payload, "/payload", out)
    return out


def outside(obj: Any, version: str) -> list[Spot]:
    """The features of a message that are not part of `version` (introduced later, or retired)."""
    rank = _rank(version)
    return [s for s in features(obj)
            if _rank(s.since) > rank or (s.until is not None and _rank(s.until) <= rank)]


@dataclass(frozen=True, slots=True)
class Detection:
    """What :func:`detect` read: the version chosen, the range every feature seen allows, and why."""

    version: str
    lowest: str
    reason: str
    mixed: bool = False


def detect(messages: Iterable[Any]) -> Detection:
    """The protocol version a sequence of messages (plain JSON values) shows: the newest version
    every versioned feature seen is part of; `mixed` when no single version holds them all."""
    vs = versions()
    lo, hi = 0, len(vs) - 1
    lo_why = hi_why = ""
    for obj in messages:
        for s in features(obj):
            a = _rank(s.since)
            b = (_rank(s.until) - 1) if s.until is not None else len(vs) - 1
            if b < a:
                continue  # never current in a listed version (only `legacy` reads it)
            if a > lo:
                lo, lo_why = a, f"{s.what} (since {s.since})"
            if b < hi:
                hi, hi_why = b, f"{s.what} (retired in {s.until})"
    mixed = lo > hi
    if mixed:
        return Detection(LEGACY, vs[lo], f"no single version holds every feature ({lo_why}; {hi_why}): read as "
                                         f"{LEGACY}", mixed=True)
    why = [w for w in (lo_why, hi_why) if w]
    return Detection(vs[hi], vs[lo], f"the input fits {vs[lo]} to {vs[hi]}"
                     + (f": {'; '.join(why)}" if why else " (no versioned feature narrows it)"))


def derive(version: str, doc: dict[str, Any] | None = None) -> dict[str, Any]:
    """The schema of `version` alone: features introduced later removed, retired ones live in it
    put back (values into their enum, properties into their object, kinds into their union)."""
    src = doc or _doc()
    rank = _rank(version, src)
    out = copy.deepcopy(src)
    out["$id"] = f"{src['$id']}:protocol-{version}"
    out["x-omnimessage-protocol"] = version
    defs = out["$defs"]

    def late(node: dict[str, Any]) -> bool:
        s = _since(node)
        return s is not None and _rank(s, src) > rank

    for name in [n for n, d in defs.items() if late(d) and "properties" in d]:
        del defs[name]
    for d in defs.values():
        if "oneOf" in d:
            d["oneOf"] = [o for o in d["oneOf"] if o.get("$ref", "").rsplit("/", 1)[-1] in defs]
        if "properties" in d:
            gone = [p for p, pd in d["properties"].items() if late(pd)]
            for p in gone:
                del d["properties"][p]
            if "required" in d:
                d["required"] = [r for r in d["required"] if r not in gone]
            for b in d.get("x-omnimessage-builders", {}).values():
                b["keyword"] = [k for k in b["keyword"] if k not in gone]
                b["positional"] = [k for k in b["positional"] if k not in gone]
        if "enum" in d:
            later = d.get("x-omnimessage-value-versions", {})
            first = versions(src)[0]
            d["enum"] = [v for v in d["enum"] if _rank(later.get(v, {}).get("since", first), src) <= rank]
    for e in src.get("x-omnimessage-retired", {}).values():
        if not (_rank(e["since"], src) <= rank < _rank(e["until"], src)):
            continue
        name = e["in"].rsplit("/", 1)[-1]
        target = defs.get(name)
        if target is None:
            continue
        if "value" in e and "enum" in target:
            target["enum"].append(e["value"])
        elif "property" in e and "properties" in target:
            target["properties"][e["property"]] = copy.deepcopy(e["schema"])
            if e.get("required"):
                target.setdefault("required", []).append(e["property"])
            for b in target.get("x-omnimessage-builders", {}).values():  # the version's builders take it
                b["positional" if e.get("required") else "keyword"].append(e["property"])
        elif "kind" in e and "oneOf" in target:
            kname = "".join(w.title() for w in e["kind"].split("_")) + "Payload"
            defs[kname] = copy.deepcopy(e["schema"])
            target["oneOf"].append({"$ref": f"#/$defs/{kname}"})
    unused = [d for d in defs if late(defs[d])]
    for d in unused:
        del defs[d]
    out.pop("x-omnimessage-retired", None)
    return out
