"""The run loop (the test manager): every selected case sent to the testee, judged and recorded.

A testee that crashes, hangs or breaks the protocol fails the case at hand and is restarted for
the next one, a bounded number of times; the whole run has a time limit, so the run always ends.
Expected failures turn a failure into `xfail` and a pass into `xpass` (which fails the run).
"""

from __future__ import annotations

import fnmatch
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .expected_failures import ExpectedFailures
from .judge import judge
from .outcomes import FAILED, PASSED, XFAIL, XPASS, Outcome, RunResult
from .suite import FRESH_GROUP, GROUPS, Case, Suite
from .testee_process import DEFAULT_STARTUP_TIMEOUT, Testee, TesteeError

__all__ = ["DEFAULT_REQUEST_TIMEOUT", "DEFAULT_TOTAL_TIMEOUT", "MAX_RESTARTS", "Limits", "run_cases", "select_cases"]

DEFAULT_REQUEST_TIMEOUT = 10.0
DEFAULT_TOTAL_TIMEOUT = 900.0
MAX_RESTARTS = 8


@dataclass(frozen=True)
class Limits:
    """How long a run may take and how much a testee may get wrong before it is given up."""

    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    total_timeout: float = DEFAULT_TOTAL_TIMEOUT
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT
    max_restarts: int = MAX_RESTARTS
    max_response_bytes: int = 64 << 20


class _Run:
    """One run in progress: the testee (started when a case needs it), its restarts, the result."""

    def __init__(
        self,
        suite: Suite,
        argv: Sequence[str],
        expected: ExpectedFailures,
        limits: Limits,
        cwd: str | os.PathLike[str] | None,
        on_outcome: Callable[[Outcome], None] | None,
    ) -> None:
        self.suite, self.argv, self.expected, self.limits = suite, argv, expected, limits
        self.cwd, self.on_outcome = cwd, on_outcome
        self.start = time.monotonic()
        self.deadline = self.start + limits.total_timeout
        self.result = RunResult(outcomes=[])
        self.testee: Testee | None = None
        self.restarts = 0
        self.fatal: str | None = None
        """Why the remaining cases are not run (the testee did not start, failed too often, time is up)."""

    def run(self, case: Case) -> None:
        t0 = time.monotonic()
        if self.fatal is None and time.monotonic() >= self.deadline:
            self._give_up(f"the whole-run time limit of {self.limits.total_timeout:g}s was exceeded")
        if self.fatal is None and self.testee is None:
            self._start()
        if self.fatal is not None or self.testee is None:
            # said once (result.errors, the first case's message); every case still fails
            first = not any(o.not_run for o in self.result.outcomes)
            self._record(case, FAILED, f"not run: {self.fatal}" if first else "not run (see the run error)", t0,
                         not_run=True)
            return
        status, message = self._ask(self.testee, case)
        self._record(case, status, message, t0)

    def close(self) -> None:
        if self.testee is not None:
            self._retire(self.testee, kill=False)
            self.testee = None

    def finish(self) -> RunResult:
        self.result.stale = self.expected.stale(c.id for c in self.suite.cases)
        self.result.duration = time.monotonic() - self.start
        return self.result

    def _start(self) -> None:
        testee = self.testee = Testee(self.argv, cwd=self.cwd, max_response_bytes=self.limits.max_response_bytes)
        budget = min(self.limits.startup_timeout, max(0.1, self.deadline - time.monotonic()))
        try:
            hello = testee.start(self.suite, budget)
        except TesteeError as exc:
            msg = exc.message
            tail = testee.stderr_tail()
            if tail and "stderr" not in msg:
                msg += f"; its stderr ends:\n{tail}"
            self._retire(testee, kill=True)
            self.testee = None
            self._give_up(f"the testee did not start: {msg}")
            return
        self.result.implementation = self.result.implementation or hello

    def _ask(self, testee: Testee, case: Case) -> tuple[str, str]:
        """(status, message) of `case`; a testee that fails the exchange is killed, to restart."""
        testee.max_response_bytes = max(self.limits.max_response_bytes, 4 * len(case.input))
        budget = self._budget()
        try:
            return judge(case, testee.request(case.request(), budget))
        except TesteeError as exc:
            return self._lost(testee, exc, budget)

    def _budget(self) -> float:
        """The time the next exchange may take: the request limit, within what is left of the run's."""
        return min(self.limits.request_timeout, max(0.0, self.deadline - time.monotonic()))

    def _lost(self, testee: Testee, exc: TesteeError, budget: float) -> tuple[str, str]:
        """A testee that failed the exchange: killed (restarted for the next case, a bounded number of
        times); the case fails with why."""
        message = f"{exc.kind}: {exc.message}"
        if exc.kind == "timeout":
            message = f"timeout: no answer within {budget:.3g}s; the testee was killed"
        self._retire(testee, kill=True)
        self.testee = None
        self.restarts += 1
        if self.restarts > self.limits.max_restarts:
            self._give_up(f"the testee failed {self.restarts} times (crash, hang or protocol error); giving up")
        return FAILED, message

    def _give_up(self, reason: str) -> None:
        self.fatal = reason
        self.result.errors.append(reason)

    def _record(self, case: Case, status: str, message: str, t0: float, *, not_run: bool = False) -> None:
        reason = self.expected.reason(case)
        if reason is not None:
            if status == FAILED:
                status = XFAIL
            elif status == PASSED and case.group != FRESH_GROUP:  # fresh entries list categories, not cases
                status, message = XPASS, f"listed as an expected failure ({reason}) but passed: remove it from the list"
        o = Outcome(case, status, message, time.monotonic() - t0, reason or "", not_run=not_run)
        self.result.outcomes.append(o)
        if self.on_outcome is not None:
            self.on_outcome(o)

    def _retire(self, testee: Testee, *, kill: bool) -> None:
        if kill:
            testee.kill()
        else:
            testee.close()
        if testee.escaped:
            self.result.warnings.append(
                f"the testee left {len(testee.escaped)} process(es) running outside its process group, killed: "
                + "; ".join(testee.escaped[:5])
            )
            testee.escaped = []


def run_cases(
    suite: Suite,
    cases: Sequence[Case],
    argv: Sequence[str],
    *,
    expected: ExpectedFailures | None = None,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    total_timeout: float = DEFAULT_TOTAL_TIMEOUT,
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    max_restarts: int = MAX_RESTARTS,
    max_response_bytes: int = 64 << 20,
    seed: int | None = None,
    stop_at_first_failure: bool = False,
) -> RunResult:
    """Send `cases` to the testee `argv` and judge every answer (`seed`: that of the fresh cases among
    them, for the reports; `stop_at_first_failure`: the cases after the first that fails, or passes
    when expected to fail, are not sent, as a mutation check needs one kill)."""
    limits = Limits(request_timeout, total_timeout, startup_timeout, max_restarts, max_response_bytes)
    run = _Run(suite, argv, expected or ExpectedFailures(), limits, cwd, on_outcome)
    run.result.seed = seed
    run.result.n_fresh = sum(1 for c in cases if c.group == FRESH_GROUP)
    try:
        for case in cases:
            run.run(case)
            if stop_at_first_failure and run.result.outcomes and run.result.outcomes[-1].status in (FAILED, XPASS):
                break
    finally:
        run.close()
    return run.finish()


def select_cases(
    suite: Suite,
    categories: Sequence[str] = (),
    patterns: Sequence[str] = (),
    groups: Iterable[str] = GROUPS,
    fresh: Sequence[Case] = (),
) -> list[Case]:
    """The cases selected by `--category` (group, rejection category or tag) and `--case` (id or glob),
    among the shipped cases of `groups` and the `fresh` ones."""
    wanted = {*groups, FRESH_GROUP}
    out = []
    for c in [*suite.cases, *fresh]:
        if c.group not in wanted:
            continue
        if categories and not any(c.matches(s) for s in categories):
            continue
        if patterns and not any(c.id == p or fnmatch.fnmatchcase(c.id, p) for p in patterns):
            continue
        out.append(c)
    return out
