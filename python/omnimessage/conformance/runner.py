"""Runs the conformance cases against a testee process and judges its answers byte for byte.

The public face of the runner; each job lives in a module of its own, along the seams of
protobuf's conformance runner:

* :mod:`.testee_process`: the testee process (started without a shell in a process group of its
  own, spoken to over pipes with a deadline per exchange, size-capped, killed as a group), and
  :mod:`.sweep`, which kills what it left outside its group (Linux: by session and by the token
  in its environment, `OMNIMESSAGE_CONFORMANCE_TESTEE`; only a process that both starts a session
  and clears its environment escapes: run testees you do not trust in a container);
* :mod:`.judge`: one answer against one case;
* :mod:`.expected_failures`: the plain-text lists of expected failures;
* :mod:`.run`: the run loop (a crashed or hung testee fails the case at hand and is restarted a
  bounded number of times; the whole run has a time limit, so it always ends);
* :mod:`.fresh`: the cases generated anew for each run from a seed (answered by the reference
  codec at run time), so that a testee cannot pass by looking answers up in the shipped files;
* :mod:`.reports`: text, JSON and JUnit reports (the seed in each), the progress line on a
  terminal; :mod:`.outcomes`: what they report.
"""

from __future__ import annotations

from omnimessage.text.sanitize import escape_bytes

from .expected_failures import ExpectedFailures, load_expected_failures, short_reason, write_expected_failures
from .judge import describe_expectation, first_difference, judge
from .outcomes import FAILED, PASSED, SKIPPED, XFAIL, XPASS, Outcome, RunResult
from .reports import format_failure, print_result, report_json, write_json_report, write_junit
from .run import DEFAULT_REQUEST_TIMEOUT, DEFAULT_TOTAL_TIMEOUT, MAX_RESTARTS, Limits, run_cases, select_cases
from .sweep import TOKEN_VAR, sweep
from .testee_process import DEFAULT_STARTUP_TIMEOUT, HELLO, STDERR_TAIL, Testee, TesteeError

__all__ = [
    "DEFAULT_REQUEST_TIMEOUT",
    "DEFAULT_STARTUP_TIMEOUT",
    "DEFAULT_TOTAL_TIMEOUT",
    "FAILED",
    "HELLO",
    "MAX_RESTARTS",
    "PASSED",
    "SKIPPED",
    "STDERR_TAIL",
    "TOKEN_VAR",
    "XFAIL",
    "XPASS",
    "ExpectedFailures",
    "Limits",
    "Outcome",
    "RunResult",
    "Testee",
    "TesteeError",
    "describe_expectation",
    "escape_bytes",
    "first_difference",
    "format_failure",
    "judge",
    "load_expected_failures",
    "print_result",
    "report_json",
    "run_cases",
    "select_cases",
    "short_reason",
    "sweep",
    "write_expected_failures",
    "write_json_report",
    "write_junit",
]
