"""`omnimessage validate --dask ADDRESS|local[:N]`: the units of a run spread over a Dask cluster.

The unit of work is a session: the rotated files of one session travel together, so the cross-file
rules (rotation, a context's head, timestamps across files) hold exactly as in one process. A worker
validates a *chunk* of units: consecutive sessions batched by their work in bytes of input
(:func:`unit_work`: their size, plus `UNIT_COST_BYTES` per file), between `MIN_TASK_BYTES` and
`TASK_BYTES` and about `TASKS_PER_WORKER` tasks per worker thread, so each task carries far more work
than the scheduler's cost per task, whatever the size of the sessions; a session is never split, and one
bigger than a task is a task of its own. A chunk travels to its worker, and its results back, as one
bytes object each (:func:`run_task`, `task_codec`: Dask would serialise a list element by element). It
sends back one compact :class:`UnitResult` per unit:

- findings: at most `Options.max_findings` per unit, the rest counted per (rule, severity) in
  `beyond` (the same cap and the same counting as `--jobs`), so the summary still counts them all;
- `subagents`: the unit's `subagent` pointers, which the *client* resolves against the root's index
  (`resolve_subagents`: does the child session exist? it is never fetched). At most
  `MAX_SUBAGENT_POINTERS` pointers, holding at most `MAX_SUBAGENT_CHARS` characters of child ids, travel
  back per unit; pointers beyond are not resolved and the unit's note says how many (the one place a
  distributed report can differ from a local one, and only past these caps);
- `server_events`: at most `MAX_SERVER_EVENT_TYPES` (64) types plus `<other>` (sse.py), and only SSE
  captures have any;
- counts: lines, messages, bytes, files.

What travels back from one task is bounded whatever the sizes of the sessions: at most
`MAX_TASK_UNITS` unit results (each unit counts `UNIT_COST_BYTES` of work), and fewer than
`MAX_TASK_FINDINGS` + `max_findings` findings in all: a task stops before the next unit once its
results hold `MAX_TASK_FINDINGS`, and the client sends the units it left out as a task of their own
(the findings are those of `--jobs`: each unit is still validated whole, under its own cap). A finding
holds at most `MAX_MESSAGE_CHARS` characters of message and of pointer, and the input's path.

Faults. A worker that dies mid-task has its task run again elsewhere (the scheduler reschedules the
tasks of a lost worker; `retries=` re-runs a task that raised). Results are keyed by unit: a unit's
result is taken once, from the one run of its task that completed, and never added twice. A task that
fails for good (`KilledWorker` after repeated deaths, an error) makes every unit of its chunk a
*failure* (the run exits 2), never a silent skip; an unreadable object is a failure of its unit, as in
one process. Interrupting the iterator (Ctrl-C) cancels every future still pending.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from omnimessage.validate.sources.cluster import distributed_module
from omnimessage.validate.sources.inputs import (
    Options,
    Root,
    SessionUnit,
    Unit,
    UnitResult,
    resolve_subagents,
    run_unit,
)
from omnimessage.validate.sources.task_codec import pack_results, pack_units, unpack_results, unpack_units

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "MAX_TASK_FINDINGS",
    "MAX_TASK_UNITS",
    "MAX_SUBAGENT_CHARS",
    "MAX_SUBAGENT_POINTERS",
    "MIN_TASK_BYTES",
    "TASK_BYTES",
    "UNIT_COST_BYTES",
    "chunk_units",
    "compact",
    "run_indexed_dask",
    "run_task",
    "run_units_dask",
    "unit_work",
    "validate_chunk",
]

TASK_BYTES: Final = 32 << 20
"""The most work one task is given, in bytes (:func:`unit_work`): about a quarter of a second of one core
(measured on `bench/scaling.py`'s archive, 2026-12-07, a least-squares fit of the CPU time of `run_unit` over
its 24,100 sessions: 7.0 ns a byte and 0.059 ms a file). A unit of more work is a task of its own: a session
is never split (the rules across its files need it whole)."""
MIN_TASK_BYTES: Final = 4 << 20
"""The least work a task is given (but the last), about 30 ms of one core: many times the scheduler's cost
per task (a few milliseconds on a loaded machine), so that the byte budget, not the count of sessions,
sizes a task."""
UNIT_COST_BYTES: Final = 8 << 10
"""What each file of a unit costs besides its bytes (opening it, a validator's start and end), counted as
bytes: 0.059 ms a file, as much as 8.4 KiB of lines (measured as above; it was 64 KiB, from a measurement of
the slower validator of 2026-12-01, and the tasks of the scaling archive then held 5.4 MB of lines each: 80
tasks for one worker, against 22 now, and Dask over `--jobs 1` went from 0.79 to 0.86 in 5 interleaved rounds
on an idle machine). It also bounds the units of a task: at most `MAX_TASK_UNITS`."""
MAX_TASK_UNITS: Final = TASK_BYTES // UNIT_COST_BYTES
"""Units one task holds at most, 4096: each counts at least `UNIT_COST_BYTES` of work, and a task is closed
at the unit that brings it to its target, at most `TASK_BYTES`."""
TASKS_PER_WORKER: Final = 4
"""Tasks are sized so that each worker thread gets about this many (load balance), within
`MIN_TASK_BYTES`..`TASK_BYTES`."""
MAX_TASK_FINDINGS: Final = 10_000
"""A task stops taking the next unit of its chunk once its results hold this many findings; the units it
did not validate go back to the client, which sends them as a task of their own. What one task returns
therefore holds fewer than `MAX_TASK_FINDINGS` + `--max-findings` findings."""
MAX_SUBAGENT_POINTERS: Final = 4096
"""`subagent` pointers a unit result carries back for the client to resolve."""
MAX_SUBAGENT_CHARS: Final = 1 << 20
"""Characters of child session ids a unit result carries back."""
RETRIES: Final = 2
"""`retries=` of every task: how often a task that raised is run again."""


def unit_work(unit: Unit) -> int:
    """A unit's work in bytes of input: its size, plus `UNIT_COST_BYTES` for each of its files."""
    files = len(unit.files) if isinstance(unit, SessionUnit) else 1
    return unit.size + UNIT_COST_BYTES * max(1, files)


def chunk_units(units: Sequence[tuple[int, Unit]], workers: int, *,
                task_bytes: tuple[int, int] = (MIN_TASK_BYTES, TASK_BYTES)) -> list[list[tuple[int, Unit]]]:
    """Consecutive units batched into tasks by their work in bytes (`unit_work`), not by their count:
    about `TASKS_PER_WORKER` tasks per worker thread, each holding between `task_bytes[0]` and
    `task_bytes[1]` of work (`MIN_TASK_BYTES`, `TASK_BYTES`; the last task may hold less). A unit of
    more work than that is a task of its own; a session is never split."""
    works = [unit_work(u) for _, u in units]
    low, high = task_bytes
    target = max(low, min(high, sum(works) // max(1, workers * TASKS_PER_WORKER)))
    chunks: list[list[tuple[int, Unit]]] = []
    current: list[tuple[int, Unit]] = []
    held = 0
    for item, work in zip(units, works, strict=True):
        if current and work >= target:  # a big unit alone, the small ones before it a task of their own
            chunks.append(current)
            current, held = [], 0
        current.append(item)
        held += work
        if held >= target:
            chunks.append(current)
            current, held = [], 0
    if current:
        chunks.append(current)
    return chunks


def compact(res: UnitResult) -> UnitResult:
    """Bound what a unit result carries back (see the module's docstring): the subagent pointers."""
    pointers = res.subagents
    if len(pointers) > MAX_SUBAGENT_POINTERS or sum(len(c) for c, _, _ in pointers) > MAX_SUBAGENT_CHARS:
        kept: list[tuple[str, str, int]] = []
        chars = 0
        for p in pointers:
            if len(kept) >= MAX_SUBAGENT_POINTERS or chars + len(p[0]) > MAX_SUBAGENT_CHARS:
                break
            kept.append(p)
            chars += len(p[0])
        dropped = len(pointers) - len(kept)
        res.subagents = kept
        note = (f"{dropped} subagent pointer(s) beyond the first {len(kept)} were not resolved (a distributed "
                f"run carries at most {MAX_SUBAGENT_POINTERS} per session)")
        res.note = "; ".join(n for n in (res.note, note) if n)
    return res


def validate_chunk(chunk: list[tuple[int, Unit]], opts: Options, max_findings: int = MAX_TASK_FINDINGS,
                   ) -> list[tuple[int, UnitResult]]:
    """The task a worker runs: the units of the chunk validated in order, each result compacted, until
    the results hold `max_findings` findings (`MAX_TASK_FINDINGS`): the units after that are left out,
    for the client to send again (:func:`run_indexed_dask`). The first unit is always validated. An
    exception from one unit (a storage error that is not an OSError) is that unit's failure, not the
    chunk's."""
    out: list[tuple[int, UnitResult]] = []
    held = 0
    for index, unit in chunk:
        if out and held >= max_findings:
            break
        try:
            res = run_unit(unit, opts)
        except Exception as exc:
            res = UnitResult(unit.name, failure=f"{unit.name}: {exc.__class__.__name__}: {str(exc)[:300]}")
        held += len(res.findings)
        out.append((index, compact(res)))
    return out


def run_task(blob: bytes, opts: Options, max_findings: int = MAX_TASK_FINDINGS) -> bytes:
    """The task a worker runs: :func:`validate_chunk` of a chunk packed by `task_codec.pack_units`, its
    results packed by `task_codec.pack_results` (one bytes object each way: see `task_codec`)."""
    return pack_results(validate_chunk(unpack_units(blob), opts, max_findings))


def _lost(chunk: list[tuple[int, Unit]], exc: BaseException | None) -> list[tuple[int, UnitResult]]:
    """A failure for each unit of a chunk whose task failed for good (or was cancelled)."""
    why = "cancelled" if exc is None else exc.__class__.__name__
    if exc is not None and exc.__class__.__name__ == "KilledWorker":
        why += ": every worker that ran it died"
    elif exc is not None:
        with contextlib.suppress(Exception):
            why += f": {str(exc)[:300]}"
    return [(i, UnitResult(u.name, failure=f"{u.name}: the Dask task validating it failed for good ({why})"))
            for i, u in chunk]


def run_indexed_dask(
    units: Sequence[Unit], opts: Options, client: Client, *, retries: int = RETRIES,
    indices: Sequence[int] | None = None, task_bytes: tuple[int, int] | None = None,
    max_task_findings: int | None = None,
) -> Generator[tuple[int, UnitResult], None, None]:
    """(index in `units`, result) for each unit (or each of `indices`), in the order tasks complete.

    Every index is yielded exactly once: a unit whose task failed for good gets a result with its
    `failure` set; the units a task left out (its findings reached `max_task_findings`) are sent again
    as a task of their own. Closing the iterator early (or an exception thrown into it, such as
    KeyboardInterrupt) cancels every pending future. `task_bytes` (`MIN_TASK_BYTES`, `TASK_BYTES`) and
    `max_task_findings` (`MAX_TASK_FINDINGS`) are for the tests: many small tasks from a small archive.
    """
    distributed = distributed_module()
    chosen = list(range(len(units))) if indices is None else list(indices)
    if not chosen:
        return
    try:
        workers = max(1, sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values()))
    except Exception:
        workers = 1
    task_bytes = task_bytes or (MIN_TASK_BYTES, TASK_BYTES)
    max_task_findings = MAX_TASK_FINDINGS if max_task_findings is None else max_task_findings
    chunks = chunk_units([(i, units[i]) for i in chosen], workers, task_bytes=task_bytes)
    # one message for every task (client.map); each result fetched as its task completes; a chunk and its
    # results travel as one bytes object each (task_codec)
    futures = client.map(run_task, [pack_units(c) for c in chunks], opts=opts, max_findings=max_task_findings,
                         retries=retries, pure=False)
    chunk_of = {fut.key: chunk for fut, chunk in zip(futures, chunks, strict=True)}
    pending = set(chosen)
    # Completion only: each result is fetched here, by `fut.result()`, which raises when it cannot be
    # fetched. (`with_results=True` fetches in the background, and a fetch that failed there, on a
    # connection closed mid-gather, dropped its future from the queue: the loop then waited forever.)
    queue = distributed.as_completed(futures)
    try:
        for fut in queue:
            chunk = chunk_of.pop(fut.key)
            got: Any = None
            exc: BaseException | None = None
            try:
                got = fut.result() if fut.status == "finished" else None
                if fut.status == "error":
                    exc = fut.exception()
            except Exception as e:  # a result that could not be fetched: its units are lost, not waited for
                exc = e
            if isinstance(got, bytes):
                results = unpack_results(got)
                done = {i for i, _ in results}
                rest = [(i, u) for i, u in chunk if i not in done and i in pending]
                if rest:  # the task's findings reached the bound: the rest is a task of its own
                    again = client.submit(run_task, pack_units(rest), opts, max_task_findings, retries=retries,
                                          pure=False)
                    chunk_of[again.key] = rest
                    futures.append(again)
                    queue.add(again)
            else:  # an error after the retries, a result lost on the way, or cancelled
                results = _lost(chunk, exc)
            fut.release()
            for index, res in results:
                if index in pending:  # each unit once, whatever ran twice
                    pending.discard(index)
                    yield index, res
        for index in sorted(pending):  # cannot happen unless the scheduler dropped a task silently
            yield index, UnitResult(units[index].name, failure=f"{units[index].name}: no result from the cluster")
    except BaseException:
        with contextlib.suppress(Exception):
            cast(Any, client).cancel(futures, force=True)
        raise


def run_units_dask(units: Sequence[Unit], opts: Options, client: Client, *,
                   roots: Sequence[Root] = ()) -> Iterator[UnitResult]:
    """Validate `units` on the cluster behind `client`; yields each unit's result as its task
    completes (completion order, not `units` order), each unit exactly once.

    With `roots` (from `inputs.discover`), the `subagent` pointers of a unit under one of them are
    resolved here, on the client, against that root's index (`resolve_subagents`: the child is looked
    up, never fetched); the OM805 findings join the unit's findings (rules in `opts.ignored` left out)
    and `subagents` is emptied, as `validate_path` does. Without `roots` the pointers are left in the
    results for the caller to resolve. `Report.merge` each result to get the run's report.
    """
    root_of = {r.path: r for r in roots}
    for index, res in run_indexed_dask(units, opts, client):
        root = root_of.get(getattr(units[index], "root", ""))
        if root is not None and res.subagents:
            res.findings.extend(f for f in resolve_subagents(root, res.subagents) if f.rule not in opts.ignored)
            res.subagents = []
        yield res
