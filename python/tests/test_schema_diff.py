"""`omnimessage schema diff`: one schema pair per change kind (table), the classes and the exit
status a CI job gates on, and what consecutive protocol versions show."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from omnimessage.cli.main import main
from omnimessage.schema.diff import COMPATIBLE, READER, WRITER, diff
from omnimessage.schema.versions import versions

BASE: dict[str, Any] = {
    "$defs": {
        "EventPayload": {"oneOf": [{"$ref": "#/$defs/Begin"}]},
        "Begin": {"type": "object", "properties": {"type": {"const": "begin"}, "status": {"$ref": "#/$defs/Stop"},
                                                   "note": {"type": "string"}},
                  "required": ["type", "status"], "additionalProperties": False},
        "End": {"type": "object", "properties": {"type": {"const": "end"}}, "required": ["type"],
                "additionalProperties": False},
        "Stop": {"type": "string", "enum": ["completed", "failed"]},
    }
}


def _with(edit: Any) -> dict[str, Any]:
    d = copy.deepcopy(BASE)
    edit(d["$defs"])
    return d


def _add_kind(d: dict[str, Any]) -> None:
    d["EventPayload"]["oneOf"].append({"$ref": "#/$defs/End"})


CASES = [
    ("kind-added", BASE, _with(_add_kind), (READER,)),
    ("kind-removed", _with(_add_kind), BASE, (WRITER,)),
    ("value-added", BASE, _with(lambda d: d["Stop"]["enum"].append("retryable")), (READER,)),
    ("value-removed", BASE, _with(lambda d: d["Stop"]["enum"].remove("failed")), (WRITER,)),
    ("field-added", BASE, _with(lambda d: d["Begin"]["properties"].update(hash={"type": "string"})), (COMPATIBLE,)),
    ("field-added", BASE, _with(lambda d: (d["Begin"]["properties"].update(n={"type": "integer"}),
                                           d["Begin"]["required"].append("n"))), (READER,)),
    ("field-removed", BASE, _with(lambda d: d["Begin"]["properties"].pop("note")), (WRITER,)),
    ("field-required", BASE, _with(lambda d: d["Begin"]["required"].append("note")), (READER, WRITER)),
    ("field-optional", BASE, _with(lambda d: d["Begin"]["required"].remove("status")), (READER,)),
    ("field-type-changed", BASE, _with(lambda d: d["Begin"]["properties"].update(note={"type": "integer"})),
     (READER, WRITER)),
]


@pytest.mark.parametrize(("kind", "old", "new", "classes"), CASES, ids=[f"{c[0]}-{'+'.join(c[3])}" for c in CASES])
def test_one_change_of_each_kind(kind: str, old: dict[str, Any], new: dict[str, Any], classes: tuple[str, ...]) -> None:
    changes = diff(old, new)
    assert [(c.kind, c.classes) for c in changes] == [(kind, classes)]


def test_no_change_no_finding() -> None:
    assert diff(BASE, copy.deepcopy(BASE)) == []
    noted = _with(lambda d: d["Begin"].update(description="annotations are not changes"))
    assert diff(BASE, noted) == []


@pytest.mark.parametrize(("new", "allow", "rc"), [
    (BASE, [], 0),
    (_with(lambda d: d["Begin"]["properties"].update(hash={"type": "string"})), [], 0),
    (_with(lambda d: d["Stop"]["enum"].append("retryable")), [], 1),
    (_with(lambda d: d["Stop"]["enum"].append("retryable")), ["--allow", READER], 0),
    (_with(lambda d: d["Stop"]["enum"].remove("failed")), ["--allow", READER], 1),
])
def test_exit_status_gates_ci(tmp_path: Path, capsys: pytest.CaptureFixture[str], new: dict[str, Any],
                              allow: list[str], rc: int) -> None:
    (tmp_path / "old.json").write_text(json.dumps(BASE))
    (tmp_path / "new.json").write_text(json.dumps(new))
    assert main(["schema", "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"), *allow]) == rc
    capsys.readouterr()
    assert main(["schema", "diff", str(tmp_path / "old.json"), "no-such-version"]) == 2


def _json_diff(old: str, new: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    main(["schema", "diff", old, new, "--format", "json"])
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _changes(report: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(c["kind"], c["where"], c["what"]) for c in report["changes"]}


def test_consecutive_versions_show_what_the_changelog_says(capsys: pytest.CaptureFixture[str]) -> None:
    vs = versions()
    reports = {(a, b): _json_diff(a, b, capsys) for a, b in itertools.pairwise(vs)}
    assert all(r["changes"] for r in reports.values()), "every release shape differs from the one before"
    d = _changes(reports[("0.1.1", "0.2.0")])
    assert {("field-removed", "SessionMetaPayload", "'thinking_level'"), ("value-added", "StopReason", "'auth'"),
            ("kind-added", "EventPayload", "'goal_finished'")} <= d
    d = _changes(reports[("0.2.0", "0.2.1")])
    assert {("field-removed", "RequestEndPayload", "'message'"),
            ("field-added", "RequestEndPayload", "'error_message' (optional)")} <= d
    d = _changes(reports[("0.2.1", "0.2.2")])
    assert {("kind-added", "EventPayload", "'tool_list_ready'"), ("kind-added", "EventPayload", "'mcp_connect_end'"),
            ("field-removed", "SessionMetaPayload", "'tools'")} <= d
    d = _changes(reports[("0.2.2", "0.2.4")])
    assert {("value-added", "ApprovalDecision", "'forbidden'"), ("field-added", "TextPayload", "'sender' (optional)")} <= d
    r = reports[("0.2.4", "0.2.6")]
    d = _changes(r)
    assert {("value-added", "StopReason", "'retryable'"), ("value-added", "StopReason", "'fatal'"),
            ("value-removed", "StopReason", "'failed'"), ("kind-removed", "EventPayload", "'goal_finished'"),
            ("kind-added", "EventPayload", "'hook'")} <= d
    assert r["summary"][READER] and r["summary"][WRITER]
    r = reports[("0.2.6", "next")]
    # the fingerprint and the provider-reported cost are additive and optional
    assert r["summary"] == {READER: 0, WRITER: 0, COMPATIBLE: 7}
    assert {c["what"].split()[0] for c in r["changes"]} == {
        "'prefix_hash'", "'prefix_head_hash'", "'prefix_records'", "'prefix_chars'", "'prefix_extends_prev'",
        "'prefix_thinking_level'", "'reported_cost'"}


def _cycle_ref(d: dict[str, Any]) -> None:
    d["A"] = {"$ref": "#/$defs/B"}
    d["B"] = {"$ref": "#/$defs/A"}
    d["Begin"]["properties"]["note"] = {"$ref": "#/$defs/A"}


def _cycle_one_of(d: dict[str, Any]) -> None:
    d["EventPayload"]["oneOf"].append({"$ref": "#/$defs/Loop"})
    d["Loop"] = {"oneOf": [{"$ref": "#/$defs/EventPayload"}]}


MALFORMED: dict[str, Any] = {
    "ref-cycle": _cycle_ref,
    "ref-self": lambda d: d["Begin"]["properties"].update(note={"$ref": "#/$defs/Self"}) or d.update(Self={"$ref": "#/$defs/Self"}),
    "one-of-cycle": _cycle_one_of,
    "enum-of-lists": lambda d: d["Stop"].update(enum=[["completed"], ["failed"]]),
    "enum-of-objects": lambda d: d["Stop"].update(enum=[{"a": 1}]),
    "enum-not-a-list": lambda d: d["Stop"].update(enum=5),
    "def-not-an-object": lambda d: d.update(Begin=[1, 2]),
    "properties-a-list": lambda d: d["End"].update(properties=["type"]),
    "property-a-string": lambda d: d["Begin"]["properties"].update(note="string"),
    "one-of-not-a-list": lambda d: d["EventPayload"].update(oneOf={"$ref": "#/$defs/Begin"}),
    "one-of-item-a-number": lambda d: d["EventPayload"].update(oneOf=[1]),
    "required-not-a-list": lambda d: d["Begin"].update(required="type"),
    "any-of-not-a-list": lambda d: d["Begin"]["properties"].update(note={"anyOf": 3}),
    "items-a-list": lambda d: d["Begin"]["properties"].update(note={"type": "array", "items": [1]}),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
@pytest.mark.parametrize("side", ["old", "new"])
def test_a_malformed_schema_exits_2_with_one_line(name: str, side: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32: a `$ref` cycle, a `oneOf` cycle, an enum of lists... printed a traceback and exited
    1, the status that means "a change breaks". Now: status 2, one sanitised line, no traceback."""
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(BASE))
    bad.write_text(json.dumps(_with(MALFORMED[name])))
    pair = [str(bad), str(good)] if side == "old" else [str(good), str(bad)]
    assert main(["schema", "diff", *pair]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("omnimessage schema diff: ")
    assert "Traceback" not in err


def test_a_schema_nested_too_deep_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep, good = tmp_path / "deep.json", tmp_path / "good.json"
    good.write_text(json.dumps(BASE))
    deep.write_text('{"$defs":{"A":' + '{"type":"array","items":' * 5000 + "{}" + "}" * 5000 + "}}")
    assert main(["schema", "diff", str(good), str(deep)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
