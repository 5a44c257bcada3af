"""`make mutants` (dev/mutation/run.py, issue 38) keeps working as the fast paths change.

The families of issue 38 name the lines they change by a piece of their text: each must still
find exactly one line, or the run would stop with an assertion (a family whose line moved or
changed must be written again). The operator mutants change their line and nothing else, and the
last report (docs/mutants.md) gives killed over total for each language.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest
from conftest import REQUIRE_TOOLS, ROOT

_spec = importlib.util.spec_from_file_location("fastpath_mutation", ROOT / "dev" / "mutation" / "run.py")
assert _spec and _spec.loader
run = sys.modules["fastpath_mutation"] = importlib.util.module_from_spec(_spec)  # a dataclass needs it there
_spec.loader.exec_module(run)


@pytest.mark.parametrize("name", sorted(run.LANGS))
def test_every_family_finds_its_line_and_every_mutant_changes_one(name: str) -> None:
    lang = run.LANGS[name]()
    if not all((lang.tree / f).is_file() for f in lang.files):
        assert not REQUIRE_TOOLS, f"{lang.tree} is not built"
        pytest.skip(f"{lang.tree} is not built")
    src = lang.sources()
    families = run.family_mutants(name, src)
    assert len(families) == len(run.FAMILIES[name])
    pool = run.operator_mutants(name, src)
    assert len(pool) > 100
    for m in [*families, *pool]:
        assert m.before != m.after and src[m.file].split("\n")[m.line - 1] == m.before, m.id
        text = run._apply(src[m.file], m)
        assert text.count("\n") == src[m.file].count("\n") and text != src[m.file], m.id


def test_the_last_report_gives_killed_over_total_per_language() -> None:
    report = (ROOT / "docs" / "mutants.md").read_text()
    for name in run.LANGS:
        assert f"| {run.TITLES[name]} |" in report, name
    assert "NOT YET EXPLAINED" not in report
