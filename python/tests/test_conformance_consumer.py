"""The consumer role of the conformance suite (conformance/TESTEE-PROTOCOL.md, "The consumer role"):
the scripted SSE server, the judge, our testees passing it, a naive consumer failing it."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, needs

from omnimessage.conformance import testee_process
from omnimessage.conformance.consumer_cases import ConsumerCase, load_consumer_cases
from omnimessage.conformance.consumer_run import run_consumer_cases
from omnimessage.conformance.expected_failures import load_expected_failures
from omnimessage.conformance.outcomes import FAILED, PASSED, XFAIL, RunResult
from omnimessage.conformance.run import Limits
from omnimessage.conformance.suite import load_suite

LIMITS = Limits(request_timeout=60, total_timeout=600)
NAIVE = Path(__file__).with_name("naive_consumer_testee.py")
SCHEMA = ROOT / "conformance" / "testee-protocol.schema.json"


@pytest.fixture(scope="module")
def suite_cases() -> tuple[Any, list[ConsumerCase]]:
    suite = load_suite()
    return suite, load_consumer_cases(suite)


def _statuses(result: RunResult) -> dict[str, str]:
    return {o.case.id: o.status for o in result.outcomes}


def test_the_cases_file_is_what_its_tool_writes(suite_cases: tuple[Any, list[ConsumerCase]]) -> None:
    spec = importlib.util.spec_from_file_location("consumer_cases_tool", ROOT / "conformance/tools/consumer_cases.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    tool.check(tool.cases())  # every expected message decodes strictly
    assert (ROOT / "conformance" / "consumer" / "cases.json").read_text("utf-8") == tool.render()
    _, cases = suite_cases
    assert 20 <= len(cases) <= 60 and all(c.id.startswith("consumer.") for c in cases)


def _schema_checked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], bytes]]:
    """Record every consumer request and answer line of the run, to check them against the schema."""
    seen: list[tuple[dict[str, Any], bytes]] = []
    original = testee_process.Testee.request_line

    def recording(self: testee_process.Testee, req: dict[str, Any], timeout: float) -> bytes:
        line = original(self, req, timeout)
        seen.append((req, line))
        return line

    monkeypatch.setattr(testee_process.Testee, "request_line", recording)
    return seen


def _validate(seen: list[tuple[dict[str, Any], bytes]]) -> None:
    import jsonschema

    doc = json.loads(SCHEMA.read_text("utf-8"))
    defs = {k: v for k, v in doc.items() if k != "oneOf"}
    for req, line in seen:
        jsonschema.Draft202012Validator({"$ref": "#/$defs/consumer_request", **defs}).validate(req)
        jsonschema.Draft202012Validator({"$ref": "#/$defs/answer", **defs}).validate(json.loads(line))


@needs("node")
def test_typescript_testee_passes_every_case(
    suite_cases: tuple[Any, list[ConsumerCase]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The documented command (conformance/README.md), in process, so its exchanges are checked
    against the protocol schema."""
    from omnimessage.cli.main import main as cli_main

    _, cases = suite_cases
    seen = _schema_checked(monkeypatch)
    report = tmp_path / "r.json"
    code = cli_main(["conformance", "--role", "consumer", "--impl", "typescript", "--timeout", "60", "--json",
                     str(report)])
    statuses = {c["id"]: (c["status"], c["message"]) for c in json.loads(report.read_text())["cases"]}
    assert code == 0 and {s for s, _ in statuses.values()} == {PASSED}, statuses
    assert len(statuses) == len(seen) == len(cases)
    _validate(seen)


# what each defect of the naive consumer must fail (it may fail more)
DEFECTS = {
    "lf-only": {"consumer.line-ends.cr", "consumer.split.every-byte.cr", "consumer.line-ends.crlf"},
    "join": {"consumer.multiline-data"},
    "no-resume": {"consumer.resume.mid-frame", "consumer.epoch-change", "consumer.hostile.id-only-event"},
    "no-resync": {"consumer.resync", "consumer.epoch-change"},
}


def test_the_naive_consumer_passes_the_basics(suite_cases: tuple[Any, list[ConsumerCase]]) -> None:
    """Without a defect the naive reader is careful enough for the plain cases: the defects below are
    what fails it, not its being naive in general."""
    suite, cases = suite_cases
    basics = [c for c in cases if c.id in {"consumer.basic.lf", "consumer.resume.mid-frame", "consumer.resync"}]
    result = run_consumer_cases(suite, basics, [sys.executable, str(NAIVE)], limits=LIMITS)
    assert all(o.status == PASSED for o in result.outcomes), [o.message for o in result.outcomes]


@pytest.mark.parametrize("defect", sorted(DEFECTS))
def test_a_naive_consumer_fails_the_suite(defect: str, suite_cases: tuple[Any, list[ConsumerCase]]) -> None:
    suite, cases = suite_cases
    result = run_consumer_cases(suite, cases, [sys.executable, str(NAIVE), "--defect", defect], limits=LIMITS)
    status = _statuses(result)
    assert not result.ok
    missed = {cid for cid in DEFECTS[defect] if status[cid] != FAILED}
    assert not missed, f"the suite let `{defect}` pass {sorted(missed)}"


def test_the_cli_reports_and_expected_failures(tmp_path: Path) -> None:
    """`--role consumer` through the CLI: exit 1 for the naive consumer, every report written; listed
    as expected failures, its failures are XFAIL and the run exits 0."""
    cmd = f"{sys.executable} {NAIVE} --defect join"
    base = [sys.executable, "-m", "omnimessage", "conformance", "--role", "consumer", "--impl", cmd,
            "--case", "consumer.multiline-data", "--case", "consumer.basic.lf"]
    reports = ["--junit", str(tmp_path / "j.xml"), "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")]
    proc = subprocess.run([*base, *reports], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAIL  consumer.multiline-data" in proc.stdout and "the consumer rendered the stream" in proc.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert {c["id"]: c["status"] for c in report["cases"]} == {
        "consumer.basic.lf": PASSED, "consumer.multiline-data": FAILED}
    assert 'name="consumer.multiline-data"' in (tmp_path / "j.xml").read_text()
    assert "consumer.multiline-data" in (tmp_path / "r.html").read_text()
    listed = tmp_path / "xfail.txt"
    listed.write_text("consumer.multiline-data  joins data lines without LF\n")
    proc = subprocess.run([*base, "--expected-failures", str(listed)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "XFAIL" in proc.stdout or "1 expected failures" in proc.stdout, proc.stdout


HOSTILE = {
    "nested-garbage": '{"id": ID, "result": "rendered", "cards": [{"origin": [[[[1]]]], "messages": []}]}',
    "not-json": '"\\u001b[31mred',
    "wrong-id": '{"id": "other", "result": "rendered", "cards": []}',
    "huge": '{"id": ID, "result": "rendered", "cards": [], "pad": "PAD"}',  # PAD: 3 MiB, over the 1 MiB cap
    "deep": "[" * 100000,
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_answers_fail_the_case_and_the_run_ends(kind: str, suite_cases: tuple[Any, list[ConsumerCase]]) -> None:
    suite, cases = suite_cases
    answer = HOSTILE[kind]
    code = (
        "import json,sys\n"
        "h=json.loads(sys.stdin.readline())\n"
        "print(json.dumps({'hello':h['hello'],'protocol':1}),flush=True)\n"
        "for line in sys.stdin:\n"
        "    r=json.loads(line)\n"
        f"    sys.stdout.write({answer!r}.replace('ID', json.dumps(r['id'])).replace('PAD', 'x' * (3 << 20))+'\\n'); sys.stdout.flush()\n"
    )
    result = run_consumer_cases(suite, cases[:2], [sys.executable, "-c", code], limits=LIMITS)
    assert [o.status for o in result.outcomes] == [FAILED, FAILED]
    for o in result.outcomes:
        assert "\x1b" not in o.message and ("protocol" in o.message or "too_large" in o.message), o.message


def test_wrong_cards_are_shown_byte_for_byte(suite_cases: tuple[Any, list[ConsumerCase]]) -> None:
    from omnimessage.conformance.consumer_run import _Answer, judge_cards
    from omnimessage.conformance.sse_script import ScriptLog
    from omnimessage.conformance.testee_protocol import Card

    _, cases = suite_cases
    cc = next(c for c in cases if c.id == "consumer.cards.nested")
    good = [Card(origin=list(o), messages=[m.decode() for m in ms]) for o, ms in cc.expect]
    log = ScriptLog(cc.connections, requests=len(cc.connections))
    assert judge_cards(cc, _Answer(cc.id, "rendered", good), log) == (PASSED, "")
    swapped = [good[0], good[2], good[1]]
    assert "another order" in judge_cards(cc, _Answer(cc.id, "rendered", swapped), log)[1]
    first, second = good[1]["messages"][:2]
    bad = [good[0], Card(origin=good[1]["origin"], messages=[first[:-1] + " }", second]), good[2]]
    status, msg = judge_cards(cc, _Answer(cc.id, "rendered", bad), log)
    assert status == FAILED and "card ['sub-1'], message #1" in msg and "^" in msg
    log = ScriptLog(cc.connections, requests=0)
    assert "stopped reconnecting" in judge_cards(cc, _Answer(cc.id, "rendered", good), log)[1]


def test_xfail_status_is_reported(suite_cases: tuple[Any, list[ConsumerCase]], tmp_path: Path) -> None:
    suite, cases = suite_cases
    listed = tmp_path / "x.txt"
    listed.write_text("consumer.resync  keeps its cards\n")
    chosen = [c for c in cases if c.id == "consumer.resync"]
    result = run_consumer_cases(suite, chosen, [sys.executable, str(NAIVE), "--defect", "no-resync"],
                                expected=load_expected_failures(listed), limits=LIMITS)
    assert _statuses(result) == {"consumer.resync": XFAIL} and result.ok


def test_python_testee_passes_every_case(suite_cases: tuple[Any, list[ConsumerCase]]) -> None:
    """`--impl python`: omnimessage.consume's subscribe and RenderModel, through the same runner."""
    suite, cases = suite_cases
    result = run_consumer_cases(suite, cases, [sys.executable, "-m", "omnimessage.conformance.testee"], limits=LIMITS)
    failures = [f"{o.case.id}: {o.message}" for o in result.outcomes if o.status != PASSED]
    assert not failures and not result.errors and len(result.outcomes) == len(cases), "\n".join(failures)
