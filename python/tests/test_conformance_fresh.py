"""Fresh cases: generated for every run from a seed, answered by the reference codec at run time.

A testee that looks its answers up in the shipped suite files passes every shipped case and fails
the fresh group; both bundled bindings pass the fresh cases of 20 seeds; the seed is in every
report and replays the same cases; expected-failure lists name fresh cases by category only.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import needs

import omnimessage as om
from omnimessage._generated.models import REJECTION_CATEGORIES
from omnimessage.conformance import load_suite
from omnimessage.conformance.command import native_testee, typescript_testee
from omnimessage.conformance.expected_failures import ExpectedFailures, load_expected_failures
from omnimessage.conformance.fresh import EDITS, POINTED_CATEGORIES, fresh_cases
from omnimessage.conformance.runner import FAILED, PASSED, XFAIL, run_cases

SUITE = load_suite()
PYTHON = [sys.executable, "-m", "omnimessage.conformance.testee"]
LOOKUP = [sys.executable, str(Path(__file__).resolve().parent / "bad_testees" / "lookup_testee.py")]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "omnimessage", "conformance", *args], capture_output=True, text=True, timeout=300
    )


def test_the_same_seed_gives_the_same_cases_and_another_seed_others() -> None:
    a, b, c = fresh_cases(SUITE, 11, 60), fresh_cases(SUITE, 11, 60), fresh_cases(SUITE, 12, 60)
    assert a == b
    assert {x.input for x in a}.isdisjoint({x.input for x in c})
    assert all(x.id.startswith("fresh.11.") and x.group == "fresh" for x in a)


def test_no_fresh_input_is_a_shipped_one_and_every_edit_and_category_occurs() -> None:
    shipped = {c.input.removesuffix(b"\n") for c in SUITE.cases}
    cases = [c for seed in range(5) for c in fresh_cases(SUITE, seed, 200)]
    assert not [c.id for c in cases if c.input.removesuffix(b"\n") in shipped]
    edits = collections.Counter(t for c in cases for t in c.tags)
    assert set(EDITS) <= set(edits), set(EDITS) - set(edits)
    kinds = collections.Counter(c.category or c.expect for c in cases)
    assert {"identical", "canonical", *REJECTION_CATEGORIES} <= set(kinds), kinds
    assert any(c.mode == "lenient" for c in cases) and any(c.max_line_bytes for c in cases)


def test_expectations_are_the_reference_codecs_answers() -> None:
    """Recomputed here through the public API (`decode`/`encode`) for the complete strict lines."""
    checked = 0
    for c in fresh_cases(SUITE, 99, 300):
        if c.mode != "strict" or c.max_line_bytes is not None or not c.input.endswith(b"\n"):
            continue
        body = c.input[:-1]
        try:
            out = om.encode(om.decode(body))
        except om.DecodeError as exc:
            assert (c.expect, c.category) == ("reject", exc.category), c.id
            assert c.pointer == (exc.pointer if exc.category in POINTED_CATEGORIES else None), c.id
        else:
            assert c.output == out and c.expect == ("identical" if out == body else "canonical"), c.id
        checked += 1
    assert checked > 150


def test_a_testee_that_looks_answers_up_in_the_shipped_files_fails_the_fresh_group() -> None:
    fresh = fresh_cases(SUITE, 2026, 100)
    result = run_cases(SUITE, [*SUITE.cases, *fresh], LOOKUP, seed=2026)
    by_group = result.by_group()
    shipped_failures = [o.case.id for o in result.outcomes if o.case.group != "fresh" and o.status != PASSED]
    assert shipped_failures == []  # it knows every shipped answer...
    fresh_failed = by_group["fresh"][FAILED]
    assert not result.ok and fresh_failed >= 60, by_group["fresh"]  # ...and guesses the fresh ones
    accepted = [o for o in result.outcomes if o.case.group == "fresh" and o.case.expect != "reject"]
    assert accepted and all(o.status == FAILED for o in accepted)  # no guess gives the encoder's bytes
    # the reference binding passes the very same cases
    assert run_cases(SUITE, fresh, PYTHON).ok


@needs("node")
def test_both_bindings_pass_the_fresh_cases_of_twenty_seeds() -> None:
    """The CI gate of issue 13: 20 seeds, both bundled bindings, 60 fresh cases each."""
    ts = typescript_testee()
    assert ts is not None, "the TypeScript binding is not built (cd typescript && npm run build)"
    t0 = time.monotonic()
    failures = []
    for seed in range(20):
        cases = fresh_cases(SUITE, 7000 + seed, 60)
        for name, argv in (("python", PYTHON), ("typescript", ts)):
            result = run_cases(SUITE, cases, argv, seed=7000 + seed)
            failures += [f"{name} {o.case.id}: {o.message[:300]}" for o in result.outcomes if o.failed]
            assert len(result.outcomes) == 60
    print(f"\n20 seeds x 2 bindings x 60 fresh cases: {time.monotonic() - t0:.1f}s")
    assert failures == [], failures[:10]


NATIVE_BINDINGS = [pytest.param("rust", marks=needs("cargo")), pytest.param("go", marks=needs("go"))]
BUILT_BY = {"rust": "make rust-test, or cargo build --release in rust/", "go": "make go-test, or make go-build"}


@pytest.mark.parametrize("name", NATIVE_BINDINGS)
def test_a_native_binding_passes_the_fresh_cases_of_twenty_seeds(name: str) -> None:
    """The same gate for the bindings that are one binary (Rust: issue 21; Go: issue 36): 20 seeds,
    60 fresh cases each."""
    argv = native_testee(name)
    assert argv is not None, f"the {name} binding is not built ({BUILT_BY[name]})"
    failures = []
    for seed in range(20):
        cases = fresh_cases(SUITE, 7000 + seed, 60)
        result = run_cases(SUITE, cases, argv, seed=7000 + seed)
        failures += [f"{name} {o.case.id}: {o.message[:300]}" for o in result.outcomes if o.failed]
        assert len(result.outcomes) == 60
    assert failures == [], failures[:10]


# That a native binding passes the whole suite is checked by the one whole run each gets, in
# test_conformance_protocol.py (which also checks every message of it against the protocol schema).


def test_the_seed_is_in_every_report_and_replays_the_run(tmp_path: Path) -> None:
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    impl = " ".join(LOOKUP)
    r = _cli("--impl", impl, "--category", "fresh", "--fresh", "30", "--junit", str(junit), "--json", str(report))
    assert r.returncode == 1
    seed = int(r.stdout.split("(seed ", 1)[1].split(",", 1)[0])  # derived from the suite, and printed
    assert f"replay them with --seed {seed}" in r.stdout and r.stdout.rstrip().endswith(f"(replay: --seed {seed})")
    doc = json.loads(report.read_text())
    assert doc["seed"] == seed and doc["fresh_cases"] == 30
    root = ET.parse(junit).getroot()
    assert f"seed {seed}" in root.get("name", "")
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["seed"] == str(seed)
    # replayed: the same cases, the same verdicts
    again = tmp_path / "again.json"
    r2 = _cli("--impl", impl, "--category", "fresh", "--fresh", "30", "--seed", str(seed), "--json", str(again))
    doc2 = json.loads(again.read_text())
    assert [(c["id"], c["status"]) for c in doc2["cases"]] == [(c["id"], c["status"]) for c in doc["cases"]]
    assert r2.returncode == 1
    # one fresh case replayed alone, by its id
    one = doc["cases"][0]["id"]
    r3 = _cli("--impl", "python", "--fresh", "30", "--seed", str(seed), "--case", one, "-v")
    assert r3.returncode == 0 and f"PASS  {one}" in r3.stdout and "1 passed" in r3.stdout


def test_fresh_cases_count_in_the_exit_status() -> None:
    impl = " ".join(LOOKUP)
    r = _cli("--impl", impl, "--category", "roundtrip", "--fresh", "0")
    assert r.returncode == 0 and "and 0 fresh ones" in r.stdout  # the shipped cases alone: it passes
    r = _cli("--impl", impl, "--category", "roundtrip", "--category", "fresh", "--fresh", "10", "--seed", "5")
    assert r.returncode == 1 and "and 10 fresh ones" in r.stdout and "seed 5" in r.stdout


def test_expected_failure_lists_cannot_hide_fresh_cases_by_id(tmp_path: Path) -> None:
    fresh = fresh_cases(SUITE, 31, 80)
    listed = tmp_path / "ids.txt"
    listed.write_text("".join(f"{c.id}  listed by id\n" for c in fresh) + "fresh.*  a glob\n*  everything\n")
    ef = load_expected_failures(listed)
    assert all(ef.reason(c) is None for c in fresh)  # ids and globs never match a fresh case
    result = run_cases(SUITE, fresh, LOOKUP, expected=ef)
    assert result.count(XFAIL) == 0 and not result.ok
    by_category = tmp_path / "categories.txt"
    wanted = sorted({c.category or c.expect for c in fresh})
    by_category.write_text("".join(f"fresh:{k}  guesses\n" for k in wanted))
    result = run_cases(SUITE, fresh, LOOKUP, expected=load_expected_failures(by_category))
    assert result.ok and result.count(XFAIL) > 0  # a passing fresh case listed by category is no xpass
    ef2 = load_expected_failures(by_category)
    assert all(ef2.reason(c.id) is None for c in SUITE.cases[:50])  # fresh entries never match shipped cases
    bad = tmp_path / "bad.txt"
    bad.write_text("fresh:no_such_category  oops\n")
    with pytest.raises(ValueError, match="names no category"):
        load_expected_failures(bad)
    assert isinstance(ExpectedFailures().reason(fresh[0]), type(None))


def test_list_shows_the_fresh_cases_of_a_seed_whatever_the_hash_seed() -> None:
    r = _cli("--impl", "python", "--fresh", "5", "--seed", "1", "--list", "--category", "fresh")
    ids = [ln.split("\t", 1)[0] for ln in r.stdout.splitlines() if ln.startswith("fresh.")]
    assert len(ids) == 5 and all(i.startswith("fresh.1.") for i in ids)
    assert "# fresh cases from seed 1" in r.stdout
    # the generator depends on no hash order: the same cases under another hash seed
    r2 = subprocess.run(
        [sys.executable, "-m", "omnimessage", "conformance", "--fresh", "5", "--seed", "1", "--list", "--category",
         "fresh"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert r2.stdout == r.stdout


@needs("node")
def test_fresh_number_ties_are_spelled_as_node_spells_them() -> None:
    """The tie generator (fresh/number_ties.py) yields doubles exactly halfway between two shortest
    spellings; the reference binding, whose answers the fresh cases expect, writes each as Node's
    Number::toString does (the even one, ECMA-262 Note 2), and the generator's odd spelling is
    another decimal of the same double."""
    import random
    from fractions import Fraction

    from omnimessage.codec.write import es_number
    from omnimessage.conformance.fresh.number_ties import exact_decimal, tie

    rng = random.Random(20)
    found: list[tuple[Fraction, int, int]] = []
    while len(found) < 300:
        t = tie(rng)
        if t is not None:
            found.append(t)
    exact = [exact_decimal(x, q + 1) for x, _, q in found]
    script = "const v=JSON.parse(require('fs').readFileSync(0,'utf8'));console.log(JSON.stringify(v.map(x=>String(Number(x)))))"
    node = json.loads(subprocess.run(["node", "-e", script], input=json.dumps(exact), capture_output=True, text=True, check=True).stdout)
    for (x, s, q), spelled, js in zip(found, exact, node, strict=True):
        even = s if s % 2 == 0 else s + 1
        assert es_number(float(x)) == js, spelled
        assert Fraction(js) == Fraction(even, 10**q), (spelled, js)  # the even neighbour of the tie
        assert float(Fraction(s + 1 - (even - s), 10**q)) == float(x)  # the odd one is the same double
    assert any("number-tie" in c.tags for seed in range(3) for c in fresh_cases(SUITE, seed, 200))
