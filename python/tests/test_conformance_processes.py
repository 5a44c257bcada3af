"""The conformance runner's process control: a testee that crashes, hangs, floods its output or
stderr, stops reading, leaves grandchildren, fails to start or skips what it must not; restarts and
the time limits bounded."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conformance_harness import BY_ID, FIRST, SUITE, TARGET, THREE, FakeTestee, fake_testee, statuses

from omnimessage.conformance.runner import FAILED, PASSED, SKIPPED, run_cases


@pytest.fixture
def fake(tmp_path: Path) -> FakeTestee:
    return fake_testee(tmp_path)


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
