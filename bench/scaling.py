"""The scaling row of `make bench`: sessions per second of `omnimessage validate` on one generated trace
archive (dev/omnimessage_dev/archive.py), four ways, interleaved round after round in one run:

- `--jobs 1` and `--jobs 2` (a process pool on this machine);
- `--dask ADDRESS` on a `LocalCluster` of 1 worker process, and of 2 (started before the timing, as an
  operator's cluster is up before a run; each command connects, sends the sessions and merges).

Every run goes through the installed command in a subprocess, so each pays the same start-up. Ratios
measured side by side hold on a shared machine; absolute numbers drift. Also measured: each Dask
worker's peak RSS over all its runs (`VmHWM` of the worker, through `client.run`), and
the cost model's rate: bytes validated per core-second (docs/scale.md).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from omnimessage_dev.archive import build_archive

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "omnimessage", "validate", "--format", "json", "--no-progress"]
VERSION = 1
"""Bump when the archive's bytes change: the cached archive (bench/corpora/) carries it in its name."""
SESSION_SIZE = 4000
"""`build_archive(size=)`: about 24 kB a top-level session (children included)."""
SESSIONS = 18000
"""Top-level sessions at scale 1: 24,100 sessions with their children, 415 MiB (at least 400 MB, so that
start-up is a small part of a run and Dask is measured against `--jobs` on work, not on connecting)."""


def _archive(corpora_dir: Path, sessions: int) -> tuple[Path, int, int]:
    """(root, sessions incl. children, bytes) of the cached archive, written once."""
    root = corpora_dir / f"archive-v{VERSION}-n{sessions}-s{SESSION_SIZE}"
    stamp = root / "manifest.json"
    if not stamp.exists():
        tmp = root.with_suffix(".tmp")
        if tmp.exists():
            shutil.rmtree(tmp)
        man = build_archive(tmp, sessions=sessions, seed=1, size=SESSION_SIZE)
        (tmp / "manifest.json").write_text(man.to_json() + "\n", encoding="utf-8")
        if root.exists():
            shutil.rmtree(root)
        tmp.rename(root)
    doc = json.loads(stamp.read_text(encoding="utf-8"))
    return root, int(doc["sessions"]), int(doc["bytes"])


_WRAPPER = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
dt = time.perf_counter() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
err = p.stderr.decode("utf-8", "replace")
print(json.dumps([dt, r.ru_utime + r.ru_stime, p.returncode, "Traceback" in err, err[:1000] + err[-1000:]]))
"""


def _timed(args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its own child processes) of one run."""
    out = subprocess.run([sys.executable, "-c", _WRAPPER, *CLI, *args], capture_output=True, text=True,
                         check=True).stdout
    dt, cpu, code, crashed, err = json.loads(out)
    # 1: the archive's planted defects; also Python's exit code of a crash, told apart by its traceback
    # (looked for in the whole of stderr: a traceback's head is its first line, far from its tail)
    if code not in (0, 1) or crashed:
        raise RuntimeError(f"omnimessage validate {' '.join(args)} exited {code}: {err}")
    return float(dt), float(cpu)


def _worker_rss() -> int:
    """The worker's peak resident set: `VmHWM` (since exec; `ru_maxrss` would keep the peak of the
    process that forked the worker before exec)."""
    try:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _worker_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def scaling(corpora_dir: Path, scale: float, *, quick: bool, required: bool = False,
            sessions: int | None = None) -> dict[str, Any]:
    """Measure the four configurations; returns the `scaling` entry of results.json (empty when
    `distributed` is missing, an error if `required`)."""
    try:
        import distributed
    except ImportError:
        if required:
            raise SystemExit("bench: the scaling row needs distributed (pip install 'dask[distributed]')") from None
        print("  scaling skipped: distributed is not installed (pip install 'dask[distributed]')", flush=True)
        return {}
    import logging

    logging.getLogger("distributed").setLevel(logging.ERROR)  # the closing clusters' INFO lines are noise here
    sessions = sessions or (40 if quick else max(40, int(SESSIONS * scale)))
    root, units, nbytes = _archive(corpora_dir, sessions)
    rounds = 1 if quick else 3
    clusters = {n: distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                            dashboard_address=":0", silence_logs=40) for n in (1, 2)}
    clients = {n: distributed.Client(c) for n, c in clusters.items()}
    try:
        for n, client in clients.items():
            client.wait_for_workers(n)
        configs = {
            "jobs1": ["--jobs", "1"],
            "jobs2": ["--jobs", "2"],
            # our own LocalCluster on loopback: the plain tcp:// address is ours to trust
            "dask1": ["--dask", str(clients[1].scheduler.address), "--dask-insecure"],
            "dask2": ["--dask", str(clients[2].scheduler.address), "--dask-insecure"],
        }
        times: dict[str, list[float]] = {k: [] for k in configs}
        cpus: dict[str, list[float]] = {k: [] for k in configs}
        wcpu: list[float] = []  # the 2 workers' CPU seconds of each run: the cost model's rate
        for name in configs if not quick else ["jobs1"]:  # untimed warm-up: the page cache holds the archive,
            _timed([*configs[name], str(root)])            # the workers have imported the validator
        for r in range(rounds):
            order = list(configs)[r % 4:] + list(configs)[: r % 4]
            for name in order:
                client = clients.get(int(name[-1])) if name.startswith("dask") else None
                before = sum(client.run(_worker_cpu).values()) if client is not None else 0.0
                dt, cpu = _timed([*configs[name], str(root)])
                if client is not None:  # the workers' CPU is not the command's: add it
                    spent = sum(client.run(_worker_cpu).values()) - before
                    cpu += spent
                    if name == "dask2":
                        wcpu.append(spent)
                times[name].append(dt)
                cpus[name].append(cpu)
        peak = {n: max(client.run(_worker_rss).values()) for n, client in clients.items()}
    finally:
        for client in clients.values():
            client.close()
        for cluster in clusters.values():
            cluster.close()
    med = {k: statistics.median(v) for k, v in times.items()}
    rate = {k: units / v for k, v in med.items()}
    out: dict[str, Any] = {
        "sessions": units,
        "bytes": nbytes,
        "rounds": rounds,
        "seconds": {k: round(v, 3) for k, v in med.items()},
        "sessions_per_s": {k: round(v, 1) for k, v in rate.items()},
        "mb_per_s": {k: round(nbytes / (1 << 20) / v, 1) for k, v in med.items()},
        "dask2_over_dask1": round(rate["dask2"] / rate["dask1"], 2),
        "dask1_over_jobs1": round(rate["dask1"] / rate["jobs1"], 2),
        "dask2_over_jobs2": round(rate["dask2"] / rate["jobs2"], 2),
        "jobs2_over_jobs1": round(rate["jobs2"] / rate["jobs1"], 2),
        "cpu_seconds": {k: round(statistics.median(v), 3) for k, v in cpus.items()},
        "worker_peak_rss_mb": round(max(peak.values()) / (1 << 20), 1),
        "mb_per_core_second": round(nbytes / (1 << 20) / statistics.median(wcpu), 1),
        "mb_per_core_second_wall": round(nbytes / (1 << 20) / (med["dask2"] * 2), 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
    }
    for k in configs:
        print(f"  scaling {k:6s} {out['sessions_per_s'][k]:9.1f} sessions/s {out['mb_per_s'][k]:7.1f} MB/s "
              f"({units} sessions, {nbytes / (1 << 20):.1f} MB, median of {rounds})", flush=True)
    cpu_ratio = round(out["cpu_seconds"]["jobs2"] / out["cpu_seconds"]["dask2"], 2)
    out["jobs2_cpu_over_dask2_cpu"] = cpu_ratio
    print(f"  scaling: CPU seconds {out['cpu_seconds']} (the Dask runs' include their workers'): --jobs 2 "
          f"over Dask 2 workers {cpu_ratio}x", flush=True)
    print(f"  scaling: 2 workers / 1 worker {out['dask2_over_dask1']}x, dask / --jobs (1 process) "
          f"{out['dask1_over_jobs1']}x, (2 processes) {out['dask2_over_jobs2']}x, worker peak RSS "
          f"{out['worker_peak_rss_mb']} MB, {out['mb_per_core_second']} MB per core-second", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m bench.scaling [--sessions N]`: the scaling row alone, printed; `--out FILE` also writes
    its JSON there (how `bench.run` calls it: in a process of its own, so that the worker processes,
    which import the main module of the process that starts them, carry no more than a deployment's)."""
    import argparse

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sessions", type=int, default=None, help=f"top-level sessions (default {SESSIONS} x scale)")
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--quick", action="store_true", help="a tiny archive, one round: numbers not meaningful")
    p.add_argument("--required", action="store_true", help="fail when distributed is missing")
    p.add_argument("--out", type=Path, help="write the results as JSON to this file")
    args = p.parse_args(argv)
    out = scaling(ROOT / "bench" / "corpora", args.scale, quick=args.quick, required=args.required,
                  sessions=args.sessions)
    if args.out is not None:
        args.out.write_text(json.dumps(out, indent=2) + "\n")
    else:
        print(json.dumps(out, indent=2))
    return 0


def run_isolated(scale: float, *, quick: bool, required: bool) -> dict[str, Any]:
    """`scaling` in a process of its own (see `main`); its lines are printed as they come."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp) / "scaling.json"
        cmd = [sys.executable, "-m", "bench.scaling", "--scale", str(scale), "--out", str(dest)]
        cmd += ["--quick"] if quick else []
        cmd += ["--required"] if required else []
        subprocess.run(cmd, check=True, cwd=ROOT)
        result: dict[str, Any] = json.loads(dest.read_text())
        return result


if __name__ == "__main__":
    sys.exit(main())
