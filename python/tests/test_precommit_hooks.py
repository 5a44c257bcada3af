"""The pre-commit hooks (.pre-commit-hooks.yaml): each hook's entry, with its args, run as pre-commit
runs it (the entry split like a shell, then the staged file names) on a good and a bad file."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

HOOKS = ROOT / ".pre-commit-hooks.yaml"
EXAMPLES = ROOT / "examples"


def _hooks() -> dict[str, dict[str, object]]:
    return {h["id"]: h for h in yaml.safe_load(HOOKS.read_text(encoding="utf-8"))}


def _run_hook(hook: dict[str, object], files: list[Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    argv = shlex.split(str(hook["entry"])) + [str(a) for a in hook.get("args", [])]  # type: ignore[attr-defined]
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    return subprocess.run(argv + [f.name for f in files], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "good.jsonl"
    shutil.copy(EXAMPLES / "trace.jsonl", good)
    loose = tmp_path / "loose.jsonl"  # valid, but not canonical: spaces after separators
    loose.write_text("".join(json.dumps(json.loads(line)) + "\n" for line in good.read_text().splitlines()[:3]))
    invalid = tmp_path / "invalid.jsonl"
    shutil.copy(EXAMPLES / "invalid.jsonl", invalid)
    return {"good": good, "loose": loose, "invalid": invalid}


def test_hooks_are_python_hooks_on_jsonl_files() -> None:
    hooks = _hooks()
    assert set(hooks) == {"omnimessage-canonicalize", "omnimessage-canonicalize-fix", "omnimessage-validate"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert str(hook["entry"]).startswith("omnimessage ")
        pattern = re.compile(str(hook["files"]))
        assert pattern.search("traces/2026-07-18/s_001.jsonl")
        assert not pattern.search("package.json") and not pattern.search("x.jsonl.gz")
    assert "--check" in shlex.split(str(hooks["omnimessage-canonicalize"]["entry"]))


@pytest.mark.parametrize(("name", "rc"), [("good", 0), ("loose", 1), ("invalid", 1)])
def test_canonicalize_hook(files: dict[str, Path], name: str, rc: int) -> None:
    before = files[name].read_bytes()
    proc = _run_hook(_hooks()["omnimessage-canonicalize"], [files[name]], files[name].parent)
    assert proc.returncode == rc, proc.stderr
    assert proc.stdout == ""  # --check writes nothing
    assert files[name].read_bytes() == before
    if name == "loose":
        assert "loose.jsonl:1: not canonical" in proc.stderr
        # the first difference, shown: where, and the file's bytes against the canonical ones
        assert "  first difference at byte 13 (file " in proc.stderr
        assert '    file:      {"timestamp": "' in proc.stderr and '    canonical: {"timestamp":"' in proc.stderr
        assert proc.stderr.count("first difference") == 1  # once a run: the other lines are named
        assert "loose.jsonl:3: not canonical" in proc.stderr


@pytest.mark.parametrize(("name", "rc"), [("good", 0), ("loose", 1), ("invalid", 1)])
def test_canonicalize_fix_hook(files: dict[str, Path], name: str, rc: int) -> None:
    hook = _hooks()["omnimessage-canonicalize-fix"]
    assert hook["args"] == ["--"]  # file names after it: a file named like an option stays a file name
    before = files[name].read_bytes()
    proc = _run_hook(hook, [files[name]], files[name].parent)
    after = files[name].read_bytes()
    if name == "good":
        assert proc.returncode == 0 and after == before
    elif name == "loose":  # rewritten: pre-commit fails the hook because the file changed, and shows it
        assert after != before and proc.returncode == 0, proc.stderr
        assert after.decode().splitlines() == [json.dumps(json.loads(x), separators=(",", ":"), ensure_ascii=False)
                                               for x in before.decode().splitlines()]
        again = _run_hook(_hooks()["omnimessage-canonicalize"], [files[name]], files[name].parent)
        assert again.returncode == 0, again.stderr  # the report-only hook is satisfied now
    else:  # invalid lines: never rewritten, and the hook fails
        assert proc.returncode == rc and after == before
        assert "left unchanged" in proc.stderr


@pytest.mark.parametrize(("name", "rc"), [("good", 0), ("invalid", 1)])
def test_validate_hook(files: dict[str, Path], name: str, rc: int) -> None:
    proc = _run_hook(_hooks()["omnimessage-validate"], [files[name]], files[name].parent)
    assert proc.returncode == rc, proc.stdout + proc.stderr
    assert ("FAILED" in proc.stdout) == bool(rc)


def test_validate_hook_with_stream_args(files: dict[str, Path], tmp_path: Path) -> None:
    stream = tmp_path / "stream.jsonl"
    shutil.copy(EXAMPLES / "stream.jsonl", stream)
    hook = {**_hooks()["omnimessage-validate"], "args": ["--profile", "stream", "--"]}
    assert _run_hook(hook, [stream], tmp_path).returncode == 0
    assert _run_hook(_hooks()["omnimessage-validate"], [stream], tmp_path).returncode == 1
