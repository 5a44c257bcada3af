"""The baselines fail exactly their listed cases: proof that the suite catches real re-serialisers."""

from __future__ import annotations

import sys

import pytest
from conftest import ROOT

from omnimessage.conformance import load_suite
from omnimessage.conformance.runner import PASSED, XFAIL, load_expected_failures, run_cases

SUITE = load_suite()
BASELINES = ROOT / "conformance" / "baselines"


@pytest.mark.parametrize("name", ["naive-json", "pydantic"])
def test_baseline_fails_exactly_its_listed_cases(name: str) -> None:
    base = BASELINES / name
    expected = load_expected_failures(base / "expected-failures.txt")
    result = run_cases(SUITE, SUITE.cases, [sys.executable, str(base / "testee.py")], expected=expected)
    bad = [f"{o.status} {o.case.id}: {o.message[:200]}" for o in result.outcomes if o.failed]
    assert result.ok, bad[:10] + result.stale
    failed_groups = {o.case.group for o in result.outcomes if o.status == XFAIL}
    # teeth in every codec group that a strict decoder has to get right
    assert {"roundtrip", "verbatim", "canonicalization", "rejection"} <= failed_groups
    assert result.count(XFAIL) >= 200 and result.count(PASSED) >= 400
    print(f"\n{name}: {result.summary()}")


def test_pydantic_baseline_rewrites_fidelity() -> None:
    """The measured point of the issue: model-based re-serialisation does not keep verbatim bytes."""
    listed = {p for p, _, _ in load_expected_failures(BASELINES / "pydantic" / "expected-failures.txt").entries}
    assert sum(1 for i in listed if i.startswith("verbatim.fidelity.")) >= 30


def test_pydantic_target_output_is_committed_fresh() -> None:
    from omnimessage_codegen import load_schema
    from omnimessage_codegen.targets import TARGETS, render

    assert "pydantic" in TARGETS
    files = render("pydantic", load_schema())
    assert set(files) == {"models.py"}
    committed = (BASELINES / "pydantic" / "models.py").read_text(encoding="utf-8")
    assert files["models.py"] == committed, (
        "run: omnimessage generate --target pydantic --out conformance/baselines/pydantic"
    )
    assert "class OmniMessage(" in committed and "NOT byte-exact" in committed
