"""Python and TypeScript builders agree byte for byte.

The same builder calls, with generated arguments, run through both bindings: every builder the
schema declares (`x-omnimessage-builders`), each optional parameter given or not, verbatim values
empty and non-empty in every input form (JSON text with whitespace, a mapping), non-ASCII text,
integers and `number`s of every spelling. Each call's encoded line must be the same bytes in
both languages. The calls are driven from the generator's model, so a builder added to the
schema is covered without touching this file.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from typing import Any

import msgspec
import pytest
from conftest import ROOT, needs

import omnimessage as om
from omnimessage._generated import models as m
from omnimessage_codegen import load_schema
from omnimessage_codegen.model import (
    AnyOf,
    ArrayOf,
    Builder,
    Const,
    EnumRef,
    Field,
    Model,
    Prim,
    StructRef,
    TypeRef,
    UnionRef,
    Verbatim,
)
from omnimessage_codegen.targets.typescript.builders import camel

TS_DIR = ROOT / "typescript"
NODE = shutil.which("node")
SEED = 20260718
N_CALLS = 3000

pytestmark = needs("node")  # the TypeScript binding runs in node

MODEL: Model = load_schema()
BUILDER_OF = {b.struct: b for b in MODEL.builders}

# Node side: a batch of calls as JSON on stdin, one encoded line (or an error) per call out.
DRIVER = r"""
import { readFileSync } from "node:fs";
const om = await import(process.argv[1]);
const value = (v) => {
  if (Array.isArray(v)) return v.map(value);
  if (v === null || typeof v !== "object") return v;
  if ("$absent" in v) return undefined;
  if ("$call" in v) return call(v);
  if ("$json" in v) return v.$json;
  if ("$map" in v) return Object.fromEntries(Object.entries(v.$map).map(([k, x]) => [k, value(x)]));
  throw new Error("bad value " + JSON.stringify(v));
};
const call = (c) => {
  const args = c.positional.map(value);
  if (c.opts !== null) args.push(Object.fromEntries(Object.entries(c.opts).map(([k, x]) => [k, value(x)])));
  return om[c.$call](...args);
};
const out = [];
for (const c of JSON.parse(readFileSync(0, "utf8"))) {
  try {
    out.push({ line: om.encode(call(c)) });
  } catch (e) {
    out.push({ error: String(e) });
  }
}
process.stdout.write(JSON.stringify(out));
"""


class Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def chance(self, p: float = 0.5) -> bool:
        return self.r.random() < p

    def text(self) -> str:
        alphabet = ["a", "Z", " ", "\n", "\t", '"', "\\", "/", "é", "ß", "中", "日本", "\u2028", "😀", "\x00", "\x1f", "<"]
        return "".join(self.r.choice(alphabet) for _ in range(self.r.randrange(0, 8)))

    def integer(self, lo: int | None, hi: int | None) -> int:
        lo = -(2**53 - 1) if lo is None else lo
        hi = 2**53 - 1 if hi is None else hi
        return self.r.choice([lo, hi, min(max(0, lo), hi), self.r.randint(lo, min(hi, lo + 1000)), self.r.randint(lo, hi)])

    def number(self, lo: int | None) -> int | float:
        pool: list[int | float] = [0, 1, 7, 2**53 - 1, 0.5, 1.5, 0.1, 1e21, 1e-7, 123456789.125, 5e-324, 1.7976931348623157e308]
        if lo is None or lo < 0:
            pool += [-1, -0.5, -1e21]
        return self.r.choice(pool)

    def json_member(self, scalar: bool, depth: int) -> Any:
        kinds = ["str", "int", "bool", "float"] + ([] if scalar or depth > 2 else ["obj", "arr", "null"])
        k = self.r.choice(kinds)
        if k == "str":
            return self.text()
        if k == "int":
            return self.r.randint(-1000, 1000)
        if k == "float":
            return self.r.choice([0.5, 1e21, -2.25])
        if k == "bool":
            return self.chance()
        if k == "null":
            return None
        if k == "arr":
            return [self.json_member(False, depth + 1) for _ in range(self.r.randrange(3))]
        return {self.text(): self.json_member(False, depth + 1) for _ in range(self.r.randrange(3))}

    def verbatim(self, shape: str) -> tuple[Any, Any]:
        """(Python argument, TypeScript argument): empty or not, as text or as a mapping."""
        scalar = shape == "scalar_map"
        members = {} if self.chance(0.3) else {self.text(): self.json_member(scalar, 0) for _ in range(self.r.randrange(1, 4))}
        if self.chance():
            body = json.dumps(members, ensure_ascii=self.chance(), separators=self.r.choice([(",", ":"), (", ", " : ")]))
            if not members:
                body = self.r.choice(["{}", "{ }", "{\n}", "\t{ \r\n }  "])
            text = self.r.choice(["", " ", "\n"]) + body + self.r.choice(["", " ", "\t"])
            return text, text
        # a mapping, written the way JSON.stringify writes it
        return members, {"$json": members}

    def value(self, t: TypeRef, f: Field | None = None) -> tuple[Any, Any]:
        if isinstance(t, Prim):
            if t.kind == "string":
                s = self.text()
                return s, s
            if t.kind == "integer":
                i = self.integer(t.minimum, t.maximum)
                return i, i
            if t.kind == "number":
                n = self.number(t.minimum)
                return n, n
            if t.kind == "boolean":
                b = self.chance()
                return b, b
            return None, None
        if isinstance(t, EnumRef):
            v = self.r.choice(MODEL.enums[t.name].values)
            return v, v
        if isinstance(t, AnyOf):
            return self.value(self.r.choice(t.options))
        if isinstance(t, ArrayOf):
            n = self.r.randrange(t.min_items, t.min_items + 3)
            pairs = [self.value(t.item) for _ in range(n)]
            return [p for p, _ in pairs], [q for _, q in pairs]
        if isinstance(t, Verbatim):
            return self.verbatim(t.shape)
        if isinstance(t, StructRef):
            b = BUILDER_OF.get(t.name)
            if b is not None:
                return self.call(b, top=False)
            st = MODEL.structs[t.name]
            py: dict[str, Any] = {}
            ts: dict[str, Any] = {}
            for sf in st.fields:
                if sf.required or self.chance():
                    py[sf.name], ts[sf.name] = self.value(sf.type, sf)
            return getattr(m, t.name)(**py), {"$map": ts}
        if isinstance(t, (UnionRef, Const)):
            raise AssertionError(f"no builder parameter of type {t!r}")
        raise AssertionError(t)

    def call(self, b: Builder, top: bool = True) -> tuple[Any, Any]:
        """(the Python result, the TypeScript call)."""
        st = MODEL.structs[b.struct]
        fields = {f.name: f for f in st.fields}
        fn = getattr(om, b.name)
        pos_py: list[Any] = []
        pos_ts: list[Any] = []
        for name in b.positional:
            f = fields[name]
            if f.required or name in dict(b.defaults) or self.chance():
                p, q = self.value(f.type, f)
            else:
                p, q = None, {"$absent": True}
            pos_py.append(p)
            pos_ts.append(q)
        kw_py: dict[str, Any] = {}
        kw_ts: dict[str, Any] = {}
        for name in b.keyword:
            f = fields[name]
            if (f.required and name not in dict(b.defaults)) or self.chance():
                kw_py[b.param(name)], kw_ts[camel(b.param(name))] = self.value(f.type, f)
        enveloped = MODEL.envelope_of(b.struct) is not None
        if enveloped:
            ts = self.r.choice(["2026-07-18T03:10:22.531Z", "2026-12-31T23:59:59.999Z", "t"])
            kw_py["timestamp"] = kw_ts["timestamp"] = ts
        has_opts = bool(b.keyword) or enveloped
        return fn(*pos_py, **kw_py), {"$call": camel(b.name), "positional": pos_ts, "opts": kw_ts if has_opts else None}


def _calls(n: int) -> tuple[list[bytes], list[dict[str, Any]]]:
    g = Gen(SEED)
    top = [b for b in MODEL.builders if MODEL.envelope_of(b.struct) is not None]
    py_lines: list[bytes] = []
    ts_calls: list[dict[str, Any]] = []
    for i in range(n):
        b = top[i % len(top)]  # every builder, round robin
        msg, call = g.call(b)
        py_lines.append(om.encode(msg))
        ts_calls.append(call)
    return py_lines, ts_calls


def _typescript(calls: list[dict[str, Any]]) -> list[dict[str, str]]:
    if not (TS_DIR / "dist" / "index.js").is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail("typescript/dist is not built and npm is missing: run `make setup`")
        subprocess.run([npm, "run", "--silent", "build"], cwd=TS_DIR, check=True)
    assert NODE is not None
    proc = subprocess.run(
        [NODE, "--input-type=module", "-e", DRIVER, (TS_DIR / "dist" / "index.js").as_uri()],
        input=json.dumps(calls).encode(),
        capture_output=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    out: list[dict[str, str]] = json.loads(proc.stdout)
    return out


def test_every_builder_gives_the_same_bytes_in_python_and_typescript() -> None:
    py_lines, calls = _calls(N_CALLS)
    ts = _typescript(calls)
    assert len(ts) == len(py_lines)
    covered = {c["$call"] for c in calls}
    assert covered == {camel(b.name) for b in MODEL.builders if MODEL.envelope_of(b.struct) is not None}
    bad = [
        (call["$call"], py.decode(), res.get("line", res.get("error")))
        for py, call, res in zip(py_lines, calls, ts, strict=True)
        if res.get("line", "").encode() != py
    ]
    assert not bad, f"{len(bad)} of {len(calls)} calls differ; first: {bad[:3]}"


def test_the_generated_calls_reach_every_option() -> None:
    """Each optional parameter is given in some calls and left out in others; verbatim values come
    both empty and not (so the one rule for empty verbatim values is exercised)."""
    _, calls = _calls(N_CALLS)
    given: dict[str, set[str]] = {}
    for c in calls:
        given.setdefault(c["$call"], set()).update((c["opts"] or {}).keys())
    for b in MODEL.builders:
        if MODEL.envelope_of(b.struct) is None:
            continue
        assert {camel(b.param(k)) for k in b.keyword} <= given[camel(b.name)], b.name
    lines = b"\n".join(_calls(N_CALLS)[0])
    assert b'"fidelity":' in lines and b'"output":{' in lines and b'"parameters":{' in lines
    empties = [c for c in calls if "fidelity" in (c["opts"] or {}) and c["opts"]["fidelity"] in ({"$json": {}}, "{}", " {}")]
    assert empties


def test_python_builders_decode_back() -> None:
    """Every generated line is a valid message that re-encodes to itself."""
    for line in _calls(300)[0]:
        assert om.encode(om.decode(line)) == line
        msgspec.json.decode(line)
