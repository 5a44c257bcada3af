"""Conformance a CI can trust (issue 34): the same verdict every run by default, expected-failure
lists that hold for every seed, levels (`required` / `recommended`) and `--level required`.

The testee here answers through our Python binding but gets wrong, on purpose and by a rule of
the input bytes alone, every case whose input has an odd length (`odd`), or one named case
(`one:ID`): a wrong answer depends on the case, never on the run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conformance_harness import BY_ID, SUITE, cli

from omnimessage.conformance.expected_failures import load_expected_failures, write_expected_failures
from omnimessage.conformance.fresh import fresh_cases, stable_seed
from omnimessage.conformance.levels import RECOMMENDED, REQUIRED, level_by_rule, level_reached
from omnimessage.conformance.outcomes import FAILED, Outcome, RunResult

TESTEE = """
import base64, json, sys
from omnimessage.conformance.testee import Binding, handle
RULE = sys.argv[1]
hello = json.loads(sys.stdin.readline())
print(json.dumps({"hello": hello["hello"], "protocol": 1, "implementation": "rule-" + RULE}), flush=True)
for raw in sys.stdin:
    req = json.loads(raw)
    data = base64.b64decode(req["input"])
    wrong = len(data) % 2 == 1 if RULE == "odd" else req["id"] == RULE[len("one:"):]
    if wrong:
        print(json.dumps({"id": req["id"], "result": "refused", "category": "invalid_json", "pointer": "/x"}),
              flush=True)
    else:
        print(json.dumps(handle(Binding(), req)), flush=True)
"""

FAST = ["--category", "canonicalization", "--category", "fresh", "--fresh", "40"]
"""A fast configuration: one group of shipped cases (178) and 40 fresh ones."""

LENIENT_CASE = next(c.id for c in SUITE.cases if c.level == RECOMMENDED)
REQUIRED_CASE = "roundtrip.request_begin.minimal"


def _testee(tmp_path: Path, rule: str) -> str:
    script = tmp_path / "rule_testee.py"
    script.write_text(TESTEE)
    return f"{sys.executable} {script} {rule}"


def _seed_of(stdout: str) -> int:
    line = next(ln for ln in stdout.splitlines() if ln.startswith("# fresh cases from seed "))
    return int(line.rsplit(" ", 1)[1])


# --------------------------------------------------------------------------- the seed


def test_the_default_seed_is_derived_from_the_suite_and_printed() -> None:
    runs = [cli("--list", "--fresh", "5", "--category", "fresh") for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    assert runs[0].stdout == runs[1].stdout  # the same cases, the same ids
    assert _seed_of(runs[0].stdout) == stable_seed(SUITE)
    again = stable_seed(SUITE)
    assert fresh_cases(SUITE, again, 5)[0].input == fresh_cases(SUITE, stable_seed(SUITE), 5)[0].input


def test_seed_random_draws_a_new_seed_and_prints_it() -> None:
    seeds = {_seed_of(cli("--list", "--fresh", "1", "--category", "fresh", "--seed", "random").stdout)
             for _ in range(2)}
    assert len(seeds) == 2  # two draws of 2^32 seeds
    assert stable_seed(SUITE) not in seeds
    bad = cli("--list", "--seed", "sometimes")
    assert bad.returncode == 2 and "not an integer or `random`" in bad.stderr


def test_the_header_says_where_the_seed_comes_from(tmp_path: Path) -> None:
    r = cli("--impl", "python", "--case", REQUIRED_CASE, "--case", "fresh.*", "--fresh", "3")
    seed = stable_seed(SUITE)
    assert f"(seed {seed}, derived from the suite; replay with --seed {seed})" in r.stdout, r.stdout


# --------------------------------------------------------------------------- one verdict, ten runs


def test_ten_runs_with_one_list_give_one_verdict(tmp_path: Path) -> None:
    """Done-when of issue 34: the list written by one run holds for ten more, the default seed and
    random ones alike; a stale entry added to it still fails the run."""
    impl = _testee(tmp_path, "odd")
    known = tmp_path / "known.txt"
    first = cli("--impl", impl, *FAST, "--update-expected-failures", str(known))
    assert first.returncode == 1, first.stdout + first.stderr
    entries = [ln.split()[0] for ln in known.read_text().splitlines() if ln and not ln.startswith("#")]
    assert "fresh:*" in entries  # fresh failures by family, not by the categories of one draw
    assert not any(e.startswith("fresh:") and e != "fresh:*" for e in entries)
    verdicts = []
    for i in range(10):
        seed = ["--seed", "random"] if i % 2 else []
        r = cli("--impl", impl, *FAST, *seed, "--expected-failures", str(known))
        verdicts.append((r.returncode, "level reached: none" in r.stdout))
    assert set(verdicts) == {(0, True)}, verdicts
    with known.open("a") as fh:
        fh.write("canonicalization.no-such-case  once failed\n")
    stale = cli("--impl", impl, *FAST, "--expected-failures", str(known))
    assert stale.returncode == 1 and "STALE" in stale.stdout and "no-such-case" in stale.stdout


def test_a_written_fresh_entry_holds_for_cases_of_every_seed(tmp_path: Path) -> None:
    mine = fresh_cases(SUITE, 1, 20)
    result = RunResult(outcomes=[Outcome(c, FAILED, "refused as `x`") for c in mine[:3]], seed=1)
    path = tmp_path / "list.txt"
    entries = write_expected_failures(result, path, "impl", (c.id for c in SUITE.cases))
    assert [e.split()[0] for e in entries] == ["fresh:*"]
    listed = load_expected_failures(path)
    for seed in (2, 3, 2**40):
        assert all(listed.reason(c) is not None for c in fresh_cases(SUITE, seed, 20))
    assert listed.reason(BY_ID[REQUIRED_CASE]) is None  # never a shipped case
    assert listed.stale(c.id for c in SUITE.cases) == []


# --------------------------------------------------------------------------- levels


def test_every_case_has_the_level_of_its_rule() -> None:
    assert {c.level for c in SUITE.cases} == {REQUIRED, RECOMMENDED}
    for c in SUITE.cases:
        assert c.level == level_by_rule(c.spec, c.features), c.id
    assert all(c.level == RECOMMENDED for c in SUITE.cases if c.group == "lenient")


def test_level_reached() -> None:
    assert level_reached([]) == RECOMMENDED
    assert level_reached([RECOMMENDED]) == REQUIRED
    assert level_reached([RECOMMENDED, REQUIRED]) == "none"
    assert level_by_rule("4.1", ()) == REQUIRED and level_by_rule("2", ("lenient",)) == RECOMMENDED
    assert level_by_rule("9", ()) is None  # builders: no case may cite it without a decided level


def test_failing_one_recommended_case_passes_level_required(tmp_path: Path) -> None:
    impl = _testee(tmp_path, f"one:{LENIENT_CASE}")
    args = ["--impl", impl, "--case", LENIENT_CASE, "--case", REQUIRED_CASE, "--fresh", "0"]
    gated_all = cli(*args, "--json", str(tmp_path / "all.json"))
    assert gated_all.returncode == 1, gated_all.stdout
    assert "level reached: required" in gated_all.stdout
    required = cli(*args, "--level", "required", "--json", str(tmp_path / "r.json"),
                   "--junit", str(tmp_path / "r.xml"), "--html", str(tmp_path / "r.html"))
    assert required.returncode == 0, required.stdout + required.stderr
    assert "1 failed below --level required, not gating" in required.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["level_reached"] == REQUIRED and report["gate"] == REQUIRED and report["summary"]["ok"]
    assert {c["id"]: c["level"] for c in report["cases"]} == {LENIENT_CASE: RECOMMENDED, REQUIRED_CASE: REQUIRED}
    junit = (tmp_path / "r.xml").read_text()
    assert '<property name="level" value="recommended"' in junit and 'failures="0"' in junit
    assert "level reached: required" in (tmp_path / "r.html").read_text()


def test_failing_a_required_case_fails_level_required(tmp_path: Path) -> None:
    impl = _testee(tmp_path, f"one:{REQUIRED_CASE}")
    r = cli("--impl", impl, "--case", LENIENT_CASE, "--case", REQUIRED_CASE, "--fresh", "0", "--level", "required")
    assert r.returncode == 1 and "level reached: none" in r.stdout, r.stdout


def test_a_case_without_a_level_is_refused(tmp_path: Path) -> None:
    from omnimessage.conformance.suite import SuiteError, load_suite

    doc = json.loads((SUITE.root / "manifest.json").read_text())
    case = next(c for c in doc["cases"] if c["id"] == REQUIRED_CASE)
    del case["level"]
    case["input"] = {"base64": "e30K"}
    (tmp_path / "manifest.json").write_text(json.dumps({**doc, "cases": [case]}))
    with pytest.raises(SuiteError, match=f"case {REQUIRED_CASE}: level must be one of required, recommended"):
        load_suite(tmp_path)


# --------------------------------------------------------------------------- the builder and the README


@pytest.fixture
def case_builder(monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.syspath_prepend(str(SUITE.root / "tools"))
    import case_builder.manifest

    return case_builder.manifest


def test_the_builder_gives_new_cases_a_level_by_rule_and_stops_on_none(case_builder: object) -> None:
    assign, error = case_builder.assign_levels, case_builder.BuildError  # type: ignore[attr-defined]
    cases = [{"id": "rejection.new", "spec": "4.1"}, {"id": "lenient.new", "spec": "2", "features": ["lenient"]},
             {"id": "roundtrip.forced", "spec": "2", "level": "recommended"}]
    assign(cases)
    assert [c["level"] for c in cases] == [REQUIRED, RECOMMENDED, RECOMMENDED]
    with pytest.raises(error, match=r"case roundtrip.builders: no level: it cites section '9' .*SECTION_LEVELS"):
        assign([{"id": "roundtrip.builders", "spec": "9"}])
    with pytest.raises(error, match=r"case x\.y: level 'optional' is not one of required, recommended"):
        assign([{"id": "x.y", "spec": "2", "level": "optional"}])


def test_the_readme_counts_are_the_manifests(case_builder: object) -> None:
    from collections import Counter

    from case_builder.readme_counts import with_counts  # type: ignore[import-not-found]

    text = (SUITE.root / "README.md").read_text("utf-8")
    for group, n in Counter(c.group for c in SUITE.cases).items():
        assert f"| `{group}` | {n} |" in text, group
    rejection_row = next(ln for ln in text.splitlines() if ln.startswith("| `rejection` |"))
    for category, n in Counter(c.category for c in SUITE.cases if c.group == "rejection").items():
        assert f"`{category}` {n}" in rejection_row, category
    levels = Counter(c.level for c in SUITE.cases)
    assert f"{levels[REQUIRED]} cases are `required` and {levels[RECOMMENDED]} `recommended`" in text
    assert f"{sum('hostile' in c.tags for c in SUITE.cases)} cases are tagged `hostile`" in text
    assert f"## Layout (suite version {SUITE.suite_version})" in text
    # a stale count is rewritten by generate.py (and reported by its --check)
    manifest = json.loads((SUITE.root / "manifest.json").read_text("utf-8"))["cases"]
    stale = text.replace(f"| `roundtrip` | {levels and Counter(c.group for c in SUITE.cases)['roundtrip']} |",
                         "| `roundtrip` | 423 |")
    assert stale != text and with_counts(stale, manifest) == text


def test_the_ci_reports_of_one_run_are_refused_with_the_matrix(tmp_path: Path) -> None:
    for extra in (["--summary", str(tmp_path / "s.md")], ["--format", "github"]):
        r = cli("--matrix", *extra)
        assert r.returncode == 2 and "describe one implementation's run" in r.stderr, r.stderr
    assert not (tmp_path / "s.md").exists()
