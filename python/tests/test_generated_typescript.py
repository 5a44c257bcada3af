"""The TypeScript targets where users put them: a fresh project outside the checkout, with its own
package.json and its own pinned `typescript` (installed offline from npm's cache, which `make setup`
filled), the output of `omnimessage generate` in `src/om`, compiled with `tsc --strict` and run.

- `typescript` (full): the project installs the packed tarball (`npm pack` of typescript/, as
  test_npm_package.py makes it). Its program decodes every line of examples/trace.jsonl and
  examples/stream.jsonl with the package's `decode`, holds it as the generated `OmniMessage`,
  re-encodes it to the line's bytes, rebuilds it with the generated builders (one typed call per
  line, written by this test from the decoded message, so `tsc` checks every call) and encodes it
  to the line's bytes again (which the Python builders give for the same call too); the guards
  count the kinds.
  Generated code of another schema (its SCHEMA_ID edited) is refused when it loads.
- `typescript-types`: no omnimessage package at all, and the output imports nothing outside its
  folder. Its program validates every `JSON.parse`d line with the generated validators, tells them
  apart with the guards and `*_VALUES`, and refuses a line with a key removed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import ROOT, needs
from test_bindings_python import blocks, doc_sections
from test_npm_package import TS

import omnimessage as om
from omnimessage_codegen import TARGETS, load_schema
from omnimessage_codegen.model import AnyOf, ArrayOf, Builder, EnumRef, Prim, StructRef, TypeRef, UnionRef, Verbatim
from omnimessage_codegen.targets.typescript.builders import camel

pytestmark = needs("npm")

MODEL = load_schema()


def builder_for(name: str, v: Any) -> Builder | None:
    """The builder of struct `name` whose fixed fields `v` matches best (`userText` for a user's text)."""
    candidates = [b for b in MODEL.builders if b.struct == name]

    def clashes(b: Builder) -> int:  # fixed fields the value holds with another value
        return sum(getattr(v, k, msgspec.UNSET) not in (msgspec.UNSET, x) for k, x in b.fixed)

    return min(candidates, key=clashes, default=None)

EXAMPLES = [ROOT / "examples" / "trace.jsonl", ROOT / "examples" / "stream.jsonl"]


def lines() -> list[bytes]:
    out = []
    for path in EXAMPLES:
        out += [ln for ln in path.read_bytes().split(b"\n") if ln]
    return out


# --- one builder call per decoded message: the TypeScript expression and the Python value -------------

def _value(t: TypeRef, v: Any) -> tuple[Any, str]:
    if isinstance(t, Verbatim):
        text = bytes(v).decode("utf-8")
        return text, json.dumps(text, ensure_ascii=False)
    if isinstance(t, ArrayOf):
        pairs = [_value(t.item, x) for x in v]
        return [p for p, _ in pairs], "[" + ", ".join(e for _, e in pairs) + "]"
    if isinstance(t, (StructRef, UnionRef)) or (isinstance(t, AnyOf) and isinstance(v, msgspec.Struct)):
        return _struct(type(v).__name__, v)
    if isinstance(t, (Prim, EnumRef, AnyOf)):
        return v, json.dumps(v, ensure_ascii=False)
    raise AssertionError(f"no builder argument of type {t!r}")


def _struct(name: str, v: Any) -> tuple[Any, str]:
    b = builder_for(name, v)
    if b is not None:
        return _call(b, v, None)
    fields = [(f, getattr(v, f.name)) for f in MODEL.structs[name].fields if getattr(v, f.name) is not msgspec.UNSET]
    members = [(f.name, _value(f.type, x)) for f, x in fields]
    return v, "{ " + ", ".join(f"{k}: {e}" for k, (_, e) in members) + " }"


def _call(b: Builder, payload: Any, timestamp: str | None) -> tuple[Any, str]:
    """The builder `b` called with what `payload` holds (and `timestamp` for a message)."""
    fields = {f.name: f for f in MODEL.structs[b.struct].fields}
    given = {n: getattr(payload, n) for n in fields if getattr(payload, n) is not msgspec.UNSET}
    pos_py, pos_ts = [], []
    for name in b.positional:
        p, e = _value(fields[name].type, given[name]) if name in given else (None, "undefined")
        pos_py.append(p)
        pos_ts.append(e)
    kw_py: dict[str, Any] = {}
    kw_ts: list[str] = []
    for name in b.keyword:
        if name in given:
            kw_py[b.param(name)], e = _value(fields[name].type, given[name])
            kw_ts.append(f"{camel(b.param(name))}: {e}")
    if timestamp is not None:
        kw_py["timestamp"] = timestamp
        kw_ts.append(f"timestamp: {json.dumps(timestamp)}")
    if b.keyword or timestamp is not None:
        pos_ts.append("{ " + ", ".join(kw_ts) + " }")
    return getattr(om, b.name)(*pos_py, **kw_py), f"om.{camel(b.name)}({', '.join(pos_ts)})"


def rebuild(line: bytes) -> tuple[bytes, str]:
    """(the bytes the Python builders give, the TypeScript expression) for the message on `line`."""
    msg = om.decode(line)
    b = builder_for(type(msg.payload).__name__, msg.payload)
    assert b is not None, f"no builder for {line!r}"
    built, expr = _call(b, msg.payload, msg.timestamp)
    if msg.origin is not msgspec.UNSET:
        built = msgspec.structs.replace(built, origin=msg.origin)
        expr = f"{{ ...{expr}, origin: {json.dumps(list(msg.origin))} }}"
    return om.encode(built), expr


# --- the fresh projects ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tarball(npm_tarball: Path) -> Path:
    """`npm pack` of a fresh copy of typescript/ (no dist/: `prepack` builds it; the session's one
    pack, shared_builds.py)."""
    return npm_tarball


@pytest.fixture(scope="module")
def toolchain(ts_toolchain: list[Path]) -> list[Path]:
    """The pinned typescript and @types/node packed from typescript/node_modules (the session's one
    pack, shared_builds.py): installed offline, no registry metadata needed."""
    return ts_toolchain


def doc_project(root: Path, section: str, toolchain: list[Path], tarball: Path | None, files: dict[str, str]) -> Path:
    """Run docs/bindings.md's example of `section` as written, in `root` (outside the checkout): its
    shell block with npm offline, the tarball and the pinned toolchain in place of the registry's,
    its files (and `files`, this test's programs) copied into the new project before it compiles.
    Checks what the example prints last (npm's own output comes first); returns the project."""
    assert not root.resolve().is_relative_to(ROOT), root
    found = blocks(doc_sections()[section])
    (script,) = [text for lang, _, text in found if lang == "sh"]
    tsconfig = [text for _, name, text in blocks(doc_sections()["typescript"]) if name == "tsconfig.json"]
    seed = root / "files"
    for name, text in {"tsconfig.json": tsconfig[0], **{n: t for _, n, t in found if n}, **files}.items():
        (seed / name).parent.mkdir(parents=True, exist_ok=True)
        (seed / name).write_text(text, encoding="utf-8")
    shutil.copy(EXAMPLES[0], seed / "trace.jsonl")
    edits = [
        (r"^\(cd omnimessage/typescript && npm ci && npm pack\) +# (omnimessage-[0-9.]+\.tgz)\n", ""),  # the fixture packs
        (r"^mkdir app && cd app && ", "mkdir app && cd app && cp -R ../files/. . && "),
        (r"npm install \.\./omnimessage/typescript/omnimessage-[0-9.]+\.tgz", f"npm install {tarball}"),
        (r"npm install --save-dev typescript @types/node", "npm install --save-dev " + " ".join(map(str, toolchain))),
    ]
    for pattern, replacement in edits if tarball is not None else edits[1:2] + edits[3:]:
        m = re.search(pattern, script, re.M)
        assert m, f"docs/bindings.md {section}: no {pattern!r} in\n{script}"
        if m.lastindex:
            assert tarball is not None and m[1] == tarball.name, (m[1], tarball)
        script = re.sub(pattern, replacement.replace("\\", "\\\\"), script, count=1, flags=re.M)
    env = {**os.environ, "npm_config_offline": "true", "npm_config_audit": "false", "npm_config_fund": "false",
           "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=root, capture_output=True, text=True, env=env,
                       timeout=600)
    assert r.returncode == 0, f"docs/bindings.md {section}:\n{script}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    trace = [om.decode(line) for line in EXAMPLES[0].read_bytes().splitlines()]
    complete = sum(map(om.is_complete_model, trace))
    if section == "typescript":
        hi = om.encode(om.user_text("hi", timestamp="2026-07-18T03:10:22.531Z")).decode()
        assert r.stdout.endswith(f"\n{len(trace)} messages, {complete} complete model messages\ntrue\n{hi}\n"), r.stdout
    else:
        assert r.stdout.endswith(f"\n{len(trace)} of {len(trace)} valid, {complete} complete model messages\n"), r.stdout
    return root / "app"


def compile_and_run(project: Path) -> subprocess.CompletedProcess[str]:
    tsc = subprocess.run([str(project / "node_modules" / ".bin" / "tsc"), "-p", "."], cwd=project,
                         capture_output=True, text=True, timeout=300)
    assert tsc.returncode == 0, tsc.stdout + tsc.stderr
    return subprocess.run(["node", "dist/check.js", *map(str, EXAMPLES)], cwd=project, capture_output=True, text=True,
                          timeout=120)


STRICTEST = ["--ignoreConfig", "--noEmit", "--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess",
             "--noUnusedLocals", "--noUnusedParameters", "--noImplicitReturns", "--noPropertyAccessFromIndexSignature",
             "--noImplicitOverride", "--noFallthroughCasesInSwitch", "--module", "nodenext", "--moduleResolution", "nodenext",
             "--target", "es2022", "--lib", "es2022", "--types", ""]


def compiles_under_the_strictest_options(project: Path) -> None:
    """The generated folder alone (with the installed package, for the full flavour), every strict flag on."""
    r = subprocess.run([str(project / "node_modules" / ".bin" / "tsc"), *STRICTEST, "src/om/index.ts"], cwd=project,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def imports(folder: Path) -> set[tuple[str, str]]:
    return {(p.name, m) for p in sorted(folder.glob("*.ts")) for m in re.findall(r'from "([^"]+)"|import "([^"]+)"', p.read_text())
            for m in m if m}


FULL_MAIN = """\
import { readFileSync } from "node:fs";
import { decode, encode } from "omnimessage";
import * as om from "./om/index.js";
import { built, rebuilt } from "./built.js";

const lines: Buffer[] = [];
for (const path of process.argv.slice(2)) {
  const data = readFileSync(path);
  let start = 0;
  for (let i = data.indexOf(10); i !== -1; start = i + 1, i = data.indexOf(10, start)) if (i > start) lines.push(data.subarray(start, i));
}
if (lines.length !== built.length) throw new Error(`${lines.length} lines, ${built.length} built`);
const kinds: Record<string, number> = {};
let same = 0;
lines.forEach((bytes, i) => {
  const msg: om.OmniMessage = decode(bytes);             // the package's codec, the generated types
  if (!Buffer.from(encode(msg)).equals(bytes)) throw new Error(`line ${i + 1}: decode/encode changed the bytes`);
  if (!om.isValidMessage(msg)) throw new Error(`line ${i + 1}: not valid`);
  const kind = om.isSessionMeta(msg) ? "session_meta" : om.isCompleteModelMessage(msg) ? "complete" : om.isPartialMessage(msg) ? "partial" : om.isEventMessage(msg) ? "event" : "?";
  kinds[kind] = (kinds[kind] ?? 0) + 1;
  const again = encode(built[i]!);                         // rebuilt with the generated builders
  if (again !== rebuilt[i]) throw new Error(`line ${i + 1}: built ${again}, the Python builders give ${rebuilt[i]}`);
  if (Buffer.from(again).equals(bytes)) same++;
});
console.log(JSON.stringify({ lines: lines.length, same, kinds, schema: om.SCHEMA_ID, generator: om.GENERATOR_VERSION }));
"""

TYPES_MAIN = """\
import { readFileSync } from "node:fs";
import * as om from "./om/index.js";

const kinds: Record<string, number> = {};
let n = 0;
for (const path of process.argv.slice(2)) {
  for (const line of readFileSync(path, "utf8").split("\\n")) {
    if (!line) continue;
    n++;
    const value: unknown = JSON.parse(line);
    if (!om.isValidMessage(value)) throw new Error(`${path}: line ${n} is not valid`);
    const msg: om.OmniMessage = value;
    const kind = om.isSessionMeta(msg) ? "session_meta" : om.isCompleteModelMessage(msg) ? "complete" : om.isPartialMessage(msg) ? "partial" : om.isEventMessage(msg) ? "event" : "?";
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    if (om.isCompleteModelMessage(msg) && msg.payload.stop_reason !== undefined && !om.STOP_REASON_VALUES.includes(msg.payload.stop_reason)) throw new Error("stop_reason");
    if (om.isModelMessage(msg) && msg.payload.type === "text" && msg.payload.fidelity !== undefined) {
      const plain: { [key: string]: unknown } = msg.payload.fidelity;  // verbatim values are plain objects here
      if (typeof plain !== "object") throw new Error("fidelity");
    }
    const cut: Record<string, unknown> = { ...msg };
    delete cut["timestamp"];
    if (om.isValidMessage(cut)) throw new Error(`line ${n}: valid without its timestamp`);
  }
}
const built: om.ModelMessage<om.TextPayload> = { timestamp: "2026-07-18T03:10:22.531Z", type: "model_msg", payload: { type: "text", role: "user", text: "hi" } };
if (!om.isValidMessage(built) || !om.isCompletePayload(built.payload)) throw new Error("a built message is not valid");
console.log(JSON.stringify({ lines: n, kinds, schema: om.SCHEMA_ID, generator: om.GENERATOR_VERSION }));
"""


def expected_kinds() -> Counter[str]:
    kinds: Counter[str] = Counter()
    for line in lines():
        msg = om.decode(line)
        kinds["session_meta" if om.is_session_meta(msg) else "complete" if om.is_complete_model(msg)
              else "partial" if om.is_partial(msg) else "event"] += 1
    return kinds


def test_the_full_flavour_works_in_a_fresh_project_on_the_packed_package(tarball: Path, toolchain: list[Path],
                                                                       tmp_path: Path) -> None:
    pairs = [rebuild(line) for line in lines()]
    built = (
        'import type { OmniMessage } from "./om/index.js";\nimport * as om from "./om/index.js";\n\n'
        "export const built: OmniMessage[] = [\n" + "".join(f"  {e},\n" for _, e in pairs) + "];\n\n"
        "export const rebuilt: string[] = " + json.dumps([b.decode() for b, _ in pairs], ensure_ascii=False, indent=1) + ";\n"
    )
    project = doc_project(tmp_path, "typescript", toolchain, tarball, {"src/check.ts": FULL_MAIN, "src/built.ts": built})
    om_dir = project / "src" / "om"
    outside = {(f, m) for f, m in imports(om_dir) if not m.startswith("./")}
    assert outside == {("runtime.ts", "omnimessage/runtime")}, outside  # the package by its name, never ../
    compiles_under_the_strictest_options(project)
    run = compile_and_run(project)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    n = len(lines())
    assert report["lines"] == n == 63 and report["kinds"] == dict(expected_kinds()), report
    assert [b for b, _ in pairs] == lines()  # the Python builders rebuild every line byte for byte...
    assert report["same"] == n, report  # ...and so do the generated TypeScript ones, in the user's project
    assert (report["schema"], report["generator"]) == (MODEL.schema_id, om.__version__)

    # generated from another schema: refused when it loads, with what to do
    schema_ts = om_dir / "schema.ts"
    schema_ts.write_text(schema_ts.read_text().replace(f'SCHEMA_ID = "{MODEL.schema_id}"', 'SCHEMA_ID = "urn:omnimessage:schema:2.0.0"'))
    run = compile_and_run(project)
    assert run.returncode != 0
    assert "IncompatibleSchemaError: omnimessage: generated code (schema \"urn:omnimessage:schema:2.0.0\"" in run.stderr, run.stderr
    assert "schema major versions differ" in run.stderr and f"Regenerate it with omnimessage {om.__version__}" in run.stderr


def test_the_types_flavour_needs_no_package_and_imports_nothing_outside_its_folder(toolchain: list[Path],
                                                                                  tmp_path: Path) -> None:
    project = doc_project(tmp_path, "typescript-types", toolchain, None, {"src/check.ts": TYPES_MAIN})
    assert not (project / "node_modules" / "omnimessage").exists()
    om_dir = project / "src" / "om"
    assert sorted(p.name for p in om_dir.iterdir()) == ["guards.ts", "index.ts", "schema.ts", "types.ts", "validate.ts"]
    assert all(m.startswith("./") and m.endswith(".js") and "/" not in m[2:] for _, m in imports(om_dir)), imports(om_dir)
    compiles_under_the_strictest_options(project)
    run = compile_and_run(project)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report == {"lines": len(lines()), "kinds": dict(expected_kinds()), "schema": MODEL.schema_id,
                      "generator": om.__version__}, report



GOLDEN = ROOT / "codegen" / "tests" / "golden"


def _typescript_goldens() -> list[tuple[str, str]]:
    """(golden schema, TypeScript target) for every golden set: a message schema's two flavours, the
    testee protocol's one target (each target renders one kind of schema: codegen's test_golden)."""
    pairs = []
    for folder in sorted(p for p in GOLDEN.iterdir() if (p / "schema.json").is_file()):
        kind = load_schema(folder / "schema.json").kind
        targets = [t for t in ("typescript", "typescript-types", "typescript-testee") if TARGETS[t].schema == kind]
        assert targets, f"{folder.name}: no TypeScript target renders a {kind} schema"
        pairs += [(folder.name, t) for t in targets]
    return pairs


@pytest.mark.parametrize(("schema", "target"), _typescript_goldens())
def test_the_golden_outputs_compile_under_the_strictest_options(schema: str, target: str, tmp_path: Path) -> None:
    """The small schemas' outputs too (a helper a schema does not need must not be emitted), the full
    flavour against the checkout's built package, linked in as node_modules/omnimessage."""
    shutil.copytree(GOLDEN / schema / target, tmp_path / "src" / "om")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "omnimessage").symlink_to(TS)
    if not (TS / "dist" / "runtime.d.ts").exists():
        pytest.fail("typescript/dist is not built: run `make setup`")
    tsc = TS / "node_modules" / "typescript" / "bin" / "tsc"
    entry = "src/om/index.ts" if (tmp_path / "src" / "om" / "index.ts").exists() else "src/om/testee-protocol.ts"
    r = subprocess.run(["node", str(tsc), *STRICTEST, entry], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
