"""The GitHub Action (action.yml): its steps run here as a runner would run them (action_harness),
against a good and a bad trace, and a good and a broken implementation for the conformance suite.

Most tests skip the install step (`install: false`) and use the dev venv's `omnimessage`. The install
step itself runs in `test_install_step_*`: `pip install` of the checkout (built from the local path by
its build backend) into a fresh venv under `$RUNNER_TEMP`, outside the tree, with only that venv's
`omnimessage` on PATH afterwards. pip reads a wheelhouse built once per module (the build backend,
msgspec, jinja2: `pip wheel`, from PyPI or pip's cache) with `--no-index`, so the step itself needs
no network.
"""

from __future__ import annotations

import json
import shutil
import stat
import subprocess
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


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory, omnimessage_wheel: Path) -> Path:
    """Wheels of everything the install step needs: the build backend and the dependencies (the
    pinned versions of constraints.txt, resolved from the session's wheel: no second build);
    omnimessage's own wheel is removed, the step builds it."""
    house = tmp_path_factory.mktemp("wheelhouse")
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "-c",
         str(ROOT / "constraints.txt"), "-w", str(house), f"{omnimessage_wheel}[codegen]", "hatchling>=1.24",
         "setuptools>=68"],
        capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    for own in house.glob("omnimessage-*.whl"):
        own.unlink()
    return house


def _offline(house: Path) -> dict[str, str]:
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(house), "PIP_NO_CACHE_DIR": "1"}


def test_install_step_installs_the_checkout_into_a_fresh_venv(workspace: Path, wheelhouse: Path) -> None:
    run = run_action({"paths": "bad.jsonl", "profile": "stream"}, workspace, extra_env=_offline(wheelhouse),
                     installed_only=True)
    install = run.step("Install omnimessage")
    assert install.ran and install.rc == 0, install.stderr
    venv = workspace / ".runner-temp" / "omnimessage-venv"
    assert (workspace / ".runner-temp" / "github_path").read_text().splitlines() == [str(venv / "bin")]
    # the venv's own omnimessage ran (no other is on PATH): annotations, exit status 1
    assert run.rc == 1 and run.outputs["exit-code"] == "1"
    assert "::error file=bad.jsonl,line=" in run.step("Validate").stdout
    py = venv / "bin" / "python"
    # installed from the checkout, not linked to it (an editable install would hide missing files)
    where = subprocess.run([str(py), "-c", "import omnimessage, sys; print(omnimessage.__file__)"],
                           capture_output=True, text=True, cwd=workspace, check=True).stdout.strip()
    assert where.startswith(str(venv)), where
    frozen = subprocess.run([str(py), "-m", "pip", "list", "--format=freeze"], capture_output=True, text=True,
                            check=True).stdout.lower()
    assert "msgspec==" in frozen and "jinja2" not in frozen  # the dependency came with it; no extra asked
    good = subprocess.run([str(venv / "bin" / "omnimessage"), "validate", "good.jsonl"], capture_output=True,
                          text=True, cwd=workspace)
    assert good.returncode == 0, good.stdout + good.stderr


def test_install_step_with_extras(workspace: Path, wheelhouse: Path) -> None:
    run = run_action({"extras": "codegen", "command": "conformance", "impl": "python", "args": "--category roundtrip"},
                     workspace, extra_env=_offline(wheelhouse), installed_only=True)
    assert run.step("Install omnimessage").rc == 0, run.step("Install omnimessage").stderr
    assert run.rc == 0, run.step("Conformance suite")
    py = workspace / ".runner-temp" / "omnimessage-venv" / "bin" / "python"
    r = subprocess.run([str(py), "-c", "import jinja2, omnimessage_codegen"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


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
    summary = workspace / ".runner-temp" / "step_summary.md"
    assert argv == ["validate --no-progress --ignore OM7 --profile stream --legacy --lenient --max-annotations 10 "
                    f"--summary {summary} --format github -- stream.jsonl good.jsonl"]
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
    [("python", 0, False), (f"{sys.executable} -m omnimessage_dev.mutants keys-sorted", 1, True)],
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
