"""`--max-findings`: how many findings of one input are reported; the rest are counted by rule.

Reports (JUnit per input, the results `--jobs` workers send back) hold an input's findings, so
without a cap their size grows with the input: 2 MB of one-byte bad lines made a 368 MB JUnit file.
The summary still counts every finding.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from omnimessage.validate.engine.finding import Finding

__all__ = ["DEFAULT_MAX_FINDINGS", "FindingLimit"]

DEFAULT_MAX_FINDINGS: Final = 5000
"""Findings reported per input by default (SARIF consumers keep at most 25,000 results a run)."""


class FindingLimit:
    """The findings of one input: the first `limit` are admitted, the others counted per (rule, severity)."""

    __slots__ = ("beyond", "limit", "shown")

    def __init__(self, limit: int = DEFAULT_MAX_FINDINGS) -> None:
        self.limit = limit
        self.shown = 0
        self.beyond: Counter[tuple[str, str]] = Counter()  # at most one entry per rule and severity

    def admit(self, f: Finding) -> bool:
        """Whether to report `f` (else it is counted in `beyond`)."""
        if self.shown < self.limit:
            self.shown += 1
            return True
        self.beyond[(f.rule, f.severity)] += 1
        return False

    def reset(self) -> None:
        """The next input."""
        self.shown = 0
        self.beyond = Counter()

    def note(self) -> str:
        """What was not reported ("" when nothing): `12 more findings beyond --max-findings 5: OM102 x 12`."""
        if not self.beyond:
            return ""
        by_rule: Counter[str] = Counter()
        for (rule, _), n in self.beyond.items():
            by_rule[rule] += n
        rules = ", ".join(f"{r} x {n}" for r, n in sorted(by_rule.items()))
        return f"{sum(by_rule.values())} more findings beyond --max-findings {self.limit}, not listed: {rules}"
