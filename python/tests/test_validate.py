"""The validator's state machine (`omnimessage.validate.Validator`): API, rules, recovery, memory."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import omnimessage as om
from omnimessage.reader import iter_messages
from omnimessage.validate import RULES, Finding, Validator
from omnimessage.validate.engine import validator as engine_mod
from omnimessage.validate.engine.catalogue import render
from omnimessage.validate.engine.rules import CATEGORY_RULES, GROUPS, select_rules
from omnimessage_dev.synth.sessions import stream_lines, trace_lines

TS = "2026-07-18T03:10:22.531Z"


def line(env: str, payload: dict[str, Any], origin: list[str] | None = None, ts: str = TS) -> bytes:
    obj: dict[str, Any] = {"timestamp": ts, "type": env, "payload": payload}
    if origin is not None:
        obj["origin"] = origin
    return om.canonicalize(json.dumps(obj))


META = line("session_meta", {"session_id": "s-1", "provider": "p", "model_id": "m", "model_context_window": 1,
                             "system_prompt": "", "agent_state": "/a", "workspace": "/w"})
BEGIN = line("event_msg", {"type": "request_begin"})
USAGE = line("event_msg", {"type": "token_usage", "session": {"cache_read": 0, "cache_write": 0, "output": 1,
                                                              "total": 1},
                           "request": {"cache_read": 0, "cache_write": 0, "output": 1, "total": 1}})
END = line("event_msg", {"type": "request_end", "status": "completed"})


def call(tid: str) -> bytes:
    return line("model_msg", {"type": "tool_call", "role": "assistant", "name": "t", "arguments": "{}",
                              "tool_call_id": tid})


def output(tid: str) -> bytes:
    return line("model_msg", {"type": "tool_call_output", "role": "user", "output": "ok", "tool_call_id": tid})


def ptext(et: str, text: str = "") -> bytes:
    return line("model_msg", {"type": "partial_text", "role": "assistant", "event_type": et, "text": text})


def run(lines: list[bytes], profile: str = "trace", **kw: Any) -> list[tuple[str, int]]:
    v = Validator(profile, **kw)
    found: list[Finding] = []
    for raw in lines:
        found.extend(v.feed(raw))
    found.extend(v.finish())
    return [(f.rule, f.line) for f in found]


# ------------------------------------------------------------------ clean inputs


def test_synthetic_trace_and_stream_are_clean() -> None:
    trace = b"".join(trace_lines(400_000, seed=7))
    stream = b"".join(stream_lines(400_000, seed=8))
    assert run(trace.splitlines()) == []
    assert run(stream.splitlines(), "stream") == []
    # the stream carries what traces never hold
    found = {r for r, _ in run(stream.splitlines(), "trace")}
    assert {"OM201", "OM203", "OM204"} <= found


def test_example_trace_is_clean() -> None:
    path = ROOT / "examples" / "trace.jsonl"
    if not path.exists():
        pytest.skip("no bundled example trace")
    v = Validator("trace", source=str(path))
    for ln in iter_messages(path):
        assert list(v.feed(ln)) == [], ln
    assert [f.rule for f in v.finish()] == []


# ------------------------------------------------------------------ the API


def test_feed_accepts_lines_messages_and_reader_lines() -> None:
    v = Validator("trace", source="x")
    assert list(v.feed(META + b"\n")) == []
    assert list(v.feed(BEGIN.decode())) == []
    assert list(v.feed(om.decode(USAGE))) == []
    assert list(v.feed(om.decode(END, lenient=True))) == []
    opaque = om.decode(b'{"timestamp":"x","type":"event_msg","payload":{"type":"future_event"}}', lenient=True)
    assert isinstance(opaque, om.OpaqueMessage)
    found = v.feed(opaque)
    assert [(f.rule, f.line, f.path) for f in found] == [("OM112", 5, "x")]
    assert v.lines == 5 and v.messages == 4
    assert list(v.finish()) == []
    with pytest.raises(TypeError):
        v.feed(42)
    with pytest.raises(ValueError):
        Validator("sse")


def test_finding_has_rule_metadata() -> None:
    v = Validator("trace", source="t.jsonl")
    (f,) = v.feed(BEGIN)
    assert (f.rule, f.severity, f.path, f.line, f.name) == ("OM201", "error", "t.jsonl", 1, RULES["OM201"].name)
    assert f.hint == RULES["OM201"].hint
    d = f.to_dict()
    assert d["rule"] == "OM201" and d["hint"] and d["message"]


def test_messages_built_in_python_are_checked_like_their_lines() -> None:
    bad = om.ModelMessage(timestamp=TS, payload=om.TextPayload(role="user", text=5))  # type: ignore[arg-type]
    v = Validator("stream")
    assert [f.rule for f in v.feed(bad)] == ["OM109"]


# ------------------------------------------------------------------ rules, by example


def test_timestamps() -> None:
    ok = ["2026-07-18T03:10:22.531Z", "2026-07-18T03:10:22Z", "2024-02-29T23:59:59.123456Z"]
    bad = ["2026-07-18T03:10:22.531", "2026-07-18T03:10:22+00:00", "2026-07-18 03:10:22Z", "2025-02-29T00:00:00Z",
           "2026-13-01T00:00:00Z", "2026-07-18T24:00:00Z", "1784344222531", "2026-07-18t03:10:22z",
           "\uff12\uff10\uff12\uff16-07-18T03:10:22Z"]
    for ts in ok:
        assert run([line("event_msg", {"type": "hook", "hook": "stop", "name": "h"}, ts=ts)], "stream") == []
    for ts in bad:
        assert run([line("event_msg", {"type": "hook", "hook": "stop", "name": "h"}, ts=ts)], "stream") == [
            ("OM701", 1)], ts
    seq = ["2026-07-18T03:10:22.500Z", "2026-07-18T03:10:22.5Z", "2026-07-18T03:10:22.50Z", "2026-07-18T03:10:22Z"]
    found = run([line("event_msg", {"type": "hook", "hook": "stop", "name": "h"}, ts=t) for t in seq], "stream")
    assert found == [("OM702", 4)]


def test_streaming_key_includes_tool_call_id_so_segments_interleave() -> None:
    def pc(et: str, tid: str, args: str = "") -> bytes:
        return line("model_msg", {"type": "partial_tool_call", "role": "assistant", "event_type": et, "name": "t",
                                  "arguments": args, "tool_call_id": tid})

    def tc(tid: str, args: str) -> bytes:
        return line("model_msg", {"type": "tool_call", "role": "assistant", "name": "t", "arguments": args,
                                  "tool_call_id": tid})

    lines = [BEGIN, pc("start", "a"), pc("start", "b"), pc("delta", "a", "{}"), pc("delta", "b", "[1]"),
             pc("stop", "b"), tc("b", "[1]"), pc("stop", "a"), tc("a", "{}"), USAGE, END, output("a"), output("b")]
    assert run(lines, "stream") == []
    # the complete of `a` after the stop of `b` breaks "immediately"
    lines = [BEGIN, pc("start", "a"), pc("start", "b"), pc("stop", "b"), pc("stop", "a"), tc("b", ""), tc("a", "")]
    found = run(lines, "stream")
    assert ("OM303", 6) in found


def test_child_sessions_have_their_own_state() -> None:
    child = ["c-1"]
    meta = line("session_meta", {"session_id": "c-1", "provider": "p", "model_id": "m", "model_context_window": 1,
                                 "system_prompt": "", "agent_state": "/a", "workspace": "/w"}, origin=child)
    lines = [BEGIN, meta, line("event_msg", {"type": "request_begin"}, origin=child), call("x"),
             line("model_msg", {"type": "tool_call", "role": "assistant", "name": "t", "arguments": "{}",
                                "tool_call_id": "x"}, origin=child),
             USAGE, END, output("x"), line("event_msg", {"type": "request_end", "status": "aborted"}, origin=child)]
    found = run(lines, "stream")
    # the child's call x is not the main session's call x; the child's call has no output
    assert found == [("OM421", 5)]


def test_pairing_outputs_answer_calls() -> None:
    assert run([META, call("a"), output("a")]) == []
    assert run([META, output("a")]) == [("OM401", 2)]
    assert run([META, call("a"), output("a"), output("a")]) == [("OM402", 4)]
    assert run([META, call("a"), call("a"), output("a")]) == [("OM403", 3)]
    assert run([META, call("a")]) == [("OM421", 2)]


def test_closed_call_window_bounds_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_mod, "CLOSED_WINDOW", 50)
    v = Validator("trace")
    v.feed(META)
    for i in range(500):
        assert not v.feed(call(f"c{i}")) and not v.feed(output(f"c{i}"))
    s = v._main
    assert len(s.calls) == 0 and len(s.closed) == 50
    assert [f.rule for f in v.feed(output("c499"))] == ["OM402"]  # still remembered
    assert [f.rule for f in v.feed(output("c0"))] == ["OM401"]  # forgotten: only "no call" can be said


def test_state_stays_bounded_over_a_long_stream() -> None:
    v = Validator("stream", source="s")
    for raw in stream_lines(1_500_000, seed=3):
        assert not v.feed(raw)
    for s in [v._main, *v._children.values()]:
        assert not s.segs and not s.awaiting and not s.calls and not s.req
    assert len(v._children) < 40
    assert not v.finish()


def test_end_of_input_rules_and_truncated() -> None:
    lines = [BEGIN, ptext("start"), ptext("delta", "x")]
    found = run(lines, "stream")
    assert found == [("OM420", 1), ("OM308", 2)]
    v = Validator("stream", truncated=True)
    for raw in lines:
        v.feed(raw)
    sev = {f.rule: f.severity for f in v.finish()}
    assert sev == {"OM308": "warning", "OM420": "warning"}


def test_torn_last_line_vs_malformed_middle_line() -> None:
    torn = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"ty'
    v = Validator("trace")
    v.feed(META)
    assert [(f.rule, f.severity) for f in v.feed(torn, terminated=False)] == [("OM001", "warning")]
    # mid-file, the trace writer's crash heal: a warning (facts 9); in a stream, an error
    v = Validator("trace")
    v.feed(META)
    assert not v.feed(torn)  # a heal is followed by a record: the next line settles it
    assert [(f.rule, f.severity) for f in v.feed(BEGIN)] == [("OM005", "warning")]
    v = Validator("trace")
    v.feed(META)
    v.feed(torn)
    assert [(f.rule, f.severity) for f in v.finish()] == [("OM102", "error")]  # nothing after it: no heal
    v = Validator("stream")
    assert [(f.rule, f.severity) for f in v.feed(torn)] == [("OM102", "error")]
    # bytes of two records spliced together are no crash heal: an error
    v = Validator("trace")
    v.feed(META)
    assert [(f.rule, f.severity) for f in v.feed(torn + BEGIN)] == [("OM102", "error")]
    # a complete but schema-invalid last line is not torn: the schema finding plus the missing LF
    v = Validator("trace")
    v.feed(META)
    bad = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"nope"}}'
    assert sorted(f.rule for f in v.feed(bad, terminated=False)) == ["OM002", "OM112"]
    # torn means what the readers mean: a tail that does not parse. Messages glued with no line
    # feed, or a tail nested too deep, keep their category (errors), as `omnimessage canonicalize`
    # reports them.
    for tail, rule in [(BEGIN.rstrip(b"\n") * 3, "OM103"), (b"[" * 100_000, "OM104")]:
        v = Validator("trace")
        v.feed(META)
        assert sorted(f.rule for f in v.feed(tail, terminated=False)) == ["OM002", rule]
    # a last line ending with CR and no LF has no CR LF ending (OM003): its LF is missing, and the
    # CR is whitespace the canonical form has not
    v = Validator("trace")
    v.feed(META)
    assert sorted(f.rule for f in v.feed(BEGIN.rstrip(b"\n") + b"\r", terminated=False)) == ["OM002", "OM114"]
    v = Validator("trace")
    v.feed(META)
    assert [f.rule for f in v.feed(BEGIN.rstrip(b"\n") + b"\r")] == ["OM003"]


def test_every_decode_category_becomes_its_rule() -> None:
    samples = {
        "invalid_utf8": b'{"a":"\xff"}',
        "invalid_json": b"{",
        "trailing_data": META + b" x",
        "too_deep": b'{"a":' + b"[" * 600 + b"]" * 600 + b"}",
        "duplicate_key": b'{"type":"event_msg","type":"event_msg"}',
        "lone_surrogate": b'{"timestamp":"\\ud800","type":"event_msg","payload":{"type":"request_begin"}}',
        "invalid_number": b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":'
                          b'"compaction_begin","reason":"manual","mode":"discard","context":1.0,"turns":1}}',
        "wrong_type": b"[]",
        "missing_field": b'{"type":"event_msg","payload":{"type":"request_begin"}}',
        "unexpected_field": b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":'
                            b'"request_begin","x":1}}',
        "unknown_type": b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"other","payload":{}}',
        "invalid_value": b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"text",'
                         b'"role":"robot","text":""}}',
    }
    for cat, raw in samples.items():
        with pytest.raises(om.DecodeError) as exc:
            om.decode(raw)
        assert exc.value.category == cat, (cat, exc.value)
        rules = [f.rule for f in Validator("stream").feed(raw)]
        assert rules == [CATEGORY_RULES[cat]], (cat, rules)
    v = Validator("stream")
    v.feed_raw(None, 1)
    assert [f.rule for f in v.take()] == ["OM105"]


def test_a_refused_line_does_not_cascade() -> None:
    bad_end = line("event_msg", {"type": "request_end", "status": "completed"})[:-2] + b',"extra":true}}'
    found = run([META, BEGIN, USAGE, bad_end, BEGIN, USAGE, END])
    assert found == [("OM111", 4)]  # no OM406 for the next request_begin
    bad_call = call("a")[:-2] + b',"nope":1}}'
    assert run([META, bad_call, output("a")]) == [("OM111", 2)]  # the call still counts
    failed_end = END.replace(b'"completed"', b'"failed"')
    assert run([META, BEGIN, USAGE, failed_end, BEGIN, USAGE, END]) == [("OM113", 4)]


def test_legacy_spellings() -> None:
    old_meta = META[:-2] + b',"thinking_level":"high","source":"benchmark"}}'
    old_end = line("event_msg", {"type": "request_end", "status": "fatal", "error_code": "auth"})[:-2] + \
        b',"message":"401"}}'
    lines = [old_meta, BEGIN, USAGE, old_end]
    assert sorted(run(lines)) == [("OM111", 1), ("OM111", 4)]
    assert sorted(run(lines, legacy=True)) == [("OM752", 1), ("OM755", 4), ("OM756", 1)]
    v = Validator("trace", legacy=True)
    assert all(f.severity == "warning" for raw in lines for f in v.feed(raw))
    # legacy normalisation does not hide another defect of the same line
    both = old_end.replace(b'"fatal"', b'"failed"')[:-2] + b',"extra":1}}'
    assert sorted(run([META, BEGIN, USAGE, both], legacy=True)) == [("OM111", 4), ("OM751", 4), ("OM755", 4)]


def test_refined_schema_rules() -> None:
    def ev(payload: bytes) -> bytes:
        return b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":' + payload + b"}"

    assert run([META, ev(b'{"type":"request_end","status":"completed","attempt":0}')])[0] == ("OM504", 2)
    assert run([META, ev(b'{"type":"abort","error_code":"network"}')]) == [("OM505", 2)]
    assert run([META, ev(b'{"type":"compaction_begin","reason":"manual","mode":"discard","context":1,"turns":1}'),
                ev(b'{"type":"compaction_end","reason":"manual","mode":"discard","status":"retryable",'
                   b'"error_code":"timeout","error_message":"t","retry_in_ms":5}')]) == [("OM503", 3)]


def test_unsafe_ids_are_never_paths() -> None:
    for sid in ["../x", "a/b", "a\\b", "", "a\x00b", ".."]:
        sub = line("event_msg", {"type": "subagent", "session_id": sid})
        v = Validator("trace", collect_subagents=True)
        v.feed(META)
        assert [f.rule for f in v.feed(sub)] == ["OM602"], sid
        assert v.subagents == []


# ------------------------------------------------------------------ robustness


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=200), max_size=8), st.sampled_from(["trace", "stream"]), st.booleans())
def test_never_raises_on_random_bytes(chunks: list[bytes], profile: str, legacy: bool) -> None:
    v = Validator(profile, legacy=legacy)
    for i, c in enumerate(chunks):
        v.feed(c.replace(b"\n", b""), terminated=i < len(chunks) - 1)
    v.finish()


_VALID = [raw.rstrip(b"\n") for raw in stream_lines(60_000, seed=11)]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_never_raises_on_mutated_streams(data: st.DataObject) -> None:
    lines = list(_VALID[: data.draw(st.integers(10, len(_VALID)))])
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "swap", "cut", "flip", "splice"]))
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif op == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        elif op == "flip" and lines[i]:
            j = data.draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:j] + bytes([data.draw(st.integers(0, 255))]) + lines[i][j + 1 :]
        elif op == "splice":
            for key in (b'"delta"', b'"start"', b'"stop"', b'"completed"', b'"user"', b'"toolu_'):
                lines[i] = lines[i].replace(key, data.draw(st.sampled_from([b'"stop"', b'"failed"', b'1', b'"x"'])), 1)
        if not lines:
            return
    for legacy in (False, True):
        v = Validator(data.draw(st.sampled_from(["trace", "stream"])), legacy=legacy)
        for raw in lines:
            for f in v.feed(raw):
                assert f.rule in RULES
        for f in v.finish():
            assert f.rule in RULES


# ------------------------------------------------------------------ registry and docs


def test_registry_is_complete_and_well_formed() -> None:
    assert set(CATEGORY_RULES) == set(om.CATEGORIES) - {"truncated"}
    for r in RULES.values():
        assert r.id.startswith("OM") and len(r.id) == 5
        assert r.severity in ("error", "warning")
        assert r.profiles and r.profiles <= {"trace", "stream"}
        assert r.explanation and r.hint and r.summary and r.name
        assert any(r.id.startswith(g) for g, _, _ in GROUPS)
    names = [r.name for r in RULES.values()]
    assert len(names) == len(set(names))
    assert select_rules(["OM75"]) == {r for r in RULES if r.startswith("OM75")}
    assert select_rules(["unsafe-session-id"]) == {"OM602"}


def test_rules_md_is_fresh() -> None:
    path = ROOT / "docs" / "rules.md"
    assert path.read_text(encoding="utf-8") == render(), (
        "docs/rules.md is stale: run `.venv/bin/python -m omnimessage.validate.engine.catalogue > docs/rules.md`"
    )
    for rid in RULES:
        assert f'<a id="{rid.lower()}"></a>' in render()


def test_docs_main_writes_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    from omnimessage.validate.engine.catalogue import main

    assert main() == 0
    assert capsys.readouterr().out == render()


def test_io_helpers_do_not_hold_whole_inputs() -> None:
    # the runner reads line by line: a BytesIO with a huge unterminated line is skipped, not kept
    from omnimessage.reader import iter_lines
    from omnimessage.validate.engine.feed import UnitResult, play

    v = Validator("trace")
    found: list[Finding] = []
    data = META + b"\n" + b"x" * 5000 + b"\n" + END + b"\n"
    play(iter_lines(io.BytesIO(data), max_line_bytes=1000), found.append, UnitResult(""), validator=v)
    assert [(f.rule, f.line) for f in found] == [("OM105", 2), ("OM406", 3)]


def test_no_opening_finding_after_an_undecodable_first_line() -> None:
    assert run([b"\xef\xbb\xbf" + META, BEGIN, USAGE, END]) == [("OM102", 1)]
    assert run([BEGIN, META]) == [("OM201", 1), ("OM420", 1)]


def test_legacy_records_do_not_also_get_error_pair_warnings() -> None:
    old_end = line("event_msg", {"type": "request_end", "status": "completed"}).replace(b'"completed"', b'"failed"')
    assert run([META, BEGIN, USAGE, old_end], legacy=True) == [("OM751", 4)]
    # ... but the next, current record does
    fatal = line("event_msg", {"type": "request_end", "status": "fatal"})
    garbage = b'{"timestamp":"x","type":"event_msg","payload":{"type":"request_end","status":"failed","x":[}'
    assert run([META, BEGIN, USAGE, old_end, garbage, BEGIN, USAGE, fatal], legacy=True) == [
        ("OM751", 4), ("OM102", 5), ("OM506", 8)]


def test_package_docstring_example() -> None:
    import doctest

    import omnimessage.validate as pkg

    assert doctest.testmod(pkg).failed == 0
