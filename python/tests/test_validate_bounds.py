"""The validator's state and reports stay bounded whatever the input: an open segment keeps a digest,
not its fragments; open state has caps (OM007 once, then counting); `--max-findings` caps what a
report holds per input."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

from omnimessage.validate import Validator
from omnimessage.validate.engine.state import (
    MAX_CHILD_SESSIONS,
    MAX_OPEN_CALLS,
    MAX_OPEN_SEGMENTS,
    MAX_SERVER_EVENT_TYPES,
    SEGMENT_FRAGMENTS,
    SEGMENT_PREFIX,
    SEGMENT_TEXT,
)
from omnimessage.validate.sources.sse import SseResult, validate_sse

TS: Final = "2026-07-18T03:10:22.418Z"


def _line(payload: dict[str, object], origin: list[str] | None = None, kind: str = "model_msg") -> bytes:
    msg: dict[str, object] = {"timestamp": TS, "type": kind, "payload": payload}
    if origin is not None:
        msg["origin"] = origin
    return json.dumps(msg, separators=(",", ":")).encode()


def _part(event_type: str, text: str) -> bytes:
    return _line({"type": "partial_text", "role": "assistant", "event_type": event_type, "text": text})


def _text(text: str) -> bytes:
    return _line({"type": "text", "role": "assistant", "text": text, "stop_reason": "completed"})


def _run(lines: list[bytes], profile: str = "stream") -> list[tuple[str, str]]:
    v = Validator(profile, canonical=False)
    out = []
    for ln in lines:
        out += [(f.rule, f.message) for f in v.feed(ln)]
    return out + [(f.rule, f.message) for f in v.finish()]


# ------------------------------------------------------------------ open segments: a digest


def _segment(fragments: list[str], complete: str) -> list[tuple[str, str]]:
    return _run([_part("start", ""), *(_part("delta", f) for f in fragments), _part("stop", ""), _text(complete)])


def test_a_long_segment_keeps_a_digest_and_joins_split_pairs() -> None:
    # 3000 fragments, a surrogate pair split across two of them, far beyond the kept prefix
    frags = ["abcd"] * 3000
    frags[2000] = "x\ud83d"
    frags[2001] = "\ude00y"
    full = "".join(frags).encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    assert len(full) > SEGMENT_PREFIX
    v = Validator("stream", canonical=False)
    for ln in [_part("start", ""), *(_part("delta", f) for f in frags)]:
        assert not v.feed(ln)
    seg = next(iter(v.main.segs.values()))
    assert seg.digest is not None and len(seg.prefix) == SEGMENT_PREFIX  # the fragments are not kept
    assert len(seg.parts) <= SEGMENT_FRAGMENTS and seg.size <= SEGMENT_PREFIX
    assert not v.feed(_part("stop", "")) and not v.feed(_text(full))
    assert not v.finish()


def test_a_difference_beyond_the_prefix_is_reported_by_length() -> None:
    frags = ["abcd"] * 3000
    found = _segment(frags, "abcd" * 2999 + "abcX")
    assert [r for r, _ in found] == ["OM305"]
    assert "join to 12000 characters, the complete text has 12000" in found[0][1]
    assert "differ beyond" in found[0][1]
    found = _segment([*frags, "\ud83d", "\ude00"], "abcd" * 3000 + "\U0001f600")  # a pair: one character
    assert found == []
    found = _segment([*frags, "\ud83d", "\ude00"], "abcd" * 3000)
    assert [r for r, _ in found] == ["OM305"] and "join to 12001 characters, the complete text has 12000" in found[0][1]


def test_a_difference_within_the_prefix_is_named_as_before() -> None:
    frags = ["abcd"] * 3000
    found = _segment(frags, "abXd" + "abcd" * 2999)
    assert found == [("OM305", "the fragments of lines 1-3002 join to 12000 characters, the complete text has 12000; "
                               "they differ from character 2 ('cdabcdabcdabcdabcdab' vs 'Xdabcdabcdabcdabcdab')")]
    small = _segment(["ab", "cd"], "abXd")  # a small segment: the fragments themselves
    assert small == [("OM305", "the fragments of lines 1-4 join to 4 characters, the complete text has 4; they "
                               "differ from character 2 ('cd' vs 'Xd')")]


def test_a_segment_within_the_budget_keeps_its_text() -> None:
    # 200 fragments of 30 characters: past the digest's prefix, within the input's budget
    frags = [f"{i:03d}" + "x" * 27 for i in range(200)]
    v = Validator("stream", canonical=False)
    for ln in [_part("start", ""), *(_part("delta", f) for f in frags)]:
        assert not v.feed(ln)
    seg = next(iter(v.main.segs.values()))
    assert seg.digest is None and seg.size == 6000 and v.budget.left == SEGMENT_TEXT - 6000
    full = "".join(frags)
    wrong = full[:5000] + "Y" + full[5001:]  # a difference past the prefix is named to the character
    found = [(f.rule, f.message) for f in [*v.feed(_part("stop", "")), *v.feed(_text(wrong)), *v.finish()]]
    assert found == [("OM305", "the fragments of lines 1-202 join to 6000 characters, the complete text has 6000; "
                               "they differ from character 5000 ('xxxxxxxxxx167xxxxxxx' vs 'Yxxxxxxxxx167xxxxxxx')")]
    assert v.budget.left == SEGMENT_TEXT  # the closed segment gave its text back


def _call_part(event_type: str, tid: str, args: str) -> bytes:
    return _line({"type": "partial_tool_call", "role": "assistant", "event_type": event_type, "name": "f",
                  "arguments": args, "tool_call_id": tid})


def test_one_text_budget_across_the_open_segments_of_an_input() -> None:
    big = "a" * (SEGMENT_TEXT // 3 + 1)  # the third one takes the input past its budget
    v = Validator("stream", canonical=False)
    for i, text in enumerate([big, big, big, "small"]):
        assert not v.feed(_call_part("start", f"c{i}", ""))
        assert not v.feed(_call_part("delta", f"c{i}", text))
    segs = list(v.main.segs.values())
    assert [s.digest is None for s in segs] == [True, True, False, True]  # what fits still keeps its text
    assert v.budget.left >= 0 and SEGMENT_TEXT - v.budget.left == 2 * len(big) + 5
    assert len(segs[2].prefix) == SEGMENT_PREFIX and not segs[2].parts  # a digest: the prefix kept, not the text
    v.discontinuity()  # forgotten segments give their text back too
    assert v.budget.left == SEGMENT_TEXT


def test_endless_empty_fragments_are_bounded() -> None:
    v = Validator("stream")
    v.feed(_part("start", ""))
    for _ in range(5000):
        v.feed(_part("delta", ""))
    seg = next(iter(v.main.segs.values()))
    assert len(seg.parts) <= SEGMENT_FRAGMENTS and seg.digest is not None


# ------------------------------------------------------------------ caps on open state (OM007)


def test_unanswered_calls_are_capped() -> None:
    v = Validator("stream", canonical=False)
    found = []
    n = MAX_OPEN_CALLS + 500
    for i in range(n):
        found += v.feed(_line({"type": "tool_call", "role": "assistant", "name": "run", "arguments": "{}",
                               "tool_call_id": f"c{i}", "stop_reason": "completed"}))
    assert [f.rule for f in found] == ["OM007"] and found[0].line == MAX_OPEN_CALLS + 1
    assert len(v.main.calls) == MAX_OPEN_CALLS and v.capped == {"calls": 500}
    # the output of a call not tracked is no OM401
    out = v.feed(_line({"type": "tool_call_output", "role": "tool", "tool_call_id": f"c{n - 1}", "output": "ok"},
                       kind="model_msg"))
    assert [f.rule for f in out if f.rule == "OM401"] == []
    assert {f.rule for f in v.finish()} == {"OM421"}


def test_child_sessions_are_capped() -> None:
    lines = [_line({"session_id": f"k{i}", "provider": "p", "model_id": "m", "model_context_window": 1,
                    "system_prompt": "", "agent_state": "/s", "workspace": "/w", "source": "subagent"},
                   origin=[f"k{i}"], kind="session_meta") for i in range(MAX_CHILD_SESSIONS * 4)]
    v = Validator("stream", canonical=False)
    rules = [f.rule for ln in lines for f in v.feed(ln)] + [f.rule for f in v.finish()]
    assert rules == ["OM007"]
    assert len(v.children) == MAX_CHILD_SESSIONS and v.capped == {"children": MAX_CHILD_SESSIONS * 3}


def test_open_segments_are_capped() -> None:
    n = MAX_OPEN_SEGMENTS + 50

    def part(i: int, et: str) -> bytes:
        return _line({"type": "partial_tool_call", "role": "assistant", "event_type": et, "name": "run",
                      "arguments": "", "tool_call_id": f"t{i}"})

    lines = [part(i, "start") for i in range(n)] + [part(i, "delta") for i in range(n)]
    v = Validator("stream", canonical=False)
    rules = [f.rule for ln in lines for f in v.feed(ln)]
    assert rules == ["OM007"]  # the deltas of segments not tracked are no OM301
    assert len(v.main.segs) == MAX_OPEN_SEGMENTS


def test_server_event_types_are_capped() -> None:
    body = b"".join(b'event: server_event\ndata: {"type":"t%d"}\n\n' % i for i in range(20_000))
    v = Validator("stream")
    found: list[str] = []
    res: SseResult = validate_sse(body.split(b"\n"), v, lambda f: found.append(f.rule))
    assert found == ["OM007"]
    assert len(res.server_events) == MAX_SERVER_EVENT_TYPES + 1  # and <other>
    assert res.server_events["<other>"] == 20_000 - MAX_SERVER_EVENT_TYPES
    assert sum(res.server_events.values()) == 20_000


# ------------------------------------------------------------------ --max-findings


_RUN: Final = """\
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from omnimessage.cli.validate import main
rc = main(sys.argv[1:])
# VmHWM, not RUSAGE_SELF: ru_maxrss survives exec, so it would count the pytest process this forked from
hwm = int(next(ln.split()[1] for ln in open("/proc/self/status") if ln.startswith("VmHWM:")))
sys.stderr.write("\\nMAXRSS_KB %d\\n" % max(hwm, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(rc)
"""


def test_max_findings_bounds_a_junit_report(tmp_path: Path) -> None:
    """2 MB of one-byte bad lines (a million OM102) in two inputs, validated by two workers."""
    bad = b"x\n" * 500_000
    jobs = "2"
    inputs = []
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_bytes(bad)
        inputs.append(str(tmp_path / name))
    report = tmp_path / "r.xml"
    p = subprocess.run([sys.executable, "-c", _RUN.format(limit=1 << 30), *inputs, "--format", "junit", "-o",
                        str(report), "-j", jobs, "--no-progress"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 1, p.stderr
    rss = int(p.stderr.rsplit("MAXRSS_KB ", 1)[1])
    size = report.stat().st_size
    xml = report.read_text()
    assert xml.count("<failure") <= 2 * 5000
    assert size < 10_000_000, size  # 368 MB before the cap
    assert rss < 400_000, rss
    sys.stderr.write(f"junit -j {jobs}: {size} bytes, peak RSS {rss} KiB\n")


def test_max_findings_counts_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from omnimessage.cli.validate import main

    p = tmp_path / "bad.jsonl"
    p.write_bytes(b"x\n" * 50)
    report = tmp_path / "r.json"
    assert main([str(p), "--max-findings", "7", "--format", "json", "-o", str(report), "--no-progress"]) == 1
    doc = json.loads(report.read_text())
    assert len(doc["findings"]) == 7
    assert doc["summary"]["errors"] == 50  # the summary counts everything
    assert main([str(p), "--max-findings", "7", "--no-progress"]) == 1
    assert "43 more findings beyond --max-findings 7, not listed: OM102 x 43" in capsys.readouterr().out
    assert main([str(p), "--max-findings", "0", "--no-progress"]) == 2


def test_rlimit_available() -> None:
    assert resource.getrlimit(resource.RLIMIT_AS)  # the bounds above run under RLIMIT_AS
