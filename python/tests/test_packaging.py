"""`pip install omnimessage` is enough: the wheel carries the runtime, the generator, the
schema and the conformance suite (package data of the runtime) and the templates, and installs the
`omnimessage` command; development tooling (omnimessage_dev, bench/) stays out."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if r.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{r.stdout}\n{r.stderr}")
    (whl,) = out.glob("omnimessage-*.whl")
    return whl


def test_wheel_contents(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in [
        "omnimessage/__init__.py",
        "omnimessage/py.typed",
        "omnimessage/_generated/models.py",
        "omnimessage/schema/omnimessage.schema.json",  # package data of the runtime
        "omnimessage/conformance/suite/manifest.json",
        "omnimessage_codegen/templates/python/models.py.j2",
        "omnimessage_codegen/templates/markdown/protocol.md.j2",
    ]:
        assert required in names, required
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "omnimessage = omnimessage.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    assert not any("tests/" in n for n in names)
    # development tooling stays out: the synthetic-message generator and the benchmarks
    assert not any(n.startswith("omnimessage_dev/") or n.startswith("bench/") for n in names)
    assert "omnimessage/validate/synth.py" not in names and "omnimessage/validate/bench.py" not in names
    schema = zipfile.ZipFile(wheel).read("omnimessage/schema/omnimessage.schema.json")
    assert schema == (ROOT / "schema" / "omnimessage.schema.json").read_bytes()  # the link's target, stored


def test_installed_wheel_works_in_a_fresh_virtualenv(wheel: Path, tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    py = env / "bin" / "python"
    r = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    cli = env / "bin" / "omnimessage"
    out = subprocess.run([str(cli), "schema"], capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert '"$id": "urn:omnimessage:schema:' in out
    assert out == (ROOT / "schema" / "omnimessage.schema.json").read_text(encoding="utf-8")
    # the suite is package data, found without a checkout (cwd is an empty folder)
    r1 = subprocess.run([str(cli), "conformance", "--impl", "python", "--category", "roundtrip"],
                        capture_output=True, text=True, cwd=tmp_path)
    assert r1.returncode == 0 and " passed, 0 failed" in r1.stdout, r1.stdout + r1.stderr
    subprocess.run([str(cli), "generate", "--target", "python", "--out", str(tmp_path / "gen")], check=True,
                   capture_output=True, cwd=tmp_path)
    assert (tmp_path / "gen" / "models.py").read_text() == (ROOT / "python/omnimessage/_generated/models.py").read_text()
    trace = (ROOT / "examples" / "trace.jsonl").read_bytes()
    r2 = subprocess.run([str(cli), "canonicalize"], input=trace, capture_output=True, cwd=tmp_path)
    assert r2.returncode == 0 and r2.stdout == trace
