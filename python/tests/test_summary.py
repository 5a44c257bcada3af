"""`--summary-by producer|day|rule` (validate/reporting/summary.py) and the progress of big runs
(validate/reporting/progress_log.py): exact tables on a small archive, the JSON form, the cap on groups,
hostile keys, and the progress lines under a fake clock."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from omnimessage.cli.main import main as cli_main
from omnimessage.validate.reporting.progress_log import ArchiveProgress, format_duration
from omnimessage.validate.reporting.summary import OTHER, GroupSummary, parse_dimensions, producer_key
from omnimessage.validate.sources.inputs import UnitResult
from omnimessage_dev.archive import build_archive
from omnimessage_dev.synth.sessions import trace_lines

_META = b'"provider":"anthropic","model_id":"claude-sonnet-4"'


def _session(sid: str, provider: bytes = b"anthropic", model: bytes = b"claude-sonnet-4", source: bytes = b"user",
             extra: bytes = b"") -> bytes:
    """A valid synthetic trace (no finding) of this producer, then `extra` lines."""
    lines = list(trace_lines(2000, seed=3, session_id=sid))
    head = lines[0].replace(_META, b'"provider":"' + provider + b'","model_id":"' + model + b'"')
    head = head.replace(b'"source":"user"', b'"source":"' + source + b'"')
    return head + b"".join(lines[1:]) + extra


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """Three sessions of three producers over two days, one planted OM102, a loose file (OM801 + OM102)."""
    root = tmp_path / "root"
    (root / "2026-07-18").mkdir(parents=True)
    (root / "2026-07-19").mkdir()
    (root / "2026-07-18" / "a_001.jsonl").write_bytes(_session("a"))
    (root / "2026-07-18" / "b_001.jsonl").write_bytes(_session("b", b"openai", b"gpt-5.1", b"api", b"x\n"))
    (root / "2026-07-19" / "c_001.jsonl").write_bytes(_session("c", b"evil\\u001b]0;pwned\\u0007", b"m\\n2"))
    (root / "loose.jsonl").write_bytes(b"x\n")
    return root


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = cli_main(["validate", "--no-progress", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


EXPECTED = """
findings by producer
producer                               inputs  with errors       errors     warnings   unreadable           MB
api openai/gpt-5.1                          1            1            1            0            0          0.0
user anthropic/claude-sonnet-4              1            0            0            0            0          0.0
user evil\\x1b]0;pwned\\x07/m\\x0a2            1            0            0            0            0          0.0
(unknown)                                   1            1            1            1            0          0.0

findings by day
day              inputs  with errors       errors     warnings   unreadable           MB
2026-07-18            2            1            1            0            0          0.0
2026-07-19            1            0            0            0            0          0.0
(unknown)             1            1            1            1            0          0.0

findings by rule
rule                     inputs  with errors       errors     warnings   unreadable           MB
OM102 invalid-json            2            2            2            0            0          0.0
OM801 trace-layout            1            0            0            1            0          0.0
"""


def test_tables_on_a_small_archive(capsys: pytest.CaptureFixture[str], small: Path) -> None:
    rc, out, _ = _cli(capsys, str(small), "--summary-by", "producer", "--summary-by", "day,rule")
    assert rc == 1
    status = "FAILED: 4 input(s), 4 file(s)"
    assert status in out
    tables = out[out.index("\n", out.index(status)) + 1:]
    assert tables == EXPECTED
    assert "\x1b" not in out and "\x07" not in out  # the hostile provider is sanitised


def test_the_json_form(capsys: pytest.CaptureFixture[str], small: Path) -> None:
    rc, out, _ = _cli(capsys, str(small), "--format", "json", "--summary-by", "producer,rule")
    assert rc == 1
    groups = json.loads(out)["summary"]["groups"]
    assert list(groups) == ["producer", "rule"]
    size = {p.name: p.stat().st_size for p in small.rglob("*.jsonl")}
    assert groups["producer"][0] == {"group": "api openai/gpt-5.1", "source": "api", "provider": "openai",
                                     "model_id": "gpt-5.1", "inputs": 1, "with_errors": 1, "errors": 1,
                                     "warnings": 0, "unreadable": 0, "bytes": size["b_001.jsonl"]}
    assert groups["producer"][2]["provider"] == "evil\\x1b]0;pwned\\x07"
    assert groups["producer"][3] == {"group": "(unknown)", "inputs": 1, "with_errors": 1, "errors": 1,
                                     "warnings": 1, "unreadable": 0, "bytes": size["loose.jsonl"]}
    assert [(r["group"], r["name"], r["inputs"], r["errors"], r["warnings"]) for r in groups["rule"]] == [
        ("OM102", "invalid-json", 2, 2, 0), ("OM801", "trace-layout", 1, 0, 1)]


def test_other_formats_get_the_table_on_stderr(capsys: pytest.CaptureFixture[str], small: Path) -> None:
    rc, out, err = _cli(capsys, str(small), "--format", "junit", "--summary-by", "day")
    assert rc == 1
    ET.fromstring(out)  # the report stays well-formed
    assert "findings by day\n" in err and "2026-07-18            2" in err


def test_findings_beyond_the_cap_are_counted(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "2026-07-18").mkdir()
    (tmp_path / "2026-07-18" / "a_001.jsonl").write_bytes(_session("a", extra=b"x\n" * 30))
    for jobs in ("1", "2"):
        rc, out, _ = _cli(capsys, str(tmp_path), str(tmp_path / "2026-07-18" / "a_001.jsonl"), "--max-findings",
                          "5", "-j", jobs, "--format", "json", "--summary-by", "rule")
        assert rc == 1
        rows = json.loads(out)["summary"]["groups"]["rule"]
        assert rows[0]["group"] == "OM102" and rows[0]["errors"] == 60 and rows[0]["inputs"] == 2


def test_bad_dimension_is_a_usage_error(capsys: pytest.CaptureFixture[str], small: Path) -> None:
    rc, _, err = _cli(capsys, str(small), "--summary-by", "producer,model")
    assert rc == 2 and "'model'" in err and "producer, day, rule" in err
    with pytest.raises(ValueError):
        parse_dimensions(["\x1b[2J"])
    assert parse_dimensions(["rule", "day,rule"]) == ("rule", "day")


def test_groups_are_capped(small: Path) -> None:
    g = GroupSummary(["producer", "day"], max_groups=2)
    for i in range(5):
        g.add(UnitResult(f"u{i}", bytes=10, producer=("user", f"p{i}", "m"), day=f"2026-01-0{i + 1}"),
              Counter({("OM102", "error"): i}))
    rows = g.to_dict()
    assert [(r["group"], r["inputs"], r["errors"]) for r in rows["producer"]] == [
        ("user p0/m", 1, 0), ("user p1/m", 1, 1), (OTHER, 3, 2 + 3 + 4)]
    assert [r["group"] for r in rows["day"]] == ["2026-01-01", "2026-01-02", OTHER]
    assert len(producer_key(("user", "p" * 10_000, "m"))) == 123  # cut to MAX_KEY_CHARS, then "..."


def test_an_unreadable_input_is_counted_in_its_group() -> None:
    g = GroupSummary(["producer", "day", "rule"])
    g.add(UnitResult("s3://b/x.jsonl", failure="s3://b/x.jsonl: no such object"), Counter())
    rows = g.to_dict()
    assert rows["producer"] == [{"group": "(unknown)", "inputs": 1, "with_errors": 0, "errors": 0, "warnings": 0,
                                 "unreadable": 1, "bytes": 0}]
    assert rows["rule"] == []
    buf = io.StringIO()
    g.write_text(buf)
    assert "(no finding)" in buf.getvalue()


def test_the_generated_archive_by_producer_and_rule(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Totals per producer and per rule as the generator's manifest says (planted defects, producer shapes)."""
    man = build_archive(tmp_path, sessions=40, seed=3)
    rc, out, _ = _cli(capsys, str(tmp_path), "--format", "json", "--summary-by", "producer,rule")
    assert rc == 1
    groups = json.loads(out)["summary"]["groups"]
    assert {r["group"]: r["inputs"] for r in groups["producer"]} == {
        producer_key(k): n for k, n in man.producers.items()}
    assert {r["group"]: r["errors"] + r["warnings"] for r in groups["rule"]} == dict(man.counts())
    assert sum(r["errors"] for r in groups["producer"]) == sum(r["errors"] for r in groups["rule"])
    assert sum(r["bytes"] for r in groups["producer"]) == man.bytes


# ------------------------------------------------------------------ progress


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_log_lines_off_a_terminal() -> None:
    clock = _Clock()
    out = io.StringIO()
    p = ArchiveProgress(4, 400_000_000, out, tty=False, every=30, clock=clock)
    clock.now += 10
    p.done(UnitResult("a", bytes=100_000_000))
    assert out.getvalue() == ""  # not yet 30 s
    clock.now += 30
    p.done(UnitResult("b", bytes=100_000_000))
    clock.now += 5
    p.done(UnitResult("c", failure="c: gone"))
    assert out.getvalue() == (
        "omnimessage validate: progress: 2/4 sessions, 200.0 MB of 400.0 MB (50%), 5.0 MB/s, 0.1 sessions/s, "
        "ETA 40s\n")
    clock.now += 40
    p.done(UnitResult("d", bytes=200_000_000))
    p.close()
    assert out.getvalue().splitlines()[1:] == [
        "omnimessage validate: progress: 4/4 sessions, 400.0 MB of 400.0 MB (100%), 4.7 MB/s, 0.0 sessions/s, "
        "1 unreadable",
        "omnimessage validate: progress: done: 4 sessions, 400.0 MB in 1m25s (4.7 MB/s)",
    ]


def test_a_short_run_off_a_terminal_is_silent() -> None:
    clock = _Clock()
    out = io.StringIO()
    p = ArchiveProgress(2, 0, out, tty=False, clock=clock)
    p.done(UnitResult("a", bytes=5))
    p.done(UnitResult("b", bytes=5))
    p.close()
    assert out.getvalue() == ""


def test_the_terminal_line() -> None:
    clock = _Clock()
    out = io.StringIO()
    p = ArchiveProgress(3, 0, out, tty=True, clock=clock)
    clock.now += 0.05
    p.done(UnitResult("a", bytes=2_000_000))
    assert out.getvalue() == ""  # redrawn at most 10 times a second
    clock.now += 1.95
    p.done(UnitResult("b", bytes=2_000_000))
    assert out.getvalue() == "\r\x1b[2K2/3 sessions, 4.0 MB, 2.0 MB/s, 1.0 sessions/s, ETA 1s"
    assert p.shown
    p.close()
    assert out.getvalue().endswith("\r\x1b[2K") and not p.shown
    quiet = ArchiveProgress(1, 0, io.StringIO(), tty=True, enabled=False, clock=clock)
    quiet.done(UnitResult("a", bytes=1))
    assert quiet.units == 1 and quiet.out.getvalue() == ""  # type: ignore[attr-defined]


def test_durations() -> None:
    assert [format_duration(s) for s in (0, 42.4, 185, 7620)] == ["0s", "42s", "3m05s", "2h07m"]
