"""`task_codec`: what a `--dask` task takes and returns, as bytes. A unit result comes back equal to
the one the worker made, every field of it (a lone surrogate in a path or a message included); the
units of a chunk come back equal; a task's bytes hold exactly what `validate_chunk` returns."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields
from pathlib import Path

from omnimessage.validate.engine.finding import Finding
from omnimessage.validate.sources import distributed as dd
from omnimessage.validate.sources.inputs import FileUnit, Options, SessionUnit, SseUnit, Unit, UnitResult
from omnimessage.validate.sources.storage import UrlSessionUnit
from omnimessage.validate.sources.task_codec import (
    FINDING_FIELDS,
    RESULT_FIELDS,
    pack_results,
    pack_units,
    unpack_results,
    unpack_units,
)


def test_the_packed_fields_are_the_classes_fields() -> None:
    """A field added to UnitResult or Finding and not to the codec would be dropped on the way back."""
    assert tuple(f.name for f in fields(UnitResult)) == RESULT_FIELDS
    assert tuple(f.name for f in fields(Finding)) == FINDING_FIELDS


def _full_result() -> UnitResult:
    """A result with no field left at its default; lone surrogates where input text goes."""
    path = "root/2026-03-28/s-\udcff_001.jsonl"  # a file name that is not UTF-8 (os.fsdecode)
    return UnitResult(
        name=path,
        findings=[Finding("OM201", "error", "bad \ud800 value", path, 3, "/content/0/\udfff"),
                  Finding("OM702", "warning", "late", path, 9)],
        lines=12, messages=11, bytes=4096, files=2,
        subagents=[("child-1", path, 4), ("child-\udc80", path, 7)],
        server_events=Counter({"message_start": 2, "<other>": 1}),
        beyond=Counter({("OM201", "error"): 40, ("OM702", "warning"): 1}),
        failure="unreadable: \udcfe", note="a note", sessions=1, producer=("codex", "openai", "gpt-x"),
        day="2026-03-28",
    )


def test_a_result_comes_back_equal_field_by_field() -> None:
    full, empty = _full_result(), UnitResult("plain.jsonl")
    back = unpack_results(pack_results([(7, full), (9, empty)]))
    assert back == [(7, full), (9, empty)]
    got = back[0][1]
    for name in RESULT_FIELDS:  # the same types too: what the client merges
        assert type(getattr(got, name)) is type(getattr(full, name)), name
    assert all(type(p) is tuple for p in got.subagents)
    got.beyond.update({("OM201", "error"): 2})  # a Counter like any other
    got.server_events["x"] += 1
    assert got.beyond[("OM201", "error")] == 42 and got.server_events["x"] == 1
    fresh = back[1][1]
    fresh.beyond[("OM1", "error")] += 1  # an empty one is its own, not shared
    assert unpack_results(pack_results([(9, empty)]))[0][1].beyond == Counter()


def test_units_come_back_equal() -> None:
    chunk: list[tuple[int, Unit]] = [
        (0, FileUnit("a/\udcff.jsonl", layout_warning=True, root="a")),
        (1, SessionUnit("s-1", ((1, "r/s-1_001.jsonl"), (2, "r/s-1_002.jsonl")), "r")),
        (2, SseUnit("capture.sse")),
        (5, UrlSessionUnit("s-2", ((1, "memory://r/d/s-2_001.jsonl"),), "memory://r", nbytes=10)),
    ]
    blob = pack_units(chunk)
    assert isinstance(blob, bytes) and unpack_units(blob) == chunk


def test_a_task_returns_what_validate_chunk_returns(tmp_path: Path) -> None:
    """`run_task`, the function the workers run, on files with findings (and one missing: a failure)."""
    chunk: list[tuple[int, Unit]] = []
    for i in range(3):
        p = tmp_path / f"f{i}.jsonl"
        p.write_bytes(b"{not json\n" * (i + 1) + b'{"type": "nothing"}\n')
        chunk.append((10 + i, FileUnit(str(p))))
    chunk.append((20, FileUnit(str(tmp_path / "gone.jsonl"))))
    opts = Options(max_findings=2)
    want = dd.validate_chunk(chunk, opts)
    got = unpack_results(dd.run_task(pack_units(chunk), opts))
    assert got == want
    assert [i for i, _ in got] == [10, 11, 12, 20]
    assert sum(len(r.findings) for _, r in got) > 3 and sum(sum(r.beyond.values()) for _, r in got) > 0
    assert got[-1][1].failure
    assert unpack_results(dd.run_task(pack_units(chunk), opts, 1)) == want[:1]  # the task's bound holds
