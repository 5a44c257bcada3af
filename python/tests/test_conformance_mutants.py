"""Mutation check: every deliberately broken Python binding fails at least one case."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from omnimessage.conformance import load_suite
from omnimessage.conformance.mutants import MUTANTS, run_mutation_check


def test_every_mutant_is_killed(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(MUTANTS) >= 20
    out = io.StringIO()
    report = run_mutation_check(load_suite(), out=out)
    with capsys.disabled():
        sys.stdout.write("\n" + out.getvalue())
    survivors = [r.name for r in report.results if not r.killed]
    assert not survivors, out.getvalue()
    assert report.kill_rate == 1.0
    assert report.reference_passed >= len(load_suite().cases) - 5


def test_a_mutant_is_a_working_testee() -> None:
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "omnimessage",
            "conformance",
            "--impl",
            f"{sys.executable} -m omnimessage.conformance.mutants solidus-escaped",
            "--category",
            "escape",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 1 and "mutant:solidus-escaped" in r.stdout
    assert "\\\\/" in r.stdout  # the failure shows the escaped solidus it wrote


def test_unknown_mutant_is_a_usage_error() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "omnimessage.conformance.mutants", "nope"], capture_output=True, text=True
    )
    assert r.returncode == 2 and "names:" in r.stderr
