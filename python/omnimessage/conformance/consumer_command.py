"""`omnimessage conformance --role consumer`: the consumer role of the suite (scripted SSE served
on 127.0.0.1, the testee's render model judged per card); the same reports and expected-failure
lists as the codec role. Its options live here, apart from the codec role's."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from pathlib import Path
from typing import Any

from omnimessage.text.sanitize import printable, sanitize, sanitize_lines

from .expected_failures import ExpectedFailures, load_expected_failures
from .impls import BASELINES, ConformanceUsageError, resolve_impl
from .outcomes import Outcome
from .reports import MARK, Progress, format_failure, print_result, write_json_report, write_junit
from .suite import SuiteError, load_suite

__all__ = ["ROLES", "add_role_option", "cmd_consumer"]

ROLES = ("codec", "consumer")
_NOT_FOR_CONSUMER = ("matrix", "mutants", "coverage", "update_expected_failures", "badge")


def add_role_option(p: Any) -> None:
    p.add_argument(
        "--role",
        choices=ROLES,
        default="codec",
        help="codec (default): lines in, encodings or refusals out; consumer: the testee reads a scripted SSE "
        "stream from a URL and answers its render model's complete messages per card",
    )


def cmd_consumer(args: argparse.Namespace) -> int:
    from .consumer_cases import load_consumer_cases
    from .consumer_run import run_consumer_cases
    from .run import Limits

    for name in _NOT_FOR_CONSUMER:
        if getattr(args, name, None):
            return _usage(f"--{name.replace('_', '-')} is not available with --role consumer")
    try:
        suite = load_suite(Path(args.suite) if args.suite else None)
        cases = load_consumer_cases(suite)
    except SuiteError as exc:
        return _usage(str(exc))
    cats, pats = args.category, args.case
    cases = [c for c in cases
             if (not cats or any(c.case.matches(s) for s in cats))
             and (not pats or any(c.id == p or fnmatch.fnmatchcase(c.id, p) for p in pats))]
    out = sys.stdout
    if args.list:
        for c in cases:
            out.write(sanitize(f"{c.id}\tconsumer\t{c.case.description}") + "\n")
        return 0
    if not cases:
        return _usage("no consumer case matches the filters")
    if not args.impl:
        return _usage("--impl is required (python, typescript or a command)")
    if args.impl in (*BASELINES, "rust", "go"):
        return _usage(f"--impl {args.impl}: a codec testee, with no consumer role (python, typescript or a command)")
    try:
        impl = resolve_impl(args.impl, suite)
    except ConformanceUsageError as exc:
        return _usage(str(exc))
    name, argv = impl.name, impl.argv
    expected = ExpectedFailures()
    if args.expected_failures:
        try:
            expected = load_expected_failures(args.expected_failures)
        except (OSError, ValueError) as exc:
            return _usage(f"--expected-failures: {exc}")
    out.write(sanitize(f"omnimessage conformance --role consumer: suite {suite.suite_version}, {len(cases)} consumer "
                       f"cases, implementation {name}"
                       + (f", expected failures from {args.expected_failures}" if args.expected_failures else ""))
              + "\n")
    out.flush()
    progress = Progress(sys.stderr, len(cases), "consumer")

    def on_outcome(o: Outcome) -> None:
        progress.step(o.case.id)
        if args.verbose:
            out.write(sanitize(f"{MARK[o.status]} {o.case.id}") + "\n")
            if o.failed and not o.not_run:
                out.write(format_failure(o).split("\n", 1)[1] + "\n")
            out.flush()

    try:
        limits = Limits(request_timeout=args.timeout, total_timeout=args.total_timeout)
        result = run_consumer_cases(suite, cases, argv, expected=expected, limits=limits, cwd=impl.cwd,
                                    on_outcome=on_outcome)
    finally:
        progress.close()
    if result.implementation:
        said = f"{printable(str(result.implementation.get('implementation')), 100)} " \
               f"{printable(str(result.implementation.get('version') or ''), 100)}"
        out.write(sanitize(f"testee: {said.rstrip()} ({result.duration:.1f}s)") + "\n")
    print_result(result, out, verbose=args.verbose, streamed=args.verbose)
    if args.junit:
        write_junit(result, args.junit, f"{name} consumer")
    if args.json:
        write_json_report(result, args.json, argv, suite)
    if args.html:
        from .html import write_html

        write_html(args.html, {f"{name} (consumer)": result}, suite)
    return 0 if result.ok else 1


def _usage(msg: str) -> int:
    sys.stderr.write(sanitize_lines(f"omnimessage conformance: {msg}") + "\n")
    return 2
