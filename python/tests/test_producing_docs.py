"""docs/producing.md: the Python producer runs as written and what it leaves validates with no
finding (the TypeScript producer runs in test_npm_package.py, against the packed package)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

DOC = ROOT / "docs" / "producing.md"


def doc_block(lang: str) -> str:
    (block,) = re.findall(rf"^```{lang}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.S | re.M)
    return block


def assert_clean_output(cwd: Path) -> None:
    """The producer left one trace file and a stream; both validate with zero findings."""
    (trace,) = (cwd / "traces").rglob("*.jsonl")
    assert re.fullmatch(r"session-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d-[0-9a-f]{8}_001\.jsonl", trace.name)
    exe = Path(sys.executable).with_name("omnimessage")
    for args in (["traces"], ["--profile", "stream", "stream.jsonl"]):
        res = subprocess.run([str(exe), "validate", "--no-progress", *args], cwd=cwd, capture_output=True,
                             text=True, timeout=120, check=False)
        assert res.returncode == 0 and "0 error(s), 0 warning(s)" in res.stdout, res.stdout + res.stderr
    assert (cwd / "stream.jsonl").read_bytes().count(b"\n") == 8  # request_begin, 4 fragments, text, usage, end


def test_python_producer_runs(tmp_path: Path) -> None:
    code = doc_block("python")
    assert len(code.splitlines()) <= 22
    res = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         check=False)
    assert res.returncode == 0, res.stderr
    assert_clean_output(tmp_path)
    (trace,) = (tmp_path / "traces").rglob("*.jsonl")
    assert len(trace.read_bytes().splitlines()) == 6  # meta, input, request_begin, text, usage, end
