"""Issue 32, medium: `validate --format html` writes a report for every input `--format json`
handles, lays an `origin` chain out in linear time, and keeps at most `MAX_KEPT_BYTES` of input
for its timelines, proven under an address-space limit (`ulimit -v`) in a subprocess."""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from omnimessage.validate.reporting import html as html_report
from omnimessage.validate.reporting.html import timeline

TS = '"timestamp":"2026-07-18T03:10:22.531Z"'
DEEP_FIDELITY = ('{' + TS + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"x",'
                 '"fidelity":{"a":' + "[" * 100_000 + "]" * 100_000 + "}}}\n")
LONG_ORIGIN = ('{' + TS + ',"type":"event_msg","payload":{"type":"request_begin"},"origin":['
               + ",".join(f'"session-2026-07-18-03-11-02-{i:08x}"' for i in range(2_500)) + "]}\n")


def _cli(args: list[str], limit_mib: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if limit_mib is not None:
            n = limit_mib * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (n, n))

    return subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--no-progress", *args],
                          preexec_fn=limit, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("text", [DEEP_FIDELITY, LONG_ORIGIN], ids=["fidelity-100000-deep", "origin-2500-ids"])
def test_html_writes_a_report_wherever_json_does(text: str, tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text(text)
    for fmt in ("json", "html"):
        r = _cli(["--format", fmt, "-o", str(tmp_path / f"out.{fmt}"), str(src)])
        assert r.returncode == 1, r.stderr  # findings, not an internal error (exit 2)
        assert "internal error" not in r.stderr
    page = (tmp_path / "out.html").read_text("utf-8")
    assert page.rstrip().endswith("</html>") and 'class="row' in page


def test_an_origin_chain_is_nested_at_most_max_nesting_deep() -> None:
    entries, more, _ = timeline.read_entries(io.BytesIO(LONG_ORIGIN.encode()), "x", 10, 1 << 20)
    assert not more and entries[0].depth == 2_500 and len(entries[0].origin) == timeline.MAX_NESTING
    ctx, levels = timeline.build(entries), 0
    while ctx.children:
        (ctx,) = ctx.children.values()
        levels += 1
    assert levels == timeline.MAX_NESTING and ctx.depth == 2_500 and len(ctx.root) == 1


def test_the_byte_budget_stops_the_layout() -> None:
    """Lines whose summaries keep the most (every payload member a long string) stop at the budget,
    not at the line cap."""
    payload = {f"k{i}": "y" * 5_000 for i in range(40)} | {"type": "request_begin"}
    line = json.dumps({"timestamp": "t", "type": "event_msg", "payload": payload}).encode() + b"\n"
    entries, more, kept = timeline.read_entries(io.BytesIO(line * 100), "x", 1_000, 400_000)
    assert more and 0 < len(entries) < 100 and kept <= 400_000
    assert kept == sum(timeline.kept_bytes(e) for e in entries)
    one = timeline.kept_bytes(entries[0])
    assert one < 2 * timeline.MAX_MEMBERS * (timeline.MAX_TEXT_CHARS + 200)  # a summary, not the 200 KB line


def test_html_stays_within_its_budget_under_an_address_space_limit(tmp_path: Path) -> None:
    """16 MB of lines the old report kept whole (json.loads of 60,000 floats a line, about 8 times
    the line in memory): it ended in MemoryError under this limit (measured: already under 120 MiB
    for 10 MB); the report now keeps a summary per line and spools what it draws."""
    line = ('{' + TS + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"x",'
            '"fidelity":{"a":[' + ",".join(["0.5"] * 60_000) + "]}}}\n")
    src = tmp_path / "big.jsonl"
    with src.open("w") as f:
        for _ in range(16 * 1024 * 1024 // len(line) + 1):
            f.write(line)
    limit = 160  # MiB of address space
    r = _cli(["--format", "json", "-o", str(tmp_path / "out.json"), str(src)], limit)
    assert r.returncode == 1, f"the control (json) needs more than {limit} MiB here: {r.stderr[-300:]}"
    r = _cli(["--format", "html", "-o", str(tmp_path / "out.html"), str(src)], limit)
    assert r.returncode == 1, r.stderr[-500:]
    page = (tmp_path / "out.html").read_text("utf-8")
    assert page.count('class="row') >= 60 and page.rstrip().endswith("</html>")
    assert html_report.MAX_KEPT_BYTES <= 8 * 1024 * 1024
