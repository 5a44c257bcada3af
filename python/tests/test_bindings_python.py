"""The Python-side targets work where users put them: generated into a fresh project outside the
checkout, with its own virtual environment holding the wheel built from the checkout (installed
offline, from the local wheel cache), exactly as docs/bindings.md says.

- `python`: docs/bindings.md's example runs as written (its shell blocks, its files), `mypy --strict`
  (and pyright strict) passes over the generated package and the programs using it, and a program decodes, rebuilds
  (through the generated constructors) and encodes every line of examples/trace.jsonl and
  examples/stream.jsonl through the generated structs, byte for byte, on both decoding paths; the
  runtime refuses a package generated from another schema, naming both.
- `markdown` and `pydantic`: their sections of docs/bindings.md, run the same way.
- `generate` usage errors: a missing extra (before `omnimessage[pydantic]` is installed) and an
  unknown target are exit 2 in one line.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

import omnimessage
from omnimessage_codegen.targets import DOCUMENTED as TARGETS

DOC = ROOT / "docs" / "bindings.md"
GIT_URL = re.compile(r'"omnimessage(\[[a-z,]+\])? @ git\+\$REPO"')

ROUNDTRIP = '''\
"""Every line through the generated structs: decoded, rebuilt by their constructors, encoded."""

import sys
from pathlib import Path
from typing import Any

import msgspec

import omnimessage as om
from myapp import omtypes
from myapp.omtypes import builders, guards, models


def rebuilt(value: Any) -> Any:
    """A copy of `value` made through the generated classes' constructors."""
    if isinstance(value, msgspec.Struct):
        return type(value)(**{f: rebuilt(getattr(value, f)) for f in value.__struct_fields__})
    if isinstance(value, list):
        return [rebuilt(v) for v in value]
    return value


n = 0
line = b""
for name in sys.argv[1:]:
    for line in Path(name).read_bytes().splitlines():
        msg = omtypes.decode(line)
        assert type(msg).__module__ == "myapp.omtypes.models", type(msg)
        assert omtypes.encode(msg) == line, line
        copy: models.Message = rebuilt(msg)
        assert copy is not msg and copy == msg and omtypes.encode(copy) == line, line
        assert omtypes.canonicalize(line + b"\\n") == line
        spaced = line.replace(b'{"timestamp":', b'{ "timestamp" : ', 1)  # not canonical: the slow path
        again = omtypes.decode(spaced)
        assert type(again) is type(msg) and again == msg and omtypes.encode(again) == line, line
        n += 1

try:
    om.encode(msg)  # type: ignore[arg-type]  # mypy sees it too
    raise SystemExit("omnimessage.encode took a struct of myapp.omtypes")
except TypeError as exc:
    assert "myapp.omtypes.encode(msg)" in str(exc), exc
try:
    omtypes.encode(om.decode(line))  # type: ignore[arg-type]
    raise SystemExit("myapp.omtypes.encode took a struct of the runtime")
except TypeError as exc:
    assert "omnimessage.encode(msg)" in str(exc), exc
try:
    omtypes.encode(msg.payload)  # type: ignore[arg-type]
    raise SystemExit("myapp.omtypes.encode took a payload")
except TypeError as exc:
    assert "not a payload" in str(exc), exc
try:
    omtypes.decode(line.replace(b'"type":', b'"type":"nope","x":', 1))
    raise SystemExit("a bad line decoded")
except om.DecodeError as exc:
    assert exc.category, exc

reply = builders.user_text("hi", timestamp="2026-07-18T03:10:22.531Z")
assert isinstance(reply, omtypes.ModelMessage) and guards.is_model(reply)
assert omtypes.encode(reply) == (b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg",'
                                 b'"payload":{"type":"text","role":"user","text":"hi","stop_reason":"completed"}}')
opaque = omtypes.decode(b'{"timestamp":"t","type":"future_msg","payload":{}}', lenient=True)
assert isinstance(opaque, om.OpaqueMessage) and omtypes.encode(opaque) == b'{"timestamp":"t","type":"future_msg","payload":{}}'
assert omtypes.SCHEMA_ID == om.SCHEMA_ID and omtypes.GENERATOR_VERSION == om.__version__
print(f"ok {n} lines")
'''


def doc_sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return {p.split("\n", 1)[0].strip(): p.split("\n", 1)[1] for p in parts}


def blocks(section: str) -> list[tuple[str, str | None, str]]:
    """(language, file name or None, text) of each fenced block of a section, in order."""
    return [(m[0], m[1] or None, m[2]) for m in re.findall(r"^```(\w+)(?: (\S+))?\n(.*?)^```$", section, re.S | re.M)]


@pytest.fixture(scope="module")
def wheel(omnimessage_wheel: Path) -> Path:
    return omnimessage_wheel  # the session's one build (shared_builds.py)


def run_section(name: str, project: Path, wheel: Path) -> list[subprocess.CompletedProcess[str]]:
    """Write a docs/bindings.md section's files into `project` and run its shell blocks there, with
    the Git URL of each `pip install` replaced by the wheel (same extras)."""
    section = doc_sections()[name]
    found = blocks(section)
    assert any(lang == "sh" for lang, _, _ in found), f"docs/bindings.md section {name!r} has no shell example"
    results = []
    for _lang, filename, text in found:
        if filename is not None:
            (project / filename).write_text(text, encoding="utf-8")
    for lang, _, text in found:
        if lang != "sh":
            continue
        script = GIT_URL.sub(lambda m: f'"{wheel}{m[1] or ""}"', text)
        assert script == text or "pip install" in text
        env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "MYPY"))}
        env["PATH"] = f"{project / '.venv' / 'bin'}:{env['PATH']}"
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=project, capture_output=True, text=True,
                           env=env, timeout=900)
        assert r.returncode == 0, f"docs/bindings.md {name}: {script}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        results.append(r)
    return results


def one_line_usage_error(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stdout == "" and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr and "usage:" not in r.stderr, r.stderr
    return r.stderr


def test_python_markdown_and_pydantic_targets_in_a_fresh_project(wheel: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    assert not project.resolve().is_relative_to(ROOT.resolve())
    for name in ("trace.jsonl", "stream.jsonl"):
        shutil.copy(ROOT / "examples" / name, project / name)
    py = project / ".venv" / "bin" / "python"
    cli = project / ".venv" / "bin" / "omnimessage"

    # python: the documented example, as written (venv, install, generate, run, mypy --strict)
    r = run_section("python", project, wheel)
    assert py.exists() and (project / "myapp" / "omtypes" / "codec.py").is_file()
    out = "".join(x.stdout for x in r)
    assert '{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"text","role":"user","text":"hello"' in out, out
    generated = list((project / "myapp" / "omtypes").glob("*.py"))
    for path in generated:  # by name only: nothing relative beyond the package's own folder
        text = path.read_text(encoding="utf-8")
        imported = re.findall(r"^(?:from (\S+) import|import (\S+))", text, re.M)
        runtime = {a or b for a, b in imported if (a or b).startswith("omnimessage")}
        assert "from .." not in text and runtime <= {"omnimessage.runtime"}, (path, runtime)
        assert f"(omnimessage {omnimessage.__version__}) from schema {omnimessage.SCHEMA_ID}" in text.splitlines()[0], path

    # a package at the top of the project works the same (the "relative import beyond top-level package")
    subprocess.run([str(cli), "generate", "--target", "python", "--out", "omtop"], cwd=project, check=True,
                   capture_output=True, timeout=120)
    top = subprocess.run([str(py), "-c", "import omtop; from omtop.builders import request_begin; "
                          "m = request_begin(timestamp='t'); print(type(m).__module__, omtop.encode(m).decode())"],
                         cwd=project, capture_output=True, text=True, timeout=120)
    assert top.returncode == 0 and top.stdout.startswith("omtop.models {"), top.stdout + top.stderr

    # every line of both examples through the generated structs, and mypy --strict over it all
    (project / "roundtrip.py").write_text(ROUNDTRIP, encoding="utf-8")
    rt = subprocess.run([str(py), "roundtrip.py", "trace.jsonl", "stream.jsonl"], cwd=project, capture_output=True,
                        text=True, timeout=300)
    lines = sum(len((ROOT / "examples" / n).read_bytes().splitlines()) for n in ("trace.jsonl", "stream.jsonl"))
    assert rt.returncode == 0 and rt.stdout == f"ok {lines} lines\n", rt.stdout + rt.stderr
    mypy = subprocess.run([str(project / ".venv" / "bin" / "mypy"), "--strict", "--no-incremental", "roundtrip.py", "app.py",
                           "myapp"], cwd=project, capture_output=True, text=True, timeout=600)
    assert mypy.returncode == 0, mypy.stdout + mypy.stderr
    (project / "pyrightconfig.json").write_text('{"typeCheckingMode": "strict", "pythonVersion": "3.11"}')
    pyright = subprocess.run([sys.executable, "-m", "pyright", "--pythonpath", str(py), "app.py", "myapp"], cwd=project,
                             capture_output=True, text=True, timeout=600,
                             env={**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"})  # the dev tool, their packages
    assert pyright.returncode == 0 and "0 errors" in pyright.stdout, pyright.stdout + pyright.stderr

    # generated from another schema: refused at import, naming both schemas and both releases
    schema = json.loads((ROOT / "schema" / "omnimessage.schema.json").read_text(encoding="utf-8"))
    schema["$id"] = "urn:omnimessage:schema:1.1.0"
    schema["$defs"]["TextPayload"]["properties"]["mood"] = {"type": "string", "description": "A field of a newer schema."}
    (project / "newer.schema.json").write_text(json.dumps(schema), encoding="utf-8")
    gen = ("from pathlib import Path; from omnimessage_codegen import generate, load_schema; "
           "generate('python', load_schema(Path('newer.schema.json')), Path('newer'))")
    subprocess.run([str(py), "-c", gen], cwd=project, check=True, capture_output=True, timeout=300)
    bad = subprocess.run([str(py), "-c", "import newer"], cwd=project, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "omnimessage.runtime.IncompatibleSchemaError: newer was generated from schema " \
        "urn:omnimessage:schema:1.1.0" in bad.stderr, bad.stderr
    assert f"speaks schema {omnimessage.SCHEMA_ID}" in bad.stderr and "TextPayload" in bad.stderr, bad.stderr
    assert "omnimessage generate --target python --out DIR" in bad.stderr, bad.stderr

    # usage errors of generate, in the environment as a user has it: pydantic's extra not installed yet
    err = one_line_usage_error(subprocess.run([str(cli), "generate", "--target", "pydantic", "--out", "om_pydantic"],
                                              cwd=project, capture_output=True, text=True, timeout=120))
    assert "pip install 'datamodel-code-generator" in err and "(the 'pydantic' extra's packages)" in err and not (project / "om_pydantic").exists(), err
    err = one_line_usage_error(subprocess.run([str(cli), "generate", "--target", "java", "--out", "r"], cwd=project,
                                              capture_output=True, text=True, timeout=120))
    assert f"unknown target 'java' (targets: {', '.join(TARGETS)})" in err, err

    # markdown: as documented; the output is the checkout's docs/protocol.md
    run_section("markdown", project, wheel)
    assert (project / "docs" / "protocol.md").read_bytes() == (ROOT / "docs" / "protocol.md").read_bytes()

    # pydantic: as documented (the extra installed, the models generated, every line validated)
    r = run_section("pydantic", project, wheel)
    n_trace = len((ROOT / "examples" / "trace.jsonl").read_bytes().splitlines())
    assert f"{n_trace} valid;" in r[-1].stdout, r[-1].stdout
    models = (project / "om_pydantic" / "models.py").read_text(encoding="utf-8")
    assert not re.search(r"^(from|import) omnimessage", models, re.M)  # needs pydantic, not the runtime


def test_generate_refuses_an_unknown_target_in_one_line(tmp_path: Path) -> None:
    def gen(target: str) -> str:
        return one_line_usage_error(subprocess.run(
            [sys.executable, "-m", "omnimessage", "generate", "--target", target, "--out", str(tmp_path / "out")],
            capture_output=True, text=True, timeout=120))

    assert gen("java") == f"omnimessage generate: unknown target 'java' (targets: {', '.join(TARGETS)})\n"
    assert gen("pydantc").endswith("; did you mean 'pydantic'?\n")
    assert gen("\x1b[2Jpython").count("\x1b") == 0  # the name is input: sanitised
    assert not (tmp_path / "out").exists()


def test_the_docs_page_has_a_section_per_target_and_the_readme_links_it() -> None:
    sections = doc_sections()
    for name in ("python", "typescript", "typescript-types", "markdown", "pydantic", "rust"):
        assert name in sections, name
    assert "docs/bindings.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_runtime_codec_says_what_to_pass() -> None:
    import msgspec

    import omnimessage as om

    line = (ROOT / "examples" / "trace.jsonl").read_bytes().splitlines()[1]
    with pytest.raises(TypeError, match=r"takes a whole message, not a payload: wrap .*TextPayload"):
        om.encode(om.TextPayload(role="user", text="hi"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"takes a message of omnimessage \(SessionMetaMessage, ModelMessage, EventMessage"):
        om.encode({"type": "model_msg"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"json is not a module written by `omnimessage generate --target python"):
        om.Codec(json)
    assert om.Codec(om).encode(om.Codec(om).decode(line)) == line  # the runtime's own structs: its own codec
    assert repr(om.Codec(om)) == f"omnimessage.Codec(omnimessage, schema {om.SCHEMA_ID})"
    assert msgspec.json.encode(om.decode(line)) != line  # what the header says: msgspec alone is not byte-exact
