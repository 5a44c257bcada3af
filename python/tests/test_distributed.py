"""`omnimessage validate --dask`: sessions spread over a real Dask cluster (a `distributed.LocalCluster`
of 2 worker processes, one for the module) on a generated archive with planted defects
(dev/omnimessage_dev/archive.py). The distributed report equals the single-process one, order aside;
a worker killed mid-run changes nothing; unreadable objects are failures; Ctrl-C cancels; a
worker's memory does not grow with the archive."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pytest

from omnimessage.cli.validate import main as validate_main
from omnimessage.text.sanitize import MAX_MESSAGE_CHARS
from omnimessage.validate.api import validate_path
from omnimessage.validate.reporting.report import Report
from omnimessage.validate.sources import distributed as dd
from omnimessage.validate.sources.cluster import dashboard_link
from omnimessage.validate.sources.inputs import FileUnit, Options, Unit, UnitResult, discover
from omnimessage.validate.sources.storage import UrlSessionUnit
from omnimessage.validate.sources.task_codec import pack_units, unpack_units
from omnimessage_dev.archive import Manifest, build_archive

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.Client]:
    """Two single-threaded worker processes, as `--dask local:2` starts them."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as lc, distributed.Client(lc) as client:
        client.wait_for_workers(2)
        yield client


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Manifest:
    """Several hundred sessions: 300 top-level ones of 4 producer shapes, their subagent children."""
    return build_archive(tmp_path_factory.mktemp("archive"), sessions=300, seed=7)


def _address(client: distributed.Client) -> str:
    return str(client.scheduler.address)


def _dask_report(root: str, client: distributed.Client, opts: Options | None = None) -> Report:
    opts = opts or Options()
    units, roots, problems = discover([root], opts.profile)
    assert not problems
    report = Report(max_findings=opts.max_findings)
    for res in dd.run_units_dask(units, opts, client, roots=roots):
        report.merge(res)
    return report


def _planted(report: Report, root: str) -> Counter[tuple[str, str, int]]:
    return Counter((f.rule, os.path.relpath(f.path, root), f.line) for f in report.findings)


def _cli_json(tmp_path: Path, name: str, *args: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / f"{name}.json"
    code = validate_main([*args, "--format", "json", "--no-progress", "-o", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


def _unordered(doc: dict[str, Any]) -> dict[str, Any]:
    """A `--format json` document with order aside (and the wall time dropped)."""
    summary = {k: (sorted(v) if isinstance(v, list) and k in ("notes", "unreadable") else v)
               for k, v in doc["summary"].items() if k != "seconds"}
    return {"findings": sorted(json.dumps(f, sort_keys=True) for f in doc["findings"]), "summary": summary}


def _foreign_tasks(dask_scheduler: Any, me: str) -> int:
    """Tasks on the scheduler that a client other than `me` wants."""
    return sum(1 for ts in dask_scheduler.tasks.values() if any(cs.client_key != me for cs in ts.who_wants))


def _worker_pids(client: distributed.Client) -> dict[str, int]:
    return {addr: int(pid) for addr, pid in client.run(os.getpid).items()}


# ------------------------------------------------------------------ the archive itself


def test_archive_holds_exactly_the_planted_findings(archive: Manifest) -> None:
    report = validate_path(archive.root)
    assert report.inputs == archive.sessions > 300  # the children are sessions of their own
    assert (report.files, report.lines, report.bytes) == (archive.files, archive.lines, archive.bytes)
    assert archive.files > archive.sessions  # rotations
    assert len({k[0] for k in archive.producers}) >= 4  # producer shapes, children included
    assert set(archive.counts()) == {"OM802", "OM203", "OM702", "OM804", "OM111", "OM805"}
    assert dict(Counter(rule for rule, _ in report.counts.elements())) == dict(archive.counts())
    assert _planted(report, archive.root) == Counter((e.rule, e.path, e.line) for e in archive.expected)
    assert not report.failures


def test_archive_is_deterministic(tmp_path: Path) -> None:
    a = build_archive(tmp_path / "a", sessions=20, seed=3)
    b = build_archive(tmp_path / "b", sessions=20, seed=3)
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.jsonl"))
    assert files_a == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*.jsonl"))
    assert all((tmp_path / "a" / p).read_bytes() == (tmp_path / "b" / p).read_bytes() for p in files_a)
    assert a.expected == b.expected


# ------------------------------------------------------------------ equality with one process


def test_dask_report_equals_single_process_report(archive: Manifest, cluster: distributed.Client) -> None:
    local = validate_path(archive.root)
    remote = _dask_report(archive.root, cluster)
    assert remote == local
    assert remote.inputs == archive.sessions
    assert _planted(remote, archive.root) == Counter((e.rule, e.path, e.line) for e in archive.expected)


def test_cli_jobs_1_jobs_2_and_dask_reports_are_equal(archive: Manifest, cluster: distributed.Client,
                                                       tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code1, one = _cli_json(tmp_path, "jobs1", archive.root, "--jobs", "1")
    code2, two = _cli_json(tmp_path, "jobs2", archive.root, "--jobs", "2")
    capsys.readouterr()
    code3, dask = _cli_json(tmp_path, "dask", archive.root, "--dask", _address(cluster), "--dask-insecure")
    link = dashboard_link(cluster)
    assert (f"Dask dashboard: {link}" in capsys.readouterr().err) == bool(link)
    assert code1 == code2 == code3 == 1  # the planted errors
    assert _unordered(one) == _unordered(two) == _unordered(dask)
    assert dask["summary"]["inputs"] == archive.sessions
    counted = {r["rule"]: r["count"] for r in dask["summary"]["by_rule"]}
    assert counted == dict(archive.counts())


def test_cap_on_findings_is_the_same_distributed(archive: Manifest, cluster: distributed.Client,
                                                 tmp_path: Path) -> None:
    """--max-findings 1: workers hold one finding per session and count the rest, as --jobs does."""
    one = _cli_json(tmp_path, "jobs1", archive.root, "--max-findings", "1")[1]
    dask = _cli_json(tmp_path, "dask", archive.root, "--max-findings", "1", "--dask", _address(cluster),
                     "--dask-insecure")[1]
    assert _unordered(one) == _unordered(dask)


SMALL_TASKS = (64 << 10, 256 << 10)
"""`task_bytes` that cut the test archive (a few MB) into tens of tasks."""


def test_each_unit_once_in_several_tasks(archive: Manifest, cluster: distributed.Client) -> None:
    units, _, _ = discover([archive.root], "trace")
    chunks = dd.chunk_units(list(enumerate(units)), 2, task_bytes=SMALL_TASKS)
    assert 10 < len(chunks) < len(units)  # small sessions batched, and many tasks
    indices = [i for i, _ in dd.run_indexed_dask(units, Options(), cluster, task_bytes=SMALL_TASKS)]
    assert sorted(indices) == list(range(len(units)))


def _sessions(n: int, nbytes: int, files: int = 1) -> list[tuple[int, Unit]]:
    return [(i, UrlSessionUnit(f"s{i}", tuple((k + 1, f"memory://r/d/s{i}_{k + 1:03d}.jsonl") for k in range(files)),
                               "memory://r", nbytes=nbytes)) for i in range(n)]


def test_tasks_are_sized_by_bytes_of_work_not_by_sessions() -> None:
    """Tasks carry between MIN_TASK_BYTES and TASK_BYTES of work (the last may carry less), however many
    sessions that takes; the sessions stay whole and in order; a huge session is a task of its own."""
    small = _sessions(20_000, 2_000)  # 40 MB of tiny sessions
    chunks = dd.chunk_units(small, 2)
    works = [sum(dd.unit_work(u) for _, u in c) for c in chunks]
    one = dd.unit_work(small[0][1])  # a task closes at the session that brings it to its target
    assert all(w >= dd.MIN_TASK_BYTES for w in works[:-1]) and all(w < dd.TASK_BYTES + one for w in works)
    assert max(len(c) for c in chunks) > 64  # the old count cap is gone: 64 tiny sessions are milliseconds
    assert all(len(c) <= dd.MAX_TASK_UNITS for c in chunks)
    assert [i for c in chunks for i, _ in c] == list(range(len(small)))  # each once, in order, never split
    # a big archive: tasks of TASK_BYTES at most, about TASKS_PER_WORKER per worker when that is smaller
    big = dd.chunk_units(_sessions(2_000, 400_000), 2)
    assert all(sum(dd.unit_work(u) for _, u in c) < dd.TASK_BYTES + 400_000 + dd.UNIT_COST_BYTES for c in big)
    assert len(big) >= 2 * dd.TASKS_PER_WORKER
    # a session bigger than a task, between small ones: a task of its own, its neighbours in their own
    mixed = [*_sessions(3, 1_000), (3, _sessions(1, 5 << 30, files=40)[0][1]), *[(i + 4, u) for i, u in
                                                                               _sessions(3, 1_000)]]
    cut = dd.chunk_units(mixed, 2)
    assert [[i for i, _ in c] for c in cut] == [[0, 1, 2], [3], [4, 5, 6]]
    # the cost of a file counts: 20,000 empty sessions are not one task
    assert len(dd.chunk_units(_sessions(20_000, 0), 2)) > 1


def _noisy_files(root: Path, n: int, lines: int) -> list[tuple[int, Unit]]:
    """`n` files of `lines` lines that are not JSON: a finding each."""
    root.mkdir()
    out: list[tuple[int, Unit]] = []
    for i in range(n):
        path = root / f"noisy-{i:03d}-{'x' * 120}.jsonl"
        path.write_bytes(b"{not json\n" * lines)
        out.append((i, FileUnit(str(path))))
    return out


def _finding_bound(f_path: str) -> int:
    """Packed bytes (task_codec) one finding may take: its message and pointer clipped, its path and rule."""
    return 2 * 4 * MAX_MESSAGE_CHARS + len(f_path.encode()) + 256


def test_what_one_task_returns_is_bounded(tmp_path: Path) -> None:
    """A chunk whose sessions have many findings: the task stops once its results hold MAX_TASK_FINDINGS,
    so what it returns holds fewer than MAX_TASK_FINDINGS + --max-findings findings, within the stated
    bytes; the units it left out are left for the client to send again."""
    per_unit = 1_500
    chunk = _noisy_files(tmp_path / "noisy", 3 * dd.MAX_TASK_FINDINGS // per_unit, per_unit)
    out = dd.validate_chunk(chunk, Options())
    held = sum(len(r.findings) for _, r in out)
    assert dd.MAX_TASK_FINDINGS <= held < dd.MAX_TASK_FINDINGS + Options().max_findings
    assert [i for i, _ in out] == [i for i, _ in chunk[:len(out)]] and len(out) < len(chunk)
    assert all(len(r.findings) == per_unit and not r.beyond for _, r in out)  # each unit whole
    size = len(dd.run_task(pack_units(chunk), Options()))  # the bytes that travel back
    longest = max(len(u.name) for _, u in chunk)
    assert size < held * _finding_bound("x" * longest) + len(out) * (4096 + 2 * longest)
    # a session over --max-findings alone: its findings capped, the rest counted, one unit returned
    one = dd.validate_chunk(chunk, Options(max_findings=100), max_findings=1)
    assert len(one) == 1 and len(one[0][1].findings) == 100 and sum(one[0][1].beyond.values()) == per_unit - 100


def test_a_result_lost_on_the_way_is_a_failure_not_a_hang(archive: Manifest, cluster: distributed.Client,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A result whose fetch fails (the connection closed mid-gather, seen once in CI) makes its units
    failures; every other unit is still validated, and the run ends. With `as_completed(with_results=True)`
    such a future left the queue without a word and the run waited forever."""
    from distributed.comm.core import CommClosedError

    real = distributed.Client._gather
    calls: list[int] = []

    async def flaky(self: distributed.Client, futures: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise CommClosedError("in <TCP (closed) ConnectionPool.gather>: Stream is closed")
        return await real(self, futures, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "_gather", flaky)
    units, _, problems = discover([archive.root], "trace")
    assert not problems
    out: list[tuple[int, UnitResult]] = []
    run = threading.Thread(target=lambda: out.extend(dd.run_indexed_dask(units, Options(), cluster,
                                                                         task_bytes=SMALL_TASKS)), daemon=True)
    run.start()
    run.join(120)
    assert not run.is_alive(), "the run is still waiting for a result that was lost"
    assert sorted(i for i, _ in out) == list(range(len(units)))  # every unit once
    lost = [res for _, res in out if res.failure]
    assert lost and all("CommClosedError" in res.failure for res in lost)
    assert len(lost) < len(units)


def test_units_a_task_left_out_are_sent_again(archive: Manifest, cluster: distributed.Client, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With small tasks and a bound of one finding per task, the tasks with findings stop early: the client
    sends the rest again, each unit once; the report equals the single-process one, and the command's
    findings are those of `--jobs 2`."""
    monkeypatch.setattr(dd, "MIN_TASK_BYTES", SMALL_TASKS[0])
    monkeypatch.setattr(dd, "TASK_BYTES", SMALL_TASKS[1])
    monkeypatch.setattr(dd, "MAX_TASK_FINDINGS", 1)
    submitted: list[int] = []
    real_submit = cluster.submit

    def spy(fn: Any, chunk: Any, *a: Any, **k: Any) -> Any:
        submitted.append(len(unpack_units(chunk)))  # a packed chunk (task_codec)
        return real_submit(fn, chunk, *a, **k)

    monkeypatch.setattr(cluster, "submit", spy)
    remote = _dask_report(archive.root, cluster)
    assert submitted  # some tasks did stop early, their rest went again
    assert remote == validate_path(archive.root)
    assert remote.inputs == archive.sessions
    jobs = _cli_json(tmp_path, "jobs2", archive.root, "--jobs", "2")[1]
    dask = _cli_json(tmp_path, "dask", archive.root, "--dask", _address(cluster), "--dask-insecure")[1]
    assert _unordered(jobs) == _unordered(dask)


# ------------------------------------------------------------------ faults


def test_worker_killed_mid_run_changes_nothing(archive: Manifest, cluster: distributed.Client) -> None:
    """One worker process dies (os._exit) in the middle of its third session; the scheduler runs its task
    again on a live worker, and each session is counted once."""
    victim = sorted(cluster.scheduler_info()["workers"])[0]
    before = _worker_pids(cluster)

    def arm() -> None:  # runs in the victim's process only: its validate_chunk dies on the third unit
        import omnimessage.validate.sources.distributed as mod

        real = mod.run_unit
        seen = [0]

        def dying(unit: Any, opts: Any, *a: Any, **k: Any) -> Any:
            seen[0] += 1
            if seen[0] == 3:
                os._exit(1)
            return real(unit, opts, *a, **k)

        mod.run_unit = dying  # type: ignore[assignment]

    cluster.run(arm, workers=[victim])
    try:
        remote = _dask_report(archive.root, cluster)
    finally:
        cluster.wait_for_workers(2, timeout=60)
    after = _worker_pids(cluster)
    assert set(before.values()) != set(after.values())  # the victim did die (the nanny started a new one)
    assert remote == validate_path(archive.root)
    assert remote.inputs == archive.sessions
    assert not remote.failures


def test_what_travels_back_is_bounded() -> None:
    """A unit result carries at most MAX_SUBAGENT_POINTERS pointers and MAX_SUBAGENT_CHARS of child ids;
    the rest are counted in its note."""
    many = UnitResult("s", subagents=[(f"child-{i}", "f.jsonl", i) for i in range(dd.MAX_SUBAGENT_POINTERS + 10)])
    assert len(dd.compact(many).subagents) == dd.MAX_SUBAGENT_POINTERS and "10 subagent pointer(s)" in many.note
    long = UnitResult("s", subagents=[("x" * (dd.MAX_SUBAGENT_CHARS // 2 + 1), "f.jsonl", 1)] * 3)
    assert len(dd.compact(long).subagents) == 1 and "2 subagent pointer(s)" in long.note
    few = UnitResult("s", subagents=[("c", "f.jsonl", 1)])
    assert dd.compact(few).subagents == [("c", "f.jsonl", 1)] and not few.note


def test_task_lost_for_good_is_a_failure_never_a_skip(archive: Manifest, cluster: distributed.Client) -> None:
    units, _, _ = discover([archive.root], "trace")
    chunk = [(0, units[0]), (1, units[1])]
    lost = dd._lost(chunk, distributed.KilledWorker("task", "worker", 3))
    assert [i for i, _ in lost] == [0, 1]
    assert all("KilledWorker" in r.failure and r.failure.startswith(u.name) for (_, r), (_, u) in zip(lost, chunk,
                                                                                                   strict=True))


def test_unreadable_object_is_a_failure(tmp_path: Path, cluster: distributed.Client) -> None:
    """A file listed, then gone before a worker reads it (deleted from the bucket mid-run): a failure of
    its session, never a silent skip; the other sessions are validated as usual."""
    man = build_archive(tmp_path / "a", sessions=12, seed=5)
    units, roots, _ = discover([man.root], "trace")
    gone = Path(man.root, man.expected[0].path)
    gone.unlink()
    report = Report()
    for res in dd.run_units_dask(units, Options(), cluster, roots=roots):
        report.merge(res)
    assert report.inputs == man.sessions
    assert len(report.failures) == 1 and gone.name in report.failures[0]
    assert report.exit_code == 2


def test_interrupt_cancels_the_pending_futures(archive: Manifest, cluster: distributed.Client,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    units, _, _ = discover([archive.root], "trace")
    cancelled: list[int] = []
    real_cancel = cluster.cancel

    def spy(futures: Any, *a: Any, **k: Any) -> Any:
        cancelled.append(len(futures))
        return real_cancel(futures, *a, **k)

    monkeypatch.setattr(cluster, "cancel", spy)
    gen = dd.run_indexed_dask(units, Options(), cluster)
    next(gen)
    with pytest.raises(KeyboardInterrupt):
        gen.throw(KeyboardInterrupt())
    assert cancelled and cancelled[0] == len(dd.chunk_units(list(enumerate(units)), 2))


def test_ctrl_c_exits_130_without_traceback(archive: Manifest, cluster: distributed.Client) -> None:
    """SIGINT to `omnimessage validate --dask` while its tasks run (made slow on the workers)."""

    def slow() -> None:
        import time as t

        import omnimessage.validate.sources.distributed as mod

        real = mod.run_unit

        def sleepy(unit: Any, opts: Any, *a: Any, **k: Any) -> Any:
            t.sleep(0.05)
            return real(unit, opts, *a, **k)

        mod.run_unit = sleepy  # type: ignore[assignment]

    def fast() -> None:
        import omnimessage.validate.sources.distributed as mod
        import omnimessage.validate.sources.inputs as inputs

        mod.run_unit = inputs.run_unit

    cluster.run(slow)
    try:
        # the command must take SIGINT as a terminal gives it: a child inherits an ignored SIGINT (pytest
        # started in the background ignores it, and so do its xdist workers), while exec resets a handled one
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            proc = subprocess.Popen([sys.executable, "-m", "omnimessage", "validate", "--no-progress", "--dask",
                                     _address(cluster), "--dask-insecure", archive.root], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, cwd=ROOT)
        finally:
            signal.signal(signal.SIGINT, previous)
        deadline = time.monotonic() + 60
        while not cluster.run_on_scheduler(_foreign_tasks, me=cluster.id):  # the command's tasks are queued
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        cluster.run(fast)
    text = err.decode("utf-8", "replace")
    assert proc.returncode == 130, text
    assert "Traceback" not in text
    assert "interrupted after" in text and "cancelled" in text


# ------------------------------------------------------------------ the command line


def test_dask_and_jobs_are_exclusive(archive: Manifest, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        validate_main([archive.root, "--jobs", "2", "--dask", "local:1"])
    assert exc.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_dask_local_cluster_from_the_command_line(tmp_path: Path) -> None:
    """`--dask local:1` starts (and stops) its own cluster; the report equals the local one."""
    man = build_archive(tmp_path / "a", sessions=30, seed=11)
    proc = subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--format", "json", "--dask", "local:1",
                           man.root], capture_output=True, cwd=ROOT, timeout=120)
    local = subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--format", "json", man.root],
                           capture_output=True, cwd=ROOT, timeout=120)
    assert proc.returncode == local.returncode == 1, proc.stderr
    assert _unordered(json.loads(proc.stdout)) == _unordered(json.loads(local.stdout))
    assert b"Traceback" not in proc.stderr


# ------------------------------------------------------------------ memory per worker


def _own_peak_rss() -> int:
    """This process's peak resident set in bytes: `VmHWM`, the high-water mark of its own memory
    since exec. Not `ru_maxrss`, which keeps the high-water mark of the process before exec: a worker
    started by fork+exec from a big pytest process would report that process's peak."""
    try:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _peak_rss(client: distributed.Client) -> int:
    """The largest peak RSS among the workers, in bytes."""
    return max(client.run(_own_peak_rss).values())


def test_worker_memory_does_not_grow_with_the_archive(tmp_path: Path) -> None:
    """Peak RSS of each worker (fresh worker processes for each archive: ru_maxrss is a high-water mark)."""
    small = build_archive(tmp_path / "small", sessions=50, seed=21, size=4000)
    big = build_archive(tmp_path / "big", sessions=1000, seed=22, size=4000)
    assert big.bytes > 16 << 20 and big.bytes > 15 * small.bytes
    peaks = []
    for man in (small, big):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                      silence_logs=40) as lc, distributed.Client(lc) as client:
            client.wait_for_workers(2)
            report = _dask_report(man.root, client)
            assert report.inputs == man.sessions
            peaks.append(_peak_rss(client))
    assert peaks[1] < 200 << 20, peaks
    # flat: each worker read ~11 MB more; one keeping what it read (or a third of it) grows past this
    assert peaks[1] - peaks[0] < 4 << 20, peaks
