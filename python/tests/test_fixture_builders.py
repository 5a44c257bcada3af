"""The builders of the committed fixtures: `conformance/validator/build.py` (the validator's rule
fixtures) and `conformance/producers/build.py` (the producer corpus). Their output is committed, so
each one has `--check`: a fresh build compared with a folder, red when a file differs, is missing,
or is committed but no longer written by the builder. `make check-generated` runs both on the
checkout (in `make test`, before pytest); here they run on copies with one file made stale."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = ROOT / "conformance" / "validator"
PRODUCERS = ROOT / "conformance" / "producers"
BUILDER_FILES = {"build.py", "README.md", "fixture_builder", "corpus_builder", "__pycache__"}
"""What lives beside the fixtures but is not written by the builder."""

BUILDERS = {"validator": VALIDATOR, "producers": PRODUCERS}


def _check(folder: Path, out: Path | None = None) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, str(folder / "build.py"), "--check", *(["--out", str(out)] if out else [])]
    return subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)


def _copy_output(folder: Path, dest: Path) -> Path:
    """The committed output of a builder, without the builder itself."""
    shutil.copytree(folder, dest, ignore=lambda d, names: [n for n in names if Path(d) == folder and n in BUILDER_FILES])
    return dest


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_check_finds_changed_missing_and_leftover_files(name: str, tmp_path: Path) -> None:
    out = _copy_output(BUILDERS[name], tmp_path / name)
    assert _check(BUILDERS[name], out).returncode == 0, "the copy should be fresh"
    files = sorted(p for p in out.rglob("*") if p.is_file())
    changed, removed = files[0], files[-1]
    changed.write_bytes(changed.read_bytes() + b" ")
    removed.unlink()
    leftover = out / files[len(files) // 2].relative_to(out).parent / "no-longer-written.jsonl"
    leftover.write_bytes(b"{}\n")
    res = _check(BUILDERS[name], out)
    assert res.returncode == 1, res.stdout + res.stderr
    for path in (changed, removed, leftover):
        assert str(path) in res.stdout, (path, res.stdout)
