"""`validate --summary FILE`: a Markdown summary for a CI run page (GitHub's `$GITHUB_STEP_SUMMARY`),
and :class:`Tee`, which lets one validation feed several reports (`--sarif FILE` beside
`--format github`): the input is read once.

The summary gives the totals, the counts by rule and severity, the first
:data:`MAX_SUMMARY_FINDINGS` findings, unreadable inputs, and, with `--max-annotations N`, how many
findings the annotations could not show. It is appended to FILE (a step summary file is shared by
the steps of a job). Strings from input are sanitised, then escaped for Markdown and HTML.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TextIO, cast

from omnimessage.files.write_errors import named
from omnimessage.text.ci import MAX_SUMMARY_FINDINGS, md
from omnimessage.validate.engine.rules import RULES
from omnimessage.validate.engine.validator import Finding
from omnimessage.validate.reporting.output import Reporter, Summary, make_reporter

__all__ = ["MAX_SUMMARY_FINDINGS", "MarkdownSummary", "Tee", "md", "with_extra_reports"]


class MarkdownSummary(Reporter):
    """The Markdown summary (see the module's documentation)."""

    def __init__(self, out: TextIO, *, max_annotations: int = 0, rules_url: str = "") -> None:
        super().__init__(out)
        self.max_annotations = max_annotations
        self.rules_url = rules_url
        self.first: list[Finding] = []
        self.listed = 0
        self.shown: dict[str, int] = {"error": 0, "warning": 0}

    def finding(self, f: Finding) -> None:
        self.shown[f.severity] = self.shown.get(f.severity, 0) + 1
        self.listed += 1
        if len(self.first) < MAX_SUMMARY_FINDINGS:
            self.first.append(f)

    def _rule(self, rule: str) -> str:
        return f"[{rule}]({self.rules_url}#{rule.lower()})" if self.rules_url else rule

    def end(self, s: Summary) -> None:
        status = "FAILED" if s.errors else ("ERROR" if s.failed else "OK")
        lines = [f"### omnimessage validate: {status}", "",
                 f"{s.inputs} input(s), {s.files} file(s), {s.lines} line(s), {s.messages} message(s): "
                 f"**{s.errors} error(s)**, **{s.warnings} warning(s)**", ""]
        if s.counts:
            lines += ["| rule | severity | count | name |", "| --- | --- | ---: | --- |"]
            lines += [f"| {self._rule(r)} | {sev} | {n} | {RULES[r].name} |"
                      for (r, sev), n in sorted(s.counts.items())]
            lines.append("")
        if self.first:
            lines += [f"First {len(self.first)} of {sum(s.counts.values())} finding(s):", "",
                      "| file | line | rule | message |", "| --- | ---: | --- | --- |"]
            lines += [f"| {md(f.path)} | {f.line or ''} | {self._rule(f.rule)} {f.severity} | {md(f.message)} |"
                      for f in self.first]
            lines.append("")
            more = sum(s.counts.values()) - len(self.first)
            if more > 0:
                lines += [f"{more} more finding(s): in the log, and in the SARIF report when one is written.", ""]
        if self.max_annotations:
            hidden = sum(max(0, n - self.max_annotations) for n in self.shown.values())
            if hidden:
                lines += [f"**Annotations capped:** GitHub shows {self.max_annotations} error and "
                          f"{self.max_annotations} warning annotations per step; {hidden} more finding(s) are "
                          "listed in the log only.", ""]
        lines += [f"- unreadable: {md(x)}" for x in s.failures]
        if s.unlisted_failures:
            lines.append(f"- unreadable: {s.unlisted_failures} more input(s), not listed")
        lines += [f"- note: {md(x)}" for x in s.notes]
        self.out.write("\n".join(lines).rstrip("\n") + "\n\n")


class Tee(Reporter):
    """Several reports of one validation: every call goes to each, in order."""

    def __init__(self, reporters: Sequence[Reporter]) -> None:
        super().__init__(reporters[0].out)
        self.reporters = list(reporters)

    def begin(self) -> None:
        for r in self.reporters:
            r.begin()

    def finding(self, f: Finding) -> None:
        for r in self.reporters:
            r.finding(f)

    def unit_input(self, unit: object) -> None:
        for r in self.reporters:
            r.unit_input(unit)

    def unit_end(self, name: str, ok_lines: int) -> None:
        for r in self.reporters:
            r.unit_end(name, ok_lines)

    def end(self, summary: Summary) -> None:
        for r in self.reporters:
            r.end(summary)


def with_extra_reports(
    reporter: Reporter, stack: contextlib.ExitStack, fmt: str, *, sarif: str | None, summary: str | None,
    max_annotations: int, rules_url: str,
) -> Reporter:
    """`reporter`, teed with a SARIF report written to `sarif` and a Markdown summary appended to
    `summary` (each when given; the files are closed with `stack`). ValueError: a file cannot be opened."""
    extra: list[Reporter] = []
    for path, mode in ((sarif, "w"), (summary, "a")):
        if not path:
            continue
        try:
            fh = cast(TextIO, stack.enter_context(open(path, mode, encoding="utf-8",  # noqa: SIM115
                                                       errors="backslashreplace", newline="\n")))
        except OSError as exc:
            raise ValueError(f"cannot write {path}: {exc.strerror or exc}") from None
        stack.enter_context(named(path))  # a full disk names the file
        if mode == "w":
            extra.append(make_reporter("sarif", fh, color=False, rules_url=rules_url))
        else:
            limit = max(max_annotations, 0) if fmt == "github" else 0
            extra.append(MarkdownSummary(fh, max_annotations=limit, rules_url=rules_url))
    return Tee([reporter, *extra]) if extra else reporter
