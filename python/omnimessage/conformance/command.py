"""`omnimessage conformance`: run the suite against an implementation, print coverage or the matrix."""

from __future__ import annotations

import argparse
import difflib
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from .._extras import install_hint
from .consumer_command import add_role_option, cmd_consumer
from .escaping import printable, sanitize, sanitize_lines
from .expected_failures import ExpectedFailures, load_expected_failures, write_expected_failures
from .fresh import DEFAULT_FRESH_CASES, MAX_FRESH_CASES, MAX_SEED, fresh_cases, new_seed
from .outcomes import PASSED, SKIPPED, XFAIL, Outcome, RunResult
from .reports import MARK, Progress, format_failure, print_result, write_json_report, write_junit
from .run import DEFAULT_REQUEST_TIMEOUT, DEFAULT_TOTAL_TIMEOUT, run_cases, select_cases
from .suite import FRESH_GROUP, REPORT_GROUPS, Case, Suite, SuiteError, load_suite

__all__ = ["BASELINES", "Impl", "add_parser", "cmd_conformance", "resolve_impl", "rust_testee"]

BASELINES = ("naive-json", "pydantic")
BASELINE_EXTRAS = {"pydantic": ("pydantic", "pydantic")}
"""Baseline -> (the module it imports, the extra of this package that installs it)."""
TYPESCRIPT_BIN = "omnimessage-ts"
"""The bin of our TypeScript binding's npm package (`omnimessage-ts testee` is its testee)."""
TYPESCRIPT_BIN_ENV = "OMNIMESSAGE_TS_BIN"
"""Names that bin's script explicitly (a development build, say); else `omnimessage-ts` on PATH."""
RUST_BIN = "omnimessage-rs"
"""The binary of our Rust binding (`cargo install --path rust`; `omnimessage-rs testee` is its testee)."""
RUST_BIN_ENV = "OMNIMESSAGE_RS_BIN"
"""Names that binary explicitly (a checkout's `rust/target/release/omnimessage-rs`); else `omnimessage-rs` on PATH."""


class ConformanceUsageError(Exception):
    pass


@dataclass
class Impl:
    name: str
    argv: list[str]
    expected_failures: Path | None = None  # the list that ships with a baseline
    cwd: Path | None = None


def resolve_impl(spec: str, suite: Suite) -> Impl:
    """`python`, `typescript`, a baseline name, or a command line (split like a shell, run without one)."""
    if spec == "python":
        return Impl("python", [sys.executable, "-m", "omnimessage.conformance.testee"])
    if spec in BASELINES:
        missing = missing_extra(spec)
        if missing is not None:
            raise ConformanceUsageError(missing)
        base = suite.root / "baselines" / spec
        return Impl(spec, [sys.executable, str(base / "testee.py")], base / "expected-failures.txt")
    if spec == "typescript":
        argv = typescript_testee()
        if argv is None:
            raise ConformanceUsageError(
                f"the TypeScript binding is not installed: no `{TYPESCRIPT_BIN}` on PATH (npm install omnimessage) "
                f"and {TYPESCRIPT_BIN_ENV} names no file; --impl typescript runs `{TYPESCRIPT_BIN} testee`. "
                'To test another build, pass its command: --impl "node path/to/testee.mjs"'
            )
        return Impl("typescript", argv)
    if spec == "rust":
        argv = rust_testee()
        if argv is None:
            raise ConformanceUsageError(
                f"the Rust binding is not installed: no `{RUST_BIN}` on PATH (cargo install --path rust) "
                f"and {RUST_BIN_ENV} names no file; --impl rust runs `{RUST_BIN} testee`"
            )
        return Impl("rust", argv)
    try:
        argv = shlex.split(spec)
    except ValueError as exc:
        raise ConformanceUsageError(f"--impl {spec!r}: {exc}") from None
    if not argv:
        raise ConformanceUsageError("--impl needs a command")
    if len(argv) == 1 and shutil.which(argv[0]) is None and not os.path.exists(argv[0]):
        known = ["python", "typescript", *BASELINES]
        close = difflib.get_close_matches(spec, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else f" ({', '.join(known)}, or a command line)"
        raise ConformanceUsageError(f"--impl {spec!r}: no such implementation, and no such command{hint}")
    return Impl(spec, argv)


def missing_extra(baseline: str) -> str | None:
    """Why the baseline cannot run here (the extra it needs is not installed), or None."""
    import importlib.util

    if baseline not in BASELINE_EXTRAS:
        return None
    module, extra = BASELINE_EXTRAS[baseline]
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if found:
        return None
    return (
        f"the {baseline} baseline needs the `{extra}` extra, which is not installed: "
        f"{install_hint(extra)}"
    )


def typescript_testee() -> list[str] | None:
    """The command line of our TypeScript testee: the script $OMNIMESSAGE_TS_BIN names (run with
    `node`), else the npm package's `omnimessage-ts` bin on PATH; None when neither is there."""
    explicit = os.environ.get(TYPESCRIPT_BIN_ENV)
    if explicit:
        node = shutil.which("node")
        return [node, explicit, "testee"] if node is not None and Path(explicit).is_file() else None
    installed = shutil.which(TYPESCRIPT_BIN)
    return [installed, "testee"] if installed is not None else None


def rust_testee() -> list[str] | None:
    """The command line of our Rust testee: the binary $OMNIMESSAGE_RS_BIN names, else
    `omnimessage-rs` on PATH; None when neither is there."""
    explicit = os.environ.get(RUST_BIN_ENV)
    if explicit:
        return [explicit, "testee"] if Path(explicit).is_file() and os.access(explicit, os.X_OK) else None
    installed = shutil.which(RUST_BIN)
    return [installed, "testee"] if installed is not None else None


def typescript_available(suite: Suite) -> bool:
    return typescript_testee() is not None


# ---------------------------------------------------------------------------
# subcommand
# ---------------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "conformance",
        help="run the conformance suite against an implementation",
        description="Run the language-neutral conformance suite (conformance/) against an implementation that speaks "
        "the testee protocol (conformance/TESTEE-PROTOCOL.md). Exit status 0 only when every case passes or is an "
        "expected failure.",
    )
    p.add_argument(
        "--impl",
        metavar="IMPL",
        help="python | typescript | rust | naive-json | pydantic | a command line (split like a shell, run without it)",
    )
    p.add_argument(
        "--expected-failures", metavar="FILE", help="case ids (or globs) expected to fail, each with a reason"
    )
    p.add_argument(
        "--category",
        action="append",
        default=[],
        metavar="NAME",
        help="only cases of this group, rejection category or tag (repeatable)",
    )
    p.add_argument("--case", action="append", default=[], metavar="ID", help="only this case id or glob (repeatable)")
    p.add_argument(
        "--seed",
        type=_seed,
        metavar="N",
        help="the seed of the fresh cases (default: random, printed, so a failing run can be replayed)",
    )
    p.add_argument(
        "--fresh",
        type=_count,
        default=DEFAULT_FRESH_CASES,
        metavar="N",
        help=f"how many fresh cases to generate for this run (default {DEFAULT_FRESH_CASES}, 0..{MAX_FRESH_CASES})",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="print every case as it runs")
    p.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    p.add_argument("--json", metavar="FILE", help="write a JSON report")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report (the matrix by group, failures "
                   "first, each with its byte diff); with --matrix too")
    p.add_argument("--badge", metavar="FILE", help="write a shields.io endpoint JSON (passed/total) for a badge")
    p.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_REQUEST_TIMEOUT,
        metavar="SEC",
        help=f"time limit per request (default {DEFAULT_REQUEST_TIMEOUT:g})",
    )
    p.add_argument(
        "--total-timeout",
        type=float,
        default=DEFAULT_TOTAL_TIMEOUT,
        metavar="SEC",
        help=f"time limit for the whole run (default {DEFAULT_TOTAL_TIMEOUT:g})",
    )
    p.add_argument("--suite", metavar="DIR", help="the conformance folder (default: the bundled one)")
    p.add_argument(
        "--coverage", action="store_true", help="print what the cases cover of the schema; exit 1 below 100%%"
    )
    p.add_argument(
        "--matrix",
        action="store_true",
        help="run python, typescript and rust (when present) and the baselines; print implementation x group",
    )
    p.add_argument(
        "--mutants",
        action="store_true",
        help="run the deliberately broken Python bindings; exit 1 unless every one fails a case",
    )
    p.add_argument("--list", action="store_true", help="list the selected cases and exit")
    p.add_argument(
        "--update-expected-failures",
        metavar="FILE",
        help="after the run, write every failing case with a short reason to FILE (a starting point for a list)",
    )
    add_role_option(p)
    p.set_defaults(func=cmd_conformance)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {printable(text, 40)!r}") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"a seed is 0..{MAX_SEED}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {printable(text, 40)!r}") from None
    if not 0 <= value <= MAX_FRESH_CASES:
        raise argparse.ArgumentTypeError(f"the number of fresh cases is 0..{MAX_FRESH_CASES}")
    return value


def _usage(msg: str) -> int:
    sys.stderr.write(sanitize_lines(f"omnimessage conformance: {msg}") + "\n")
    return 2


def _fresh(suite: Suite, args: argparse.Namespace) -> tuple[int | None, list[Case]]:
    """The run's seed and its fresh cases (none with `--fresh 0`)."""
    if args.fresh == 0:
        return None, []
    seed = args.seed if args.seed is not None else new_seed()
    return seed, fresh_cases(suite, seed, args.fresh)


def cmd_conformance(args: argparse.Namespace) -> int:
    if args.role == "consumer":
        return cmd_consumer(args)
    try:
        suite = load_suite(Path(args.suite) if args.suite else None)
    except SuiteError as exc:
        return _usage(str(exc))
    out = sys.stdout
    if args.coverage:
        from .coverage import coverage, format_coverage

        cov = coverage(suite)
        out.write(format_coverage(cov) + "\n")
        return 0 if cov.complete else 1
    if args.list:
        seed, fresh = _fresh(suite, args)
        for c in select_cases(suite, args.category, args.case, fresh=fresh):
            line = f"{c.id}\t{c.group}\t{c.expect}{':' + c.category if c.category else ''}\t{c.description}"
            out.write(sanitize(line) + "\n")
        if seed is not None:
            out.write(f"# fresh cases from seed {seed}\n")
        return 0
    if args.matrix:
        if args.badge:
            return _usage("--badge describes one implementation's run: use it with --impl")
        return run_matrix(suite, out, args)
    if args.mutants:
        from .mutants import run_mutation_check

        progress = Progress(sys.stderr, 0, "mutants")
        progress.note("the unmutated binding first")
        try:
            report = run_mutation_check(suite, timeout=args.timeout, out=out, progress=progress)
        finally:
            progress.close()
        return 0 if report.kill_rate == 1.0 else 1
    if not args.impl:
        return _usage("--impl is required (python, typescript, rust, naive-json, pydantic or a command)")
    try:
        impl = resolve_impl(args.impl, suite)
    except ConformanceUsageError as exc:
        return _usage(str(exc))
    ef_path = args.expected_failures or (str(impl.expected_failures) if impl.expected_failures else None)
    expected = ExpectedFailures()
    if ef_path:
        try:
            expected = load_expected_failures(ef_path)
        except (OSError, ValueError) as exc:
            return _usage(f"--expected-failures: {exc}")
    try:
        seed, fresh = _fresh(suite, args)
    except (ValueError, RuntimeError) as exc:
        return _usage(str(exc))
    cases = select_cases(suite, args.category, args.case, fresh=fresh)
    if not cases:
        return _usage("no case matches the filters")
    n_fresh = sum(1 for c in cases if c.group == FRESH_GROUP)
    header = (
        f"omnimessage conformance: suite {suite.suite_version}, {len(cases) - n_fresh} of {len(suite.cases)} "
        f"shipped cases and {n_fresh} fresh ones"
        + (f" (seed {seed}; replay with --seed {seed})" if n_fresh else "")
        + f", implementation {impl.name}"
        + (f", expected failures from {ef_path}" if ef_path else "")
    )
    out.write(sanitize(header) + "\n")
    out.flush()
    progress = Progress(sys.stderr, len(cases), "conformance")

    def on_outcome(o: Outcome) -> None:
        progress.step(o.case.id)
        if args.verbose:
            if o.not_run:  # why: once, with the run errors at the end
                out.write(sanitize(f"{MARK[o.status]} {o.case.id}  (not run)") + "\n")
                return
            line = f"{MARK[o.status]} {o.case.id}" + (f"  ({o.reason})" if o.status == XFAIL else "")
            out.write(sanitize(line) + "\n")
            if o.failed:
                out.write(format_failure(o).split("\n", 1)[1] + "\n")
            out.flush()

    try:
        result = run_cases(
            suite,
            cases,
            impl.argv,
            expected=expected,
            request_timeout=args.timeout,
            total_timeout=args.total_timeout,
            cwd=impl.cwd,
            on_outcome=on_outcome,
            seed=seed if n_fresh else None,
        )
    finally:
        progress.close()
    if result.implementation:
        name, version = result.implementation.get("implementation"), result.implementation.get("version")
        said = f"{printable(str(name), 100)} {printable(str(version or ''), 100)}".rstrip()  # the testee's words
        out.write(sanitize(f"testee: {said} ({result.duration:.1f}s)") + "\n")
    print_result(result, out, verbose=args.verbose, streamed=args.verbose)
    if args.update_expected_failures:
        try:
            entries = write_expected_failures(
                result, args.update_expected_failures, impl.name, (c.id for c in suite.cases)
            )
        except OSError as exc:
            return _usage(f"--update-expected-failures: {exc}")
        out.write(sanitize(f"wrote {len(entries)} entries to {args.update_expected_failures}") + "\n")
    if args.junit:
        write_junit(result, args.junit, impl.name)
    if args.json:
        write_json_report(result, args.json, impl.argv, suite)
    if args.html or args.badge:
        from .html import write_badge, write_html

        if args.html:
            write_html(args.html, {impl.name: result}, suite)
        if args.badge:
            write_badge(args.badge, result)
    return 0 if result.ok else 1


# ---------------------------------------------------------------------------
# the matrix
# ---------------------------------------------------------------------------


def run_matrix(suite: Suite, out: TextIO, args: argparse.Namespace) -> int:
    """Every implementation we have x every group: passed/total per cell, and whether the run is green."""
    names = ["python", "typescript", "rust", *BASELINES]
    rows: dict[str, RunResult | str] = {}
    jobs: dict[str, tuple[Impl, ExpectedFailures]] = {}
    for name in names:
        if name == "typescript" and not typescript_available(suite):
            rows[name] = "not installed"
            continue
        if name == "rust" and rust_testee() is None:
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
    seed, fresh = _fresh(suite, args)
    cases = select_cases(suite, args.category, args.case, fresh=fresh)
    n_fresh = sum(1 for c in cases if c.group == FRESH_GROUP)

    def run(name: str) -> RunResult:
        impl, ef = jobs[name]
        return run_cases(
            suite,
            cases,
            impl.argv,
            expected=ef,
            request_timeout=args.timeout,
            total_timeout=args.total_timeout,
            cwd=impl.cwd,
            seed=seed if n_fresh else None,
        )

    with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        futures = {name: pool.submit(run, name) for name in jobs}
        for name, fut in futures.items():
            rows[name] = fut.result()
    groups = [g for g in REPORT_GROUPS if any(c.group == g for c in cases)]
    head = ["implementation", *groups, "total", "status"]
    table: list[list[str]] = []
    ok = True
    for name in names:
        r = rows[name]
        if isinstance(r, str):
            table.append([name, *["-"] * len(groups), "-", r])
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
        table.append([name, *cells, f"{r.count(PASSED)}/{len(r.outcomes)}", status])
    widths = [max(len(row[i]) for row in [head, *table]) for i in range(len(head))]
    out.write(
        f"conformance matrix: suite {suite.suite_version}, {len(cases)} cases ({n_fresh} fresh"
        + (f", seed {seed}; replay with --seed {seed}" if n_fresh else "")
        + "), cells are passed/total\n"
    )
    for row in [head, *table]:
        out.write(
            "  ".join(
                cell.ljust(widths[i]) if i in (0, len(head) - 1) else cell.rjust(widths[i])
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


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - `omnimessage conformance` is the entry
    from ..cli import main as cli_main

    return cli_main(["conformance", *(argv if argv is not None else sys.argv[1:])])
