"""One problem the validator found: a rule id, where, and what."""

from __future__ import annotations

from dataclasses import dataclass

from omnimessage.text.sanitize import MAX_MESSAGE_CHARS, clip_text
from omnimessage.validate.engine.rules import RULES, Severity

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

    The message and the pointer quote input (keys, ids, values): each is clipped to
    `MAX_MESSAGE_CHARS` characters (head and tail kept, `omnimessage.text.sanitize.clip_text`) when the finding is
    made, so a megabyte key makes a finding of about a kilobyte. Sanitise them before showing them.
    """

    rule: str
    severity: Severity
    message: str
    path: str
    line: int
    pointer: str = ""

    def __post_init__(self) -> None:
        if len(self.message) > MAX_MESSAGE_CHARS:
            object.__setattr__(self, "message", clip_text(self.message, MAX_MESSAGE_CHARS))
        if len(self.pointer) > MAX_MESSAGE_CHARS:
            object.__setattr__(self, "pointer", clip_text(self.pointer, MAX_MESSAGE_CHARS))

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
