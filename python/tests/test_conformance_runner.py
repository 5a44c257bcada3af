"""The conformance runner: judging, process control (crashes, hangs, floods), reports, the CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import ROOT, tool_path

from omnimessage.conformance import load_suite
from omnimessage.conformance.runner import (
    FAILED,
    PASSED,
    SKIPPED,
    XFAIL,
    XPASS,
    ExpectedFailures,
    first_difference,
    judge,
    load_expected_failures,
    run_cases,
    select_cases,
)

SUITE = load_suite()
BY_ID = SUITE.by_id()
PYTHON = [sys.executable, "-m", "omnimessage.conformance.testee"]
PYTHON_KNOWN = ROOT / "conformance" / "expected-failures" / "python.txt"
SUMMARY = re.compile(
    r"^\d+ passed, \d+ failed, \d+ skipped, \d+ expected failures(; seed \d+ \(replay: --seed \d+\))?$", re.M
)

# three small cases: the middle one is where the fake testees misbehave
FIRST, TARGET, LAST = (
    BY_ID["roundtrip.request_begin.minimal"],
    BY_ID["rejection.duplicate_key.payload-type"],
    BY_ID["canonicalization.framing.spec-example"],
)
THREE = [FIRST, TARGET, LAST]

FAKE = """
import json, os, subprocess, sys, time
from omnimessage.conformance.testee import Binding, handle
MODE = sys.argv[1]
TARGET = {target!r}
hello = json.loads(sys.stdin.readline())
if MODE == "bad-hello":
    print(json.dumps({{"hello": "something-else"}}), flush=True)
elif MODE == "exit-at-hello":
    sys.stderr.write("testee: cannot initialise\\n"); sys.exit(7)
else:
    print(json.dumps({{"hello": hello["hello"], "protocol": 1, "implementation": "fake-" + MODE}}), flush=True)
if MODE == "no-read":
    time.sleep(60)
for raw in sys.stdin:
    req = json.loads(raw)
    if MODE == "slow":
        time.sleep(0.4)
    if MODE == "skip-all":
        print(json.dumps({{"id": req["id"], "result": "skipped", "reason": "not implemented"}}), flush=True)
        continue
    if MODE == "stderr-flood":
        sys.stderr.write("x" * 1_000_000)
        sys.stderr.flush()
    if req["id"] == TARGET:
        if MODE == "crash":
            sys.stderr.write("Traceback: boom\\n"); sys.stderr.flush(); os._exit(3)
        if MODE == "hang":
            time.sleep(60)
        if MODE == "garbage":
            print("hello, I am not JSON", flush=True); continue
        if MODE == "wrong-id":
            print(json.dumps({{"id": "someone-else", "result": "skipped"}}), flush=True); continue
        if MODE == "flood":
            sys.stdout.write("x" * 3_000_000); sys.stdout.flush(); time.sleep(60)
        if MODE == "grandchild":
            child = subprocess.Popen(["sleep", "300"])
            open(sys.argv[2], "w").write(str(child.pid))
            time.sleep(60)
    print(json.dumps(handle(Binding(), req)), flush=True)
"""


@pytest.fixture
def fake(tmp_path: Path):  # type: ignore[no-untyped-def]
    script = tmp_path / "fake_testee.py"
    script.write_text(FAKE.format(target=TARGET.id))

    def argv(mode: str, *extra: str) -> list[str]:
        return [sys.executable, str(script), mode, *extra]

    return argv


def statuses(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [o.status for o in result.outcomes]


# --- our implementations ---------------------------------------------------------


def test_python_binding_passes_every_case_but_its_known_codec_bugs() -> None:
    result = run_cases(SUITE, SUITE.cases, PYTHON, expected=load_expected_failures(PYTHON_KNOWN))
    bad = [f"{o.case.id}: {o.message[:300]}" for o in result.outcomes if o.failed]
    assert result.ok, bad[:10] + result.stale
    assert result.count(PASSED) >= len(SUITE.cases) - 5
    print(f"\npython: {result.summary()}")


# --- process control ---------------------------------------------------------------


def test_a_crash_fails_the_case_and_the_testee_is_restarted(fake) -> None:  # type: ignore[no-untyped-def]
    result = run_cases(SUITE, THREE, fake("crash"))
    assert statuses(result) == [PASSED, FAILED, PASSED]
    msg = result.outcomes[1].message
    assert "exited with status 3" in msg and "Traceback: boom" in msg


def test_a_hang_is_killed_at_the_request_time_limit(fake) -> None:  # type: ignore[no-untyped-def]
    t0 = time.monotonic()
    result = run_cases(SUITE, THREE, fake("hang"), request_timeout=1.0)
    assert time.monotonic() - t0 < 9  # below the default limit (10 s): the 1 s asked for was honoured
    assert statuses(result) == [PASSED, FAILED, PASSED]
    assert "timeout" in result.outcomes[1].message


def test_the_process_group_is_killed_grandchildren_included(fake, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pidfile = tmp_path / "grandchild.pid"
    result = run_cases(SUITE, THREE, fake("grandchild", str(pidfile)), request_timeout=1.5)
    assert statuses(result) == [PASSED, FAILED, PASSED]
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.05)
    assert not _alive(pid), f"grandchild {pid} survived"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


@pytest.mark.parametrize(
    ("mode", "needle"),
    [("garbage", "not a JSON line"), ("wrong-id", "carries id 'someone-else'")],
)
def test_protocol_errors_fail_the_case_and_resynchronise(fake, mode: str, needle: str) -> None:  # type: ignore[no-untyped-def]
    result = run_cases(SUITE, THREE, fake(mode))
    assert statuses(result) == [PASSED, FAILED, PASSED]
    assert needle in result.outcomes[1].message


def test_output_is_size_capped(fake) -> None:  # type: ignore[no-untyped-def]
    result = run_cases(SUITE, THREE, fake("flood"), max_response_bytes=1 << 20, request_timeout=5)
    assert statuses(result) == [PASSED, FAILED, PASSED]
    assert "exceeds" in result.outcomes[1].message


def test_stderr_is_drained_while_waiting(fake) -> None:  # type: ignore[no-untyped-def]
    result = run_cases(SUITE, THREE, fake("stderr-flood"), request_timeout=5)
    assert statuses(result) == [PASSED, PASSED, PASSED]


def test_a_testee_that_stops_reading_cannot_block_the_runner(fake) -> None:  # type: ignore[no-untyped-def]
    big = BY_ID["roundtrip.large.text-1mb-ascii"]
    t0 = time.monotonic()
    result = run_cases(SUITE, [big], fake("no-read"), request_timeout=1.0)
    assert time.monotonic() - t0 < 9  # below the default limit (10 s): the 1 s asked for was honoured
    assert statuses(result) == [FAILED] and "timeout" in result.outcomes[0].message


@pytest.mark.parametrize(("mode", "needle"), [("bad-hello", "bad handshake"), ("exit-at-hello", "cannot initialise")])
def test_a_failed_start_reports_every_case_as_not_run(fake, mode: str, needle: str) -> None:  # type: ignore[no-untyped-def]
    result = run_cases(SUITE, THREE, fake(mode))
    assert statuses(result) == [FAILED] * 3 and all(o.not_run for o in result.outcomes)
    first, *rest = [o.message for o in result.outcomes]
    assert first.startswith("not run: the testee did not start") and needle in first
    assert rest == ["not run (see the run error)"] * 2  # said once, not once per case
    assert len(result.errors) == 1 and needle in result.errors[0]


def test_a_missing_command_is_reported() -> None:
    result = run_cases(SUITE, THREE, ["/nonexistent/testee-binary"])
    assert statuses(result) == [FAILED] * 3 and "cannot start" in result.outcomes[0].message


def test_the_whole_run_time_limit_stops_the_run(fake) -> None:  # type: ignore[no-untyped-def]
    cases = [c for c in SUITE.cases if c.group == "rejection"][:12]
    t0 = time.monotonic()
    result = run_cases(SUITE, cases, fake("slow"), total_timeout=2.0)
    assert time.monotonic() - t0 < 9  # a sanity bound; that the limit cut the run is asserted next
    assert any("whole-run time limit" in o.message for o in result.outcomes)
    assert len(result.outcomes) == len(cases) and not result.ok


def test_restarts_are_bounded(fake) -> None:  # type: ignore[no-untyped-def]
    result = run_cases(SUITE, [TARGET] * 5, fake("crash"), max_restarts=2)
    msgs = [o.message for o in result.outcomes]
    assert sum("exited with status 3" in m for m in msgs) == 3
    assert "giving up" in msgs[3] and msgs[4:] == ["not run (see the run error)"]  # the reason said once
    assert any("giving up" in e for e in result.errors)


def test_skipping_is_only_allowed_for_optional_features(fake) -> None:  # type: ignore[no-untyped-def]
    lenient = next(c for c in SUITE.cases if c.mode == "lenient")
    result = run_cases(SUITE, [FIRST, lenient], fake("skip-all"))
    assert statuses(result) == [FAILED, SKIPPED]
    assert "skipped a required case" in result.outcomes[0].message


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
    assert result.summary() == "1 passed, 3 failed, 0 skipped, 1 expected failures"
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


# --- the command line ------------------------------------------------------------------


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "omnimessage", "conformance", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )


def test_cli_reports_and_exit_status(tmp_path: Path) -> None:
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    r = _cli("--impl", "python", "--category", "verbatim", "--junit", str(junit), "--json", str(report))
    assert SUMMARY.search(r.stdout), r.stdout[-500:]
    last = r.stdout.rstrip().splitlines()[-1]
    assert SUMMARY.fullmatch(last)
    doc = json.loads(report.read_text())
    assert doc["summary"]["passed"] + doc["summary"]["failed"] == len(select_cases(SUITE, ["verbatim"]))
    assert r.returncode == (0 if doc["summary"]["ok"] else 1)
    tree = ET.parse(junit).getroot()
    assert tree.tag == "testsuites" and int(tree.get("tests", "0")) == len(doc["cases"])
    r = _cli("--impl", "python", "--category", "verbatim", "--expected-failures", str(PYTHON_KNOWN), "-v")
    assert r.returncode == 0, r.stdout[-2000:]
    assert "PASS  verbatim.fidelity.ws-inner" in r.stdout


def test_cli_failure_output_shows_the_first_differing_byte(tmp_path: Path) -> None:
    r = _cli("--impl", "naive-json", "--case", "roundtrip.unicode.astral", "--expected-failures", os.devnull)
    assert r.returncode == 1
    assert "FAIL  roundtrip.unicode.astral" in r.stdout and "first difference at byte" in r.stdout
    assert r.stdout.rstrip().endswith("0 passed, 1 failed, 0 skipped, 0 expected failures")


def test_cli_impl_as_a_command_line_without_a_shell(tmp_path: Path) -> None:
    marker = tmp_path / "x"
    r = _cli("--impl", f"{sys.executable} -m omnimessage.conformance.testee ; touch {marker}", "--case", FIRST.id)
    assert not marker.exists()  # `;` and `touch` are arguments, never a shell command
    r = _cli("--impl", f"'{sys.executable}' -m omnimessage.conformance.testee", "--case", FIRST.id)
    assert r.returncode == 0 and "1 passed, 0 failed" in r.stdout


def test_cli_typescript_without_the_binding_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "conformance"
    suite.mkdir()
    for name in ("manifest.json", "cases"):
        (suite / name).symlink_to(ROOT / "conformance" / name)
    monkeypatch.delenv("OMNIMESSAGE_TS_BIN", raising=False)  # and no `omnimessage-ts` on PATH
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
    r = _cli("--impl", "typescript", "--suite", str(suite))
    assert r.returncode == 2 and "TypeScript binding is not installed" in r.stderr


def test_cli_update_expected_failures_writes_a_list_that_then_passes(tmp_path: Path) -> None:
    out = tmp_path / "list.txt"
    r = _cli(
        "--impl",
        "naive-json",
        "--category",
        "unicode",
        "--expected-failures",
        os.devnull,
        "--update-expected-failures",
        str(out),
    )
    assert r.returncode == 1
    listed = [ln.split()[0] for ln in out.read_text().splitlines() if ln and not ln.startswith("#")]
    assert listed and all(i.startswith(("roundtrip.", "canonicalization.", "verbatim.")) for i in listed)
    r = _cli("--impl", "naive-json", "--category", "unicode", "--expected-failures", str(out))
    assert r.returncode == 0, r.stdout[-1500:]


def test_cli_usage_errors() -> None:
    assert _cli().returncode == 2
    assert _cli("--impl", "python", "--case", "no-such-case").returncode == 2
    assert _cli("--impl", "python", "--expected-failures", "/nonexistent").returncode == 2


def test_python_testee_answers_empty_and_multi_line_inputs_without_crashing() -> None:
    import base64

    from omnimessage.conformance.testee import Binding, handle

    empty = handle(Binding(), {"id": 1, "input": ""})
    assert empty["result"] == "skipped" and "0 lines" in empty["reason"]  # zero bytes hold no line
    two = base64.b64encode(b'{"a":1}\n{"b":2}\n').decode()
    assert handle(Binding(), {"id": 2, "input": two})["result"] == "skipped"


# --- runner hygiene (issue 13) ------------------------------------------------------

BAD = Path(__file__).resolve().parent / "bad_testees"
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def test_cli_a_testee_that_cannot_start_is_reported_once(tmp_path: Path) -> None:
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    impl = f"{sys.executable} -c \"import sys; sys.stderr.write('cannot initialise' + ' its codec'); sys.exit(7)\""
    r = _cli("--impl", impl, "--category", "rejection", "--category", "fresh", "--fresh", "20", "--junit", str(junit),
             "--json", str(report))
    assert r.returncode == 1
    assert r.stdout.count("cannot initialise its codec") == 1, r.stdout[:3000]
    assert r.stdout.count("did not start") == 1
    n = len(select_cases(SUITE, ["rejection"])) + 20
    assert f"NOT RUN {n} cases" in r.stdout and f"0 passed, {n} failed" in r.stdout
    root = ET.parse(junit).getroot()
    assert int(root.get("failures", "0")) == n  # still every case failed in CI's eyes
    assert ET.tostring(root, encoding="unicode").count("cannot initialise its codec") == 1
    doc = json.loads(report.read_text())
    assert doc["summary"]["failed"] == n and len(doc["errors"]) == 1 and "cannot initialise" in doc["errors"][0]
    verbose = _cli("--impl", impl, "--category", "rejection", "--fresh", "0", "-v")
    assert verbose.stdout.count("cannot initialise its codec") == 1


def test_cli_a_baseline_whose_extra_is_missing_says_which_once() -> None:
    code = (
        "import sys; sys.modules['pydantic'] = None\n"  # as if the extra were not installed
        "from omnimessage.cli import main; sys.exit(main(['conformance', '--impl', 'pydantic']))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout[-1000:] + r.stderr[-1000:]
    assert "Traceback" not in r.stderr and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "`pydantic` extra" in lines[0] and "(the 'pydantic' extra's packages)" in lines[0]


def test_cli_update_expected_failures_writes_only_suite_ids_escaped(tmp_path: Path) -> None:
    out = tmp_path / "list.txt"
    args = ["--impl", f"{sys.executable} {BAD / 'inject_entries.py'}", "--category", "roundtrip", "--category",
            "fresh", "--fresh", "15", "--seed", "3"]
    r = _cli(*args, "--update-expected-failures", str(out))
    assert r.returncode == 1
    text = out.read_text(encoding="utf-8")
    assert RAW_CONTROL.search(text) is None, repr(text[:500])
    ids = {c.id for c in SUITE.cases}
    entries = [ln.split(None, 1) for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert entries and all(len(e) == 2 for e in entries)
    shipped = [e[0] for e in entries if not e[0].startswith("fresh:")]
    assert set(shipped) <= ids and len(shipped) == len(select_cases(SUITE, ["roundtrip"]))
    assert all(e[0] in {"fresh:canonical", "fresh:identical"} or e[0][6:] in REJECTIONS for e in entries
               if e[0].startswith("fresh:"))
    assert "fresh:*" not in {e[0] for e in entries}  # the injected entry is part of a reason, not a line
    assert not any(e[0].startswith("rejection.") for e in entries)
    r = _cli(*args, "--expected-failures", str(out), "-v")  # the list makes the same run green
    assert r.returncode == 0, r.stdout[-2000:]
    assert RAW_CONTROL.search(r.stdout) is None


def test_cli_expected_failure_reasons_are_printed_escaped(tmp_path: Path) -> None:
    listed = tmp_path / "list.txt"
    listed.write_text("roundtrip.unicode.astral  \x1b[2J\x1b]0;pwned\x07 \u202eevil\x85 reason\n", encoding="utf-8")
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    r = _cli("--impl", "naive-json", "--case", "roundtrip.unicode.astral", "--expected-failures", str(listed), "-v",
             "--junit", str(junit), "--json", str(report))
    assert r.returncode == 0 and "XFAIL roundtrip.unicode.astral" in r.stdout
    assert "\\x1b[2J" in r.stdout
    for text in (r.stdout, r.stderr, junit.read_text(encoding="utf-8"), report.read_text(encoding="utf-8")):
        assert RAW_CONTROL.search(text) is None, repr(text[:400])
    assert "\\x1b[2J" in json.loads(report.read_text())["cases"][0]["expected_failure_reason"]


REJECTIONS = set(json.loads((ROOT / "schema" / "omnimessage.schema.json").read_text())["x-omnimessage-rejections"])


def _on_a_terminal(args: list[str]) -> tuple[int, bytes, bytes]:
    """Run the CLI with stderr on a pseudo-terminal: (status, stdout, what the terminal got)."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "omnimessage", "conformance", *args], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every holder of the terminal has closed it
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.stdout is not None
    out = proc.stdout.read()
    return proc.wait(timeout=120), out, bytes(seen)


def test_progress_is_one_updating_line_on_a_terminal_and_nothing_otherwise() -> None:
    args = ["--impl", "python", "--category", "verbatim", "--category", "fresh", "--fresh", "40", "--seed", "1"]
    n = len(select_cases(SUITE, ["verbatim"])) + 40
    rc, out, tty = _on_a_terminal(args)
    assert rc == 0
    assert b"\r\x1b[Kconformance " in tty and f"/{n} ".encode() in tty
    assert tty.endswith(b"\r\x1b[K")  # erased at the end
    assert b"\n" not in tty.replace(b"\r\n", b"")  # one line, redrawn: never a new one
    assert b"\x1b" not in out  # stdout (the report) has none of it
    r = _cli(*args)  # stderr a pipe: nothing
    assert r.returncode == 0 and r.stderr == ""


def test_mutation_check_reports_progress_per_mutant() -> None:
    import io

    from omnimessage.conformance.mutants import MUTANTS, run_mutation_check
    from omnimessage.conformance.reports import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    term = Terminal()
    names = list(MUTANTS)[:2]
    run_mutation_check(SUITE, names=names, cases=THREE, progress=Progress(term, 0, "mutants"))
    assert "mutants 2/2" in term.getvalue()


# --- the testee protocol as a JSON Schema (conformance/testee-protocol.schema.json) -----------

PROTOCOL_SCHEMA = ROOT / "conformance" / "testee-protocol.schema.json"


def _protocol_validator(part: str):  # type: ignore[no-untyped-def]
    import jsonschema

    doc = json.loads(PROTOCOL_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(doc)
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{part}", **{k: v for k, v in doc.items() if k != "oneOf"}})


def _exchanges(argv: list[str], cases: list, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def,type-arg]
    """Every (what the runner sent, what the testee answered) of a run."""
    from omnimessage.conformance.testee_process import Testee

    seen: list[tuple[dict, dict]] = []  # type: ignore[type-arg]
    real = Testee._roundtrip

    def recording(self, msg, deadline, what):  # type: ignore[no-untyped-def]
        reply = real(self, msg, deadline, what)
        seen.append((msg, reply))
        return reply

    monkeypatch.setattr(Testee, "_roundtrip", recording)
    result = run_cases(SUITE, cases, argv)
    monkeypatch.undo()
    return result, seen


@pytest.mark.parametrize("impl", ["python", "typescript", "rust", "naive-json", "pydantic"])
def test_the_runner_and_every_bundled_testee_speak_the_protocol_schema(
    impl: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from omnimessage.conformance.command import resolve_impl
    from omnimessage.conformance.fresh import fresh_cases

    if impl == "typescript" and tool_path("node") is None:
        pytest.skip("node is not on PATH")
    if impl == "rust" and tool_path("cargo") is None:
        pytest.skip("cargo is not on PATH")
    argv = resolve_impl(impl, SUITE).argv
    cases = [*SUITE.cases, *fresh_cases(SUITE, 4242, 60)]
    result, seen = _exchanges(argv, cases, monkeypatch)
    hellos = sum(1 for sent, _ in seen if "hello" in sent)  # one per (re)start
    assert hellos >= 1 and len(seen) >= len(cases) - 5 and not result.errors  # (an exchange that broke: none)
    validators = {p: _protocol_validator(p) for p in ("runner_hello", "testee_hello", "request", "answer")}
    problems = []
    for sent, got in seen:
        hello = "hello" in sent
        pairs = (("runner_hello", sent), ("testee_hello", got)) if hello else (("request", sent), ("answer", got))
        for part, msg in pairs:
            for err in validators[part].iter_errors(_shortened(msg)):
                problems.append(f"{part} {str(msg)[:160]}: {err.message[:200]} at {list(err.absolute_path)}")
    assert problems == [], problems[:5]


def _shortened(msg: dict) -> dict:  # type: ignore[type-arg]
    """`msg` with base64 members cut to 64 KiB (whole quads): the same shape, without regex time on megabytes."""
    return {k: v[: 1 << 16] if k in ("input", "output") and isinstance(v, str) else v for k, v in msg.items()}


def test_the_protocol_schema_refuses_what_the_protocol_forbids() -> None:
    answer, request = _protocol_validator("answer"), _protocol_validator("request")
    ok = {"id": "roundtrip.x", "result": "refused", "category": "duplicate_key", "pointer": "/a~1b", "offset": 3}
    assert answer.is_valid(ok) and answer.is_valid({"id": "a", "result": "encoded", "output": "e30="})
    for bad in (
        {**ok, "category": "nope"},
        {**ok, "pointer": 1},
        {**ok, "offset": -1},
        {"id": "a", "result": "encoded", "output": "not base64!"},
        {"id": "a", "result": "encoded"},
        {"id": "a", "result": "maybe"},
        {"id": "a", "result": "skipped", "reason": "x", "output": "e30="},
    ):
        assert not answer.is_valid(bad), bad
    assert request.is_valid(BY_ID["roundtrip.request_begin.minimal"].request())
    assert not request.is_valid({"id": "a", "mode": "relaxed", "input": ""})
    assert not request.is_valid({"id": "a", "mode": "strict", "input": "", "max_line_bytes": 0})


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
