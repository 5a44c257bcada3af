"""Golden outputs: every target's files for a few small schemas, committed beside them.

`golden/<name>/schema.json` is a small schema; `golden/<name>/<target>/` holds what each target
renders from it. A template or emitter change shows up here as a reviewable diff of small files.
After an intended change, regenerate them and review the diff:

    OMNIMESSAGE_UPDATE_GOLDEN=1 .venv/bin/pytest codegen/tests/test_golden.py
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from omnimessage_codegen import load_schema
from omnimessage_codegen.targets import TARGETS

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("OMNIMESSAGE_UPDATE_GOLDEN") == "1"
SCHEMAS = sorted(p.name for p in GOLDEN.iterdir() if (p / "schema.json").is_file())
HAVE_DMCG = importlib.util.find_spec("datamodel_code_generator") is not None


def _committed(folder: Path) -> dict[str, str]:
    if not folder.is_dir():
        return {}
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_there_are_golden_schemas() -> None:
    assert len(SCHEMAS) >= 3, SCHEMAS
    kinds = {load_schema(GOLDEN / s / "schema.json").kind for s in SCHEMAS}
    assert kinds == {t.schema for t in TARGETS.values()}, kinds  # every kind of schema a target renders


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("schema", SCHEMAS)
def test_target_output_matches_golden(schema: str, target: str) -> None:
    model = load_schema(GOLDEN / schema / "schema.json")
    if model.kind != TARGETS[target].schema:  # the testee protocol's targets read only its schema, and it only them
        pytest.skip(f"target {target} renders {TARGETS[target].schema} schemas; {schema} is a {model.kind} schema")
    if target == "pydantic" and not HAVE_DMCG:
        if os.environ.get("OMNIMESSAGE_REQUIRE_TOOLS") == "1":  # make test: a gate never passes for want of its tool
            pytest.fail("datamodel-code-generator is not installed")
        pytest.skip("datamodel-code-generator is not installed")
    rendered = TARGETS[target].render(model)
    folder = GOLDEN / schema / target
    if UPDATE:
        shutil.rmtree(folder, ignore_errors=True)
        for rel, text in rendered.items():
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text, encoding="utf-8", newline="\n")
    committed = _committed(folder)
    assert sorted(committed) == sorted(rendered), f"files differ; regenerate: OMNIMESSAGE_UPDATE_GOLDEN=1 pytest {__file__}"
    for rel, text in rendered.items():
        assert committed[rel] == text, f"{schema}/{target}/{rel} differs from golden; review, then regenerate with OMNIMESSAGE_UPDATE_GOLDEN=1"


def test_golden_schemas_exercise_the_annotations() -> None:
    """The goldens cover what the generator reads beyond plain JSON Schema."""
    text = "".join((GOLDEN / s / "schema.json").read_text(encoding="utf-8") for s in SCHEMAS)
    for keyword in (
        "x-omnimessage-builders",
        "x-omnimessage-guard",
        "x-omnimessage-verbatim",
        "x-omnimessage-fragment-of",
        "x-omnimessage-rejections",
        '"rule"',
    ):
        assert keyword in text, keyword
