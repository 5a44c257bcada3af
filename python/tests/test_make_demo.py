"""`make demo` installs what the demo needs (the runtime, pydantic for the matrix's baseline, the
TypeScript build), not the dev and bench extras `make setup` installs (`make -n`: nothing runs)."""

from __future__ import annotations

import subprocess

from conftest import ROOT, needs


@needs("make")
def test_demo_installs_no_dev_or_bench_extras() -> None:
    # -W pyproject.toml: as if it had just changed, so every install recipe the demo depends on is listed.
    proc = subprocess.run(["make", "-n", "-W", "pyproject.toml", "demo"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    installs = [line for line in proc.stdout.splitlines() if "pip install" in line]
    assert installs, proc.stdout
    assert not any("dev" in line or "bench" in line for line in installs), installs
    assert "-e '.[pydantic]'" in proc.stdout
    assert "omnimessage conformance --matrix" in proc.stdout


@needs("make")
def test_setup_still_installs_everything() -> None:
    proc = subprocess.run(["make", "-n", "-W", "pyproject.toml", "setup"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)
    assert "'.[dev,bench]'" in proc.stdout


@needs("make")
def test_demo_builds_the_rust_testee_its_matrix_runs() -> None:
    """Issue 34: the matrix's rust row said "not installed" because nothing built the binary
    OMNIMESSAGE_RS_BIN names; the demo builds it (cargo rebuilds only what changed)."""
    proc = subprocess.run(["make", "-n", "demo"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    lines = proc.stdout.splitlines()
    build = next(i for i, line in enumerate(lines) if "cargo build --offline --release" in line)
    matrix = next(i for i, line in enumerate(lines) if "omnimessage conformance --matrix" in line)
    assert build < matrix, proc.stdout
    # the binary cargo writes is the one the matrix runs
    assert "export OMNIMESSAGE_RS_BIN ?= $(CURDIR)/$(RS_DIR)/target/release/omnimessage-rs" in (
        ROOT / "Makefile").read_text()
