"""The conformance runner's judging: the Python binding over the whole suite, answers compared byte
for byte (categories, pointers, the first difference shown), expected-failure lists (xfail, xpass,
stale entries, globs, writing one), and the case filters."""

from __future__ import annotations

from pathlib import Path

import pytest
from conformance_harness import (
    FIRST,
    LAST,
    PYTHON,
    PYTHON_KNOWN,
    RAW_CONTROL,
    SUITE,
    TARGET,
    THREE,
    FakeTestee,
    fake_testee,
    statuses,
)

from omnimessage.conformance.runner import (
    FAILED,
    PASSED,
    XFAIL,
    XPASS,
    ExpectedFailures,
    first_difference,
    judge,
    load_expected_failures,
    run_cases,
    select_cases,
)


@pytest.fixture
def fake(tmp_path: Path) -> FakeTestee:
    return fake_testee(tmp_path)


# --- our implementations ---------------------------------------------------------


def test_python_binding_passes_every_case_but_its_known_codec_bugs() -> None:
    result = run_cases(SUITE, SUITE.cases, PYTHON, expected=load_expected_failures(PYTHON_KNOWN))
    bad = [f"{o.case.id}: {o.message[:300]}" for o in result.outcomes if o.failed]
    assert result.ok, bad[:10] + result.stale
    assert result.count(PASSED) >= len(SUITE.cases) - 5
    print(f"\npython: {result.summary()}")


# --- judging -------------------------------------------------------------------------


def _encoded(case_id: str, data: bytes) -> dict[str, object]:
    import base64

    return {"id": case_id, "result": "encoded", "output": base64.b64encode(data).decode()}


def test_judge_compares_bytes_categories_and_pointers() -> None:
    assert judge(FIRST, _encoded(FIRST.id, FIRST.output or b""))[0] == PASSED
    status, msg = judge(FIRST, _encoded(FIRST.id, (FIRST.output or b"") + b" "))
    assert status == FAILED and "first difference at byte" in msg
    ok = {"id": TARGET.id, "result": "refused", "category": "duplicate_key", "pointer": "/payload/type"}
    assert judge(TARGET, ok)[0] == PASSED
    assert "expected `duplicate_key`" in judge(TARGET, {**ok, "category": "invalid_json"})[1]
    assert "pointer '/payload'" in judge(TARGET, {**ok, "pointer": "/payload"})[1]
    assert "without a pointer" in judge(TARGET, {k: v for k, v in ok.items() if k != "pointer"})[1]
    assert "accepted a line it must refuse" in judge(TARGET, _encoded(TARGET.id, b"{}"))[1]
    assert "refused a line it must keep" in judge(FIRST, {**ok, "id": FIRST.id})[1]


def test_first_difference_shows_offset_context_and_caret() -> None:
    exp = b'{"timestamp":"2026","text":"caf\xc3\xa9"}'
    got = b'{"timestamp":"2026","text":"caf\\u00e9"}'
    text = first_difference(exp, got)
    assert text.startswith("first difference at byte 31")
    lines = text.split("\n")
    assert lines[1].endswith('"caf\\xc3\\xa9"}') and lines[2].endswith('"caf\\\\u00e9"}')
    caret = lines[3].index("^")
    assert lines[1][caret:].startswith("\\xc3") and lines[2][caret:].startswith("\\\\u00e9")
    assert "ends early" in first_difference(b"abcdef", b"abc")
    assert "extra bytes" in first_difference(b"abc", b"abcdef")
    long = b"x" * 100
    text = first_difference(long + b"A" + long, long + b"B" + long)
    assert "byte 100" in text and "..." in text.split("\n")[1]


# --- expected failures ---------------------------------------------------------------


def test_expected_failures_xfail_xpass_stale_and_globs(tmp_path: Path, fake) -> None:  # type: ignore[no-untyped-def]
    ef = tmp_path / "known.txt"
    ef.write_text(
        f"# comment\n{TARGET.id}  crashes on duplicate keys\n{LAST.id}  thought broken\n"
        "rejection.no-such-case  stale\nroundtrip.zzz.*  stale glob\n"
    )
    result = run_cases(SUITE, THREE, fake("crash"), expected=load_expected_failures(ef))
    assert statuses(result) == [PASSED, XFAIL, XPASS]
    assert "remove it from the list" in result.outcomes[2].message
    assert len(result.stale) == 2 and all("matches no case" in s for s in result.stale)
    assert result.n_failed == 3 and not result.ok
    assert result.summary() == "1 passed, 3 failed, 0 skipped, 1 expected failures; level reached: none"
    glob = ExpectedFailures(entries=[("rejection.duplicate_key.*", "globbed", 1)])
    assert glob.reason(TARGET.id) == "globbed" and glob.reason(FIRST.id) is None
    ef.write_text(f"{TARGET.id}\n")
    with pytest.raises(ValueError, match="needs a reason"):
        load_expected_failures(ef)


def test_filters_select_by_group_category_tag_and_id_glob() -> None:
    assert {c.group for c in select_cases(SUITE, ["verbatim"])} == {"verbatim"}
    assert {c.category for c in select_cases(SUITE, ["lone_surrogate"])} == {"lone_surrogate"}
    assert all("precedence" in c.tags for c in select_cases(SUITE, ["precedence"]))
    assert [c.id for c in select_cases(SUITE, [], [TARGET.id])] == [TARGET.id]
    assert len(select_cases(SUITE, [], ["rejection.truncated.*"])) >= 2


def test_write_expected_failures_keeps_suite_ids_and_escapes_reasons(tmp_path: Path) -> None:
    import dataclasses

    from omnimessage.conformance.outcomes import Outcome, RunResult
    from omnimessage.conformance.runner import write_expected_failures

    alien = dataclasses.replace(FIRST, id="not.in.the.suite")
    result = RunResult(outcomes=[
        Outcome(FIRST, FAILED, "first line\x1b[2J\u202e\nrejection.duplicate_key.payload-type  injected"),
        Outcome(alien, FAILED, "whatever"),
    ])
    out = tmp_path / "list.txt"
    entries = write_expected_failures(result, out, "x\ny", [c.id for c in SUITE.cases])
    assert entries == [f"{FIRST.id}  first line\\x1b[2J\\u202e"]
    text = out.read_text(encoding="utf-8")
    assert RAW_CONTROL.search(text) is None and "not.in.the.suite" not in text and "injected" not in text
    assert [p for p, _, _ in load_expected_failures(out).entries] == [FIRST.id]
