"""The public API is listed in one typed file, `python/omnimessage/__init__.py`, and documented in
one place, docs/api.md's "Public API" (issue 39): the two lists are equal, every name is imported by
name (no `*`, no `__all__ +=` a reader has to follow), and the facade holds every struct, enum and
fact of the generated models except the codec's own tables."""

from __future__ import annotations

import ast
import re

from conftest import ROOT

import omnimessage as om
from omnimessage._generated import builders as generated_builders
from omnimessage._generated import guards as generated_guards
from omnimessage._generated import models as generated_models

FACADE = ROOT / "python" / "omnimessage" / "__init__.py"
DOC = ROOT / "docs" / "api.md"

# What the generated models export for the codec, not for users: the tables the codec reads (`Codec`
# binds them from a generated package by name) and the release that generated the module.
INTERNAL = frozenset({
    "ENVELOPE_TAGS", "PAYLOAD_CLASSES", "VERBATIM_LOCATIONS", "NUMBER_LOCATIONS", "FRAGMENT_OF",
    "COMPLETE_MODEL_PAYLOAD_CLASSES", "PARTIAL_MODEL_PAYLOAD_CLASSES", "MODEL_PAYLOAD_CLASSES",
    "EVENT_PAYLOAD_CLASSES", "GENERATOR_VERSION",
})


def documented(text: str) -> list[str]:
    """The names in backticks under `## Public API`, up to the next `## ` heading."""
    section = text.split("\n## Public API\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"`([A-Za-z_]\w*)`", section)


def test_all_is_the_documented_list() -> None:
    names = documented(DOC.read_text(encoding="utf-8"))
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
    assert len(om.__all__) == len(set(om.__all__)), [n for n in om.__all__ if om.__all__.count(n) > 1]
    assert sorted(om.__all__) == sorted(names), {
        "in __all__, not in docs/api.md": sorted(set(om.__all__) - set(names)),
        "in docs/api.md, not in __all__": sorted(set(names) - set(om.__all__)),
    }
    assert all(hasattr(om, n) for n in om.__all__)


def test_the_facade_names_every_import_and_lists_all_once() -> None:
    tree = ast.parse(FACADE.read_text(encoding="utf-8"))
    stars = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
    assert not stars, f"star imports at lines {stars}: import each public name by name"
    assigned = [n for n in tree.body if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign)
                and any(isinstance(t, ast.Name) and t.id == "__all__"
                        for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    assert len(assigned) == 1 and isinstance(assigned[0], ast.Assign), "one literal `__all__ = [...]`"
    listed = [ast.literal_eval(e) for e in assigned[0].value.elts]  # type: ignore[attr-defined]
    assert listed == om.__all__
    imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert set(om.__all__) <= imported, sorted(set(om.__all__) - imported)


def test_the_facade_holds_the_generated_vocabulary_but_not_the_codec_tables() -> None:
    public = set(om.__all__)
    wanted = (set(generated_models.__all__) - INTERNAL) | set(generated_builders.__all__) | set(generated_guards.__all__)
    assert wanted <= public, f"generated but not exported by omnimessage (add to __init__.py and docs/api.md): {sorted(wanted - public)}"
    assert set(generated_models.__all__) >= INTERNAL, sorted(INTERNAL - set(generated_models.__all__))
    leaked = sorted(n for n in INTERNAL if n in public or hasattr(om, n))
    assert not leaked, f"the codec's tables are not public API: {leaked}"


def test_docs_api_lists_every_folder_of_the_package() -> None:
    """docs/api.md's "Inside the package" table names each folder of the package and of `validate/`
    once, and no other."""
    section = DOC.read_text(encoding="utf-8").split("\n## Inside the package\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([\w/]+)/` \|", section, re.M)
    package = FACADE.parent
    # the concepts: the folders of the package, and of `validate/` (deeper folders belong to theirs)
    folders = sorted(
        p.relative_to(package).as_posix()
        for parent in (package, package / "validate") for p in parent.iterdir()
        if p.is_dir() and p.name != "__pycache__"
    )
    assert len(listed) == len(set(listed)), listed
    assert sorted(set(listed) - {"omnimessage"}) == folders, {
        "in the package, not in docs/api.md": sorted(set(folders) - set(listed)),
        "in docs/api.md, not in the package": sorted(set(listed) - {"omnimessage"} - set(folders)),
    }
