"""The mutation check: every mutant run through the runner; the share of them the suite kills."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TextIO

from ..outcomes import FAILED, PASSED, XPASS
from ..reports import Progress
from ..run import run_cases
from ..suite import Case, Suite
from .registry import MUTANTS

__all__ = ["MutantResult", "MutationReport", "run_mutation_check"]


@dataclass
class MutantResult:
    name: str
    description: str
    failed: int
    first: str  # the first case that killed it

    @property
    def killed(self) -> bool:
        return self.failed > 0


@dataclass
class MutationReport:
    results: list[MutantResult]
    reference_passed: int = 0

    @property
    def kill_rate(self) -> float:
        return sum(r.killed for r in self.results) / len(self.results) if self.results else 0.0

    def summary(self) -> str:
        killed = sum(r.killed for r in self.results)
        return f"mutation kill rate: {killed}/{len(self.results)} = {100 * self.kill_rate:.1f}%"


def run_mutation_check(
    suite: Suite,
    *,
    names: list[str] | None = None,
    timeout: float = 10.0,
    out: TextIO | None = None,
    workers: int = 2,
    cases: list[Case] | None = None,
    progress: Progress | None = None,
) -> MutationReport:
    """Run every mutant through the runner; a mutant is killed when at least one case fails
    (`cases`: only those, for a quick look at what a few cases kill)."""
    chosen = names or list(MUTANTS)
    # only cases the unmutated binding passes can kill a mutant (its own known failures cannot)
    reference = run_cases(
        suite,
        suite.cases if cases is None else cases,
        [sys.executable, "-m", "omnimessage.conformance.testee"],
        request_timeout=timeout,
    )
    passing = [o.case for o in reference.outcomes if o.status == PASSED]
    if progress is not None:  # one line on a terminal: mutants done of all
        progress.total = len(chosen)

    def one(name: str) -> MutantResult:
        argv = [sys.executable, "-m", "omnimessage.conformance.mutants", name]
        res = run_cases(suite, passing, argv, request_timeout=timeout)
        bad = [o for o in res.outcomes if o.status in (FAILED, XPASS)]
        doc = (MUTANTS[name].__doc__ or "").strip().split("\n")[0]
        if progress is not None:
            progress.step(name)
        return MutantResult(name, doc, len(bad), bad[0].case.id if bad else "")

    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(one, chosen))
    report = MutationReport(results, len(passing))
    if out is not None:
        out.write(f"{len(passing)} of {len(suite.cases)} cases pass unmutated; each mutant runs those\n")
        width = max(len(r.name) for r in results)
        for r in results:
            status = f"killed by {r.failed:>3} cases, first {r.first}" if r.killed else "SURVIVED"
            out.write(f"  {r.name:<{width}}  {status}\n      {r.description}\n")
        out.write(report.summary() + "\n")
    return report
