"""Expected-failure lists: plain text, one entry and its reason per line; loaded, matched, written.

An entry names shipped cases by id or glob (`rejection.duplicate_key.*`), or fresh cases (generated
for each run, :mod:`.fresh`) by what they expect: `fresh:CATEGORY` (a rejection category such as
`fresh:duplicate_key`), `fresh:canonical`, `fresh:identical`, or `fresh:*`. Ids and globs never
match a fresh case (their ids change with the seed, so an id would hide nothing and a glob
everything); a fresh entry never matches a shipped case. A fresh entry that matches a passing
case is not an unexpected pass (fresh cases differ from run to run); one naming no category is
refused when the list is read.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from omnimessage.text.sanitize import printable, sanitize

from .._generated.models import REJECTION_CATEGORIES
from .outcomes import FAILED, XFAIL, Outcome, RunResult
from .suite import FRESH_GROUP, Case

__all__ = [
    "FRESH_PREFIX",
    "ExpectedFailures",
    "fresh_key",
    "load_expected_failures",
    "short_reason",
    "write_expected_failures",
]

FRESH_PREFIX = "fresh:"
FRESH_KEYS = frozenset({*REJECTION_CATEGORIES, "canonical", "identical", "*"})
"""What may follow `fresh:`: a rejection category, `canonical`, `identical` or `*`."""
MAX_REASON = 200
"""An entry's reason is cut to this many characters when written."""


def fresh_key(case: Case) -> str:
    """What a fresh case is listed by: its expected rejection category, else `canonical` / `identical`."""
    return case.category if case.expect == "reject" and case.category else case.expect


@dataclass
class ExpectedFailures:
    """`case-id-or-glob  reason` or `fresh:CATEGORY  reason` per line; `#` starts a comment."""

    entries: list[tuple[str, str, int]] = field(default_factory=list)  # pattern, reason, line number
    path: str = ""

    def reason(self, case: Case | str) -> str | None:
        """The reason a case is expected to fail, None when it is not listed (a str is a shipped case's id)."""
        fresh = isinstance(case, Case) and case.group == FRESH_GROUP
        case_id = case.id if isinstance(case, Case) else case
        for pattern, reason, _ in self.entries:
            if pattern.startswith(FRESH_PREFIX):
                if fresh and isinstance(case, Case) and pattern[len(FRESH_PREFIX) :] in ("*", fresh_key(case)):
                    return reason
            elif not fresh and _matches(pattern, case_id):
                return reason
        return None

    def is_fresh_entry(self, case: Case) -> bool:
        """Whether `case` is listed through a `fresh:` entry (a pass is then no unexpected pass)."""
        return case.group == FRESH_GROUP and self.reason(case) is not None

    def stale(self, all_ids: Iterable[str]) -> list[str]:
        """Entries that match no shipped case (fresh entries are checked when the list is read)."""
        ids = list(all_ids)
        out = []
        for pattern, _, number in self.entries:
            if pattern.startswith(FRESH_PREFIX):
                continue
            if not any(_matches(pattern, i) for i in ids):
                out.append(f"{self.path}:{number}: entry {pattern!r} matches no case")
        return out


def _matches(pattern: str, case_id: str) -> bool:
    """An entry names a case by its id, or by a glob (`*`, `?`, `[...]`)."""
    return pattern == case_id or (_is_glob(pattern) and fnmatch.fnmatchcase(case_id, pattern))


def _is_glob(p: str) -> bool:
    return any(c in p for c in "*?[")


def load_expected_failures(path: str | os.PathLike[str]) -> ExpectedFailures:
    """Read a list; ValueError (naming the line) for an entry without a reason or an unknown fresh category."""
    ef = ExpectedFailures(path=str(path))
    with open(path, encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            parts = text.split(None, 1)
            reason = parts[1].strip() if len(parts) > 1 else ""
            where = f"{printable(str(path), 300)}:{number}"
            if not reason:
                raise ValueError(f"{where}: an expected failure needs a reason after the case id")
            if parts[0].startswith(FRESH_PREFIX) and parts[0][len(FRESH_PREFIX) :] not in FRESH_KEYS:
                raise ValueError(
                    f"{where}: {printable(parts[0], 100)!r} names no category; fresh cases are listed as "
                    "fresh:CATEGORY (a rejection category), fresh:canonical, fresh:identical or fresh:*"
                )
            ef.entries.append((parts[0], reason, number))
    return ef


def short_reason(o: Outcome) -> str:
    """One line saying how a case fails, for an expected-failure list (sanitised, cut)."""
    m = o.message
    if o.status == XFAIL and o.reason:
        text = o.reason
    elif m.startswith("wrong bytes: first difference at byte "):
        text = "re-encodes differently from byte " + m.split("byte ", 1)[1].split(" ", 1)[0]
    elif m.startswith("refused a line it must "):
        text = "refuses it as " + m.split("`", 2)[1]
    elif m.startswith("refused as `") and ", expected `" in m:
        text = f"refuses it as {m.split('`', 2)[1]} instead of {m.rsplit('`', 2)[1]}"
    elif m.startswith("refused as `") and "pointer" in m:
        text = "reports another pointer: " + m.split(" at pointer ", 1)[-1][:80]
    elif m.startswith("accepted a line it must refuse"):
        text = "accepts it"
    elif m.startswith("skipped a required case"):
        text = "skips it"
    else:
        text = m.split("\n", 1)[0]
    return printable(text, MAX_REASON) or "fails"


def write_expected_failures(
    result: RunResult, path: str | os.PathLike[str], name: str, suite_ids: Iterable[str]
) -> list[str]:
    """The list that makes the run `result` green, and every run with another seed: every failing
    shipped case (only ids of `suite_ids`) with a one-line reason, and, when fresh cases failed,
    one `fresh:*` entry for their family (which categories fail depends on the seed's draw: a list
    naming the ones of one run fails the next; the reason names what failed in this one). Written
    atomically; returns the entries written."""
    known = set(suite_ids)
    lines = [
        f"# Expected failures of {sanitize(name)} (case id, then why it fails). Written by",
        "# `omnimessage conformance --update-expected-failures`; a listed case that passes, or an entry",
        "# that matches no case, fails the run: keep this list exact. Fresh cases (generated from the",
        "# seed) are listed by family: fresh:* holds for every seed; fresh:CATEGORY, fresh:canonical or",
        "# fresh:identical only for the seeds whose failing cases all expect that.",
    ]
    entries: list[str] = []
    fresh: dict[str, int] = {}
    for o in result.outcomes:
        if o.status not in (FAILED, XFAIL):
            continue
        if o.case.group == FRESH_GROUP:
            key = fresh_key(o.case)
            fresh[key] = fresh.get(key, 0) + 1
        elif o.case.id in known:
            entries.append(f"{o.case.id}  {short_reason(o)}")
    if fresh:
        seen = ", ".join(f"{k} {n}" for k, n in sorted(fresh.items()))
        seed = f" of seed {result.seed}" if result.seed is not None else ""
        entries.append(f"{FRESH_PREFIX}*  {printable(f'fresh cases fail (in the run{seed}: {seen})', MAX_REASON)}")
    _write_atomically(Path(path), ("\n".join(lines + entries) + "\n").encode("utf-8"))
    return entries


def _write_atomically(path: Path, data: bytes) -> None:
    """`data` to a temporary file beside `path`, renamed over it: a reader sees the old list or the new."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
