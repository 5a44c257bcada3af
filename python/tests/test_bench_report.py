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


def test_targets_are_judged_on_instructions_where_both_passes_were_counted(tmp_path: Path) -> None:
    """With callgrind's counts (bench/callgrind.py) in the results, a ratio of two counted passes is judged
    on them, whatever wall time said; a target with a side not counted stays on wall time."""
    doc = json.loads(RESULTS.read_text())
    doc.pop("callgrind", None)  # the committed run's own counts: replaced by made-up ones below
    label = "Python decode_validate vs msgspec-untyped (stream)"
    wall = next(r for r in report.target_rows(doc) if r[0] == label)
    assert wall[2] is None and wall[4] == "wall time"
    counted = [
        {"task": "decode_validate", "corpus": "stream", "impl": "omnimessage-python", "instructions": 1000,
         "per_line": 10},
        {"task": "decode_validate", "corpus": "stream", "impl": "msgspec-untyped", "instructions": 900, "per_line": 9},
        {"task": "decode_validate", "corpus": "stream", "impl": "omnimessage-typescript", "instructions": 4000,
         "per_line": 40},
        {"task": "decode_validate", "corpus": "stream", "impl": "json-parse", "instructions": 1000, "per_line": 10},
    ]
    doc["callgrind"] = {"valgrind": "valgrind-3.19.0", "seconds": 1.0, "results": counted,
                        "corpora": {"stream": {"bytes": 100, "lines": 100}}}
    rows = {r[0]: r for r in report.target_rows(doc)}
    assert rows[label][1:] == (wall[1], 0.9, 0.85, "instructions", True)  # 900 / 1000, met on instructions
    counted[1]["instructions"] = 800
    assert {r[0]: r for r in report.target_rows(doc)}[label][2:] == (0.8, 0.85, "instructions", False)
    rust = rows["Rust decode_validate vs msgspec-untyped (floor)"]
    assert rust[2] is None and rust[4] == "wall time"
    (tmp_path / "results.json").write_text(json.dumps(doc))
    assert main([str(tmp_path / "results.json")]) == 0
    text = (tmp_path / "RESULTS.md").read_text()
    assert "| target | wall time | instructions | minimum | judged on | met |" in text
    assert f"| {label} | {wall[1]} | 0.8 | 0.85 | instructions | **no** |" in text
    assert "## instructions (callgrind)" in text and "| decode_validate | stream | msgspec-untyped | 800 | 9 | 1.25 |" in text
    # Node's rows against our TypeScript, not our Python.
    assert "| decode_validate | stream | json-parse | 1,000 | 10 | 4.00 |" in text
