"""`omnimessage conformance --matrix`: every implementation we have x every group, one table."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TextIO

from omnimessage.text.sanitize import sanitize_lines

from .expected_failures import ExpectedFailures, load_expected_failures
from .impls import (
    BASELINE_EXTRAS,
    BASELINES,
    NATIVE,
    Impl,
    missing_extra,
    native_testee,
    resolve_impl,
    typescript_available,
)
from .outcomes import PASSED, SKIPPED, XFAIL, RunResult
from .protocol_cases import of_protocol
from .reports import format_failure
from .run import run_cases, select_cases
from .suite import FRESH_GROUP, REPORT_GROUPS, Case, Suite

__all__ = ["run_matrix"]




def run_matrix(
    suite: Suite, out: TextIO, args: argparse.Namespace, seed: int | None, fresh: Sequence[Case]
) -> int:
    """Every implementation we have x every group: passed/total per cell, the level each reached,
    and whether its run is green (gated at `args.level`)."""
    names = ["python", "typescript", *NATIVE, *BASELINES]
    rows: dict[str, RunResult | str] = {}
    jobs: dict[str, tuple[Impl, ExpectedFailures]] = {}
    for name in names:
        if name == "typescript" and not typescript_available(suite):
            rows[name] = "not installed"
            continue
        if name in NATIVE and native_testee(name) is None:
            rows[name] = "not installed"
            continue
        if name in BASELINE_EXTRAS and missing_extra(name) is not None:
            rows[name] = f"needs the `{BASELINE_EXTRAS[name][1]}` extra"
            continue
        impl = resolve_impl(name, suite)
        known = impl.expected_failures or suite.root / "expected-failures" / f"{name}.txt"
        ef = load_expected_failures(known) if known.is_file() else ExpectedFailures()
        jobs[name] = (impl, ef)
        rows[name] = "..."
    cases = of_protocol(select_cases(suite, args.category, args.case, fresh=fresh), args.protocol)
    n_fresh = sum(1 for c in cases if c.group == FRESH_GROUP)

    def run(name: str) -> RunResult:
        impl, ef = jobs[name]
        result = run_cases(
            suite,
            cases,
            impl.argv,
            expected=ef,
            request_timeout=args.timeout,
            total_timeout=args.total_timeout,
            cwd=impl.cwd,
            seed=seed if n_fresh else None,
        )
        result.gate = args.level
        return result

    with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        futures = {name: pool.submit(run, name) for name in jobs}
        for name, fut in futures.items():
            rows[name] = fut.result()
    groups = [g for g in REPORT_GROUPS if any(c.group == g for c in cases)]
    head = ["implementation", *groups, "total", "level", "status"]
    table: list[list[str]] = []
    ok = True
    for name in names:
        r = rows[name]
        if isinstance(r, str):
            table.append([name, *["-"] * len(groups), "-", "-", r])
            continue
        bg = r.by_group()
        cells = []
        for g in groups:
            n = bg.get(g, {})
            cells.append(f"{n.get(PASSED, 0)}/{sum(n.values())}")
        status = "ok" if r.ok else f"FAILING ({r.n_failed} unexpected)"
        if r.count(XFAIL):
            status += f", {r.count(XFAIL)} expected failures"
        if r.count(SKIPPED):
            status += f", {r.count(SKIPPED)} skipped"
        ok = ok and r.ok
        if r.n_failed_ungated:
            status += f", {r.n_failed_ungated} failing below --level {r.gate}"
        table.append([name, *cells, f"{r.count(PASSED)}/{len(r.outcomes)}", r.level_reached, status])
    widths = [max(len(row[i]) for row in [head, *table]) for i in range(len(head))]
    out.write(
        f"conformance matrix: suite {suite.suite_version}, {len(cases)} cases ({n_fresh} fresh"
        + (f", seed {seed}; replay with --seed {seed}" if n_fresh else "")
        + "), cells are passed/total\n"
    )
    for row in [head, *table]:
        out.write(
            "  ".join(
                cell.ljust(widths[i]) if i in (0, len(head) - 2, len(head) - 1) else cell.rjust(widths[i])
                for i, cell in enumerate(row)
            ).rstrip()
            + "\n"
        )
    if args.html:
        from .html import write_html

        write_html(args.html, rows, suite)
    for name in names:
        r = rows[name]
        if isinstance(r, RunResult) and not r.ok:
            out.write(f"\n{name}: unexpected results\n")
            for o in r.outcomes:
                if o.failed and not o.not_run:
                    out.write(format_failure(o) + "\n")
            if r.n_not_run:
                out.write(f"NOT RUN {r.n_not_run} cases (each counted as failed)\n")
            for e in r.errors:
                out.write(sanitize_lines(f"ERROR {e}") + "\n")
            for s in r.stale:
                out.write(sanitize_lines(f"STALE {s}") + "\n")
    return 0 if ok else 1


