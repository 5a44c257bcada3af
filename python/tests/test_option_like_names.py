"""File names that read as options stay file names wherever the toolkit's integrations pass paths on
(issue 23): the pre-commit hooks (their real entries and args, the argv pre-commit builds: the entry
split like a shell, the args, then the file names), the GitHub Action's validate step (run as a
runner would, action_harness), and both command lines given `--`.

A committed `--output=victim.jsonl` used to make the validate hook truncate `victim.jsonl` and write
the report into it; `--dask=sched.jsonl`, beside a scheduler file naming a fake scheduler, made it
connect there."""

from __future__ import annotations

import json
import shlex
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from action_harness import run_action
from conftest import ROOT, needs
from fake_listener import connected as _connected
from fake_listener import listener

EXAMPLES = ROOT / "examples"
VICTIM = b"precious: not a report\n"


def _hooks() -> dict[str, dict[str, object]]:
    return {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}


def _pre_commit_argv(hook: dict[str, object], files: list[str]) -> list[str]:
    """The argv pre-commit runs: shlex.split(entry) + args + file names (pre_commit/lang_base.py)."""
    return shlex.split(str(hook["entry"])) + [str(a) for a in hook.get("args", [])] + files  # type: ignore[attr-defined]


@pytest.fixture
def scheduler() -> Iterator[socket.socket]:
    """A fake Dask scheduler on loopback: it listens and records whether anyone connected."""
    with listener() as s:
        yield s


@pytest.fixture
def repo(tmp_path: Path, scheduler: socket.socket) -> Path:
    """A checkout holding option-like file names beside what they would point at."""
    (tmp_path / "victim.jsonl").write_bytes(VICTIM)
    port = scheduler.getsockname()[1]
    (tmp_path / "sched.jsonl").write_text(json.dumps({"address": f"tcp://127.0.0.1:{port}"}) + "\n")
    for name in ("--output=victim.jsonl", "--dask=sched.jsonl", "--format=sarif.jsonl", "--out=victim.jsonl"):
        shutil.copy(EXAMPLES / "invalid.jsonl", tmp_path / name)
    return tmp_path


OPTION_LIKE = ["--output=victim.jsonl", "--dask=sched.jsonl", "--format=sarif.jsonl", "--out=victim.jsonl"]


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = Path(sys.executable).parent
    return subprocess.run([str(bin_dir / argv[0]), *argv[1:]], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("hook_id", ["omnimessage-validate", "omnimessage-canonicalize"])
def test_hooks_read_option_like_names_as_files(hook_id: str, repo: Path, scheduler: socket.socket) -> None:
    hook = _hooks()[hook_id]
    proc = _run(_pre_commit_argv(hook, [*OPTION_LIKE, "sched.jsonl"]), repo)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # invalid files, reported: not a usage error
    assert (repo / "victim.jsonl").read_bytes() == VICTIM
    assert not _connected(scheduler)
    said = proc.stdout + proc.stderr
    for name in OPTION_LIKE:
        assert name in said, said[-2000:]  # validated as the file it is


def test_hook_args_without_the_end_of_options_are_refused(repo: Path, scheduler: socket.socket) -> None:
    hook = {**_hooks()["omnimessage-validate"], "args": ["--profile", "stream"]}  # the user forgot `--`
    proc = _run(_pre_commit_argv(hook, OPTION_LIKE), repo)
    assert proc.returncode == 2 and "--pre-commit: the file names must follow `--`" in proc.stderr
    assert (repo / "victim.jsonl").read_bytes() == VICTIM and not _connected(scheduler)
    documented = {**hook, "args": ["--profile", "stream", "--"]}  # as .pre-commit-hooks.yaml and docs/ci.md say
    proc = _run(_pre_commit_argv(documented, OPTION_LIKE), repo)
    assert proc.returncode == 1 and "--output=victim.jsonl" in proc.stdout
    assert (repo / "victim.jsonl").read_bytes() == VICTIM and not _connected(scheduler)


@pytest.mark.parametrize("sarif", ["false", "true"])
def test_action_validate_step_reads_option_like_paths_as_files(sarif: str, repo: Path,
                                                                scheduler: socket.socket) -> None:
    run = run_action({"install": "false", "paths": " ".join(OPTION_LIKE), "sarif": sarif}, repo)
    assert run.outputs["exit-code"] == "1", run.step("Validate").stderr
    assert (repo / "victim.jsonl").read_bytes() == VICTIM and not _connected(scheduler)
    assert "--output=victim.jsonl" in run.step("Validate").stdout
    if sarif == "true":
        assert "--dask%3Dsched.jsonl" in (repo / "omnimessage.sarif").read_text()  # a URI reference


@needs("node")
def test_both_command_lines_end_options_with_double_dash(repo: Path) -> None:
    ts = ["node", str(ROOT / "typescript" / "bin" / "omnimessage.mjs")]
    py = [sys.executable, "-m", "omnimessage"]
    for cli in (py, ts):
        proc = subprocess.run([*cli, "canonicalize", "--check", "--", "--output=victim.jsonl"], cwd=repo,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 1 and "--output=victim.jsonl:1:" in proc.stderr, (cli, proc.stderr)
    proc = subprocess.run([*py, "validate", "--", "--output=victim.jsonl"], cwd=repo, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 1 and "--output=victim.jsonl" in proc.stdout
    assert (repo / "victim.jsonl").read_bytes() == VICTIM
