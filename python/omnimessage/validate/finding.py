"""One problem the validator found: a rule id, where, and what."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import RULES, Severity

__all__ = ["Finding"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found.

    Attributes:
        rule: the rule id (`OM201`); `RULES[rule]` has its name, explanation and hint.
        severity: `error` or `warning` (the rule's, or downgraded: `--truncated`).
        message: what is wrong here.
        path: the input's name (`<stdin>` for standard input).
        line: 1-based line number, 0 when the finding is about the whole input.
        pointer: JSON pointer into the message, when the finding is about one value.
    """

    rule: str
    severity: Severity
    message: str
    path: str
    line: int
    pointer: str = ""

    @property
    def name(self) -> str:
        return RULES[self.rule].name

    @property
    def hint(self) -> str:
        return RULES[self.rule].hint

    def to_dict(self) -> dict[str, str | int]:
        out: dict[str, str | int] = {
            "path": self.path,
            "line": self.line,
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity,
            "message": self.message,
        }
        if self.pointer:
            out["pointer"] = self.pointer
        out["hint"] = self.hint
        return out
