"""The mutation check: every mutant run through the runner; the share of them the suite kills."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import zip_longest
from typing import TextIO

from omnimessage.conformance.judge import judge
from omnimessage.conformance.outcomes import FAILED, PASSED, XPASS
from omnimessage.conformance.reports import Progress
from omnimessage.conformance.run import run_cases
from omnimessage.conformance.suite import Case, Suite
from omnimessage.conformance.testee import Binding, handle
from omnimessage.conformance.testee_process import TesteeError, parse_answer

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


def interleaved(cases: list[Case]) -> list[Case]:
    """The cases dealt out by kind (an id without its last part: `rejection.duplicate_key`,
    `roundtrip.request_begin`): the smallest of every kind, then the second smallest of every kind,
    and so on, each round smallest first. A mutant breaks one kind of line, so a case that kills it
    comes early instead of after the hundreds of round trips the suite starts with, and the
    megabyte lines come last (the same cases, the same verdicts: only the order changes)."""
    kinds: dict[str, list[Case]] = {}
    for case in cases:
        kinds.setdefault(case.id.rsplit(".", 1)[0], []).append(case)
    rounds = zip_longest(*(sorted(kind, key=lambda c: len(c.input)) for kind in kinds.values()))
    return [case for row in rounds for case in sorted((c for c in row if c is not None), key=lambda c: len(c.input))]


def _answer(binding: Binding, case: Case) -> tuple[str, str]:
    """(status, message) of `case` answered in this process: the request and the answer through JSON
    as on the pipe, the testee's own handler (`handle`, what `serve` calls), the runner's parser and
    judge. What would end a testee process (an exception) fails the case, as the runner fails it."""
    what = f"case {case.id}"
    try:
        resp = handle(binding, json.loads(json.dumps(case.request())))
        return judge(case, parse_answer(json.dumps(resp).encode(), what))
    except TesteeError as exc:
        return FAILED, f"{exc.kind}: {exc.message}"
    except Exception as exc:  # the testee process would have died: the runner fails the case
        return FAILED, f"exited during {what}: {type(exc).__name__}: {exc}"


def _in_process(binding: Binding, cases: list[Case], first_kill: bool) -> list[Case]:
    """The cases `binding` fails, asked in this process (all of them, or up to the first)."""
    failed = []
    for case in cases:
        if _answer(binding, case)[0] == FAILED:
            failed.append(case)
            if first_kill:
                break
    return failed


def run_mutation_check(
    suite: Suite,
    *,
    names: list[str] | None = None,
    timeout: float = 10.0,
    out: TextIO | None = None,
    workers: int = 2,
    cases: list[Case] | None = None,
    progress: Progress | None = None,
    first_kill: bool = False,
    in_process: bool = False,
) -> MutationReport:
    """Run every mutant through the runner; a mutant is killed when at least one case fails
    (`cases`: only those, for a quick look at what a few cases kill; `first_kill`: a mutant stops at
    the first case that kills it, so `failed` is at most 1: the tests' quick form, while
    `omnimessage conformance --mutants` counts every case that kills each one; `in_process`: every
    binding answers in this process through the testee's handler, without a process per mutant and
    a pipe per case, the same answers judged the same way: the tests' form, while a mutant as a
    process is `python -m omnimessage_dev.mutants NAME`)."""
    chosen = names or list(MUTANTS)
    selected = suite.cases if cases is None else cases
    # only cases the unmutated binding passes can kill a mutant (its own known failures cannot)
    if in_process:
        passing = [c for c in selected if _answer(Binding(), c)[0] == PASSED]
    else:
        reference = run_cases(suite, selected, [sys.executable, "-m", "omnimessage.conformance.testee"],
                              request_timeout=timeout)
        passing = [o.case for o in reference.outcomes if o.status == PASSED]
    if first_kill:
        passing = interleaved(passing)
    if progress is not None:  # one line on a terminal: mutants done of all
        progress.total = len(chosen)

    def one(name: str) -> MutantResult:
        if in_process:
            binding = MUTANTS[name]()
            binding.name = f"mutant:{name}"
            bad = _in_process(binding, passing, first_kill)
        else:
            argv = [sys.executable, "-m", "omnimessage_dev.mutants", name]
            res = run_cases(suite, passing, argv, request_timeout=timeout, stop_at_first_failure=first_kill)
            bad = [o.case for o in res.outcomes if o.status in (FAILED, XPASS)]
        doc = (MUTANTS[name].__doc__ or "").strip().split("\n")[0]
        if progress is not None:
            progress.step(name)
        return MutantResult(name, doc, len(bad), bad[0].id if bad else "")

    if in_process:  # one thread: the work is Python's own, threads would only take turns
        results = [one(name) for name in chosen]
    else:
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
