"""The one synthetic-message generator (dev/omnimessage_dev/synth): both flavours of its sessions
follow every protocol rule, its corpora are canonical, deterministic and of the size asked for."""

from __future__ import annotations

import pytest

import omnimessage as om
from omnimessage.validate import Validator
from omnimessage_dev.synth import corpora
from omnimessage_dev.synth.sessions import small_lines, stream_lines, trace_lines


def findings(lines: list[bytes], profile: str) -> list[tuple[str, int]]:
    v = Validator(profile, source="synth")
    found = [f for raw in lines for f in v.feed(raw.rstrip(b"\n"))]
    return [(f.rule, f.line) for f in [*found, *v.finish()]]


@pytest.mark.parametrize("rich", [False, True], ids=["plain", "rich"])
def test_sessions_follow_every_rule(rich: bool) -> None:
    trace = list(trace_lines(3_000_000 if rich else 600_000, seed=3, rich=rich))
    stream = list(stream_lines(2_000_000 if rich else 600_000, seed=3, rich=rich))
    assert findings(trace, "trace") == []
    assert findings(stream, "stream") == []
    if rich:  # compaction pairs included
        assert any(b'"type":"compaction_begin"' in raw for raw in trace)
        assert any(b'"type":"compaction_begin"' in raw for raw in stream)


@pytest.mark.parametrize("name", sorted(corpora.GENERATORS))
def test_corpora_are_canonical_deterministic_and_sized(name: str) -> None:
    gen, _ = corpora.GENERATORS[name]
    lines = list(gen(400_000))
    assert lines == list(gen(400_000))  # the same bytes for the same size and seed
    assert 400_000 <= sum(map(len, lines)) < 400_000 + 200_000
    for raw in lines:
        assert raw.endswith(b"\n") and om.encode(om.decode(raw.rstrip(b"\n"))) == raw.rstrip(b"\n")


def test_rich_trace_carries_what_the_benchmark_measures() -> None:
    data = b"".join(corpora.trace(3_000_000))
    assert b'"encrypted_content":"' in data and b'"images":["data:image/png;base64,' in data
    assert b'"type":"compaction_begin"' in data and b'"type":"tool_list_ready"' in data
    assert b"".join(small_lines(50_000)) != b"".join(small_lines(50_000, seed=4))
