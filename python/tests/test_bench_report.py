"""The committed benchmark chart says which run it shows (bench/report.py): the commit measured,
its day when recorded, that the numbers are that commit's; and it is re-rendered from results.json
without measuring (`python -m bench.report`), so a caption is never stale against its data."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("bench_report", ROOT / "bench" / "report.py")  # bench/ is no package
assert _spec is not None and _spec.loader is not None
report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(report)
caption, main = report.caption, report.main

RESULTS = ROOT / "bench" / "results.json"


def test_the_caption_names_the_measured_run() -> None:
    doc = json.loads(RESULTS.read_text())
    text = caption(doc)
    assert f"make bench run at commit {doc['commit']}" in text and "that commit's numbers" in text
    assert "rerun make bench" in text
    assert " on 2026-12-01 " in caption({**doc, "date": "2026-12-01"})


def test_results_md_and_chart_render_from_the_committed_results(tmp_path: Path) -> None:
    shutil.copy(RESULTS, tmp_path / "results.json")
    assert main([str(tmp_path / "results.json")]) == 0
    assert (tmp_path / "throughput.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "RESULTS.md").read_text() == (ROOT / "bench" / "RESULTS.md").read_text()  # in step
