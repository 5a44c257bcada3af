"""The conformance suite itself: manifest, fixtures, expectations, coverage, schema agreement."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from conftest import ROOT, needs

from omnimessage.conformance import SUITE_VERSION, load_suite
from omnimessage.conformance.coverage import SchemaWalker, case_facts, coverage, load_schema_doc, parse_json
from omnimessage.conformance.suite import GROUPS, Case, SuiteError, suite_dir

SUITE = load_suite()
SCHEMA = load_schema_doc()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
LEXICAL = {name for name, r in SCHEMA["x-omnimessage-rejections"].items() if r["lexical"]}
STRUCTURAL = ("kind:", "field:", "enum:", "anyof:")


def test_suite_dir_is_the_checkout_folder() -> None:
    assert suite_dir() == ROOT / "conformance"
    assert SUITE.schema_id == SCHEMA["$id"]


def test_manifest_matches_its_schema() -> None:
    schema = json.loads((ROOT / "conformance" / "manifest.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    manifest = json.loads((ROOT / "conformance" / "manifest.json").read_text())
    errors = [
        f"{e.json_path}: {e.message[:200]}" for e in jsonschema.Draft202012Validator(schema).iter_errors(manifest)
    ]
    assert not errors, errors[:10]
    assert manifest["groups"]["protocol"]["home"] == "validator/"


# That the committed fixtures are what conformance/tools/generate.py writes is `make check-generated`'s
# (`generate.py --check`, in `make test` before pytest): not run a second time here.


def test_groups_sizes_and_ids() -> None:
    by_group = {g: [c for c in SUITE.cases if c.group == g] for g in GROUPS}
    assert {g: len(cs) >= 15 for g, cs in by_group.items()} == dict.fromkeys(GROUPS, True)
    assert len(SUITE.cases) >= 800
    for c in SUITE.cases:
        assert c.id.startswith(c.group + "."), c.id


def test_inputs_are_single_lines_and_text_fixtures_are_clean() -> None:
    for c in SUITE.cases:
        body = c.input[:-1] if c.input.endswith(b"\n") else c.input
        assert b"\n" not in body, c.id
        if c.source not in ("base64", "parts"):
            assert c.input.endswith(b"\n"), c.id
            body.decode("utf-8")  # text fixtures hold UTF-8 only


def test_reject_cases_carry_the_lexical_flag_of_their_category() -> None:
    for c in SUITE.cases:
        if c.expect == "reject":
            assert c.category in SCHEMA["x-omnimessage-rejections"], c.id
            assert c.lexical == (c.category in LEXICAL), c.id
        else:
            assert not c.lexical, c.id


def test_structural_tags_are_measured_not_hoped() -> None:
    walker = SchemaWalker(SCHEMA)
    for c in SUITE.cases:
        facts = {f for f in case_facts(walker, c) if f.startswith(STRUCTURAL)}
        tags = {t for t in c.tags if t.startswith(STRUCTURAL)}
        assert tags == facts, (c.id, sorted(tags ^ facts)[:5])


def test_coverage_is_complete() -> None:
    cov = coverage(SUITE, SCHEMA)
    missing = {d: m for d, (_, _, m) in cov.dimensions.items() if m}
    assert cov.complete and cov.percent == 100.0, missing


def test_coverage_has_teeth() -> None:
    """Dropping the cases that carry one enum value, one property or one category shows up."""
    for tag, dim in [
        ("enum:StopReason.fatal", "enum values"),
        ("field:TextPayload.sender", "properties"),
        ("anyof:AbortPayload.reason=null", "anyOf branches"),
    ]:
        fewer = dataclasses.replace(SUITE, cases=[c for c in SUITE.cases if tag not in c.tags])
        cov = coverage(fewer, SCHEMA)
        assert not cov.complete
        assert tag in cov.dimensions[dim][2]
    fewer = dataclasses.replace(SUITE, cases=[c for c in SUITE.cases if c.category != "truncated"] + [_one_truncated()])
    cov = coverage(fewer, SCHEMA)
    assert not cov.complete and any("truncated (1 case)" in m for _, _, ms in cov.dimensions.values() for m in ms)


def _one_truncated() -> Case:
    return next(c for c in SUITE.cases if c.category == "truncated")


def test_coverage_command_prints_the_table() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "omnimessage", "conformance", "--coverage"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert "enum values" in r.stdout and r.stdout.rstrip().endswith("100.0%")


# --- schema agreement ------------------------------------------------------------


def _valid_bodies(c: Case) -> list[bytes]:
    out = [c.output] if c.output is not None else []
    if c.expect == "canonical":
        out.append(c.input)
    return [b for b in out if b is not None]


@pytest.mark.parametrize(
    "case", [c for c in SUITE.cases if c.expect != "reject" and c.mode == "strict"], ids=lambda c: c.id
)
def test_schema_accepts_every_valid_case(case: Case) -> None:
    for body in _valid_bodies(case):
        errors = [e.message[:200] for e in VALIDATOR.iter_errors(parse_json(body))]
        assert not errors, errors[:3]


@pytest.mark.parametrize(
    "case",
    [c for c in SUITE.cases if c.expect == "reject" and c.mode == "strict" and not c.lexical],
    ids=lambda c: c.id,
)
def test_schema_refuses_every_non_lexical_rejection(case: Case) -> None:
    assert not VALIDATOR.is_valid(parse_json(case.input))


# --- the expectations against the reference producer ---------------------------------


NODE = shutil.which("node")


@needs("node")  # the reference producer is JSON.stringify
def test_expected_bytes_are_json_stringify_output() -> None:
    r = subprocess.run(
        [str(NODE), str(ROOT / "conformance" / "tools" / "reference_producer.mjs")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    checked = int(r.stdout.strip().splitlines()[-1].split()[0])
    assert checked >= 600, r.stdout


@needs("node")
def test_reference_check_has_teeth(tmp_path: Path) -> None:
    """A one-byte change to an expected line, outside and inside a verbatim value, is caught."""
    src = ROOT / "conformance"
    (tmp_path / "cases").mkdir()
    for f in (src / "cases").iterdir():
        (tmp_path / "cases" / f.name).symlink_to(f)
    exp = tmp_path / "cases" / "canonicalization.expected.jsonl"
    lines = exp.read_bytes().split(b"\n")
    lines[0] = lines[0].replace(b'"timestamp"', b'"timestamP"', 1)
    exp.unlink()
    exp.write_bytes(b"\n".join(lines))
    (tmp_path / "manifest.json").symlink_to(src / "manifest.json")
    r = subprocess.run(
        [
            str(NODE),
            str(src / "tools" / "reference_producer.mjs"),
            str(tmp_path),
            str(ROOT / "schema" / "omnimessage.schema.json"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 1 and "canonicalization." in r.stdout, r.stdout[-2000:]


# --- the loader refuses malformed suites -------------------------------------------


def _write_suite(tmp_path: Path, cases: list[dict[str, object]], lines: bytes = b"") -> Path:
    (tmp_path / "cases").mkdir(exist_ok=True)
    (tmp_path / "cases" / "x.jsonl").write_bytes(lines)
    (tmp_path / "manifest.json").write_text(
        json.dumps({"suite_version": SUITE_VERSION, "schema_id": "x", "protocol_version": 1, "groups": {}, "cases": cases})
    )
    return tmp_path


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ({"id": "Bad id!", "group": "roundtrip"}, "id must match"),
        ({"id": "roundtrip.a", "group": "nope"}, "unknown group"),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"file": "cases/x.jsonl", "line": 9}}, "has no line 9"),
        (
            {"id": "roundtrip.a", "group": "roundtrip", "input": {"file": "../../etc/passwd.jsonl", "line": 1}},
            "outside",
        ),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"base64": "!!"}}, "invalid base64"),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"base64": "e30Ke30K"}}, "more than one line"),
        (
            {"id": "roundtrip.a", "group": "roundtrip", "input": {"base64": "e30K"}, "expect": {"kind": "x"}},
            "expect.kind",
        ),
        (
            {"id": "roundtrip.a", "group": "roundtrip", "input": {"base64": "e30K"}, "expect": {"kind": "reject"}},
            "category",
        ),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"parts": []}}, "non-empty list"),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"parts": [{"text": "{", "base64": "e30K"}]}}, "a part is"),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"parts": [{"text": "[", "repeat": 0}]}}, "positive"),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"parts": [{"text": "\ud800"}]}}, "lone surrogate"),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"parts": [{"base64": "!!"}]}}, "invalid base64"),
        (
            {"id": "roundtrip.a", "group": "roundtrip", "input": {"parts": [{"text": "[", "repeat": 1 << 40}]}},
            "more than",
        ),
        ({"id": "roundtrip.a", "group": "roundtrip", "input": {"parts": [{"text": "{}\n{}\n"}]}}, "more than one line"),
    ],
)
def test_loader_refuses_malformed_cases(tmp_path: Path, case: dict[str, object], message: str) -> None:
    with pytest.raises(SuiteError, match=message):
        load_suite(_write_suite(tmp_path, [case], b"{}\n"))


def test_loader_splits_fixture_files_on_lf_only(tmp_path: Path) -> None:
    line = '{"a":"\u2028\x0c"}\n'.encode()
    root = _write_suite(
        tmp_path,
        [
            {
                "id": "roundtrip.b",
                "group": "roundtrip",
                "input": {"file": "cases/x.jsonl", "line": 2},
                "expect": {"kind": "identical"},
                "level": "required",
            },
        ],
        b"{}\n" + line,
    )
    (case,) = load_suite(root).cases
    assert case.input == line and case.output == line[:-1]


def test_loader_expands_compact_parts(tmp_path: Path) -> None:
    c = {
        "id": "rejection.a",
        "group": "rejection",
        "input": {"parts": [{"text": '{"a":'}, {"text": "[", "repeat": 3}, {"base64": "XV0="}, {"text": "]}\n"}]},
        "expect": {"kind": "canonical", "output": {"parts": [{"text": "ab", "repeat": 2}]}},
        "level": "required",
    }
    (case,) = load_suite(_write_suite(tmp_path, [c])).cases
    assert case.input == b'{"a":[[[]]]}\n' and case.output == b"abab" and case.source == "parts"


def test_huge_hostile_cases_are_compact_in_the_manifest() -> None:
    manifest = (ROOT / "conformance" / "manifest.json").read_bytes()
    assert len(manifest) < 1 << 20
    huge = [c for c in SUITE.cases if c.source == "parts"]
    assert len(huge) >= 30 and all("hostile" in c.tags for c in huge)
    assert max(len(c.input) for c in huge) >= 10**6


def test_loader_refuses_duplicate_ids_and_other_major_versions(tmp_path: Path) -> None:
    c = {"id": "roundtrip.a", "group": "roundtrip", "input": {"base64": "e30K"}, "expect": {"kind": "identical"},
         "level": "required"}
    with pytest.raises(SuiteError, match="duplicate case id"):
        load_suite(_write_suite(tmp_path, [c, c]))
    doc = json.loads((tmp_path / "manifest.json").read_text())
    doc["suite_version"] = "1.4.0"  # another major version: its expectations differ
    (tmp_path / "manifest.json").write_text(json.dumps(doc))
    with pytest.raises(SuiteError, match="not readable"):
        load_suite(tmp_path)
