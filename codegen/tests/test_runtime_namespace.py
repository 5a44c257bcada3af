"""Generated code reaches its runtime through exactly one named namespace per language
(docs/bindings.md, "The runtime namespace"): every reference the output of `omnimessage generate`
makes to the runtime goes through it, and it imports no other part of the runtime."""

from __future__ import annotations

import re

import pytest

from omnimessage_codegen import load_schema
from omnimessage_codegen.targets import render

# target -> (every reference to the runtime package, the one namespace it must go through)
REFERENCES = {
    "python": (re.compile(r"^\s*(?:from|import) (omnimessage(?:\.\w+)*)", re.M), "omnimessage.runtime"),
    "typescript": (re.compile(r'from "(omnimessage(?:/[\w.-]+)*)"'), "omnimessage/runtime"),
    "rust": (re.compile(r"\bomnimessage::(\w+)"), "runtime"),
    "go": (re.compile(r'"(github\.com/omnimessage/omnimessage/go(?:/[\w/]+)?)"'), "github.com/omnimessage/omnimessage/go"),
}


def _code(target: str, text: str) -> str:
    """The text without comments (headers say `decode/encode with omnimessage::decode/encode`)."""
    mark = "#" if target == "python" else "//"
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(mark))


@pytest.mark.parametrize("target", sorted(REFERENCES))
def test_generated_code_names_its_runtime_through_one_namespace(target: str) -> None:
    pattern, namespace = REFERENCES[target]
    seen: dict[str, set[str]] = {}
    for name, text in render(target, load_schema()).items():
        for ref in pattern.findall(_code(target, text)):
            seen.setdefault(ref, set()).add(name)
    assert set(seen) == {namespace}, seen


def _python_row() -> tuple[str, list[str]]:
    """docs/bindings.md's runtime-namespace table, Python row: the namespace and what it holds."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "bindings.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| Python | `omnimessage."))
    cells = [c.strip() for c in row.strip("|").split("|")]
    return cells[1].strip("`"), re.findall(r"`(\w+)`", cells[2])


def test_the_python_runtime_namespace_is_the_documented_module_and_holds_what_generated_code_imports() -> None:
    import importlib

    namespace, holds = _python_row()
    assert namespace == REFERENCES["python"][1]
    runtime = importlib.import_module(namespace)
    assert sorted(holds) == sorted(runtime.__all__), "docs/bindings.md's Python row and omnimessage.runtime.__all__"
    imported = set()
    for text in render("python", load_schema()).values():
        for names in re.findall(rf"^from {re.escape(namespace)} import ([^\n]+)", text, re.M):
            imported |= {n.strip() for n in names.split(",")}
    assert imported and imported <= set(runtime.__all__), imported - set(runtime.__all__)
    assert all(hasattr(runtime, name) for name in runtime.__all__)
