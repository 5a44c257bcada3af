"""`omnimessage schema diff` in CI (issue 34): `--format github` (annotations), `--format junit`
(a test case per change), and `--against-ref REF` (the schema as committed at a git ref against the
working copy, read with `git show`); hostile names and refs are sanitised, never run."""

from __future__ import annotations

import copy
import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from conftest import needs
from test_schema_diff import BASE

from omnimessage.cli.main import main

EVIL = "x\n::error::forged\x1b[2J"


def _write(path: Path, doc: dict[str, Any]) -> str:
    path.write_text(json.dumps(doc))
    return str(path)


def _pair(tmp_path: Path) -> tuple[str, str]:
    new = copy.deepcopy(BASE)
    new["$defs"]["Stop"]["enum"].append("retryable")  # reader-breaking
    new["$defs"]["Begin"]["properties"]["hash"] = {"type": "string"}  # compatible
    new["$defs"]["Begin"]["properties"][EVIL] = {"type": "string"}  # compatible, hostile name
    return _write(tmp_path / "old.json", BASE), _write(tmp_path / "new.json", new)


def test_format_github_annotates_each_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _pair(tmp_path)
    assert main(["schema", "diff", "--format", "github", old, new]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(ln.startswith("::") for ln in lines), out  # no forged line: every line is one of ours
    errors = [ln for ln in lines if ln.startswith("::error ")]
    assert errors == ["::error title=schema diff%3A reader-breaking::value 'retryable' added (Stop)"]
    assert sum(ln.startswith("::notice title=schema diff%3A compatible::") for ln in lines) == 2
    assert "\x1b" not in out and lines[-1].startswith("::notice title=schema diff::")
    assert "3 change(s): 1 reader-breaking, 0 writer-breaking, 2 compatible" in lines[-1]
    assert main(["schema", "diff", "--format", "github", "--allow", "reader-breaking", old, new]) == 0
    allowed = capsys.readouterr().out
    assert not any(ln.startswith("::error") for ln in allowed.splitlines())
    assert "reader-breaking (allowed)" in allowed


def test_format_junit_has_a_case_per_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _pair(tmp_path)
    assert main(["schema", "diff", "--format", "junit", old, new]) == 1
    root = ET.fromstring(capsys.readouterr().out.split("\n", 1)[1])
    cases = root.findall(".//testcase")
    assert len(cases) == 3 and root.get("failures") == "1"
    failing = [c for c in cases if c.find("failure") is not None]
    assert [c.get("name") for c in failing] == ["value 'retryable' added (Stop)"]
    assert failing[0].find("failure").get("type") == "reader-breaking"  # type: ignore[union-attr]
    assert all("\x1b" not in (c.get("name") or "") and "\n" not in (c.get("name") or "") for c in cases)
    assert main(["schema", "diff", "--format", "junit", old, old]) == 0
    same = ET.fromstring(capsys.readouterr().out.split("\n", 1)[1])
    assert [c.get("name") for c in same.findall(".//testcase")] == ["no changes"]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=repo, check=True,
                   capture_output=True, timeout=60)


@needs("git")
def test_against_ref_diffs_the_committed_schema_with_the_working_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "repo"
    (repo / "schema").mkdir(parents=True)
    schema = repo / "schema" / "s.json"
    _write(schema, BASE)
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    changed = copy.deepcopy(BASE)
    changed["$defs"]["Stop"]["enum"].remove("failed")  # writer-breaking, uncommitted
    _write(schema, changed)
    monkeypatch.chdir(repo / "schema")  # the path is relative to the working directory, as git show ./ reads it
    assert main(["schema", "diff", "--against-ref", "HEAD", "s.json"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("schema diff HEAD:s.json -> s.json: 1 change(s)")
    assert "value 'failed' removed (Stop)" in out
    _git(repo, "commit", "-q", "-am", "remove failed")
    assert main(["schema", "diff", "--against-ref", "HEAD", "s.json"]) == 0
    assert "0 change(s)" in capsys.readouterr().out
    assert main(["schema", "diff", "--against-ref", "HEAD~1", "--format", "json", "s.json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert (doc["old"], doc["new"], len(doc["changes"])) == ("HEAD~1:s.json", "s.json", 1)


@needs("git")
@pytest.mark.parametrize(
    ("ref", "path", "message"),
    [
        ("--output=/tmp/x", "s.json", "is not a git ref"),
        ("HEAD..main", "s.json", "is not a git ref"),
        ("no-such-branch", "s.json", "git show no-such-branch:s.json: fatal:"),
        ("HEAD", "missing.json", "git show HEAD:missing.json: fatal:"),
        ("HEAD\x1b[2J", "s.json", "is not a git ref"),
    ],
)
def test_against_ref_refuses_what_it_cannot_read_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, ref: str, path: str,
    message: str,
) -> None:
    _write(tmp_path / "s.json", BASE)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "base")
    monkeypatch.chdir(tmp_path)
    assert main(["schema", "diff", f"--against-ref={ref}", path]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "\x1b" not in err, err


@needs("git")
def test_against_ref_refuses_a_committed_file_that_is_no_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "s.json").write_text("[1, 2]")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "not a schema")
    _write(tmp_path / "s.json", BASE)
    monkeypatch.chdir(tmp_path)
    assert main(["schema", "diff", "--against-ref", "HEAD", "s.json"]) == 2
    err = capsys.readouterr().err
    assert "HEAD:s.json: not a JSON Schema with $defs" in err and "omnimessage-schema-" not in err


@needs("git")
def test_the_ci_doc_recipe_runs(tmp_path: Path) -> None:
    """docs/ci.md, "Schema changes": both commands, in a clone whose working schema breaks a reader."""
    import re
    import sys

    from conftest import ROOT

    block = re.search(r"^```shell\n(.*?)^```$", (ROOT / "docs" / "ci.md").read_text(), re.S | re.M)
    assert block is not None
    repo = tmp_path / "repo"
    (repo / "schema").mkdir(parents=True)
    _write(repo / "schema" / "omnimessage.schema.json", BASE)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    new = copy.deepcopy(BASE)
    new["$defs"]["Stop"]["enum"].append("retryable")
    _write(repo / "schema" / "omnimessage.schema.json", new)
    omnimessage = f"{sys.executable} -m omnimessage"
    outputs = []
    for line in block.group(1).strip().splitlines():
        proc = subprocess.run(line.replace("omnimessage", omnimessage, 1), shell=True, cwd=repo, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == 1, proc.stderr
        outputs.append(proc.stdout)
    assert "::error title=schema diff%3A reader-breaking::value 'retryable' added (Stop)\n" in outputs[0]
    report = ET.parse(repo / "schema-diff.xml").getroot()
    assert report.get("failures") == "1"
