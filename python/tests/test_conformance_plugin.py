"""The pytest plugin: `pytest --omnimessage-impl CMD`, and that it is inert without the option."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from conftest import ROOT

NAIVE = ROOT / "conformance" / "baselines" / "naive-json"
PYTHON_KNOWN = ROOT / "conformance" / "expected-failures" / "python.txt"


def _pytest(cwd: Path, *args: str, exe: str | None = None) -> subprocess.CompletedProcess[str]:
    cmd = [
        exe or sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(cwd),
        "-o",
        "addopts=",
        *args,
    ]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A third party's repository: its own test, its own testee, its own expected-failure list."""
    (tmp_path / "test_theirs.py").write_text("def test_theirs():\n    assert True\n")
    shutil.copy(NAIVE / "testee.py", tmp_path / "their_testee.py")
    shutil.copy(NAIVE / "expected-failures.txt", tmp_path / "known.txt")
    return tmp_path


def test_inert_without_the_option(project: Path) -> None:
    r = _pytest(project, "--collect-only", "-q")
    assert r.returncode == 0 and "1 test collected" in r.stdout and "omnimessage" not in r.stdout
    r = _pytest(project, "--help")
    assert "--omnimessage-impl" in r.stdout


def test_every_case_becomes_an_item_named_by_its_id(project: Path) -> None:
    r = _pytest(project, "--collect-only", "-q", "--omnimessage-impl", "python")
    ids = [ln for ln in r.stdout.splitlines() if ln.startswith("omnimessage-conformance::")]
    assert "omnimessage-conformance::rejection.duplicate_key.payload-type" in ids
    assert len(ids) >= 800 and "test_theirs.py::test_theirs" in r.stdout


def test_third_party_command_with_its_expected_failures(project: Path) -> None:
    r = _pytest(
        project,
        "-q",
        "--omnimessage-impl",
        f"{sys.executable} their_testee.py",
        "--omnimessage-expected-failures",
        "known.txt",
    )
    assert r.returncode == 0, r.stdout[-3000:]
    last = r.stdout.splitlines()[-1]
    assert " xfailed" in last and " skipped" in last and " failed" not in last.replace(" xfailed", "")


def test_failures_stale_entries_and_unexpected_passes_fail_the_session(project: Path) -> None:
    known = project / "known.txt"
    lines = known.read_text().splitlines()
    dropped = next(ln for ln in lines if ln.startswith("roundtrip.unicode.astral"))
    lines.remove(dropped)
    lines += ["rejection.no-such-case  stale entry", "roundtrip.request_begin.minimal  it passes"]
    known.write_text("\n".join(lines) + "\n")
    r = _pytest(
        project,
        "-q",
        "--omnimessage-impl",
        f"{sys.executable} their_testee.py",
        "--omnimessage-expected-failures",
        "known.txt",
        "-k",
        "astral or request_begin or expected-failures",
    )
    assert r.returncode == 1
    assert "first difference at byte" in r.stdout  # the unlisted failure, with its byte diff
    assert "remove it from the list" in r.stdout  # the listed case that passes
    assert "matches no case" in r.stdout  # the stale entry


def test_ours_pass_through_the_plugin(project: Path) -> None:
    r = _pytest(project, "-q", "--omnimessage-impl", "python", "--omnimessage-expected-failures", str(PYTHON_KNOWN))
    assert r.returncode == 0, r.stdout[-3000:]


@pytest.mark.skipif(os.environ.get("OMNIMESSAGE_SKIP_WHEEL_TEST") == "1", reason="OMNIMESSAGE_SKIP_WHEEL_TEST=1")
def test_plugin_works_from_a_fresh_virtualenv(project: Path, tmp_path_factory: pytest.TempPathFactory,
                                              omnimessage_wheel: Path) -> None:
    """The wheel (the session's one build), installed into a new virtualenv (registries only), runs a
    third party's testee."""
    work = tmp_path_factory.mktemp("wheel")
    wheel = omnimessage_wheel
    venv.create(work / "venv", with_pip=True)
    py = str(work / "venv" / "bin" / "python")
    subprocess.run(
        [py, "-m", "pip", "--disable-pip-version-check", "-q", "install", str(wheel), "pytest==9.2.0"],
        check=True,
        timeout=600,
    )
    r = _pytest(
        project,
        "-q",
        "--omnimessage-impl",
        f"{py} their_testee.py",
        "--omnimessage-expected-failures",
        "known.txt",
        exe=py,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert " passed" in r.stdout and " xfailed" in r.stdout


LOOKUP = Path(__file__).resolve().parent / "bad_testees" / "lookup_testee.py"


def test_fresh_cases_are_items_with_the_seed_in_the_header_and_the_junit_file(project: Path) -> None:
    junit = project / "j.xml"
    r = _pytest(project, "--omnimessage-impl", f"{sys.executable} {LOOKUP}", "--omnimessage-category", "fresh",
                "--omnimessage-fresh", "12", "--omnimessage-seed", "77", f"--junitxml={junit}")
    assert r.returncode == 1  # the lookup testee knows the shipped answers only
    assert "12 fresh, seed 77 (replay: --omnimessage-seed 77)" in r.stdout
    assert "omnimessage-conformance::fresh.77.00" in r.stdout and "(seed 77: --omnimessage-seed 77)" in r.stdout
    import xml.etree.ElementTree as ET

    props = [p.get("value") for p in ET.parse(junit).getroot().iter("property") if p.get("name") == "seed"]
    assert props and set(props) == {"77"}
    r = _pytest(project, "-q", "--omnimessage-impl", "python", "--omnimessage-category", "fresh",
                "--omnimessage-fresh", "12", "--omnimessage-seed", "77")
    assert r.returncode == 0 and "13 passed" in r.stdout  # 12 fresh cases and the project's own test


def test_a_testee_that_cannot_start_is_reported_in_full_once(project: Path) -> None:
    (project / "broken.py").write_text("import sys\nsys.stderr.write('cannot initialise' + ' the codec')\nsys.exit(4)\n")
    # -rN: no short summary, whose lines repeat each failure's first line (in full when CI is set)
    r = _pytest(project, "-q", "-rN", "--omnimessage-impl", f"{sys.executable} broken.py", "--omnimessage-category",
                "verbatim", "--omnimessage-fresh", "0")
    assert r.returncode == 1
    assert r.stdout.count("cannot initialise the codec") == 1, r.stdout[-3000:]
    assert r.stdout.count("not run: the testee did not start (see the first") >= 100


def test_the_plugin_seed_is_the_suites_unless_random(project: Path) -> None:
    """Issue 34: the same fresh items every run by default (the runner's seed); `random` draws one."""
    from omnimessage.conformance import load_suite
    from omnimessage.conformance.fresh import stable_seed

    seed = stable_seed(load_suite())
    args = ["--collect-only", "-q", "--omnimessage-impl", "python", "--omnimessage-category", "fresh",
            "--omnimessage-fresh", "2"]
    r = _pytest(project, *args)
    assert r.returncode == 0 and f"omnimessage-conformance::fresh.{seed}.0001." in r.stdout, r.stdout[-2000:]
    r = _pytest(project, *args, "--omnimessage-seed", "random")
    assert r.returncode == 0 and "omnimessage-conformance::fresh." in r.stdout and f"fresh.{seed}." not in r.stdout
    r = _pytest(project, *args, "--omnimessage-seed", "often")
    assert r.returncode != 0 and "--omnimessage-seed: not an integer or `random`: 'often'" in r.stderr
