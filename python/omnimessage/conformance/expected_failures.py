"""Expected-failure lists: plain text, `case-id-or-glob  reason` per line; loaded, matched, written."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .outcomes import FAILED, XFAIL, Outcome, RunResult

__all__ = ["ExpectedFailures", "load_expected_failures", "short_reason", "write_expected_failures"]


@dataclass
class ExpectedFailures:
    """`case-id-or-glob  reason` per line; `#` starts a comment."""

    entries: list[tuple[str, str, int]] = field(default_factory=list)  # pattern, reason, line number
    path: str = ""

    def reason(self, case_id: str) -> str | None:
        for pattern, reason, _ in self.entries:
            if _matches(pattern, case_id):
                return reason
        return None

    def stale(self, all_ids: Iterable[str]) -> list[str]:
        ids = list(all_ids)
        out = []
        for pattern, _, number in self.entries:
            if not any(_matches(pattern, i) for i in ids):
                out.append(f"{self.path}:{number}: entry {pattern!r} matches no case")
        return out


def _matches(pattern: str, case_id: str) -> bool:
    """An entry names a case by its id, or by a glob (`*`, `?`, `[...]`)."""
    return pattern == case_id or (_is_glob(pattern) and fnmatch.fnmatchcase(case_id, pattern))


def _is_glob(p: str) -> bool:
    return any(c in p for c in "*?[")


def load_expected_failures(path: str | os.PathLike[str]) -> ExpectedFailures:
    ef = ExpectedFailures(path=str(path))
    with open(path, encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            parts = text.split(None, 1)
            reason = parts[1].strip() if len(parts) > 1 else ""
            if not reason:
                raise ValueError(f"{path}:{number}: an expected failure needs a reason after the case id")
            ef.entries.append((parts[0], reason, number))
    return ef


def short_reason(o: Outcome) -> str:
    """One line saying how a case fails, for an expected-failure list."""
    m = o.message
    if o.status == XFAIL and o.reason:
        return o.reason
    if m.startswith("wrong bytes: first difference at byte "):
        return "re-encodes differently from byte " + m.split("byte ", 1)[1].split(" ", 1)[0]
    if m.startswith("refused a line it must "):
        return "refuses it as " + m.split("`", 2)[1]
    if m.startswith("refused as `") and ", expected `" in m:
        return f"refuses it as {m.split('`', 2)[1]} instead of {m.rsplit('`', 2)[1]}"
    if m.startswith("refused as `") and "pointer" in m:
        return "reports another pointer: " + m.split(" at pointer ", 1)[-1][:80]
    if m.startswith("accepted a line it must refuse"):
        return "accepts it"
    if m.startswith("skipped a required case"):
        return "skips it"
    return m.split("\n", 1)[0][:100]


def write_expected_failures(result: RunResult, path: str | os.PathLike[str], name: str) -> None:
    """The list that makes the run `result` green: every failing case with a one-line reason."""
    lines = [
        f"# Expected failures of {name} (case id, then why it fails). Written by",
        "# `omnimessage conformance --update-expected-failures`; a listed case that passes, or an entry",
        "# that matches no case, fails the run: keep this list exact.",
    ]
    for o in result.outcomes:
        if o.status in (FAILED, XFAIL):
            lines.append(f"{o.case.id}  {short_reason(o)}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
