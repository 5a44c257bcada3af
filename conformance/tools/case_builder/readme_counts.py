"""The case counts in `conformance/README.md`, from the cases: written by generate.py, compared by
`generate.py --check` (so `make check-generated` fails when a count is stale).

Only the numbers are generated; the prose around them is hand-written. A count is a number in one
of these places: the `cases` cell of a group's row in the Groups table, the per-category counts
of the `rejection` row (`` `invalid_json` 107``), the `N cases are tagged `hostile`` sentence, the
level counts (`N required and M recommended`) and the suite version in the Layout heading.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .schema_facts import SUITE_VERSION

README = "README.md"

_GROUP_ROW = re.compile(r"^\| `(?P<group>[a-z]+)` \| (?P<n>[0-9]+) \|", re.M)
_CATEGORY = re.compile(r"`(?P<cat>[a-z_0-9]+)` (?P<n>[0-9]+)\b")
_HOSTILE = re.compile(r"^[0-9]+ cases are tagged `hostile`", re.M)
_LEVELS = re.compile(r"\b[0-9]+ cases are `required` and [0-9]+ `recommended`")
_LAYOUT = re.compile(r"^## Layout \(suite version [0-9]+\.[0-9]+\.[0-9]+\)$", re.M)


def with_counts(text: str, cases: list[dict[str, Any]]) -> str:
    """`text` (the README) with every generated count set from `cases` (the manifest's)."""
    groups = Counter(c["group"] for c in cases)
    categories = Counter(c["expect"].get("category") for c in cases if c["group"] == "rejection")
    levels = Counter(c["level"] for c in cases)

    def group_row(m: re.Match[str]) -> str:
        g = m.group("group")
        return m.group(0) if g not in groups else f"| `{g}` | {groups[g]} |"

    text = _GROUP_ROW.sub(group_row, text)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("| `rejection` |"):
            lines[i] = _CATEGORY.sub(
                lambda m: f"`{m.group('cat')}` {categories[m.group('cat')]}" if m.group("cat") in categories
                else m.group(0),
                line,
            )
    text = "\n".join(lines)
    text = _HOSTILE.sub(f"{sum('hostile' in c['tags'] for c in cases)} cases are tagged `hostile`", text)
    text = _LEVELS.sub(f"{levels['required']} cases are `required` and {levels['recommended']} `recommended`", text)
    return _LAYOUT.sub(f"## Layout (suite version {SUITE_VERSION})", text)
