"""docs/ci.md: every recipe runs, against a good workspace (passes) and a bad one (fails).

The fenced blocks are extracted and classified: GitHub workflows (`jobs:` with `steps:`; `run:` steps
run in bash, this action's `uses:` runs through action_harness, other actions are skipped), GitLab CI
(jobs with `script:`, each line run in bash), shell blocks (run in bash -e), the pre-commit config (its
hook ids exist). `pip install "omnimessage @ git+..."` lines are skipped: the dev venv's `omnimessage` is on PATH.
For speed a shim on PATH runs the conformance suite on one group (`--category canonicalization`);
everything else runs as written.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from action_harness import DEV_BIN, ROOT, run_action

DOC = ROOT / "docs" / "ci.md"
EXAMPLES = ROOT / "examples"
SESSION = "session-2026-07-18-03-10-09-1a2b3c4d"
_FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)
_OUR_ACTION = re.compile(r"^OWNER/omnimessage@")
REPO = "https://github.com/OWNER/omnimessage"


def _blocks(lang: str) -> list[str]:
    return [body for kind, body in _FENCE.findall(DOC.read_text(encoding="utf-8")) if kind == lang]


def _yaml_blocks() -> list[dict[str, Any]]:
    return [yaml.safe_load(b) for b in _blocks("yaml")]


def _github_workflows() -> list[dict[str, Any]]:
    return [d for d in _yaml_blocks() if "jobs" in d]


def _gitlab_jobs() -> list[dict[str, Any]]:
    return [job for d in _yaml_blocks() if "jobs" not in d and "repos" not in d for job in d.values()]


def _shim(bin_dir: Path, name: str, extra: str) -> None:
    """`name` on PATH: runs the dev venv's `name`, adding `extra` when its first argument says so."""
    path = bin_dir / name
    path.write_text(f'#!/bin/bash\n{extra}\nexec "{DEV_BIN / name}" "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def _workspace(root: Path, good: bool) -> Path:
    """traces/ (a trace root), capture.jsonl (a stream), ./testee, known-failures.txt; good or bad."""
    day = root / "traces" / "2026-07-18"
    day.mkdir(parents=True)
    shutil.copy(EXAMPLES / ("trace.jsonl" if good else "invalid.jsonl"), day / f"{SESSION}_001.jsonl")
    shutil.copy(EXAMPLES / ("stream.jsonl" if good else "broken-stream.jsonl"), root / "capture.jsonl")
    impl = "-m omnimessage.conformance.testee" if good else "-m omnimessage_dev.mutants keys-sorted"
    testee = root / "testee"
    testee.write_text(f'#!/bin/bash\nexec "{sys.executable}" {impl}\n')
    testee.chmod(testee.stat().st_mode | stat.S_IEXEC)
    (root / "known-failures.txt").write_text("")
    shims = root / ".shims"
    shims.mkdir()
    _shim(shims, "omnimessage", 'if [ "$1" = conformance ]; then set -- "$@" --category canonicalization; fi')
    _shim(shims, "pytest", 'set -- "$@" --omnimessage-category canonicalization -p no:cacheprovider')
    return root


@pytest.fixture(params=[True, False], ids=["good", "bad"])
def ws(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, bool]:
    return _workspace(tmp_path, request.param), request.param


def _bash(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    env["PATH"] = os.pathsep.join([str(cwd / ".shims"), str(DEV_BIN), env.get("PATH", "")])
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _without_install(lines: list[str]) -> list[str]:
    kept = [line for line in lines if not line.startswith("pip install")]
    assert all(line == f'pip install "omnimessage @ git+{REPO}@v1"' for line in lines if line not in kept)
    return kept


def test_the_doc_has_every_kind_of_recipe() -> None:
    assert len(_github_workflows()) == 4
    assert len(_gitlab_jobs()) == 2
    assert len(_blocks("sh")) == 5
    configs = [d for d in _yaml_blocks() if "repos" in d]
    assert len(configs) == 1
    offered = {h["id"] for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    used = {h["id"] for repo in configs[0]["repos"] for h in repo["hooks"]}
    assert used and used <= offered


@pytest.mark.parametrize("index", range(5))
def test_shell_recipe(ws: tuple[Path, bool], index: int) -> None:
    root, good = ws
    block = _blocks("sh")[index]
    proc = _bash("\n".join(_without_install(block.strip().splitlines())), root)
    assert (proc.returncode == 0) == good, proc.stdout + proc.stderr
    for report in re.findall(r"(?:--junit|--junitxml) (\S+)", block):
        assert "<testcase" in (root / report).read_text()


@pytest.mark.parametrize("index", range(2))
def test_gitlab_job(ws: tuple[Path, bool], index: int) -> None:
    root, good = ws
    job = _gitlab_jobs()[index]
    rc = 0
    for line in _without_install(job["script"]):
        proc = _bash(line, root)
        rc = proc.returncode
        if rc:
            break
    assert (rc == 0) == good, proc.stdout + proc.stderr
    if good:
        assert "<testcase" in (root / job["artifacts"]["reports"]["junit"]).read_text()


@pytest.mark.parametrize("index", range(4))
def test_github_workflow(ws: tuple[Path, bool], index: int) -> None:
    root, good = ws
    workflow = _github_workflows()[index]
    for job in workflow["jobs"].values():
        failed = False
        for step in job["steps"]:
            uses = step.get("uses", "")
            if failed and "always()" not in str(step.get("if", "")):
                continue
            if _OUR_ACTION.match(uses):
                assert "install" not in step.get("with", {})
                inputs = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in step["with"].items()}
                run = run_action({**inputs, "install": "false"}, root, path_prefix=[root / ".shims"])
                failed = run.rc != 0
                if inputs.get("sarif") == "true":
                    assert (root / run.outputs["sarif-file"]).is_file()
            elif uses.startswith("actions/upload-artifact@"):
                assert (root / step["with"]["path"]).is_file()
            elif uses:
                assert uses.split("@")[0] in {"actions/checkout", "actions/setup-python"}, uses
            else:
                for line in _without_install([step["run"]]):
                    failed = _bash(line, root).returncode != 0
        assert failed != good
