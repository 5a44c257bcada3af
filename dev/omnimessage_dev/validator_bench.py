"""Validator benchmark: `python -m omnimessage_dev.validator_bench [--quick]`.

Measures, on synthetic inputs generated deterministically into a scratch directory (never
committed):

1. full validation (schema + every rule, as `omnimessage validate` runs it) against the codec's
   decode-only reading (`reader.iter_messages`, strict decode of every line) and against a bare
   `decode` loop over the lines, on a >= 100 MB trace and a >= 20 MB stream, interleaved rounds,
   median throughput side by side;
2. peak RSS of `omnimessage validate` on a 1 GB trace (a child process; `wait4` rusage);
3. `--jobs 2` against `--jobs 1` wall time over a trace root of several sessions.

Numbers are printed as a Markdown table and, with `--json FILE`, written as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from omnimessage import decode
from omnimessage.reader import iter_lines, iter_messages
from omnimessage.validate.sources.inputs import FileUnit, Options, run_unit

from .synth.sessions import stream_lines, trace_lines

MB = 1_000_000


def _write(path: Path, lines: Iterator[bytes]) -> int:
    size = 0
    with open(path, "wb", buffering=1 << 20) as fh:
        for ln in lines:
            fh.write(ln)
            size += len(ln)
    return size


def _decode_only(path: Path) -> int:
    n = 0
    for line in iter_messages(path):
        if line.error is not None:
            raise SystemExit(f"{path}:{line.number}: the synthetic input does not decode: {line.error}")
        n += 1
    return n


def _bare_decode(path: Path) -> int:
    """The codec's `decode` on every line, with no reader objects around it."""
    n = 0
    with open(path, "rb") as fh:
        for _, raw, _ in iter_lines(fh):
            decode(raw)  # type: ignore[arg-type]
            n += 1
    return n


def _validate(path: Path, profile: str) -> int:
    res = run_unit(FileUnit(str(path)), Options(profile=profile))
    if res.findings or res.failure:
        raise SystemExit(f"{path}: the synthetic input has findings: {res.findings[:3]} {res.failure}")
    return res.messages


def _timed(fn: Callable[[], int]) -> tuple[float, int]:
    t = time.perf_counter()
    n = fn()
    return time.perf_counter() - t, n


def throughput(path: Path, profile: str, rounds: int) -> dict[str, Any]:
    size = path.stat().st_size
    dec: list[float] = []
    bare: list[float] = []
    val: list[float] = []
    msgs = 0
    for _ in range(rounds):  # interleaved, so that machine noise hits all alike
        t, msgs = _timed(lambda: _decode_only(path))
        dec.append(t)
        t, n = _timed(lambda: _bare_decode(path))
        assert n == msgs
        bare.append(t)
        t, n = _timed(lambda: _validate(path, profile))
        assert n == msgs
        val.append(t)
    d, b, v = statistics.median(dec), statistics.median(bare), statistics.median(val)
    return {
        "input": profile,
        "bytes": size,
        "messages": msgs,
        "rounds": rounds,
        "decode_s": d,
        "validate_s": v,
        "decode_mb_s": size / MB / d,
        "validate_mb_s": size / MB / v,
        "decode_msg_s": msgs / d,
        "validate_msg_s": msgs / v,
        "ratio": d / v,
        "bare_decode_s": b,
        "bare_decode_mb_s": size / MB / b,
        "bare_ratio": b / v,
        "decode_all_s": dec,
        "bare_decode_all_s": bare,
        "validate_all_s": val,
    }


def _cli(args: list[str]) -> tuple[float, float, int]:
    """Run `omnimessage validate ARGS` in a child: (wall seconds, CPU seconds of the child and its
    workers, peak RSS in bytes)."""
    cmd = [sys.executable, "-m", "omnimessage", "validate", "--no-progress", *args]
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024  # Linux reports KiB


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m omnimessage_dev.validator_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trace-mb", type=int, default=110)
    ap.add_argument("--stream-mb", type=int, default=25)
    ap.add_argument("--big-mb", type=int, default=1024, help="size of the RSS input (default 1024 MB)")
    ap.add_argument("--sessions", type=int, default=4, help="sessions in the --jobs trace root")
    ap.add_argument("--session-mb", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs-rounds", type=int, default=5)
    ap.add_argument("--dir", help="scratch directory (default: a temporary one, removed at the end)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--quick", action="store_true", help="small inputs (a smoke test, not the benchmark)")
    ap.add_argument("--only", default="throughput,jobs,rss", help="comma-separated parts to run "
                    "(throughput, jobs, rss; default all)")
    args = ap.parse_args(argv)
    if args.quick:
        args.trace_mb, args.stream_mb, args.big_mb, args.session_mb, args.rounds, args.jobs_rounds = 4, 2, 8, 2, 1, 1
    scratch = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="omv-bench-"))
    scratch.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    parts = set(args.only.split(","))
    try:
        trace, stream, big = scratch / "trace.jsonl", scratch / "stream.jsonl", scratch / "big.jsonl"
        if "throughput" in parts:
            t = time.perf_counter()
            _write(trace, trace_lines(args.trace_mb * MB, seed=1))
            _write(stream, stream_lines(args.stream_mb * MB, seed=2))
            print(f"generated trace {trace.stat().st_size / MB:.1f} MB, stream {stream.stat().st_size / MB:.1f} "
                  f"MB in {time.perf_counter() - t:.1f} s", file=sys.stderr)
            results["throughput"] = [throughput(trace, "trace", args.rounds),
                                     throughput(stream, "stream", args.rounds)]
        if "jobs" in parts:
            _jobs(scratch, args, results)
        if "rss" in parts:
            t = time.perf_counter()
            _write(big, trace_lines(args.big_mb * 1024 * 1024, seed=3))
            print(f"generated {big.stat().st_size / MB:.0f} MB in {time.perf_counter() - t:.1f} s", file=sys.stderr)
            wall, _, rss = _cli([str(big)])
            results["rss"] = {"bytes": big.stat().st_size, "wall_s": wall, "peak_rss_bytes": rss,
                              "mb_s": big.stat().st_size / MB / wall}
    finally:
        if not args.dir:
            shutil.rmtree(scratch, ignore_errors=True)
    _print(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 0


def _jobs(scratch: Path, args: argparse.Namespace, results: dict[str, Any]) -> None:
    root = scratch / "root"
    day = root / "2026-07-18"
    day.mkdir(parents=True, exist_ok=True)
    for i in range(args.sessions):
        sid = f"session-2026-07-18-03-10-22-{i:08x}"
        _write(day / f"{sid}_001.jsonl", trace_lines(args.session_mb * MB, seed=100 + i, session_id=sid))
    runs: dict[int, list[tuple[float, float, int]]] = {1: [], 2: []}
    for _ in range(args.jobs_rounds):  # interleaved
        for jobs in (1, 2):
            runs[jobs].append(_cli(["--jobs", str(jobs), str(root)]))
    j1 = [w for w, _, _ in runs[1]]
    j2 = [w for w, _, _ in runs[2]]
    results["jobs"] = {
        "sessions": args.sessions,
        "bytes": sum(p.stat().st_size for p in day.iterdir()),
        "jobs1_s": statistics.median(j1),
        "jobs2_s": statistics.median(j2),
        "speedup": statistics.median(j1) / statistics.median(j2),
        "best_speedup": min(j1) / min(j2),
        # CPU seconds / wall seconds: 2.0 would be both cores busy for the whole run
        "jobs2_parallelism": statistics.median(c / w for w, c, _ in runs[2]),
        "jobs1_all_s": j1,
        "jobs2_all_s": j2,
    }
    shutil.rmtree(root)


def _print(r: dict[str, Any]) -> None:
    print(f"Python {r['python']} on {r['machine']}, {r['cpus']} CPUs\n")
    if "throughput" in r:
        print("| input | size | messages | decode only (reader) | bare decode | full validation "
              "| validate / reader | validate / bare |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for t in r["throughput"]:
            print(f"| {t['input']} | {t['bytes'] / MB:.1f} MB | {t['messages']:,} | {t['decode_mb_s']:.1f} MB/s "
                  f"({t['decode_msg_s']:,.0f} msg/s) | {t['bare_decode_mb_s']:.1f} MB/s | {t['validate_mb_s']:.1f} "
                  f"MB/s ({t['validate_msg_s']:,.0f} msg/s) | {t['ratio']:.2f}x | {t['bare_ratio']:.2f}x |")
        print()
    if "jobs" in r:
        j = r["jobs"]
        print(f"--jobs over {j['sessions']} sessions ({j['bytes'] / MB:.0f} MB): --jobs 1 {j['jobs1_s']:.2f} s, "
              f"--jobs 2 {j['jobs2_s']:.2f} s (medians): speedup {j['speedup']:.2f}x (best runs "
              f"{j['best_speedup']:.2f}x; --jobs 2 kept {j['jobs2_parallelism']:.2f} cores busy)")
    if "rss" in r:
        s = r["rss"]
        print(f"peak RSS validating {s['bytes'] / MB:,.0f} MB: {s['peak_rss_bytes'] / 2**20:.1f} MiB "
              f"({s['wall_s']:.1f} s, {s['mb_s']:.1f} MB/s)")

if __name__ == "__main__":
    sys.exit(main())
