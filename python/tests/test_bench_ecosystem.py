"""bench/ecosystem.py (`make bench-ecosystem`): the Go and Rust rows against their own ecosystem's parsers, wall
and CPU time. The ratios are the peer's seconds over ours; a peer faster by either clock gets a closing line
saying what it skips; the committed ECOSYSTEM.md renders from the committed ecosystem.json (one run); and a
quick run of the real command measures every row and refuses nothing valid."""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REQUIRE_TOOLS, ROOT

if str(ROOT) not in sys.path:  # the bench harness is run from the checkout (`python -m bench.ecosystem`)
    sys.path.insert(0, str(ROOT))
ecosystem = importlib.import_module("bench.ecosystem")
native = importlib.import_module("bench.native")

NAMES = [name for *_, rows in native.NATIVE.values() for task, name, *_ in rows if task == "decode_validate"]


def _row(impl: str, seconds: float, cpu: float) -> dict[str, Any]:
    return {"corpus": "trace", "impl": impl, "seconds": seconds, "cpu_seconds": cpu, "note": f"{impl} skips X"}


def _doc(results: list[dict[str, Any]]) -> dict[str, Any]:
    cases = {"duplicate_key": 3, "unexpected_field": 2}
    accepted = {r["impl"]: {"duplicate_key": 0, "unexpected_field": 0} for r in results}
    accepted["rust-sonic-rs-typed"] = {"duplicate_key": 1, "unexpected_field": 2}
    return {
        "results": results,
        "ratios": ecosystem.ratios(results),
        "let_through": {"cases": cases, "accepted": accepted},
    }


def test_a_ratio_is_the_peers_seconds_over_ours_by_wall_and_by_cpu() -> None:
    results = [_row(n, 2.0, 1.0) for n in NAMES]
    results[NAMES.index("omnimessage-go")] = _row("omnimessage-go", 1.0, 0.25)
    by = {(q["ours"], q["peer"]): q for q in ecosystem.ratios(results)}
    q = by[("omnimessage-go", "go-encoding-json-structs")]
    assert (q["wall"], q["cpu"], q["minimum"]) == (2.0, 4.0, 1.5)
    assert by[("omnimessage-rust", "rust-serde-json-typed")]["minimum"] == 1.0
    assert len(by) == len(ecosystem.PAIRS)


def test_a_cpu_time_under_the_clocks_tick_gives_no_cpu_ratio() -> None:
    results = [_row(n, 1.0, 0.0 if n == "omnimessage-rust" else 0.5) for n in NAMES]
    by = {(q["ours"], q["peer"]): q for q in ecosystem.ratios(results)}
    assert by[("omnimessage-rust", "rust-serde-json-typed")]["cpu"] is None
    assert by[("omnimessage-go", "go-goccy-json-structs")]["cpu"] == 1.0


def test_a_faster_peer_gets_a_closing_line_with_what_it_lets_through() -> None:
    results = [_row(n, 1.0, 1.0) for n in NAMES]
    assert ecosystem.closing_notes(_doc(results))[0].startswith("None:")
    # faster by CPU time alone still counts
    results[NAMES.index("rust-sonic-rs-typed")] = _row("rust-sonic-rs-typed", 1.0, 0.5)
    (line,) = ecosystem.closing_notes(_doc(results))
    assert "rust-sonic-rs-typed is faster than omnimessage-rust on trace (x wall 1.0, x CPU 0.5)" in line
    assert "rust-sonic-rs-typed skips X; it lets through 3 of the 5 rejection cases" in line


def test_ecosystem_md_renders_from_the_committed_run(tmp_path: Path) -> None:
    doc = json.loads((ROOT / "bench" / "ecosystem.json").read_text())
    ecosystem.write_markdown(doc, tmp_path / "ECOSYSTEM.md")
    assert (tmp_path / "ECOSYSTEM.md").read_text() == (ROOT / "bench" / "ECOSYSTEM.md").read_text()
    assert doc["command"] == "python -m bench.ecosystem" and not doc["commit"].endswith("-dirty")
    assert {r["impl"] for r in doc["results"]} == set(NAMES)
    assert all(r["accepted"] == r["lines"] for r in doc["results"])


def test_a_quick_run_measures_every_row_wall_and_cpu(tmp_path: Path) -> None:
    binaries = [Path(os.environ.get(env) or default) for env, default, *_ in native.NATIVE.values()]
    if not all(b.is_file() for b in binaries) and not REQUIRE_TOOLS:
        pytest.skip("the native rows are not built (make rust-build go-build peers-build)")
    assert ecosystem.main(["--quick", "--rounds", "1", "--out", str(tmp_path)]) == 0
    doc = json.loads((tmp_path / "ecosystem-quick.json").read_text())
    assert {r["impl"] for r in doc["results"]} == set(NAMES)
    assert all(r["accepted"] == r["lines"] > 0 and r["seconds"] > 0 for r in doc["results"])
    # every command's CPU clock is fine enough for a pass of a few milliseconds (the small corpora's)
    assert all(r["cpu_seconds"] > 0 for r in doc["results"]) and all(q["cpu"] for q in doc["ratios"])
    assert len(doc["ratios"]) == len(ecosystem.PAIRS) * len(doc["corpora"])
    assert set(doc["let_through"]["accepted"]) == set(NAMES)
    ecosystem.write_markdown(doc, tmp_path / "ECOSYSTEM.md")
    assert "| trace | omnimessage-go | go-encoding-json-structs |" in (tmp_path / "ECOSYSTEM.md").read_text()
