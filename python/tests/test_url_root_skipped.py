"""A URL trace root reports every entry it does not validate (OM806), as a plain directory does
(issue 23): `file://` links (to a file, to a directory: not followed, nothing below listed), FIFOs,
and keys with an empty path segment (`memory://`, object stores). They used to vanish: exit 0."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from omnimessage.validate import validate_archive

pytest.importorskip("fsspec")
ROOT = Path(__file__).resolve().parents[2]


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    day = root / "2026-07-18"
    day.mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "trace.jsonl", day / "s_001.jsonl")
    os.mkfifo(day / "f_001.jsonl")
    (day / "z_001.jsonl").symlink_to("/dev/zero")
    target = tmp_path / "elsewhere"
    target.mkdir()
    shutil.copy(ROOT / "examples" / "invalid.jsonl", target / "x.jsonl")
    (root / "linked").symlink_to(target)
    (root / "notes.txt").symlink_to(day / "s_001.jsonl")  # a link not named *.jsonl to a file: ignored
    return root


def _om806(args: list[str]) -> tuple[int, list[str]]:
    proc = subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--no-progress", "--color", "never",
                           "--", *args], capture_output=True, text=True, timeout=60)
    return proc.returncode, sorted(ln.split(": OM806", 1)[0].rsplit("/", 1)[-1]
                                   for ln in proc.stdout.splitlines() if ": OM806 error" in ln)


def test_file_url_root_reports_what_a_directory_reports(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    local = _om806([str(root)])
    url = _om806([root.as_uri()])
    assert local == url == (1, ["f_001.jsonl", "linked", "z_001.jsonl"]), (local, url)


def test_an_empty_path_segment_is_reported() -> None:
    import fsspec

    fs = fsspec.filesystem("memory")
    fs.pipe("/om806/2026-07-18//s_001.jsonl", (ROOT / "examples" / "trace.jsonl").read_bytes())
    fs.pipe("/om806/ok.jsonl", (ROOT / "examples" / "trace.jsonl").read_bytes())
    try:
        report = validate_archive("memory://om806/")
    finally:
        fs.rm("/om806", recursive=True)
    skipped = [f for f in report.findings if f.rule == "OM806"]
    assert not report.ok and len(skipped) == 1 and "empty path segment" in skipped[0].message
    assert skipped[0].path.endswith("2026-07-18//s_001.jsonl")
