"""What the cases cover, measured against the canonical schema.

A valid line is parsed and walked with the schema (not with the codec under test): every
`$defs` entry it touches, every property present or absent, every enum value and every
`anyOf` branch is recorded as a *fact*. The same facts are the structural tags of the
manifest, and coverage is the share of the schema's facts that the round-trip cases reach.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omnimessage.schema.file import schema_path

from .suite import Case, Suite

__all__ = ["Coverage", "SchemaWalker", "coverage", "format_coverage", "load_schema_doc", "parse_json"]

VERBATIM = "x-omnimessage-verbatim"
MIN_CASES_PER_CATEGORY = 2


def load_schema_doc(path: Path | None = None) -> dict[str, Any]:
    """The canonical JSON Schema as a dict."""
    if path is None:
        path = schema_path()
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _int(spelling: str) -> int | float:
    # Python refuses int() of more than 4300 digits; such values only occur inside verbatim values.
    return int(spelling) if len(spelling) < 4000 else float(spelling)


def parse_json(data: bytes) -> Any:
    """Parse a (valid) line as a JSON Schema validator would see it."""
    return json.loads(data.decode("utf-8", "surrogatepass"), parse_int=_int)


def _ref(d: dict[str, Any]) -> str | None:
    ref = d.get("$ref")
    return ref.rsplit("/", 1)[-1] if isinstance(ref, str) else None


def _json_type(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


class SchemaWalker:
    """Walks parsed messages with the schema and lists the facts they exhibit."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.defs: dict[str, dict[str, Any]] = doc["$defs"]

    # --- the universe ---------------------------------------------------------

    def reachable(self) -> set[str]:
        """The `$defs` a message can reach from the root. A `$defs` entry nothing refers to (a
        vocabulary only prose names, such as the subset of error codes the reference builders
        write on an abort) is in no message, so no case can cover it."""
        seen: set[str] = set()
        todo: list[Any] = [{k: v for k, v in self.doc.items() if k != "$defs"}]
        while todo:
            node = todo.pop()
            if isinstance(node, list):
                todo.extend(node)
            elif isinstance(node, dict):
                name = _ref(node)
                if name is not None and name not in seen and name in self.defs:
                    seen.add(name)
                    todo.append(self.defs[name])
                todo.extend(v for v in node.values() if isinstance(v, (dict, list)))
        return seen

    def structs(self) -> dict[str, dict[str, Any]]:
        live = self.reachable()
        return {n: d for n, d in self.defs.items() if n in live and d.get("type") == "object" and "properties" in d}

    def enums(self) -> dict[str, list[str]]:
        live = self.reachable()
        return {n: list(d["enum"]) for n, d in self.defs.items() if n in live and "enum" in d}

    def universe(self) -> dict[str, set[str]]:
        """Every fact a complete set of round-trip cases exhibits, by dimension."""
        out: dict[str, set[str]] = {
            "$defs entries": {f"def:{n}" for n in self.reachable()},
            "properties": set(),
            "optional properties present": set(),
            "optional properties absent": set(),
            "enum values": {f"enum:{n}.{v}" for n, vals in self.enums().items() for v in vals},
            "anyOf branches": set(),
        }
        for name, d in self.structs().items():
            required = set(d.get("required", ()))
            for prop, pd in d["properties"].items():
                out["properties"].add(f"field:{name}.{prop}")
                if prop not in required:
                    out["optional properties present"].add(f"field:{name}.{prop}")
                    out["optional properties absent"].add(f"absent:{name}.{prop}")
                for opt in pd.get("anyOf", ()):
                    out["anyOf branches"].add(f"anyof:{name}.{prop}={opt.get('type')}")
        return out

    # --- walking a message ----------------------------------------------------

    def facts(self, msg: Any) -> set[str]:
        """The facts a parsed message exhibits (it is assumed schema-valid)."""
        acc: set[str] = set()
        env = self._pick(self.doc["oneOf"], msg)
        if env is not None:
            self._def(env, msg, acc)
        return acc

    def _pick(self, options: Iterable[dict[str, Any]], value: Any) -> str | None:
        """The struct (or union) among `$ref` options whose `type` const matches the value."""
        for opt in options:
            name = _ref(opt)
            if name is None:
                continue
            d = self.defs[name]
            if "oneOf" in d:
                if self._pick(d["oneOf"], value) is not None:
                    return name
                continue
            tconst = d.get("properties", {}).get("type", {}).get("const")
            if isinstance(value, dict) and (tconst is None or value.get("type") == tconst):
                return name
        return None

    def _def(self, name: str, value: Any, acc: set[str]) -> None:
        acc.add(f"def:{name}")
        d = self.defs[name]
        if "oneOf" in d:
            member = self._pick(d["oneOf"], value)
            if member is not None:
                self._def(member, value, acc)
            return
        if "enum" in d:
            acc.add(f"enum:{name}.{value}")
            return
        if d.get(VERBATIM):
            return
        if d.get("type") == "object" and "properties" in d:
            if "type" in d["properties"] and isinstance(value, dict) and name.endswith("Payload"):
                acc.add(f"kind:{value.get('type')}")
            for prop, pd in d["properties"].items():
                if isinstance(value, dict) and prop in value:
                    acc.add(f"field:{name}.{prop}")
                    self._prop(name, prop, pd, value[prop], acc)
                else:
                    acc.add(f"absent:{name}.{prop}")
            return
        self._schema(d, value, acc, owner=None)

    def _prop(self, owner: str, prop: str, pd: dict[str, Any], value: Any, acc: set[str]) -> None:
        if "anyOf" in pd:
            jt = _json_type(value)
            for opt in pd["anyOf"]:
                if opt.get("type") == jt or (opt.get("type") == "integer" and jt == "number"):
                    acc.add(f"anyof:{owner}.{prop}={opt.get('type')}")
                    break
        self._schema(pd, value, acc, owner=f"{owner}.{prop}")

    def _schema(self, d: dict[str, Any], value: Any, acc: set[str], owner: str | None) -> None:
        name = _ref(d)
        if name is not None:
            self._def(name, value, acc)
            return
        if d.get(VERBATIM):
            return
        if d.get("type") == "array" and isinstance(value, list):
            for item in value:
                self._schema(d["items"], item, acc, owner)


@dataclass
class Coverage:
    """Coverage of the schema by the round-trip cases, and of the categories by rejection cases."""

    dimensions: dict[str, tuple[int, int, list[str]]] = field(default_factory=dict)  # covered, total, missing

    @property
    def complete(self) -> bool:
        return all(covered == total for covered, total, _ in self.dimensions.values())

    @property
    def percent(self) -> float:
        covered = sum(c for c, _, _ in self.dimensions.values())
        total = sum(t for _, t, _ in self.dimensions.values())
        return 100.0 * covered / total if total else 100.0


def case_facts(walker: SchemaWalker, case: Case) -> set[str]:
    """Structural facts of a case whose input is a valid message (empty otherwise)."""
    if case.expect == "reject" or case.mode != "strict" or case.output is None:
        return set()
    return walker.facts(parse_json(case.output))


def coverage(suite: Suite, doc: dict[str, Any] | None = None) -> Coverage:
    walker = SchemaWalker(doc or load_schema_doc())
    seen: set[str] = set()
    for case in suite.cases:
        if case.group == "roundtrip" and case.expect == "identical":
            seen |= case_facts(walker, case)
    cov = Coverage()
    for dim, facts in walker.universe().items():
        missing = sorted(facts - seen)
        cov.dimensions[dim] = (len(facts) - len(missing), len(facts), missing)
    counts: dict[str, int] = {c: 0 for c in walker.doc.get("x-omnimessage-rejections", {})}
    for case in suite.cases:
        if case.expect == "reject" and case.mode == "strict" and case.category in counts:
            counts[case.category] += 1
    short = sorted(f"{c} ({n} case{'s' if n != 1 else ''})" for c, n in counts.items() if n < MIN_CASES_PER_CATEGORY)
    cov.dimensions[f"rejection categories (>= {MIN_CASES_PER_CATEGORY} cases)"] = (
        len(counts) - len(short),
        len(counts),
        short,
    )
    return cov


def format_coverage(cov: Coverage) -> str:
    width = max(len(d) for d in cov.dimensions)
    lines = [f"{'dimension':<{width}}  covered    total  percent"]
    for dim, (covered, total, missing) in cov.dimensions.items():
        pct = 100.0 * covered / total if total else 100.0
        lines.append(f"{dim:<{width}}  {covered:>7}  {total:>7}  {pct:6.1f}%")
        lines.extend(f"{'':<{width}}    missing: {m}" for m in missing)
    lines.append(f"{'total':<{width}}  {'':>7}  {'':>7}  {cov.percent:6.1f}%")
    return "\n".join(lines)
