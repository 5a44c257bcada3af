"""What a run produces: the status of each case (:class:`Outcome`) and the run as a whole (:class:`RunResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .levels import RECOMMENDED, gates, level_reached
from .suite import REPORT_GROUPS, Case

__all__ = ["FAILED", "PASSED", "SKIPPED", "XFAIL", "XPASS", "Outcome", "RunResult"]

PASSED, FAILED, SKIPPED, XFAIL, XPASS = "passed", "failed", "skipped", "xfail", "xpass"


@dataclass
class Outcome:
    case: Case
    status: str
    message: str = ""
    duration: float = 0.0
    reason: str = ""  # the expected-failure reason, for xfail / xpass
    not_run: bool = False  # failed without being sent: the run-level error (in RunResult.errors) says why

    @property
    def failed(self) -> bool:
        return self.status in (FAILED, XPASS)

    @property
    def conforms(self) -> bool:
        """Whether the implementation did what the case asks (an unexpected pass did; an expected
        failure and a skip did not): what the level reached is computed from."""
        return self.status in (PASSED, XPASS)


@dataclass
class RunResult:
    outcomes: list[Outcome]
    implementation: dict[str, Any] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # run-level problems (start failures, time limit)
    warnings: list[str] = field(default_factory=list)  # what did not fail a case (processes left behind)
    duration: float = 0.0
    seed: int | None = None  # the seed of the fresh cases (None: the run had none)
    n_fresh: int = 0  # how many fresh cases the run sent
    gate: str = RECOMMENDED  # the level the verdict gates on (`--level`): failures of weaker cases are reported only

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    def gating(self, o: Outcome) -> bool:
        """Whether a failure of this case fails the run (its level is within the gate)."""
        return gates(o.case.level, self.gate)

    @property
    def n_failed(self) -> int:
        """Failures that fail the run: failed and unexpectedly passed cases within the gate, stale entries."""
        return sum(1 for o in self.outcomes if o.failed and self.gating(o)) + len(self.stale)

    @property
    def n_failed_ungated(self) -> int:
        """Failures of cases below the gate (`--level required`: the recommended ones): reported, not fatal."""
        return sum(1 for o in self.outcomes if o.failed and not self.gating(o))

    @property
    def level_reached(self) -> str:
        """`recommended` (every case conforms), `required` (every required case does) or `none`."""
        return level_reached(o.case.level for o in self.outcomes if not o.conforms)

    @property
    def ok(self) -> bool:
        return self.n_failed == 0

    @property
    def n_not_run(self) -> int:
        return sum(1 for o in self.outcomes if o.not_run)

    def summary(self) -> str:
        return (
            f"{self.count(PASSED)} passed, {self.n_failed} failed, {self.count(SKIPPED)} skipped, "
            f"{self.count(XFAIL)} expected failures"
            + (f" ({self.n_failed_ungated} failed below --level {self.gate}, not gating)"
               if self.n_failed_ungated else "")
            + f"; level reached: {self.level_reached}"
            + (f"; seed {self.seed} (replay: --seed {self.seed})" if self.seed is not None else "")
        )

    def by_group(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for o in self.outcomes:
            g = out.setdefault(o.case.group, {PASSED: 0, FAILED: 0, SKIPPED: 0, XFAIL: 0, XPASS: 0})
            g[o.status] += 1
        return {g: out[g] for g in REPORT_GROUPS if g in out}
