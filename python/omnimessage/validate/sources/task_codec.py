"""The bytes a `--dask` task takes and returns (`distributed.py`): a chunk of units in, their results out.

Dask serialises a task's arguments and its result element by element: a list of 300 unit results is
300 serialisations, each with its own framing, type checks and metrics, on the worker's event loop (where
it holds the GIL the task thread needs) and again on the client. One `bytes` object is one pickle at
each end. Measured with `bench/scaling.py`'s archive (24,100 sessions in 80 tasks, one worker, cProfile
of the worker's event-loop thread): 24,262 `serialize` calls for 80 results; that thread's CPU per run
went from 2.6 to 0.8 seconds (0.7 of it Dask's idle heartbeats), against 7.5 seconds of validation.

- Units (:func:`pack_units`) are pickled as they are: they are of several kinds (a file, a session of
  a trace root, a session of a storage URL, an SSE capture), and a chunk is sent once.
- Results (:func:`pack_results`) travel as tuples of plain values (strings, integers, lists), which
  pickle writes and reads in C; a slotted dataclass goes through `dataclasses`' `__getstate__` and
  `__setstate__`, written in Python, for every result and every finding.

Pickle, not msgpack: a path or a message may hold a lone surrogate (a file name that is not UTF-8,
a line read with `--lenient`), which pickle keeps and UTF-8 cannot encode. The trust is Dask's own: a
client already unpickles what its scheduler sends (`distributed.py`, `TRUST_HINT`).
"""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from omnimessage.validate.engine.finding import Finding
from omnimessage.validate.sources.inputs import Unit, UnitResult

__all__ = ["FINDING_FIELDS", "RESULT_FIELDS", "pack_results", "pack_units", "unpack_results", "unpack_units"]

RESULT_FIELDS: Final = ("name", "findings", "lines", "messages", "bytes", "files", "subagents", "server_events",
                        "beyond", "failure", "note", "sessions", "producer", "day")
"""The fields of :class:`UnitResult` in the order a packed result holds them (a test holds this to the
class: a field added there and not here fails it)."""
FINDING_FIELDS: Final = ("rule", "severity", "message", "path", "line", "pointer")
"""The fields of :class:`Finding`, in the order of its constructor."""


def pack_units(chunk: Sequence[tuple[int, Unit]]) -> bytes:
    """A task's (index, unit) pairs as one bytes object."""
    return pickle.dumps(list(chunk), protocol=pickle.HIGHEST_PROTOCOL)


def unpack_units(blob: bytes) -> list[tuple[int, Unit]]:
    chunk: list[tuple[int, Unit]] = pickle.loads(blob)
    return chunk


def pack_results(results: Sequence[tuple[int, UnitResult]]) -> bytes:
    """(index, result) pairs as one bytes object, each result a tuple of plain values."""
    rows = [(i, r.name, [(f.rule, f.severity, f.message, f.path, f.line, f.pointer) for f in r.findings], r.lines,
             r.messages, r.bytes, r.files, r.subagents, dict(r.server_events), list(r.beyond.items()), r.failure,
             r.note, r.sessions, r.producer, r.day) for i, r in results]
    return pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL)


def _counter(items: Any) -> Counter[Any]:
    """A Counter of `items` (a dict, or (key, count) pairs), made without `Counter.__init__`, which is
    Python and costs more than the rest of a result when, as most often, there is nothing to count (a
    Counter holds nothing but its dict)."""
    out: Counter[Any] = Counter.__new__(Counter)
    if items:
        dict.update(out, items)
    return out


def unpack_results(blob: bytes) -> list[tuple[int, UnitResult]]:
    """What :func:`pack_results` packed: results equal to the ones packed."""
    rows: list[tuple[Any, ...]] = pickle.loads(blob)
    return [(i, UnitResult(name, [Finding(*f) for f in findings], lines, messages, nbytes, files, subagents,
                           _counter(events), _counter(beyond), failure, note, sessions, producer, day))
            for (i, name, findings, lines, messages, nbytes, files, subagents, events, beyond, failure, note,
                 sessions, producer, day) in rows]
