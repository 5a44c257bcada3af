"""The README's install commands, run as written on a fresh virtual environment: Python's bundled
pip, upgraded by the README's own command, then `pip install "omnimessage[codegen] @ git+$REPO"`
with `$REPO` this repository (a `git+file://` URL of the committed HEAD). The old pip's refusal,
which the README warns about, is checked too, so the warning cannot go stale. pip and the
dependencies come from PyPI (or pip's cache)."""

from __future__ import annotations

import os
import re
import subprocess
import venv
from pathlib import Path

import pytest
from conftest import ROOT

README = (ROOT / "README.md").read_text("utf-8")
UPGRADE = 'python -m pip install --upgrade "pip>=24.1"'
GIT_EXTRA = 'pip install "omnimessage[codegen] @ git+$REPO"'


def _version(pip: Path) -> tuple[int, ...]:
    out = subprocess.run([str(pip), "--version"], capture_output=True, text=True, check=True).stdout
    return tuple(int(x) for x in out.split()[1].split(".")[:2])


def _sh(cmd: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", cmd], env=env, cwd=cwd, capture_output=True, text=True, timeout=600)


def test_the_readme_install_commands_work_on_a_fresh_venv(tmp_path: Path) -> None:
    assert UPGRADE in README and GIT_EXTRA in README and "pip 24.1 or newer" in README
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    repo = f"git+file://{ROOT}@{head.stdout.strip()}".removeprefix("git+")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bindir = env_dir / "bin"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env.update(PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}", REPO=repo, PIP_DISABLE_PIP_VERSION_CHECK="1")
    cmd = GIT_EXTRA
    if _version(bindir / "pip") < (24, 1):  # what the README warns about, seen
        old = _sh(cmd, env, tmp_path)
        assert old.returncode != 0 and "Invalid requirement" in old.stdout + old.stderr, old.stdout + old.stderr
    for step in (UPGRADE, cmd, "omnimessage --version", "python -c 'import jinja2, omnimessage'"):
        r = _sh(step, env, tmp_path)
        assert r.returncode == 0, f"{step}\n{r.stdout}\n{r.stderr}"
    assert _version(bindir / "pip") >= (24, 1)
    where = _sh("python -c 'import omnimessage; print(omnimessage.__file__)'", env, tmp_path).stdout
    assert where.startswith(str(env_dir)), where  # installed from Git into the venv, not this checkout
    assert re.fullmatch(r"omnimessage \S+\ncodec: (native accelerator|pure Python) .*\n", _sh("omnimessage --version", env, tmp_path).stdout)


@pytest.mark.parametrize("doc", ["README.md", "docs/scale.md", "docs/storage.md", "docs/ci.md"])
def test_no_doc_installs_from_a_registry_that_has_no_release(doc: str) -> None:
    text = (ROOT / doc).read_text("utf-8")
    for m in re.finditer(r"^\s*(?:- (?:run: )?)?pip install ([^\n`]*)", text, re.M):  # commands, not messages quoted
        args = m.group(1)
        for word in re.findall(r"""['"]?(omnimessage(?:\[[^\]]*\])?(?:==[^\s'"]*)?)['"]?(?=\s|$|['"])""", args):
            assert "@" in args or args.startswith(("./", "-e", ".")), f"{doc}: `pip install {args}` ({word})"
    assert "==X.Y.Z" not in text
