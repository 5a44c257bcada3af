"""`python -m bench.ecosystem` (`make bench-ecosystem`): the Go and Rust strict decoders against their own
ecosystem's parsers alone, without the rest of `make bench` (issue 36).

Every `decode_validate` row of bench/native.py (ours, encoding/json into `any` and into structs, goccy/go-json,
serde_json typed, sonic-rs typed) over the same corpora as `make bench`, interleaved round after round. Each
command reports the wall seconds and the CPU seconds of its one timed pass (Go: the process, the garbage
collector's threads included; Rust: the thread, from /proc/thread-self/schedstat); the medians make each row,
and the ratios of ours over each peer are given both ways, as CPU time holds on a loaded machine where wall
time does not.
Then the suite's one-line rejection cases through every row (bench/let_through.py).

Writes bench/ecosystem.json and bench/ECOSYSTEM.md (`--quick`: small corpora, 2 rounds, writes
ecosystem-quick.json alone; its numbers mean nothing). A row that is not built is an error: build them with
`make rust-build go-build peers-build`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from omnimessage_dev.synth import corpora as corpus

from .let_through import let_through
from .native import NATIVE
from .report import _let_through

ROOT = Path(__file__).resolve().parent.parent

PAIRS = [  # (language, ours, peer, the minimum or None)
    ("Go", "omnimessage-go", "go-encoding-json-structs", 1.5),
    ("Go", "omnimessage-go", "go-goccy-json-structs", None),
    ("Go", "omnimessage-go", "go-encoding-json-any", None),
    ("Rust", "omnimessage-rust", "rust-serde-json-typed", 1.0),
    ("Rust", "omnimessage-rust", "rust-sonic-rs-typed", None),
]
"""Ours over each peer; the minimums are issue 36's targets (Go strict decode at least 1.5x encoding/json into
structs, Rust at least 1.0x serde_json typed)."""


def rows() -> list[tuple[str, Path, str, str]]:
    """(row name, binary, mode, note) of every native `decode_validate` row; SystemExit naming what is not built."""
    out, missing = [], []
    for env, default, build, native_rows in NATIVE.values():
        binary = Path(os.environ.get(env) or default)
        for task, name, mode, note in native_rows:
            if task != "decode_validate":
                continue
            if not binary.is_file():
                missing.append(f"{name} ({binary} is not built: {build})")
            out.append((name, binary, mode, note))
    if missing:
        raise SystemExit("bench.ecosystem: " + "; ".join(missing))
    return out


def run_once(binary: Path, mode: str, path: Path) -> dict[str, Any]:
    """One `bench MODE FILE` command: {"accepted", "seconds", "cpu_seconds"} of its timed pass."""
    out = subprocess.run(
        [str(binary), "bench", mode, str(path)], capture_output=True, text=True, check=True, timeout=600
    ).stdout
    r = json.loads(out)
    if r.get("cpu_seconds") is None:
        raise SystemExit(f"bench.ecosystem: {binary.name} {mode} reports no CPU time on this system")
    return {"accepted": int(r["accepted"]), "seconds": float(r["seconds"]), "cpu_seconds": float(r["cpu_seconds"])}


def measure(corpora: dict[str, Path], rounds: int) -> list[dict[str, Any]]:
    """Every row on every corpus, the order rotated each round; the medians of wall and CPU seconds."""
    chosen = rows()
    results = []
    for cname, path in corpora.items():
        nbytes = path.stat().st_size
        nlines = sum(1 for _ in path.open("rb"))
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, *_ in chosen}
        for r in range(rounds):
            for name, binary, mode, _note in chosen[r % len(chosen) :] + chosen[: r % len(chosen)]:
                runs[name].append(run_once(binary, mode, path))
        for name, _binary, _mode, note in chosen:
            wall = [x["seconds"] for x in runs[name]]
            cpu = [x["cpu_seconds"] for x in runs[name]]
            row = {
                "corpus": cname,
                "impl": name,
                "seconds": round(statistics.median(wall), 4),
                "cpu_seconds": round(statistics.median(cpu), 4),
                "mb_per_s": round(nbytes / (1 << 20) / statistics.median(wall), 1),
                "spread": round((max(wall) - min(wall)) / statistics.median(wall), 3),
                "rounds": rounds,
                "accepted": runs[name][-1]["accepted"],
                "lines": nlines,
                "note": note,
            }
            results.append(row)
            print(
                f"  {cname:7s} {name:26s} {row['mb_per_s']:8.1f} MB/s  wall {row['seconds']:.4f} s  "
                f"cpu {row['cpu_seconds']:.4f} s  accepted {row['accepted']}/{nlines}",
                flush=True,
            )
    return results


def ratios(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ours over each peer per corpus: the peer's seconds over ours (above 1: ours is faster), wall and CPU."""
    by = {(r["corpus"], r["impl"]): r for r in results}
    out = []
    for corpus_name in dict.fromkeys(r["corpus"] for r in results):
        for lang, ours, peer, minimum in PAIRS:
            a, b = by[(corpus_name, ours)], by[(corpus_name, peer)]
            wall = round(b["seconds"] / a["seconds"], 2)
            # None where a command measured no CPU time at all (a clock coarser than the pass)
            cpu = round(b["cpu_seconds"] / a["cpu_seconds"], 2) if a["cpu_seconds"] and b["cpu_seconds"] else None
            out.append(
                {
                    "corpus": corpus_name,
                    "lang": lang,
                    "ours": ours,
                    "peer": peer,
                    "wall": wall,
                    "cpu": cpu,
                    "minimum": minimum,
                }
            )
    return out


def _met(x: float | None, minimum: float | None) -> str:
    return "" if minimum is None or x is None else ("yes" if x >= minimum else "no")


def write_markdown(doc: dict[str, Any], path: Path) -> None:
    m = doc["machine"]
    out = [
        "# Go and Rust against their own ecosystems",
        "",
        f"Generated by `{doc['command']}` (bench/ecosystem.py) on {doc['date']} at commit {doc['commit']}, "
        f"in {doc['seconds']} s; do not edit by hand. {m['cores']} cores ({m['cpu']}), load average "
        f"{m['load_average_1min'][0]} before and {m['load_average_1min'][1]} after; {doc['rounds']} rounds, "
        "the order rotated each round, the median of each row.",
        "",
        "Each command decodes every line of a corpus in one untimed pass, then in one timed pass; it reports the "
        "wall seconds and the CPU seconds of the timed pass (Go: the process, its garbage collector included; Rust: "
        "the thread, from /proc/thread-self/schedstat). Wall time counts the waits for a core on a loaded machine, "
        "CPU time does not. x = the peer's seconds over ours: above 1, ours is faster.",
        "",
        "## Ours over each peer",
        "",
        "| corpus | ours | peer | x wall | x CPU | minimum | met (wall) | met (CPU) |",
        "| --- | --- | --- | ---: | ---: | ---: | --- | --- |",
    ]
    for q in doc["ratios"]:
        out.append(
            f"| {q['corpus']} | {q['ours']} | {q['peer']} | {q['wall']} | {q['cpu'] or ''} | {q['minimum'] or ''} | "
            f"{_met(q['wall'], q['minimum'])} | {_met(q['cpu'], q['minimum'])} |"
        )
    out += ["", "## Rows", ""]
    for corpus_name, c in doc["corpora"].items():
        out += [
            f"### {corpus_name} ({c['bytes']:,} bytes, {c['lines']:,} lines)",
            "",
            "| implementation | MB/s | wall s | CPU s | spread | accepted | note |",
            "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for r in doc["results"]:
            if r["corpus"] == corpus_name:
                out.append(
                    f"| {r['impl']} | {r['mb_per_s']} | {r['seconds']} | {r['cpu_seconds']} | {r['spread']} | "
                    f"{r['accepted']}/{r['lines']} | {r['note']} |"
                )
        out.append("")
    out += _let_through(doc)
    out += ["## Where a peer is faster", "", *closing_notes(doc)]
    path.write_text("\n".join(out) + "\n")


def closing_notes(doc: dict[str, Any]) -> list[str]:
    """A line per peer that beats ours on some corpus by wall or CPU time: where, and what it skips that we check
    (its note and the rejection cases it lets through)."""
    notes = {r["impl"]: r["note"] for r in doc["results"]}
    lt = doc["let_through"]
    out = []
    for _lang, ours, peer, _minimum in PAIRS:
        mine = [q for q in doc["ratios"] if (q["ours"], q["peer"]) == (ours, peer)]
        faster = [q for q in mine if q["wall"] < 1 or (q["cpu"] is not None and q["cpu"] < 1)]
        if not faster:
            continue
        where = ", ".join(f"{q['corpus']} (x wall {q['wall']}, x CPU {q['cpu']})" for q in faster)
        passed = sum(lt["accepted"][peer].values())
        out.append(
            f"- {peer} is faster than {ours} on {where}: {notes[peer]}; it lets through {passed} of the "
            f"{sum(lt['cases'].values())} rejection cases above, which {ours} refuses."
        )
    return out or ["None: ours is at least as fast as every peer on every corpus, by wall and by CPU time."]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small corpora, 2 rounds: a smoke run, numbers meaningless")
    p.add_argument("--rounds", type=int, default=None)
    p.add_argument("--scale", type=float, default=float(os.environ.get("BENCH_SCALE", "1")))
    p.add_argument("--out", type=Path, default=ROOT / "bench")
    args = p.parse_args(argv)
    scale = 0.02 if args.quick else args.scale
    rounds = args.rounds or (2 if args.quick else 5)
    from .run import commit, machine

    corpora = corpus.ensure(ROOT / "bench" / "corpora", scale)
    started, load_before = time.time(), os.getloadavg()[0]
    results = measure(corpora, rounds)
    doc = {
        "command": " ".join(["python -m bench.ecosystem", *(sys.argv[1:] if argv is None else argv)]),
        "commit": commit(),
        "date": time.strftime("%Y-%m-%d", time.gmtime(started)),
        "machine": {**machine(), "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)]},
        "scale": scale,
        "rounds": rounds,
        "corpora": {n: {"bytes": p.stat().st_size, "lines": sum(1 for _ in p.open("rb"))} for n, p in corpora.items()},
        "results": results,
        "ratios": ratios(results),
        "let_through": let_through(),
    }
    doc["seconds"] = round(time.time() - started, 1)
    for q in doc["ratios"]:
        print(f"  {q['corpus']:7s} {q['ours']} over {q['peer']}: x wall {q['wall']}, x CPU {q['cpu']}")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.quick:
        (args.out / "ecosystem-quick.json").write_text(json.dumps(doc, indent=2) + "\n")
        return 0
    (args.out / "ecosystem.json").write_text(json.dumps(doc, indent=2) + "\n")
    write_markdown(doc, args.out / "ECOSYSTEM.md")
    print(f"wrote {args.out / 'ecosystem.json'} and ECOSYSTEM.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
