"""The fused hot path (`omnimessage.validate.engine.fused.step`) against its reference, the general path
(`Validator.feed_raw`): the same findings (rule, line, pointer, message, severity) on every validator
fixture, the producer corpus, the bench corpora's generators and damaged variants of them (lines cut,
swapped, dropped; a delta's fragment changed; a line's bytes cut short).

`reference` swaps the fused path out for the general one wherever the engine calls it (`feed`, the
sources' loop), so that the whole input path, sources and all, runs once each way."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT as CHECKOUT

from omnimessage.validate import Validator
from omnimessage.validate.api import validate_path
from omnimessage.validate.engine import feed, fused
from omnimessage.validate.engine import validator as engine
from omnimessage_dev.synth.corpora import stream, trace

VALIDATOR = CHECKOUT / "conformance" / "validator"
PRODUCERS = CHECKOUT / "conformance" / "producers"
EXPECTS = sorted(VALIDATOR.glob("OM*/*.expect.json"))

Row = tuple[str, int, str, str, str, str]


def _general(v: Validator, raw: bytes, line: int, terminated: bool) -> None:
    v.feed_raw(raw, line, terminated)


@contextmanager
def reference() -> Iterator[None]:
    """The general path wherever the engine takes the fused one."""
    saved = engine.step, feed.step
    engine.step = feed.step = _general
    try:
        yield
    finally:
        engine.step, feed.step = saved


def _rows(report: Any) -> list[Row]:
    """The findings, then the counts (lines, messages)."""
    return [(f.rule, f.line, f.pointer, f.message, f.severity, f.path) for f in report.findings] + [
        ("counts", report.lines, str(report.messages), "", "", "")]


def _both(run: Callable[[], list[Row]]) -> tuple[list[Row], list[Row]]:
    fast = run()
    with reference():
        slow = run()
    return fast, slow


def _fixture_args(expect: Path) -> tuple[Path, dict[str, Any]]:
    meta = json.loads(expect.read_text(encoding="utf-8"))
    stem = expect.name[: -len(".expect.json")]
    target = expect.parent / (stem + {"jsonl": ".jsonl", "sse": ".sse", "dir": ""}[meta["input"]])
    opts = dict(meta.get("options", {}))
    kwargs: dict[str, Any] = {k: opts[k] for k in ("legacy", "lenient", "truncated", "protocol", "max_line_bytes")
                              if k in opts}
    if meta["input"] == "sse":
        kwargs["sse"] = True
    else:
        kwargs["profile"] = meta["profile"]
    return target, kwargs


@pytest.mark.parametrize("expect", EXPECTS, ids=[f"{p.parent.name}/{p.name[:-12]}" for p in EXPECTS])
def test_validator_fixtures(expect: Path) -> None:
    target, kwargs = _fixture_args(expect)
    fast, slow = _both(lambda: _rows(validate_path(target, **kwargs)))
    assert fast == slow


PRODUCER_ENTRIES = json.loads((PRODUCERS / "index.json").read_text(encoding="utf-8"))["entries"]


@pytest.mark.parametrize("entry", PRODUCER_ENTRIES, ids=[e["path"] for e in PRODUCER_ENTRIES])
def test_producer_corpus(entry: dict[str, Any]) -> None:
    kwargs: dict[str, Any] = dict(entry["options"])
    if entry["input"] == "sse":
        kwargs["sse"] = True
    else:
        kwargs["profile"] = entry["profile"]
    fast, slow = _both(lambda: _rows(validate_path(PRODUCERS / entry["path"], **kwargs)))
    assert fast == slow


# ------------------------------------------------------------------ line by line, damaged inputs


def _feed(lines: list[bytes], profile: str, *, midstream: bool = False, how: str = "feed") -> list[Row]:
    """Findings of `lines` (without line feeds) fed by `how`: `feed_raw` (the general path), `feed` (the
    fused step a line) or `validate_lines` (the fused loop)."""
    v = Validator(profile)
    if midstream:
        v.unknown_past()
    if how == "validate_lines":
        out = list(v.validate_lines(lines))
    elif how == "feed":
        out = [f for ln in lines for f in v.feed(ln)] + list(v.finish())
    else:
        for n, ln in enumerate(lines, 1):
            v.feed_raw(ln, n)
        out = list(v.finish())
    counts = ("counts", v.lines, f"{v.messages} {v.file_lines} {v.file_msgs} {v.line}", "", "", "")
    return [(f.rule, f.line, f.pointer, f.message, f.severity, f.path) for f in out] + [counts]


def _all_ways(lines: list[bytes], profile: str, *, midstream: bool = False) -> None:
    """The fused step and loop against the general path: lines without line feeds, then with them (the
    last one without: OM002)."""
    slow = _feed(lines, profile, midstream=midstream, how="feed_raw")
    assert _feed(lines, profile, midstream=midstream, how="feed") == slow
    assert _feed(lines, profile, midstream=midstream, how="validate_lines") == slow
    v, r = Validator(profile), Validator(profile)
    if midstream:
        v.unknown_past()
        r.unknown_past()
    got = list(v.validate_lines([ln + b"\n" for ln in lines[:-1]] + lines[-1:]))
    for n, ln in enumerate(lines, 1):
        r.feed_raw(ln, n, n < len(lines))
    assert got == list(r.finish())
    assert (v.lines, v.messages, v.file_lines, v.file_msgs, v.line) == (r.lines, r.messages, r.file_lines,
                                                                        r.file_msgs, r.line)


def _corrupt_delta(lines: list[bytes], rnd: random.Random) -> list[bytes]:
    """One delta's fragment changed (a character replaced, added or removed)."""
    deltas = [i for i, ln in enumerate(lines) if b'"event_type":"delta"' in ln]
    out = list(lines)
    for i in rnd.sample(deltas, min(3, len(deltas))):
        m = json.loads(out[i])
        p = m["payload"]
        field = next(k for k in ("text", "thinking", "arguments", "output") if k in p)
        frag = p[field]
        p[field] = rnd.choice([frag + "x", frag[1:], "Z" + frag[1:]])
        if rnd.random() < 0.3 and "name" in p:
            p["name"] = "other_tool"
        text = json.dumps(m, ensure_ascii=False, separators=(",", ":"))
        try:
            out[i] = text.encode()
        except UnicodeEncodeError:  # a half of a pair: escaped (a line the general path then decodes)
            out[i] = json.dumps(m, separators=(",", ":")).encode()
    return out


def _damaged(lines: list[bytes], seed: int) -> Iterator[tuple[str, list[bytes]]]:
    rnd = random.Random(seed)
    n = len(lines)
    yield "whole", lines
    yield "truncated", lines[: rnd.randrange(1, n)]
    cut = list(lines)
    k = rnd.randrange(n)
    cut[k] = cut[k][: len(cut[k]) // 2]  # a line's bytes cut short
    yield "cut-line", cut
    for j in range(3):
        swapped = list(lines)
        for _ in range(1 + j * 5):
            i = rnd.randrange(n - 1)
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        yield f"swapped-{j}", swapped
        dropped = [ln for ln in lines if rnd.random() > 0.02 * (j + 1)]
        yield f"dropped-{j}", dropped
        yield f"corrupt-delta-{j}", _corrupt_delta(lines, rnd)
    yield "crlf", [ln + b"\r" if rnd.random() < 0.05 else ln for ln in lines]


def _corpus(name: str) -> list[bytes]:
    gen = {"stream": stream, "trace": trace}[name]
    return [ln.rstrip(b"\n") for ln in gen(48 << 10 if name == "stream" else 192 << 10)]


@pytest.fixture(params=["native", "python"])
def deltas(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The fused loop with the accelerator's `deltas` (when built), then without it (the Python loop alone,
    as in a build without a compiler)."""
    if request.param == "python":
        monkeypatch.setattr(fused, "DELTAS", None)
    return str(request.param)


@pytest.mark.parametrize("name", ["stream", "trace"])
def test_bench_corpora_and_damaged_variants(name: str, deltas: str) -> None:
    lines = _corpus(name)
    assert len(lines) > 50
    for _what, variant in _damaged(lines, seed=len(lines)):
        for midstream in (False, True):
            _all_ways(variant, name, midstream=midstream)


def _state(v: Validator) -> tuple[Any, ...]:
    """What the fused loop keeps besides findings: the counters, the main session's clock, the budget and
    its open segments (their fragments, or their digests)."""
    m = v.main
    segs = [(k[0].__name__, k[1], s.line, s.size, s.parts, s.prefix, s.hashed, s.chars, s.name)
            for k, s in (*m.segs.items(), *m.awaiting.items())]
    return v.line, v.lines, v.file_lines, v.messages, m.ts, m.ts_line, v.budget.left, segs


@pytest.mark.parametrize("budget", [1 << 20, 3000])
def test_state_after_each_way(budget: int, deltas: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fused loop leaves the state the general path leaves (checked before `finish`, on a stream cut
    anywhere), also with a budget small enough that segments keep digests."""
    from omnimessage.validate.engine import state

    monkeypatch.setattr(state, "SEGMENT_TEXT", budget)
    lines = _corpus("stream")
    for _what, variant in _damaged(lines, seed=3):
        for cut in (len(variant), len(variant) // 3, len(variant) // 2 + 7):
            part = variant[:cut]
            fast, slow = Validator("stream"), Validator("stream")
            got = list(fast.validate_lines([ln + b"\n" for ln in part]))  # (validate_lines finishes: state kept)
            for n, ln in enumerate(part, 1):
                slow.feed_raw(ln, n)
            want = list(slow.finish())
            assert got == want
            assert _state(fast) == _state(slow)


STREAMS = sorted(PRODUCERS.glob("*.stream.jsonl"))


@pytest.mark.parametrize("path", STREAMS, ids=[p.name for p in STREAMS])
def test_producer_streams_damaged(path: Path, deltas: str) -> None:
    lines = path.read_bytes().splitlines()
    for _what, variant in _damaged(lines, seed=7):
        _all_ways(variant, "stream")


_TS = iter(range(10**6))


def _m(payload: dict[str, Any], kind: str = "model_msg") -> bytes:
    """A line of `payload`, a millisecond after the last one."""
    n = next(_TS)
    ts = f"2026-07-18T03:{n // 60000 % 60:02d}:{n // 1000 % 60:02d}.{n % 1000:03d}Z"
    return json.dumps({"timestamp": ts, "type": kind, "payload": payload}, separators=(",", ":")).encode()


def _text(et: str, text: str) -> bytes:
    return _m({"type": "partial_text", "role": "assistant", "event_type": et, "text": text})


def _call(et: str, tid: str, args: str, name: str = "f") -> bytes:
    return _m({"type": "partial_tool_call", "role": "assistant", "event_type": et, "name": name, "arguments": args,
               "tool_call_id": tid})


def _out(et: str, tid: str, out: str, images: list[str] | None = None) -> bytes:
    p: dict[str, Any] = {"type": "partial_tool_call_output", "role": "user", "event_type": et, "output": out}
    if images is not None:
        p["images"] = images
    return _m({**p, "tool_call_id": tid})


def _event(kind: str, **fields: Any) -> bytes:
    return _m({"type": kind, **fields}, "event_msg")


IMAGE = "data:image/png;base64,iVBORw0KGgo="
USAGE = {"cache_read": 0, "cache_write": 1, "output": 1, "total": 2}
CRAFTED: dict[str, list[bytes]] = {
    # a start while the segment is open (OM302), a delta after its stop (OM301)
    "restart": [_text("start", "a"), _text("start", "b"), _text("stop", ""), _text("delta", "c")],
    # parallel tools: B's stop takes the expectation, A starts again before its complete output (OM303)
    "late-start": [_out("start", "A", "x"), _out("stop", "A", ""), _out("start", "B", "y"), _out("stop", "B", ""),
                   _out("start", "A", "z")],
    # more open segments than the cap (OM007), then fragments of them
    "cap": [_call("start", f"c{i}", "{") for i in range(130)] + [_call("delta", "c129", "x"),
                                                                 _call("stop", "c0", "}")],
    # a compaction's summary: stopped, no complete text after it
    "compaction": [_event("compaction_begin", reason="context", mode="summarize", context=10, turns=1),
                   _text("start", ""), _text("delta", "sum"), _text("stop", ""),
                   _event("compaction_end", reason="context", mode="summarize", status="completed", attempt=1)],
    # assistant output after the request's token_usage (OM407)
    "after-usage": [_event("request_begin"), _event("token_usage", session=USAGE, request=USAGE),
                    _text("start", ""), _text("delta", "late"), _text("stop", "")],
    # a tool name changed on a delta and on a stop (OM306)
    "names": [_call("start", "n", "", "a"), _call("delta", "n", "{", "b"), _call("stop", "n", "}", "c")],
    # two tools' outputs streamed at once, their deltas interleaved (each goes to its own segment), and
    # two texts' deltas in a row of one segment after another's
    "interleaved": [_out("start", "A", ""), _out("start", "B", ""), _out("delta", "A", "a1"), _out("delta", "B", "b1"),
                    _out("delta", "B", "b2"), _out("delta", "A", "a2"), _out("stop", "A", ""),
                    _m({"type": "tool_call_output", "role": "user", "output": "a1a2", "tool_call_id": "A",
                        "stop_reason": "completed"}),
                    _out("stop", "B", ""),
                    _m({"type": "tool_call_output", "role": "user", "output": "b1b2", "tool_call_id": "B",
                        "stop_reason": "completed"})],
    # images on a start, twice on deltas, on a stop (OM307)
    "images": [_out("start", "i", "", [IMAGE]), _out("delta", "i", "o", [IMAGE]), _out("delta", "i", "p", [IMAGE]),
               _out("stop", "i", "", [IMAGE])],
    # a complete call whose id an answered call had (OM403), each request-prefix digest wrong alone (OM707)
    "answered-id": [_m({"type": "tool_call", "role": "assistant", "name": "f", "arguments": "{}", "tool_call_id": "a"}),
                    _m({"type": "tool_call_output", "role": "user", "output": "o", "tool_call_id": "a"}),
                    _m({"type": "tool_call", "role": "assistant", "name": "f", "arguments": "{}", "tool_call_id": "a"})],
    "digests": [_event("request_begin", prefix_hash="X" * 32, prefix_head_hash="0" * 32),
                _event("request_end", status="completed"),
                _event("request_begin", prefix_hash="0" * 32, prefix_head_hash="X" * 32)],
    # retry_in_ms on a completed request_end (OM502)
    "retry-completed": [_event("request_begin"), _event("request_end", status="completed", retry_in_ms=500)],
}


def _answered(tid: str) -> list[bytes]:
    return [_m({"type": "tool_call", "role": "assistant", "name": "f", "arguments": "{}", "tool_call_id": tid}),
            _m({"type": "tool_call_output", "role": "user", "output": "o", "tool_call_id": tid})]


def test_the_answered_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session remembers the last CLOSED_WINDOW answered ids: a second output for one of them is OM402,
    for one gone out of the window OM401."""
    monkeypatch.setattr(engine, "CLOSED_WINDOW", 2)
    lines = [*_answered("a"), *_answered("b"), *_answered("c")]
    lines += [_m({"type": "tool_call_output", "role": "user", "output": "o", "tool_call_id": t}) for t in "acb"]
    _all_ways(lines, "stream")
    assert [r[0] for r in _feed(lines, "stream", how="feed_raw")] == ["OM401", "OM402", "OM402", "counts"]


@pytest.mark.parametrize("name", sorted(CRAFTED))
def test_crafted_streams(name: str, deltas: str) -> None:
    """What the corpora seldom hold: each case a handler must leave to the general path."""
    lines = CRAFTED[name]
    for midstream in (False, True):
        _all_ways(lines, "stream", midstream=midstream)
    assert _feed(lines, "stream", how="feed_raw")[:-1] or name == "compaction"  # the general path finds something


@pytest.mark.parametrize("deltas", ["native", "python"])
def test_the_fused_path_is_taken(deltas: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison means something only if the fused handlers run: on a clean stream they take
    every fragment of the main session (a forwarded one goes the general way), the accelerator's
    `deltas` (when built) the deltas it can, the Python handlers the rest. (Without the native fast path,
    OMNIMESSAGE_PURE=1, nothing is fused: every line takes the general path.)"""
    if fused._NATIVE is None:
        pytest.skip("no native fast path: the general path takes every line")
    handled = 0
    handlers = dict(fused.FRAGMENTS)

    def counting(h: Callable[..., bool]) -> Callable[..., bool]:
        def wrapped(*args: Any) -> bool:
            nonlocal handled
            took = h(*args)
            handled += took
            return took
        return wrapped

    native = fused.DELTAS
    taken = 0
    if deltas == "python" or native is None:
        monkeypatch.setattr(fused, "DELTAS", None)
    else:
        def counted(item: object, items: Any, v: Any, *rest: Any) -> Any:
            nonlocal taken
            before = v.line
            got = native(item, items, v, *rest)
            taken += v.line - before  # the lines it took (it writes the line number back)
            return got
        monkeypatch.setattr(fused, "DELTAS", counted)
    lines = _corpus("stream")
    for cls, h in handlers.items():
        fused.FRAGMENTS[cls] = counting(h)
    try:
        assert _feed(lines, "stream")[:-1] == []
    finally:
        fused.FRAGMENTS.update(handlers)
    parts = sum(1 for ln in lines if b'"type":"partial_' in ln and b'"origin"' not in ln)
    assert parts > 50 and handled + taken == parts
    if deltas == "native" and native is not None:
        assert taken > parts // 2


def test_deltas_checks_what_it_is_given() -> None:
    """The accelerator's `deltas` raises on arguments it does not know (never assumes them), gives back a
    line it does not take with what it knows of it, and takes a delta of an open segment."""
    from omnimessage._generated.models import PartialTextPayload

    native = fused.DELTAS
    if native is None:
        pytest.skip("the accelerator's deltas is not built")
    v = Validator("stream")
    spec = fused.DELTAS_SPEC
    start, delta = _text("start", "a"), _text("delta", "b")
    with pytest.raises(TypeError):
        native(delta)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        native(delta, [delta], v, v.main, v.budget, spec, False, True)  # type: ignore[arg-type]  # not an iterator
    with pytest.raises(TypeError):
        native(delta, iter(()), v, v.main, v.budget, spec[:4], False, True)
    with pytest.raises(TypeError):
        native(delta, iter(()), v, v.main, v.budget, ({PartialTextPayload: "text"}, *spec[1:]), False, True)
    with pytest.raises(AttributeError):
        native(delta, iter(()), object(), v.main, v.budget, spec, False, True)  # type: ignore[arg-type]
    assert native(12, iter(()), v, v.main, v.budget, spec, False, True) == (12, None)
    assert native(b"{", iter(()), v, v.main, v.budget, spec, False, True) == (b"{", False)
    assert native(delta + b"\r", iter(()), v, v.main, v.budget, spec, False, True) == (delta + b"\r", None)
    got = native(start, iter(()), v, v.main, v.budget, spec, False, True)
    assert got is not None and got[0] == start and type(got[1].payload) is PartialTextPayload
    assert v.line == 0  # given back: nothing done
    v.feed(start)
    assert native(delta + b"\n", iter((delta + b"\n", b"[]\n")), v, v.main, v.budget, spec, True, False) == (b"[]\n", False)
    assert v.line == 3 and v.messages == 3 and next(iter(v.main.segs.values())).parts == ["a", "b", "b"]


def test_lines_of_both_kinds() -> None:
    """`validate_lines` given str lines among the bytes: those go through `feed`, and the loop's counts
    stay those of the general path."""
    lines = _corpus("trace")[:120]
    items: list[bytes | str] = [ln.decode() if i % 7 == 3 else ln for i, ln in enumerate(lines)]
    v, r = Validator("trace"), Validator("trace")
    got = list(v.validate_lines(items))
    for n, ln in enumerate(lines, 1):
        r.feed_raw(ln, n)
    assert got == list(r.finish())
    assert (v.lines, v.messages, v.file_lines, v.file_msgs, v.line) == (r.lines, r.messages, r.file_lines,
                                                                        r.file_msgs, r.line)
