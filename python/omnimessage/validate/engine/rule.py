"""One validator rule (:class:`Rule`), the profiles it applies to, and the rule groups.

The registry of every rule is :mod:`omnimessage.validate.engine.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["BOTH", "GROUPS", "PROFILES", "STREAM", "TRACE", "Rule", "Severity", "make_rule"]

Severity = Literal["error", "warning"]
TRACE: Final = frozenset({"trace"})
STREAM: Final = frozenset({"stream"})
BOTH: Final = frozenset({"trace", "stream"})
PROFILES: Final = ("trace", "stream")


@dataclass(frozen=True, slots=True)
class Rule:
    """One check.

    Attributes:
        id: stable identifier (`OM201`).
        name: short kebab-case name (`trace-opens-with-session-meta`).
        severity: default severity of its findings (`error` fails validation, `warning` does not).
        profiles: the profiles it applies to (`trace`, `stream`).
        summary: one line, for tables.
        explanation: one paragraph: what is checked and why the protocol requires it.
        hint: how to fix a producer that breaks it.
    """

    id: str
    name: str
    severity: Severity
    profiles: frozenset[str]
    summary: str
    explanation: str
    hint: str

    @property
    def group(self) -> str:
        """The id prefix of its group in :data:`GROUPS` (`OM75` for OM756, `OM7` is not one)."""
        return next(g for g, _, _ in sorted(GROUPS, key=lambda g: -len(g[0])) if self.id.startswith(g))


GROUPS: Final[tuple[tuple[str, str, str], ...]] = (
    ("OM0", "Framing", "How lines are delimited in a JSON Lines input."),
    ("OM1", "Schema", "Each line decodes strictly (schema/README.md); the codec's rejection categories."),
    ("OM2", "Trace files", "What a stored trace file may hold (protocol facts 7, 9)."),
    ("OM3", "Streaming discipline", "start / delta / stop fragments and their complete message (facts 3)."),
    ("OM4", "Pairing and order", "Calls and outputs, approvals, requests, compactions, MCP connects (facts 8)."),
    ("OM5", "Error vocabulary", "`status`, `error_code`, `error_message`, `retry_in_ms`, `attempt` (facts 4, 5)."),
    ("OM6", "Origin and session ids", "Child-session chains and the ids they hold (facts 1, 7)."),
    ("OM70", "Values", "Value shapes the schema leaves open (schema/README.md section 8)."),
    ("OM75", "Retired spellings", "What older traces carry; `--legacy` accepts them as warnings."),
    ("OM8", "Trace directories", "`<yyyy-mm-dd>/<session_id>_<NNN>.jsonl` roots (facts 9)."),
    ("OM9", "SSE", "Server-sent event framing of a live stream (facts 10)."),
)


def make_rule(
    id: str, name: str, severity: Severity, profiles: frozenset[str], summary: str, explanation: str, hint: str
) -> Rule:
    """A rule, with its explanation and hint folded to one line each (they are written as wrapped text)."""
    return Rule(id, name, severity, profiles, summary, " ".join(explanation.split()), " ".join(hint.split()))
