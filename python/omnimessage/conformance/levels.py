"""Conformance levels: every case is `required` or `recommended` (conformance/README.md, "Levels").

The level follows the key word of the contract text the case tests (schema/README.md): what the
contract says an implementation MUST do is `required`; what it MAY do, and so what only an
implementation with an optional feature is tested on (section 5, lenient decoding: feature
`lenient`), is `recommended`. The manifest states each shipped case's level (the builder assigns
it by :func:`level_by_rule`); a fresh case gets it by the same rule.

A run reaches `recommended` when every case passed, `required` when every required case passed,
and `none` otherwise (an expected failure is a failure here: the list keeps the verdict green,
it does not make the implementation conform). `--level required` gates on the required cases
only: a failing recommended case is reported, and does not fail the run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

__all__ = ["LEVELS", "RECOMMENDED", "REQUIRED", "SECTION_LEVELS", "level_by_rule", "level_reached", "gates"]

REQUIRED: Final = "required"
RECOMMENDED: Final = "recommended"
LEVELS: Final = (REQUIRED, RECOMMENDED)
"""Strongest first: `--level required` gates on the first, `--level recommended` (the default) on both."""

SECTION_LEVELS: Final[Mapping[str, str]] = {
    "1": REQUIRED,  # framing: MUST accept the LF, MUST NOT stop at a bad line
    "2": REQUIRED,  # canonical encoding: an encoder MUST produce it
    "3": REQUIRED,  # verbatim values: MUST keep and write back the exact bytes
    "4": REQUIRED,  # strict refusals: category and pointer are normative
    "5": RECOMMENDED,  # lenient decoding: readers MAY decode leniently
    "6": REQUIRED,  # integer and number fields: part of the strict refusals
    "7": REQUIRED,  # limits: MUST accept every line within them, refuse beyond
    "8": REQUIRED,  # what a decoder accepts and leaves to the validator (timestamps, pairing)
}
"""The level of each top-level section of schema/README.md a case may cite (its `spec`). A case
citing a section missing here has no level: the manifest builder stops with an error naming it."""

OPTIONAL_FEATURE_LEVEL: Final = RECOMMENDED
"""A case that needs an optional feature tests what the contract says an implementation MAY do."""


def level_by_rule(spec: str, features: Iterable[str]) -> str | None:
    """The level of a case citing section `spec` and needing `features`; None when no rule decides."""
    if any(True for _ in features):
        return OPTIONAL_FEATURE_LEVEL
    return SECTION_LEVELS.get(spec.split(".", 1)[0])


def gates(case_level: str, gate: str) -> bool:
    """Whether a failure of a case of `case_level` fails a run gated at `gate`."""
    return LEVELS.index(case_level) <= LEVELS.index(gate)


def level_reached(failed_levels: Iterable[str]) -> str:
    """The level a run reached, given the level of every case that did not pass."""
    failing = set(failed_levels)
    if REQUIRED in failing:
        return "none"
    return REQUIRED if RECOMMENDED in failing else RECOMMENDED
