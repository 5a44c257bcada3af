"""Mutation check: every deliberately broken Python binding fails at least one case."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from omnimessage.conformance import load_suite
from omnimessage.conformance.runner import FAILED, run_cases
from omnimessage_dev.mutants import MUTANTS, run_mutation_check
from omnimessage_dev.mutants.check import interleaved


def test_every_mutant_is_killed(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(MUTANTS) >= 120
    out = io.StringIO()
    report = run_mutation_check(load_suite(), out=out, first_kill=True, in_process=True)  # the full count: `--mutants`
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
            f"{sys.executable} -m omnimessage_dev.mutants solidus-escaped",
            "--category",
            "escape",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 1 and "mutant:solidus-escaped" in r.stdout
    assert "\\\\/" in r.stdout  # the failure shows the escaped solidus it wrote


def test_mutants_are_named_and_described() -> None:
    import re

    for name, cls in MUTANTS.items():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name), name
        assert (cls.__doc__ or "").strip(), f"{name} says which mistake it makes"
    assert len(set(MUTANTS.values())) == len(MUTANTS), "one class per mutant"


def test_third_party_mutants_are_killed_by_their_cases() -> None:
    """The issue-13 survivors, each against the cases written for it: red without them."""
    names = ["pointer-escape-order-swapped", "torn-utf8-first", "limit-counts-characters", "keys-case-insensitive"]
    suite = load_suite()
    cases = [c for c in suite.cases if "third-party" in c.tags]
    report = run_mutation_check(suite, names=names, cases=cases, first_kill=True, in_process=True)
    assert [r.name for r in report.results if not r.killed] == []


def test_unknown_mutant_is_a_usage_error() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "omnimessage_dev.mutants", "nope"], capture_output=True, text=True
    )
    assert r.returncode == 2 and "names:" in r.stderr


def test_contract_mutants_are_killed_by_their_cases() -> None:
    """Readings of the docs that suite 1.4 settled the other way (issue 13, part 1): each is killed
    by the cases tagged `contract` (without them, all four survived)."""
    names = [
        "torn-grammar-truncated",
        "integers-judged-as-written",
        "top-level-number-then-trailing",
        "lenient-keeps-cr",
    ]
    suite = load_suite()
    contract = [c for c in suite.cases if "contract" in c.tags]
    report = run_mutation_check(suite, names=names, cases=contract, first_kill=True, in_process=True)
    assert [r.name for r in report.results if not r.killed] == []


def test_issue_20_mutants_are_killed_by_the_point_cases() -> None:
    """The points suite 2.1 settled (issue 20): each mutant is killed by the cases tagged `point:*`.
    The first twelve survive every case of suite 2.0.0 (measured when they were written)."""
    names = [
        "verbatim-shape-after-lexical",
        "number-ties-rounded-up",
        "torn-half-character-trailing",
        "non-object-walked",
        "long-integers-refused",
        "number-token-unicode-letters",
        "limit-crlf-terminator",
        "limit-after-utf8",
        "lone-key-pointer-at-object",
        "lone-key-pointer-replaced",
        "str-stripped",
        "lenient-bytes-stripped",
        "integer-range-before-spelling",
        "double-range-at-max",
        "verbatim-depth-256",
        "js-trimmed",
    ]
    suite = load_suite()
    points = [c for c in suite.cases if any(t.startswith("point:") for t in c.tags)]
    assert len(points) >= 100
    report = run_mutation_check(suite, names=names, cases=points, first_kill=True, in_process=True)
    assert [r.name for r in report.results if not r.killed] == []


def test_one_line_mutants_are_killed_by_their_cases() -> None:
    """Issue 32: readings of suite 2.x (a CR inside a message is whitespace, kept in verbatim
    values; checked after the grammar; before UTF-8; kept opaque when lenient): each is killed by
    the cases tagged `one-line` (measured: without them, line-break-before-utf8 and
    lenient-keeps-line-break survive every other case)."""
    names = ["line-breaks-kept", "line-break-after-grammar", "line-break-before-utf8", "lenient-keeps-line-break"]
    suite = load_suite()
    one_line = [c for c in suite.cases if "one-line" in c.tags]
    assert len(one_line) >= 15
    report = run_mutation_check(suite, names=names, cases=one_line, first_kill=True, in_process=True)
    assert [r.name for r in report.results if not r.killed] == []


def test_the_quick_form_finds_what_the_full_count_finds() -> None:
    """The tests' quick form (`first_kill`, `in_process`): each mutant stops at its first kill, and
    answers in this process; the verdicts are those of the full count through testee processes
    (`omnimessage conformance --mutants`), and the runner sends no case after the first that fails."""
    suite = load_suite()
    cases = [c for c in suite.cases if c.matches("escape") or c.matches("verbatim")]
    names = ["solidus-escaped", "keys-sorted", "ensure-ascii"]
    full = run_mutation_check(suite, names=names, cases=cases)
    quick = run_mutation_check(suite, names=names, cases=cases, first_kill=True, in_process=True)
    assert quick.reference_passed == full.reference_passed > 0
    by_name = {r.name: r for r in full.results}
    for r in quick.results:
        assert by_name[r.name].failed > 1 and r.failed == 1, (r, by_name[r.name])
    # every case decides the same way in this process and through a testee process
    every = run_mutation_check(suite, names=names, cases=cases, in_process=True)
    assert [(r.name, r.failed, r.first) for r in every.results] == [(r.name, r.failed, r.first) for r in full.results]
    argv = [sys.executable, "-m", "omnimessage_dev.mutants", "solidus-escaped"]
    res = run_cases(suite, cases, argv, stop_at_first_failure=True)
    assert [o.status for o in res.outcomes][-1] == FAILED and len(res.outcomes) < len(cases)
    assert all(o.status != FAILED for o in res.outcomes[:-1])
    # the quick form deals the cases out by kind: the same cases, another order
    spread = interleaved(suite.cases)
    assert sorted(c.id for c in spread) == sorted(c.id for c in suite.cases) and spread != suite.cases
    assert len({c.id.rsplit(".", 1)[0] for c in spread[:100]}) == 100


def test_without_a_checkout_mutants_is_a_usage_error_saying_where_they_live() -> None:
    """The wheel carries no mutant (test_packaging); `omnimessage conformance --mutants` where
    omnimessage_dev is not importable (an installed wheel) says where they are, with status 2."""
    code = "import sys; sys.modules['omnimessage_dev'] = None; from omnimessage.cli.main import main; sys.exit(main(['conformance', '--mutants']))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "dev/omnimessage_dev/mutants" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_checkout_with_broken_mutants_shows_their_error(tmp_path: Path) -> None:
    """Only omnimessage_dev missing is "not shipped": a mutant module that fails to import (here one
    importing a module that does not exist) shows its own error, not the wheel's usage message."""
    broken = tmp_path / "omnimessage_dev" / "mutants"
    broken.mkdir(parents=True)
    (broken.parent / "__init__.py").write_text("", encoding="utf-8")
    (broken / "__init__.py").write_text("import no_such_module_of_a_mutant\n", encoding="utf-8")
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); from omnimessage.cli.main import main; "
            "sys.exit(main(['conformance', '--mutants']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "No module named 'no_such_module_of_a_mutant'" in r.stderr, r.stderr
    assert "the wheel does not ship them" not in r.stderr, r.stderr
