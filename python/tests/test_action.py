"""The GitHub Action (action.yml): its steps run here as a runner would run them (action_harness),
against a good and a bad trace, and a good and a broken implementation for the conformance suite.

The install step (`pip install` of the action's checkout into a fresh venv) needs the network and a
build backend; here `install: false` skips it and the dev venv's `omnimessage` is on PATH.
"""

from __future__ import annotations

import json
import shutil
import stat
import sys
from pathlib import Path

import pytest
from action_harness import DEV_BIN, ROOT, load_action, run_action

EXAMPLES = ROOT / "examples"
NO_INSTALL = {"install": "false"}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    shutil.copy(EXAMPLES / "trace.jsonl", tmp_path / "good.jsonl")
    shutil.copy(EXAMPLES / "broken-stream.jsonl", tmp_path / "bad.jsonl")
    shutil.copy(EXAMPLES / "stream.jsonl", tmp_path / "stream.jsonl")
    return tmp_path


def _recording_shim(tmp_path: Path) -> tuple[Path, Path]:
    """A directory with an `omnimessage` that logs its arguments, then runs the real one."""
    shim_dir, log = tmp_path / "shim", tmp_path / "argv.log"
    shim_dir.mkdir()
    shim = shim_dir / "omnimessage"
    shim.write_text(f'#!/bin/bash\nprintf "%s\\n" "$*" >> "{log}"\nexec "{DEV_BIN / "omnimessage"}" "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    return shim_dir, log


def test_action_declares_a_composite_with_the_install_step_first() -> None:
    action = load_action()
    assert action["runs"]["using"] == "composite"
    first = action["runs"]["steps"][0]
    assert first["if"] == "inputs.install == 'true'"
    assert "pip install" in first["run"] and "$ACTION_PATH" in first["run"]
    assert first["env"]["ACTION_PATH"] == "${{ github.action_path }}"
    uses = [s["uses"] for s in action["runs"]["steps"] if "uses" in s]
    assert uses == ["github/codeql-action/upload-sarif@v3"]


def test_validate_a_good_trace_passes_without_annotations(workspace: Path) -> None:
    run = run_action({**NO_INSTALL, "paths": "good.jsonl"}, workspace)
    assert run.rc == 0, run.steps
    assert not run.step("Install omnimessage").ran
    assert "::error" not in run.stdout and "::warning" not in run.stdout
    assert run.outputs["exit-code"] == "0"
    assert not run.step("Conformance suite").ran


def test_validate_a_bad_stream_annotates_uploads_sarif_and_fails(workspace: Path) -> None:
    run = run_action({**NO_INSTALL, "paths": "bad.jsonl", "profile": "stream", "sarif": "true",
                      "sarif-file": "out/results.sarif"}, workspace)
    assert run.rc == 1
    validate = run.step("Validate")
    assert validate.rc == 0  # the verdict comes last, after the upload
    assert "::error file=bad.jsonl,line=" in validate.stdout
    assert run.outputs == {"exit-code": "1", "sarif-file": "out/results.sarif", "junit-file": ""}
    sarif = json.loads((workspace / "out" / "results.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    assert sarif["runs"][0]["results"], "the SARIF report has no result"
    upload = run.step("Upload SARIF to code scanning")
    assert upload.uses.startswith("github/codeql-action/upload-sarif@")
    assert upload.with_["sarif_file"] == "out/results.sarif"
    assert run.step("Verdict").rc == 1


def test_validate_passes_profile_legacy_lenient_and_args(workspace: Path) -> None:
    shim_dir, log = _recording_shim(workspace)
    run = run_action({**NO_INSTALL, "paths": "stream.jsonl good.jsonl", "profile": "stream", "legacy": "true",
                      "lenient": "true", "args": "--ignore OM7"}, workspace, path_prefix=[shim_dir])
    argv = log.read_text().splitlines()
    assert argv == ["validate --no-progress --ignore OM7 --profile stream --legacy --lenient --format github "
                    "stream.jsonl good.jsonl"]
    assert run.rc == 1  # the stored trace is no stream: its session_meta is refused (OM3xx) in the stream profile
    run = run_action({**NO_INSTALL, "paths": "stream.jsonl", "profile": "stream"}, workspace)
    assert run.rc == 0


def test_validate_a_missing_path_is_a_usage_error(workspace: Path) -> None:
    run = run_action({**NO_INSTALL, "paths": "nothing-here.jsonl"}, workspace)
    assert run.rc == 2
    assert run.outputs["exit-code"] == "2"


def test_unknown_command_fails(workspace: Path) -> None:
    run = run_action({**NO_INSTALL, "command": "lint"}, workspace)
    assert run.rc == 2
    assert "unknown command 'lint'" in run.step("Verdict").stdout


@pytest.mark.parametrize(
    ("impl", "rc", "failures"),
    [("python", 0, False), (f"{sys.executable} -m omnimessage.conformance.mutants keys-sorted", 1, True)],
    ids=["python", "mutant"],
)
def test_conformance_writes_junit(workspace: Path, impl: str, rc: int, failures: bool) -> None:
    run = run_action({**NO_INSTALL, "command": "conformance", "impl": impl, "junit": "reports/conf.xml",
                      "args": "--category canonicalization"}, workspace)
    assert run.rc == rc, run.step("Conformance suite")
    assert not run.step("Validate").ran
    assert not run.step("Upload SARIF to code scanning").ran
    assert run.outputs["junit-file"] == "reports/conf.xml"
    junit = (workspace / "reports" / "conf.xml").read_text()
    assert "<testcase" in junit
    assert ("<failure" in junit) == failures


def test_conformance_without_impl_is_a_usage_error(workspace: Path) -> None:
    run = run_action({**NO_INSTALL, "command": "conformance"}, workspace)
    assert run.rc == 2
    assert "needs the input impl" in run.stdout
