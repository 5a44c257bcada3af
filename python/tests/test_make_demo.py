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
