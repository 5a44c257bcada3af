"""What every report format implements (:class:`Reporter`), apart from the formats themselves
(`output` for text, JSON, JUnit, GitHub and SARIF; `html` for the page), so that both import it
and neither imports the other's module back.
"""

from __future__ import annotations

from typing import TextIO

from omnimessage.validate.engine.validator import Finding
from omnimessage.validate.reporting.report import Report

__all__ = ["Reporter", "Summary"]


Summary = Report
"""What reporters end with: the run's :class:`Report` (holding no finding: they were streamed)."""


class Reporter:
    """A report format: `begin()`, then `finding()` as they come and `unit_end()` after each input,
    then `end()` with the run's :class:`Report` (its counts: the findings were streamed)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def begin(self) -> None:
        """Before the first finding (a document's head)."""

    def finding(self, f: Finding) -> None:
        """Write one finding (strings from input sanitised)."""
        raise NotImplementedError

    def unit_input(self, unit: object) -> None:
        """The input whose findings were just given, before :meth:`unit_end` (the HTML report reads its files)."""

    def unit_end(self, name: str, ok_lines: int) -> None:
        """After the findings of one input (`name`, with `ok_lines` lines read)."""

    def end(self, summary: Summary) -> None:
        """After the last input: the summary, unreadable inputs, the document's tail."""
