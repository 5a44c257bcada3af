"""`Report.from_json` raises only ValueError (issue 23): deep nesting, Infinity and NaN, unknown
rules, negative or non-integer counts, and counts short of the findings listed are refused; a valid
report round-trips."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from omnimessage.validate import Report, validate_path

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def doc() -> dict[str, object]:
    report = validate_path(str(ROOT / "examples" / "invalid.jsonl"))
    assert not report.ok
    return dict(json.loads(report.to_json()))


def _mutated(doc: dict[str, object], path: list[object], value: object) -> str:
    d = json.loads(json.dumps(doc))
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return json.dumps(d)


def test_a_valid_report_round_trips(doc: dict[str, object]) -> None:
    r = Report.from_json(json.dumps(doc))
    assert json.loads(r.to_json()) == doc


BAD = [
    (["summary", "by_rule", 0, "count"], -5),
    (["summary", "by_rule", 0, "count"], 1.5),
    (["summary", "by_rule", 0, "count"], True),
    (["summary", "by_rule", 0, "count"], 0),  # fewer than the findings listed
    (["summary", "by_rule", 0, "rule"], "OM999"),
    (["findings", 0, "rule"], "NOPE"),
    (["findings", 0, "line"], -1),
    (["findings", 0, "message"], {"a": 1}),
    (["summary", "lines"], -1),
    (["summary", "server_events", "types"], {"x": -1}),
    (["summary", "unreadable"], [1]),
]


@pytest.mark.parametrize(("path", "value"), BAD, ids=[f"{p[-1]}={v!r}" for p, v in BAD])
def test_a_broken_document_is_a_value_error(doc: dict[str, object], path: list[object], value: object) -> None:
    with pytest.raises(ValueError, match="not an omnimessage validate JSON report"):
        Report.from_json(_mutated(doc, path, value))


@pytest.mark.parametrize("constant", ["Infinity", "-Infinity", "NaN"])
def test_infinite_counts_are_refused(doc: dict[str, object], constant: str) -> None:
    text = _mutated(doc, ["summary", "lines"], "@@").replace('"@@"', constant)
    with pytest.raises(ValueError):
        Report.from_json(text)


def test_deep_nesting_is_a_value_error() -> None:
    depth = sys.getrecursionlimit() * 20
    for text in ("[" * depth + "]" * depth, '{"version": 1, "summary": ' + "[" * depth + "]" * depth + "}"):
        with pytest.raises(ValueError):
            Report.from_json(text)
