"""`omnimessage conformance`: run the suite against an implementation, print coverage or the matrix."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from omnimessage.schema.versions import versions
from omnimessage.text.sanitize import printable, sanitize, sanitize_lines

from .consumer_command import add_role_option, cmd_consumer
from .expected_failures import ExpectedFailures, load_expected_failures, write_expected_failures
from .fresh import DEFAULT_FRESH_CASES, MAX_FRESH_CASES, MAX_SEED, fresh_cases, new_seed, stable_seed
from .impls import (
    BASELINES,
    ConformanceUsageError,
    Impl,
    native_testee,
    resolve_impl,
    rust_testee,
    typescript_testee,
)
from .levels import LEVELS, RECOMMENDED
from .outcomes import XFAIL, Outcome
from .protocol_cases import of_protocol
from .reports import MARK, Progress, format_failure, print_result, write_json_report, write_junit
from .run import DEFAULT_REQUEST_TIMEOUT, DEFAULT_TOTAL_TIMEOUT, run_cases, select_cases
from .suite import FRESH_GROUP, Case, Suite, SuiteError, load_suite

__all__ = [
    "BASELINES",
    "ConformanceUsageError",
    "Impl",
    "add_parser",
    "cmd_conformance",
    "native_testee",
    "resolve_impl",
    "rust_testee",
    "typescript_testee",
]

RANDOM = "random"
"""`--seed random`: fresh cases from a new random seed (a nightly job); the default seed is stable."""

# ---------------------------------------------------------------------------
# subcommand
# ---------------------------------------------------------------------------


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "conformance",
        help="run the conformance suite against an implementation",
        description="Run the language-neutral conformance suite (conformance/) against an implementation that speaks "
        "the testee protocol (conformance/TESTEE-PROTOCOL.md). Exit status 0 only when every case passes or is an "
        "expected failure (with --level required: every required case). The fresh cases' seed is derived from the "
        "suite, so the same implementation gets the same verdict every run; --seed random for new ones.",
    )
    p.add_argument(
        "--impl",
        metavar="IMPL",
        help="python | typescript | rust | go | naive-json | pydantic | a command line (split like a shell, "
        "run without it)",
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
        metavar="N|random",
        help="the seed of the fresh cases (default: derived from the suite version and schema id, so every run "
        "of one suite sends the same cases; `random`: new cases each run, for a nightly job; always printed)",
    )
    p.add_argument(
        "--level",
        choices=LEVELS,
        default=RECOMMENDED,
        help="the cases that gate the exit status: `required` ones only, or all (`recommended`, the default); "
        "the report states the level reached either way",
    )
    p.add_argument("--summary", metavar="FILE", help="append a Markdown summary (the matrix by group and the "
                   "failures, capped) to FILE, e.g. $GITHUB_STEP_SUMMARY")
    p.add_argument("--format", choices=("text", "github"), default="text",
                   help="github: also a workflow annotation per failing case (capped by --max-annotations)")
    p.add_argument("--max-annotations", type=_count, default=10, metavar="N",
                   help="with --format github: annotate at most N failures (default 10, what GitHub shows per "
                   "step); the rest are counted in one notice")
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
        help="run python, typescript, rust and go (when present) and the baselines; print implementation x group",
    )
    p.add_argument(
        "--mutants",
        action="store_true",
        help="run the deliberately broken Python bindings; exit 1 unless every one fails a case",
    )
    p.add_argument("--protocol", metavar="VERSION", help="only the cases of one protocol version (an implementation "
                   "of an older release: the cases whose input is in that version's vocabulary and the newest's)")
    p.add_argument("--list", action="store_true", help="list the selected cases and exit")
    p.add_argument(
        "--update-expected-failures",
        metavar="FILE",
        help="after the run, write every failing case with a short reason to FILE; failing fresh cases as one "
        "`fresh:*` entry, which holds for every seed",
    )
    add_role_option(p)
    p.set_defaults(func=cmd_conformance)


def _seed(text: str) -> int | str:
    if text == RANDOM:
        return RANDOM
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer or `random`: {printable(text, 40)!r}") from None
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
    seed = new_seed() if args.seed == RANDOM else stable_seed(suite) if args.seed is None else int(args.seed)
    return seed, fresh_cases(suite, seed, args.fresh)


def _seed_note(seed: int, args: argparse.Namespace) -> str:
    """How the header names the seed: where it comes from and how to replay it."""
    source = "random" if args.seed == RANDOM else "derived from the suite" if args.seed is None else "given"
    return f"seed {seed}, {source}; replay with --seed {seed}"


def cmd_conformance(args: argparse.Namespace) -> int:
    if args.role == "consumer":
        return cmd_consumer(args)
    try:
        suite = load_suite(Path(args.suite) if args.suite else None)
    except SuiteError as exc:
        return _usage(str(exc))
    if args.protocol is not None and args.protocol not in versions():
        return _usage(f"unknown protocol {printable(args.protocol, 40)!r} (known: {', '.join(versions())})")
    out = sys.stdout
    if args.coverage:
        from .coverage import coverage, format_coverage

        cov = coverage(suite)
        out.write(format_coverage(cov) + "\n")
        return 0 if cov.complete else 1
    if args.list:
        seed, fresh = _fresh(suite, args)
        for c in of_protocol(select_cases(suite, args.category, args.case, fresh=fresh), args.protocol):
            line = f"{c.id}\t{c.group}\t{c.expect}{':' + c.category if c.category else ''}\t{c.description}"
            out.write(sanitize(line) + "\n")
        if seed is not None:
            out.write(f"# fresh cases from seed {seed}\n")
        return 0
    if args.matrix:
        if args.badge or args.summary or args.format != "text":
            return _usage("--badge, --summary and --format github describe one implementation's run: use them "
                          "with --impl")
        from .matrix import run_matrix

        try:
            seed, fresh = _fresh(suite, args)
        except (ValueError, RuntimeError) as exc:
            return _usage(str(exc))
        return run_matrix(suite, out, args, seed, fresh)
    if args.mutants:
        try:  # development tooling (dev/omnimessage_dev/mutants), on the path of a checkout's `make setup`
            from omnimessage_dev.mutants import run_mutation_check
        except ModuleNotFoundError as exc:
            if exc.name not in ("omnimessage_dev", "omnimessage_dev.mutants"):
                raise  # a checkout whose mutants are broken: their own error, not "not shipped"
            return _usage("--mutants runs the deliberately broken bindings of a development checkout "
                          "(dev/omnimessage_dev/mutants, on the path after `make setup`): the wheel does not ship them")

        progress = Progress(sys.stderr, 0, "mutants")
        progress.note("the unmutated binding first")
        try:
            report = run_mutation_check(suite, timeout=args.timeout, out=out, progress=progress)
        finally:
            progress.close()
        return 0 if report.kill_rate == 1.0 else 1
    if not args.impl:
        return _usage("--impl is required (python, typescript, rust, go, naive-json, pydantic or a command)")
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
    cases = of_protocol(select_cases(suite, args.category, args.case, fresh=fresh), args.protocol)
    if not cases:
        return _usage("no case matches the filters")
    n_fresh = sum(1 for c in cases if c.group == FRESH_GROUP)
    header = (
        f"omnimessage conformance: suite {suite.suite_version}, {len(cases) - n_fresh} of {len(suite.cases)} "
        f"shipped cases and {n_fresh} fresh ones"
        + (f" ({_seed_note(seed, args)})" if n_fresh and seed is not None else "")
        + (f", protocol {args.protocol}" if args.protocol else "")
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
    result.gate = args.level
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
    if args.format == "github" or args.summary:
        from .ci_summary import write_annotations, write_summary

        if args.format == "github":
            write_annotations(result, out, args.max_annotations)
        if args.summary:
            try:
                write_summary(result, args.summary, impl.name, suite)
            except OSError as exc:
                return _usage(f"--summary: cannot write {args.summary}: {exc.strerror or exc}")
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


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - `omnimessage conformance` is the entry
    from omnimessage.cli.main import main as cli_main

    return cli_main(["conformance", *(argv if argv is not None else sys.argv[1:])])
