"""The conformance runner against the deliberately bad testees of python/tests/bad_testees/.

Each one answers correctly except on one request (the second), where it hangs (deaf to SIGTERM),
floods stdout with bytes or with lines, writes a line that is not JSON, answers with another id,
exits (with a status, or killed by a signal), closes its stdout, sends a 100 MiB answer, never
answers the handshake, never exits, or spawns a child that keeps running (in its process group,
in a group of its own, or as a daemon in a session of its own; with the testee answering on, or
exiting while the child holds its stdout). For each: the case at hand fails with a clear reason,
within the time limits, the next case passes on a restarted testee, and afterwards no process of
the run is left (a /proc scan for the marker the test puts in their environment). The runner's
own peak RSS stays bounded through all of them (measured in a process of its own).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from omnimessage.conformance import load_suite
from omnimessage.conformance.runner import FAILED, PASSED, run_cases

BAD = Path(__file__).resolve().parent / "bad_testees"
SUITE = load_suite()
BY_ID = SUITE.by_id()
CASES = [
    BY_ID["roundtrip.request_begin.minimal"],
    BY_ID["rejection.duplicate_key.payload-type"],  # the testee misbehaves on this one (the second)
    BY_ID["canonicalization.framing.spec-example"],
]
pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


def leftovers(marker: str) -> list[str]:
    """Live processes (not zombies) carrying the marker in their environment, other than us."""
    needle = f"BAD_TESTEE_RUN={marker}".encode()
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_bytes()
            if stat[stat.rfind(b")") + 2 :].split()[0] in (b"Z", b"X"):
                continue
            if needle in Path(f"/proc/{name}/environ").read_bytes().split(b"\0"):
                out.append(f"{name}: {Path(f'/proc/{name}/cmdline').read_bytes()[:120]!r}")
        except OSError:
            continue
    return out


# Time bounds: below the default request time limit (10 s), so a run that waited for a default
# instead of the short limit a test asks for fails, with room for a slow machine.
BOUND = 9.0
PATIENT = 300.0
"""The request time limit of a bad testee that answers at once: what stops its case is never the clock."""


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> str:
    marker = uuid.uuid4().hex
    monkeypatch.setenv("BAD_TESTEE_RUN", marker)  # inherited by the testee and everything it starts
    return marker


def run(argv: list[str], marker: str, **kw: object) -> tuple[object, float]:
    t0 = time.monotonic()
    result = run_cases(SUITE, CASES, [sys.executable, *argv], **kw)  # type: ignore[arg-type]
    elapsed = time.monotonic() - t0
    deadline = time.monotonic() + 5
    left = leftovers(marker)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = leftovers(marker)
    assert not left, f"processes left behind: {left}"
    return result, elapsed


@pytest.mark.parametrize(
    ("testee", "needle"),
    [
        (["hang.py"], "timeout: no answer within 1s; the testee was killed"),
        (["flood_stdout.py", "bytes"], "exceeds 1048576 bytes without a line feed"),
        (["invalid_json.py"], "is not a JSON line: \\xff\\xfe\\x00 {this is not JSON"),
        (["wrong_id.py"], "carries id 'not-rejection.duplicate_key.payload-type'"),
        (["exit_mid_run.py", "status"], "exited with status 3 during case"),
        (["exit_mid_run.py", "signal"], "was killed by SIGSEGV during case"),
        (["close_stdout.py"], "closed its stdout during case"),
        (["huge_answer.py"], "exceeds 67108864 bytes without a line feed"),
        (["nested_answer.py", "deep"], "nests too deeply to be parsed"),
        (["nested_answer.py", "field"], "breaks the protocol: Expected `bool | int | float | str | null`"),
        (["nested_answer.py", "wide"], "skipped a required case"),  # the unknown member skipped, not built
        (["nested_answer.py", "keys"], "skipped a required case"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_a_bad_answer_fails_its_case_clearly_and_the_run_goes_on(testee: list[str], needle: str, marked: str) -> None:
    # Only the hang is about the time limit (its message names the 1 s it was given). The others
    # answer at once, some with 60 MiB to read and judge: a limit they could meet only on an idle
    # machine would decide their verdict, so they get one no machine reaches (their messages say
    # what stopped the read: the byte cap, the parse, the protocol, never the clock).
    kw: dict[str, object] = {"request_timeout": 1.0 if testee[0] == "hang.py" else PATIENT}
    if testee[0] == "flood_stdout.py":
        kw["max_response_bytes"] = 1 << 20
    result, _ = run([str(BAD / testee[0]), *testee[1:]], marked, **kw)
    assert [o.status for o in result.outcomes] == [PASSED, FAILED, PASSED]  # type: ignore[attr-defined]
    message = result.outcomes[1].message  # type: ignore[attr-defined]
    assert needle in message, message


def test_a_flood_of_answer_lines_is_a_protocol_error(marked: str) -> None:
    result, _ = run([str(BAD / "flood_stdout.py"), "lines"], marked, request_timeout=PATIENT)
    statuses = [o.status for o in result.outcomes]  # type: ignore[attr-defined]
    messages = [o.message for o in result.outcomes]  # type: ignore[attr-defined]
    # its first line answers the case (wrongly: skipped); the lines after it break the protocol
    assert statuses == [PASSED, FAILED, FAILED], messages
    assert "skipped a required case" in messages[1]
    assert "answered before reading all of case" in messages[2]


def test_a_silent_testee_fails_the_start_within_its_time_limit(marked: str) -> None:
    result, elapsed = run([str(BAD / "silent.py")], marked, startup_timeout=1.0)
    messages = [o.message for o in result.outcomes]  # type: ignore[attr-defined]
    assert messages[0].startswith("not run: the testee did not start: no answer to the handshake")
    assert messages[1:] == ["not run (see the run error)"] * 2  # the reason is said once
    assert elapsed < BOUND


def test_a_testee_that_never_exits_is_killed_after_the_grace_period(marked: str) -> None:
    result, elapsed = run([str(BAD / "ignore_eof.py")], marked)
    assert [o.status for o in result.outcomes] == [PASSED] * 3  # type: ignore[attr-defined]
    assert elapsed < BOUND


@pytest.mark.parametrize("mode", ["group", "pgid", "session"])
def test_children_that_keep_running_are_killed_and_reported(mode: str, marked: str, tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    result, elapsed = run([str(BAD / "orphan_child.py"), str(pidfile), mode], marked, request_timeout=2.0)
    assert [o.status for o in result.outcomes] == [PASSED] * 3  # type: ignore[attr-defined]
    pid = int(pidfile.read_text().split()[0])
    warnings = result.warnings  # type: ignore[attr-defined]
    if mode == "group":
        assert warnings == []  # killed with its process group: nothing escaped
    else:
        assert len(warnings) == 1 and f"pid {pid} " in warnings[0], warnings
    assert elapsed < BOUND


@pytest.mark.parametrize("mode", ["group", "session"])
def test_a_testee_that_exits_while_its_child_holds_stdout_is_noticed_at_once(
    mode: str, marked: str, tmp_path: Path
) -> None:
    pidfile = tmp_path / "child.pid"
    result, elapsed = run(
        [str(BAD / "orphan_child.py"), str(pidfile), mode, "exit"], marked, request_timeout=BOUND + 1
    )
    assert [o.status for o in result.outcomes] == [PASSED, FAILED, PASSED]  # type: ignore[attr-defined]
    message = result.outcomes[1].message  # type: ignore[attr-defined]
    assert "exited with status 0 (a process it started still holds its stdout open)" in message, message
    assert elapsed < BOUND, f"{elapsed:.1f}s: waited for the time limit instead of noticing the exit"


# VmHWM, not ru_maxrss: the latter keeps the RSS of the forked parent (pytest) across exec.
RSS_PROBE = r"""
import json, re, sys, time
from omnimessage.conformance import load_suite
from omnimessage.conformance.runner import run_cases
suite = load_suite()
ids = ["roundtrip.request_begin.minimal", "rejection.duplicate_key.payload-type",
       "canonicalization.framing.spec-example"]
cases = [suite.by_id()[i] for i in ids]
def hwm():
    status = open("/proc/self/status").read()
    return int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) // 1024
peaks = {"(suite loaded)": [hwm(), 0]}
for testee in json.loads(sys.argv[1]):
    t0 = time.monotonic()
    run_cases(suite, cases, [sys.executable, *testee], request_timeout=2.0, startup_timeout=2.0)
    peaks[" ".join(a.rsplit("/", 1)[-1] for a in testee)] = [hwm(), round(time.monotonic() - t0, 1)]
print(json.dumps(peaks))
"""


def test_the_runner_memory_stays_bounded(marked: str, tmp_path: Path) -> None:
    """Peak RSS of a runner process taken through every bad testee in turn (the worst: a 100 MiB
    answer, cut at the 64 MiB cap)."""
    testees = [
        [str(BAD / "hang.py")],
        [str(BAD / "flood_stdout.py"), "bytes"],
        [str(BAD / "flood_stdout.py"), "lines"],
        [str(BAD / "invalid_json.py")],
        [str(BAD / "wrong_id.py")],
        [str(BAD / "exit_mid_run.py"), "status"],
        [str(BAD / "close_stdout.py")],
        [str(BAD / "huge_answer.py")],
        [str(BAD / "nested_answer.py"), "deep"],
        [str(BAD / "nested_answer.py"), "wide"],
        [str(BAD / "nested_answer.py"), "keys"],
        [str(BAD / "ignore_eof.py")],
        [str(BAD / "orphan_child.py"), str(tmp_path / "pids"), "session", "exit"],
    ]
    r = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, json.dumps(testees)], capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    peaks = json.loads(r.stdout)
    print("\nrunner peak RSS (MiB, cumulative) and seconds per bad testee:", peaks)
    # the suite itself is ~80 MiB; a flood costs the 64 MiB answer cap and a copy or two of it
    assert max(p[0] for p in peaks.values()) < peaks["(suite loaded)"][0] + 200, peaks
    assert not leftovers(marked)


def test_hostile_text_reaches_no_output_raw_fresh_cases_and_lists_included(tmp_path: Path) -> None:
    """hostile_strings.py (terminal escapes, bidi controls, line breaks and workflow commands in its
    handshake, answers and stderr) through every output of a run with fresh cases: the text report
    (-v), JSON, JUnit and the list --update-expected-failures writes."""
    from test_hostile_output import harmless, json_harmless

    junit, report, listed = tmp_path / "r.xml", tmp_path / "r.json", tmp_path / "list.txt"
    proc = subprocess.run(
        [sys.executable, "-m", "omnimessage", "conformance", "--impl", f"{sys.executable} {BAD / 'hostile_strings.py'}",
         "--category", "fresh", "--fresh", "6", "--seed", "9", "-v", "--junit", str(junit), "--json", str(report),
         "--update-expected-failures", str(listed), "--timeout", "20"],
        capture_output=True, timeout=300,
    )
    assert proc.returncode == 1, proc.stderr[-2000:]
    out = harmless(proc.stdout) + harmless(proc.stderr)
    assert "\\x1b]52;c;" in out and "seed 9" in out
    ET.parse(junit)
    harmless(junit.read_bytes())
    assert json_harmless(harmless(report.read_bytes()))["seed"] == 9
    text = harmless(listed.read_bytes())
    assert all(ln.startswith(("#", "fresh:")) for ln in text.splitlines() if ln)


def test_a_deeply_nested_answer_fails_its_case_and_the_reports_are_written(tmp_path: Path) -> None:
    """Issue 23: a RecursionError used to end the run without its JUnit or JSON report."""
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    argv = [sys.executable, "-m", "omnimessage", "conformance", "--impl",
            f"{sys.executable} {BAD / 'nested_answer.py'} deep", "--junit", str(junit), "--json", str(report)]
    for c in CASES:
        argv += ["--case", c.id]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "Traceback" not in proc.stdout + proc.stderr and "nests too deeply" in proc.stdout
    ET.parse(junit)
    assert [c["status"] for c in json.loads(report.read_text())["cases"]] == ["passed", "failed", "passed"]
