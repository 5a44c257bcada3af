"""`pip install omnimessage` is enough: the wheel carries the runtime, the generator, the
schema and the conformance suite (package data of the runtime) and the templates, and installs the
`omnimessage` command; development tooling (omnimessage_dev, bench/) and what only builds the suite
(the case, validator fixture and producer corpus builders) stay out. The codec installs with msgspec
alone (jinja2 comes with the extra `codegen`), the metadata gives ranges, not pins, and the README's
Python example runs in the fresh environment (read from README.md, so the README cannot drift)."""

from __future__ import annotations

import re
import subprocess
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT


@pytest.fixture(scope="module")
def wheel(omnimessage_wheel: Path) -> Path:
    return omnimessage_wheel  # the session's one build (shared_builds.py)


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
    assert "omnimessage = omnimessage.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    assert not any("tests/" in n for n in names)
    # development tooling stays out: the synthetic-message generator and the benchmarks
    assert not any(n.startswith("omnimessage_dev/") or n.startswith("bench/") for n in names)
    assert "omnimessage/validate/synth.py" not in names and "omnimessage/validate/bench.py" not in names
    # and the suite's test tooling: the deliberately broken bindings (dev/omnimessage_dev/mutants)
    assert not [n for n in names if "mutant" in n.lower()], "mutants in the wheel"
    schema = zipfile.ZipFile(wheel).read("omnimessage/schema/omnimessage.schema.json")
    assert schema == (ROOT / "schema" / "omnimessage.schema.json").read_bytes()  # the link's target, stored
    # the suite's data stays (`omnimessage conformance`, the pytest plugin); what builds it does not
    suite = "omnimessage/conformance/suite/"
    for data in ["cases/roundtrip.jsonl", "baselines/pydantic/testee.py", "expected-failures/python.txt",
                 "validator/OM102", "producers/index.json"]:
        assert any(n.startswith(suite + data) for n in names), data
    for builder in ["tools/", "validator/build.py", "validator/fixture_builder/", "producers/build.py",
                    "producers/corpus_builder/"]:
        assert not any(n.startswith(suite + builder) for n in names), builder
    assert not any("__pycache__" in n for n in names)


def test_wheel_metadata_asks_for_ranges_and_msgspec_alone(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    requires = re.findall(r"^Requires-Dist: (.*)$", metadata, re.M)
    assert [r for r in requires if "extra ==" not in r] == ["msgspec>=0.18.6"]
    assert any(r.startswith("jinja2") and r.endswith("extra == 'codegen'") for r in requires), requires
    pinned = [r for r in requires if "==" in r.split(";")[0]]
    assert not pinned, f"exact pins in the package metadata (they belong in constraints.txt): {pinned}"
    import omnimessage

    assert re.search(rf"^Version: {re.escape(omnimessage.__version__)}$", metadata, re.M)


def readme_block(lang: str) -> str:
    """The first ```lang block of README.md."""
    blocks = re.findall(rf"^```{lang}\n(.*?)^```$", (ROOT / "README.md").read_text(encoding="utf-8"), re.S | re.M)
    assert blocks, f"README.md has no {lang} block"
    return str(blocks[0])


def test_installed_wheel_works_in_a_fresh_virtualenv(wheel: Path, tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    py = env / "bin" / "python"
    r = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    cli = env / "bin" / "omnimessage"
    # the codec with msgspec alone: no jinja2, and the README's example runs
    installed = subprocess.run([str(py), "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True, check=True)
    assert "jinja2" not in installed.stdout.lower(), installed.stdout
    (tmp_path / "example.py").write_text(readme_block("python"))
    ex = subprocess.run([str(py), "example.py"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert ex.returncode == 0, ex.stderr
    import omnimessage

    v = subprocess.run([str(cli), "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert v.returncode == 0 and v.stdout.startswith(f"omnimessage {omnimessage.__version__}\ncodec: "), v.stderr
    # `generate` without the extra says which extra to install, without a traceback
    g = subprocess.run([str(cli), "generate", "--target", "python", "--out", str(tmp_path / "nogen")],
                       capture_output=True, text=True, cwd=tmp_path)
    assert g.returncode == 2 and "Traceback" not in g.stderr, g.stderr
    assert "pip install 'jinja2" in g.stderr and "(the 'codegen' extra's packages)" in g.stderr, g.stderr
    assert not (tmp_path / "nogen").exists()
    r = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"{wheel}[codegen]"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
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


def test_sdist_builds_the_same_wheel_and_leaves_the_suites_out(wheel: Path, release_dist: Path) -> None:
    """The sdist builds the wheel; it is not a test checkout (the suites need the whole repository):
    the tests stay out, and the wheel built from the sdist holds exactly the files of the checkout's.
    The sdist and its wheel are the release build's (dev/build-dist.sh: `python -m build --sdist
    --wheel` builds the wheel from the sdist), made once per session (shared_builds.py)."""
    (sdist,) = (release_dist / "python").glob("omnimessage-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = [n.split("/", 1)[1] for n in tar.getnames() if "/" in n]
    assert "LICENSE" in names and "README.md" in names and "pyproject.toml" in names
    assert not any(n.startswith(("python/tests/", "codegen/tests/")) or "__pycache__" in n for n in names)
    (from_sdist,) = (release_dist / "python").glob("omnimessage-*.whl")
    assert sorted(zipfile.ZipFile(from_sdist).namelist()) == sorted(zipfile.ZipFile(wheel).namelist())
