"""The validator's Python API: `validate_path`, `Report` (merge, JSON, equality), `Validator.validate_lines`.

A report equals what `omnimessage validate --format json` says about the same inputs; merging the
reports of inputs validated apart, in any grouping and order, equals the report of one run; the
end-of-input rules (OM002) are never skipped.
"""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from omnimessage.cli.main import main as cli_main
from omnimessage.validate import Finding, Report, Validator, validate_path
from omnimessage.validate.reporting.report import MAX_LISTED
from omnimessage.validate.sources.inputs import Options, discover, resolve_subagents, run_unit
from omnimessage_dev.synth.sessions import stream_lines, trace_lines

FIX = ROOT / "conformance" / "validator"
BAD_STREAM = FIX / "OM305" / "fail-dropped-fragment.jsonl"  # stream profile: one OM305 error on line 7
WARN = FIX / "OM420" / "fail-request-open.jsonl"  # trace: one OM420 warning on line 4


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    rc = cli_main(["validate", "--no-progress", "--format", "json", *argv])
    out, _ = capsys.readouterr()
    return rc, json.loads(out)


def _root(tmp: Path) -> Path:
    """A trace root: a clean session, a rotated one with a gap and a bad second file, a subagent
    pointer to no session, a file outside the layout."""
    root = tmp / "traces"
    day = root / "2026-07-18"
    day.mkdir(parents=True)
    (day / "sess-a_001.jsonl").write_bytes(b"".join(trace_lines(20_000, seed=1, session_id="sess-a")))
    b = b"".join(trace_lines(20_000, seed=2, session_id="sess-b"))
    ptr = (b'{"timestamp":"2030-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"subagent",'
           b'"session_id":"sess-z"}}\n')
    (day / "sess-b_001.jsonl").write_bytes(b + ptr)
    (day / "sess-b_003.jsonl").write_bytes(b"".join(trace_lines(5_000, seed=9, session_id="sess-b")).split(b"\n", 1)[1])
    (root / "loose.jsonl").write_bytes(BAD_STREAM.read_bytes())
    return root


def test_a_file_equals_the_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, kwargs in [
        ((str(BAD_STREAM), "--profile", "stream"), {"profile": "stream"}),
        ((str(WARN),), {}),
        ((str(BAD_STREAM),), {}),  # a stream in the trace profile: the hint is a note
        ((str(BAD_STREAM), "--profile", "stream", "--ignore", "OM3"), {"profile": "stream", "ignore": ["OM3"]}),
    ]:
        rc, doc = _cli_json(capsys, *argv)
        report = validate_path(argv[0], **kwargs)
        assert report.to_dict() == doc, argv
        assert report.exit_code == rc
        assert Report.from_json(json.dumps(doc)) == report
    assert validate_path(BAD_STREAM).notes == [
        "this looks like a stream, not a stored trace (partial_* fragments or origin, no session_meta first): "
        "validate it with --profile stream"]


def test_a_trace_root_equals_the_cli_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = _root(tmp_path)
    rc, doc = _cli_json(capsys, str(root))
    report = validate_path(root)
    assert rc == report.exit_code == 1
    assert report.to_dict() == doc
    assert (report.inputs, report.sessions, report.files) == (3, 2, 4)
    rules = {(f.rule, Path(f.path).name) for f in report.findings}
    assert {("OM802", "sess-b_003.jsonl"), ("OM201", "sess-b_003.jsonl"), ("OM805", "sess-b_001.jsonl"),
            ("OM801", "loose.jsonl")} <= rules
    # a list of paths: the root and a file again
    both = validate_path([root, BAD_STREAM])
    alone = validate_path(BAD_STREAM)
    assert both.inputs == 4 and both.counts == report.counts + alone.counts and alone.errors


def test_end_of_input_rules_always_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(b"".join(trace_lines(5_000, seed=3)).rstrip(b"\n"))
    report = validate_path(torn)
    assert [(f.rule, f.line) for f in report.findings] == [("OM002", report.lines)]
    assert report.warnings + report.errors == 1
    # standard input, too
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(torn.read_bytes())))
    assert [f.rule for f in validate_path("-").findings] == ["OM002"]
    # by hand: validate_lines feeds and finishes (lines as a binary file yields them)
    lines = torn.read_bytes().splitlines(keepends=True)
    assert [f.rule for f in Validator().validate_lines(lines)] == ["OM002"]
    assert list(Validator().validate_lines(b"".join(lines).splitlines())) == []  # no line feeds given: complete
    # an unclosed segment of a stream: found only by finish()
    stream = list(stream_lines(5_000, seed=4))
    start = next(i for i, ln in enumerate(stream) if b'"event_type":"start"' in ln)
    assert "OM308" in {f.rule for f in Validator("stream").validate_lines(stream[: start + 1])}
    # a Validator used as a context manager refuses to be left unfinished
    with pytest.raises(RuntimeError, match="finish"), Validator("stream") as v:
        for ln in stream[: start + 1]:
            v.feed(ln)
    with Validator("stream") as v:
        for ln in stream[: start + 1]:
            v.feed(ln)
        assert "OM308" in {f.rule for f in v.finish()}


def _unit_reports(paths: list[Path], opts: Options) -> list[Report]:
    """Each input validated on its own into a report (as a worker would)."""
    units, roots, _ = discover([str(p) for p in paths], opts.profile)
    root_of = {r.path: r for r in roots}
    out = []
    for u in units:
        res = run_unit(u, opts)
        root = root_of.get(getattr(u, "root", ""))
        if root is not None:
            res.findings.extend(resolve_subagents(root, res.subagents))
        r = Report(max_findings=opts.max_findings)
        r.merge(res)
        out.append(r)
    return out


@pytest.mark.parametrize("cap", [3, 5000])
def test_merge_is_associative_and_order_free(tmp_path: Path, cap: int) -> None:
    root = _root(tmp_path)
    paths = [root, BAD_STREAM, WARN]
    whole = validate_path(paths, profile="trace", max_findings=cap)  # explicit: no profile hint (a note)
    assert whole.counts[("OM801", "warning")] == 1 and whole.counts[("OM802", "error")] == 1
    parts = _unit_reports(paths, Options(max_findings=cap))
    assert len(parts) == 5
    rng = random.Random(7)
    for _ in range(6):
        rng.shuffle(parts)
        # left fold, right fold, pairs: all equal to the single run
        left = Report(max_findings=cap)
        for p in parts:
            left.merge(p)
        right = Report(max_findings=cap)
        for p in reversed(parts):
            tmp = Report(max_findings=cap)
            tmp.merge(p)
            tmp.merge(right)
            right = tmp
        pairs = Report(max_findings=cap)
        for a, b in itertools.zip_longest(parts[::2], parts[1::2]):
            ab = Report(max_findings=cap)
            ab.merge(a)
            if b is not None:
                ab.merge(b)
            pairs.merge(Report.from_json(ab.to_json()))  # through JSON, as between processes
        assert left == whole and right == whole and pairs == whole
    assert len(whole.findings) == min(cap, sum(whole.counts.values()))
    if cap == 3:  # the held ones are the first three in canonical order; the rest are counted
        everything = validate_path(paths, profile="trace", max_findings=10_000)
        assert whole.sorted_findings() == everything.sorted_findings()[:3]
        assert whole.counts == everything.counts and whole.errors == everything.errors
        assert sum(whole.beyond.values()) == sum(everything.counts.values()) - 3
    assert whole != validate_path(paths[:2], profile="trace", max_findings=cap)


def test_failures_are_listed_never_raised_nor_silent(tmp_path: Path) -> None:
    gz = tmp_path / "t.jsonl"
    gz.write_bytes(b"\x1f\x8b\x08\x00rest")
    report = validate_path([tmp_path / "missing.jsonl", gz, WARN])
    assert not report.ok and report.exit_code == 2
    assert report.errors == 0 and report.warnings == 1
    assert len(report.failures) == 2
    assert report.failures[0].endswith("missing.jsonl: no such file or directory")
    assert "compressed (gzip)" in report.failures[1]
    empty = tmp_path / "empty-root"
    empty.mkdir()
    assert "no .jsonl file" in validate_path(empty).failures[0]
    # many failures: capped, counted, still not ok
    many = Report()
    for i in range(MAX_LISTED + 5):
        many.add_failure(f"f{i:05d}: no such file")
    assert many.failed == MAX_LISTED + 5 and not many.ok
    assert many.summary_dict()["unlisted_unreadable"] == 5


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown rule 'OM999'"):
        validate_path(WARN, ignore=["OM999"])
    with pytest.raises(ValueError, match="profile"):
        validate_path(WARN, profile="tracing")
    with pytest.raises(ValueError, match="max_line_bytes"):
        validate_path(WARN, max_line_bytes=0)
    with pytest.raises(ValueError, match="only once"):
        validate_path(["-", "-"])
    assert validate_path(WARN, select=["OM420"]).by_rule == {"OM420": 1}
    assert validate_path(WARN, select="OM1").by_rule == {}
    assert validate_path(WARN, ignore="request-open-at-end").warnings == 0


def test_sse_captures(tmp_path: Path) -> None:
    cap = tmp_path / "c.sse"
    cap.write_bytes(b"".join(b"data: " + ln.rstrip(b"\n") + b"\n\n" for ln in BAD_STREAM.read_bytes().splitlines(True)))
    report = validate_path(cap, sse=True)
    assert report.by_rule == {"OM305": 1}
    with pytest.raises(ValueError, match="stream profile"):
        validate_path(cap, sse=True, profile="trace")


def test_report_json_round_trip_and_sanitising() -> None:
    r = Report()
    r.add(Finding("OM201", "error", "no session_meta", "a\x1b[2Jb.jsonl", 1))
    r.add(Finding("OM420", "warning", "open", "t.jsonl", 4, "/payload"))
    r.add_note("t.jsonl: note")
    r.server_events["task_state"] += 2
    text = r.to_json()
    assert "\x1b" not in text and "a\\\\x1b[2Jb.jsonl" in text
    back = Report.from_json(text)
    assert back.counts == r.counts and back.notes == r.notes and back.server_events == r.server_events
    assert [f.pointer for f in back.findings] == ["", "/payload"]
    clean = Report()
    clean.merge(r)
    clean._held[0] = Finding("OM201", "error", "no session_meta", "ab.jsonl", 1)
    assert Report.from_json(clean.to_json()) == clean
    for bad in ["[]", '{"version": 2}', '{"version": 1, "findings": [], "summary": {}}',
                '{"version": 1, "findings": [{"rule": "OMX"}], "summary": {}}']:
        with pytest.raises(ValueError):
            Report.from_json(bad)


def test_readme_python_api_example_runs(tmp_path: Path) -> None:
    """The README's "Python API" block, run from the repository root (it reads examples/)."""
    blocks = re.findall(r"^```python\n(.*?)^```$", (ROOT / "README.md").read_text(encoding="utf-8"), re.S | re.M)
    api = [b for b in blocks if "validate_path" in b]
    assert api, "README.md has no Python block using validate_path"
    for block in api:
        script = tmp_path / "api_example.py"
        script.write_text(block)
        r = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("profile", ["trace", "stream"])
def test_listed_units_carry_their_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, profile: str) -> None:
    """`discover` looks each file's size up once; `Unit.size` (read for the progress total, a task's work and
    each result) then makes no system call: a session's is its files' total, a loose file's its own."""
    day = tmp_path / "2026-01-02"
    day.mkdir()
    (day / "s1_001.jsonl").write_bytes(b"x" * 10)
    (day / "s1_002.jsonl").write_bytes(b"y" * 7)
    (day / "s2_001.jsonl").write_bytes(b"z" * 3)
    (tmp_path / "loose.jsonl").write_bytes(b"w" * 5)
    units, _, problems = discover([str(tmp_path)], profile)
    assert not problems

    def no_stat(*args: object, **kwargs: object) -> None:
        raise AssertionError("Unit.size looked a size up again")

    monkeypatch.setattr("os.path.getsize", no_stat)
    sizes = sorted(u.size for u in units)
    assert sizes == ([3, 5, 17] if profile == "trace" else [3, 5, 7, 10])
