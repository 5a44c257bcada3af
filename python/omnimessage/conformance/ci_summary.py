"""`omnimessage conformance --summary FILE` and `--format github`: what a CI user sees of a run.

The summary (Markdown, appended to FILE: a step summary file is shared by the steps of a job) gives
the verdict, the level reached, the matrix of the run by group (passed, failed, skipped, expected
failures, each group's level), the first :data:`~omnimessage.text.ci.MAX_SUMMARY_FINDINGS`
failing cases (the rest counted), stale expected-failure entries and run errors (capped alike),
and the seed with how to replay it. The annotations are one `::error` per failing case within the
gate (`--level`), a `::warning` per failing case below it, at most `max_annotations` in all, then
one `::notice` counting the rest; a `::notice` states the level reached. Every string from the
testee or the suite is made inert the way `validate`'s summary and annotations make theirs
(:mod:`omnimessage.text.ci`, one sanitiser underneath), and cut to :data:`MAX_CELL` characters.
"""

from __future__ import annotations

import os
from typing import Final, TextIO

from omnimessage.files.write_errors import named
from omnimessage.text.ci import MAX_SUMMARY_FINDINGS, md, workflow_data, workflow_property
from omnimessage.text.sanitize import printable

from .outcomes import FAILED, PASSED, SKIPPED, XFAIL, XPASS, Outcome, RunResult
from .suite import Suite

__all__ = ["MAX_CELL", "render_summary", "write_annotations", "write_summary"]

MAX_CELL: Final = 300
"""Characters of a testee's message (or a run error) kept in a summary cell or an annotation."""


def _first_line(text: str) -> str:
    return printable(text.split("\n", 1)[0], MAX_CELL)


def _failing(result: RunResult) -> list[Outcome]:
    return [o for o in result.outcomes if o.failed]


def render_summary(result: RunResult, name: str, suite: Suite) -> str:
    """The Markdown summary of one run (see the module's documentation)."""
    verdict = "OK" if result.ok else "FAILED"
    lines = [
        f"### omnimessage conformance: {verdict} ({md(name)})", "",
        f"Suite {md(suite.suite_version)}, gated at level **{result.gate}**; level reached: "
        f"**{result.level_reached}**. {md(result.summary())}", "",
        "| group | level | passed | failed | skipped | expected failures | unexpected passes |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    levels: dict[str, set[str]] = {}
    for o in result.outcomes:
        levels.setdefault(o.case.group, set()).add(o.case.level)
    for group, n in result.by_group().items():
        lines.append(f"| {group} | {'+'.join(sorted(levels.get(group, ())))} | {n[PASSED]} | {n[FAILED]} | "
                     f"{n[SKIPPED]} | {n[XFAIL]} | {n[XPASS]} |")
    lines.append("")
    failing = _failing(result)
    if failing:
        shown = failing[:MAX_SUMMARY_FINDINGS]
        lines += [f"First {len(shown)} of {len(failing)} failing case(s):", "",
                  "| case | level | gates | what happened |", "| --- | --- | --- | --- |"]
        lines += [f"| {md(o.case.id)} | {o.case.level} | {'yes' if result.gating(o) else 'no'} | "
                  f"{md(_first_line(o.message))} |" for o in shown]
        lines.append("")
        if len(failing) > len(shown):
            lines += [f"{len(failing) - len(shown)} more failing case(s): in the log and the JUnit report.", ""]
    problems = [("stale expected failure", s) for s in result.stale] + [("run error", e) for e in result.errors]
    lines += [f"- {what}: {md(_first_line(text))}" for what, text in problems[:MAX_SUMMARY_FINDINGS]]
    if len(problems) > MAX_SUMMARY_FINDINGS:
        lines.append(f"- {len(problems) - MAX_SUMMARY_FINDINGS} more problem(s), in the log")
    if result.seed is not None:
        lines.append(f"- fresh cases: {result.n_fresh} from seed {result.seed} (replay: `--seed {result.seed}`)")
    return "\n".join(lines).rstrip("\n") + "\n\n"


def write_summary(result: RunResult, path: str | os.PathLike[str], name: str, suite: Suite) -> None:
    """Append the summary to `path` (OSError when it cannot be written)."""
    with named(path), open(path, "a", encoding="utf-8", errors="backslashreplace", newline="\n") as fh:
        fh.write(render_summary(result, name, suite))


def write_annotations(result: RunResult, out: TextIO, max_annotations: int) -> None:
    """GitHub workflow commands for the failing cases, stale entries and run errors (capped)."""
    shown = hidden = 0
    items: list[tuple[str, str, str]] = []
    for o in _failing(result):
        cmd = "error" if result.gating(o) else "warning"
        title = f"conformance {o.case.level} case {o.case.id}" + ("" if cmd == "error" else " (not gating)")
        items.append((cmd, title, f"{o.case.description}: {_first_line(o.message)}"))
    items += [("error", "conformance: stale expected failure", _first_line(s)) for s in result.stale]
    items += [("error", "conformance: run error", _first_line(e)) for e in result.errors]
    for cmd, title, message in items:
        if max_annotations and shown >= max_annotations:
            hidden += 1
            continue
        shown += 1
        out.write(f"::{cmd} title={workflow_property(printable(title, MAX_CELL))}::{workflow_data(message)}\n")
    if hidden:
        out.write(f"::notice title=omnimessage conformance%3A annotations capped::{hidden} more failure(s) not "
                  f"annotated: each is in the log above, the step summary counts them\n")
    out.write(f"::notice title=omnimessage conformance::level reached: {result.level_reached} "
              f"(gated at {result.gate}); {workflow_data(result.summary())}\n")
