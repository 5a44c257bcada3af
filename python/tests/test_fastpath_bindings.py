"""The TypeScript and Rust bindings on the fast paths' catalogue of hard lines (issue 38).

Both read canonical lines through a hand-written one-pass path (TypeScript's `canonical.ts`, the
Rust crate's block scanner and grammar) before a general one. Every line of `fastpath_cases`
(every class of defect inside every kind of verbatim value and string, at every block edge, and
numbers spelled every way) goes to each binding's testee as a conformance case whose expectation is
the pure Python path's answer: an oracle that shares no code with either.
"""

from __future__ import annotations

import functools

import fastpath_cases as fc
from conftest import needs

from omnimessage.conformance import load_suite
from omnimessage.conformance.command import rust_testee, typescript_testee
from omnimessage.conformance.runner import run_cases

cases = functools.cache(fc.cases)


def _run(argv: list[str] | None, what: str) -> None:
    assert argv is not None, f"the {what} binding is not built"
    result = run_cases(load_suite(), cases(), argv)
    failed = [f"{o.case.description}: {o.message[:200]}" for o in result.outcomes if o.failed]
    assert len(result.outcomes) == len(cases()) > 10000
    assert failed == [], "\n".join(failed[:20])


@needs("node")
def test_typescript_answers_the_catalogue_as_the_pure_path_does() -> None:
    _run(typescript_testee(), "TypeScript (npm run build)")


@needs("cargo")
def test_rust_answers_the_catalogue_as_the_pure_path_does() -> None:
    _run(rust_testee(), "Rust (make rust-test)")
