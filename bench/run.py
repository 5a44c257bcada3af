"""`make bench` (`python -m bench.run` from the repository root): every task x implementation, interleaved
round after round, in one run.

Writes bench/results.json, bench/RESULTS.md and bench/throughput.png. Absolute numbers drift
on a shared machine; ratios measured side by side in one run hold.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec

from omnimessage_dev.synth import corpora as corpus

from .callgrind import part as callgrind_part
from .impls import Impl, python_impls
from .let_through import let_through
from .native import native_impls
from .node import node_impls
from .scaling import run_isolated
from .system import memory_and_parallel, validate_impls

ROOT = Path(__file__).resolve().parent.parent

FLOORS = {"decode_validate": ("msgspec-untyped", "json-parse"), "roundtrip": ("msgspec-untyped", "json-parse")}
OURS = {"python": "omnimessage-python", "typescript": "omnimessage-typescript"}


def load_lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


def machine() -> dict[str, Any]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip() if _has_node() else None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "node": node,
        "msgspec": msgspec.__version__,
        "platform": platform.platform(),
    }


def _has_node() -> bool:
    from shutil import which

    return which("node") is not None


def commit() -> str:
    r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
    )
    return r.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def measure(impls: list[Impl], corpora: dict[str, Path], rounds: int, tasks: set[str]) -> list[dict[str, Any]]:
    results = []
    for cname, path in corpora.items():
        lines = load_lines(path)
        total_bytes = sum(len(x) + 1 for x in lines)
        chosen = [i for i in impls if i.task in tasks and (i.corpora is None or cname in i.corpora)]
        if not chosen:  # `--tasks` without a throughput task (e.g. only `scaling`)
            continue
        sliced: dict[int, list[bytes]] = {}
        for impl in chosen:
            if impl.slice_bytes:
                acc, n = 0, 0
                while n < len(lines) and acc < impl.slice_bytes:
                    acc += len(lines[n]) + 1
                    n += 1
                sliced[id(impl)] = lines[:n]
        times: dict[int, list[float]] = {id(i): [] for i in chosen}
        outcome: dict[int, tuple[int, int | None, int, int]] = {}
        # untimed warm-up, then rounds with the order rotated
        for impl in chosen:
            if impl.run_external is None:
                impl.run(sliced.get(id(impl), lines[:2000]))
        for r in range(rounds):
            order = chosen[r % len(chosen) :] + chosen[: r % len(chosen)]
            for impl in order:
                data = sliced.get(id(impl), lines)
                if impl.run_external is not None:
                    accepted, identical, dt = impl.run_external(path)
                else:
                    t0 = time.perf_counter()
                    accepted, identical = impl.run(data)
                    dt = time.perf_counter() - t0
                times[id(impl)].append(dt)
                nbytes = sum(len(x) + 1 for x in data) if id(impl) in sliced else total_bytes
                outcome[id(impl)] = (accepted, identical, len(data), nbytes)
        for impl in chosen:
            ts = times[id(impl)]
            med = statistics.median(ts)
            accepted, identical, nlines, nbytes = outcome[id(impl)]
            results.append(
                {
                    "task": impl.task,
                    "corpus": cname,
                    "impl": impl.name,
                    "mb_per_s": round(nbytes / (1 << 20) / med, 1),
                    "msgs_per_s": round(nlines / med),
                    "rounds": len(ts),
                    "spread": round((max(ts) - min(ts)) / med, 3),
                    "accepted": accepted,
                    "lines": nlines,
                    "identical": identical,
                    "extrapolated": bool(impl.slice_bytes),
                    "note": impl.note,
                }
            )
            print(
                f"  {impl.task:16s} {cname:7s} {impl.name:28s} {results[-1]['mb_per_s']:9.1f} MB/s "
                f"spread {results[-1]['spread']:.2f} accepted {accepted}/{nlines}"
                + (f" identical {identical}" if identical is not None else ""),
                flush=True,
            )
    return results


def ratio(results: list[dict[str, Any]], task: str, corpus_name: str, impl: str, other: str) -> float | None:
    a = next((r for r in results if (r["task"], r["corpus"], r["impl"]) == (task, corpus_name, impl)), None)
    b = next((r for r in results if (r["task"], r["corpus"], r["impl"]) == (task, corpus_name, other)), None)
    if a is None or b is None or not b["mb_per_s"]:
        return None
    return round(a["mb_per_s"] / b["mb_per_s"], 2)


REQUIRED_PEERS = frozenset(
    {
        "omnimessage-typescript",
        "omnimessage-rust",
        "omnimessage-go",
        "pydantic-datamodel-codegen",
        "go-encoding-json-structs",
        "go-goccy-json-structs",
        "rust-serde-json-typed",
        "rust-sonic-rs-typed",
    }
)
"""The optional peers (an extra, node and the TypeScript build, the Rust release build, the Go command, the
Go and Rust ecosystem peers of `make peers-build`): skipped
with a note when absent, an error under `--require-all`. The other peers are plain imports of the bench extra and
fail loudly without it."""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument(
        "--quick", action="store_true", help="one-minute smoke run (small corpora, 2 rounds); numbers not meaningful"
    )
    p.add_argument("--rounds", type=int, default=None)
    p.add_argument("--scale", type=float, default=float(os.environ.get("BENCH_SCALE", "1")))
    p.add_argument("--tasks", default="decode_validate,roundtrip,read,validate_rules,memory,parallel,scaling,callgrind")
    p.add_argument("--out", type=Path, default=ROOT / "bench")
    p.add_argument(
        "--require-all", action="store_true",
        help="fail when a peer cannot run (a missing extra, node or the TypeScript build): the make test gate",
    )
    args = p.parse_args(argv)
    scale = 0.02 if args.quick else args.scale
    rounds = args.rounds or (2 if args.quick else 5)
    tasks = set(args.tasks.split(","))
    out_dir: Path = args.out
    corpora_dir = ROOT / "bench" / "corpora"
    print(f"corpora (scale {scale:g}) in {corpora_dir}", flush=True)
    corpora = corpus.ensure(corpora_dir, scale)
    impls = python_impls() + node_impls() + native_impls() + validate_impls()
    missing = sorted(REQUIRED_PEERS - {i.name for i in impls})
    if args.require_all and missing:
        print(f"bench: {', '.join(missing)} cannot run here (see above); --require-all makes that an error")
        return 2
    started = time.time()
    load_before = os.getloadavg()[0]
    results = measure(impls, corpora, rounds, tasks)
    extra = memory_and_parallel(tasks, corpora_dir, scale, quick=args.quick)
    if "decode_validate" in tasks:
        extra["let_through"] = let_through()
    if "scaling" in tasks:
        extra["scaling"] = run_isolated(scale, quick=args.quick, required=args.require_all)
    if "callgrind" in tasks:
        node = any(i.name == "omnimessage-typescript" for i in impls)
        counted = callgrind_part(corpora, corpora_dir / "callgrind", quick=args.quick, node=node,
                                 required=args.require_all)
        if counted:
            extra["callgrind"] = counted
    load_after = os.getloadavg()[0]
    doc = {
        "commit": commit(),
        "date": time.strftime("%Y-%m-%d", time.gmtime(started)),  # UTC: the day of the measurement
        "machine": {**machine(), "load_average_1min": [round(load_before, 2), round(load_after, 2)]},
        "scale": scale,
        "quick": args.quick,
        "seconds": round(time.time() - started, 1),
        "corpora": {n: {"bytes": p.stat().st_size, "lines": sum(1 for _ in p.open("rb"))} for n, p in corpora.items()},
        "results": results,
        **extra,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    from .report import write_chart, write_markdown

    if args.quick:
        (out_dir / "results-quick.json").write_text(json.dumps(doc, indent=2) + "\n")
        print("quick run: results-quick.json written (committed results left alone)")
        return 0
    (out_dir / "results.json").write_text(json.dumps(doc, indent=2) + "\n")
    write_markdown(doc, out_dir / "RESULTS.md")
    write_chart(doc, out_dir / "throughput.png")
    print(f"wrote {out_dir / 'results.json'}, RESULTS.md, throughput.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
