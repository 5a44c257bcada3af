"""The load-proof figure of `make bench`: instructions executed by each implementation's measured pass,
counted by valgrind's callgrind.

Wall time on a shared machine moves with whatever else runs; the number of instructions a pass
executes does not. Each process runs under `valgrind --tool=callgrind --instr-atstart=no
--collect-atstart=no`: nothing is instrumented or counted until the process itself switches counting
on, right before its measured pass, and off right after (bench/callgrind_shim.c, the CALLGRIND client
requests, built here with gcc: a shared library Python loads with ctypes, a Node-API module Node loads
with `process.dlopen`). Start-up, imports, reading the corpus and the untimed warm-up pass are never
counted; each pass is one numbered dump whose `totals:` line is its count.

- Python: one process for every Python row (`python -m bench.callgrind ROW...`), `PYTHONHASHSEED=0`
  so that hashing is the same every run.
- Node: one `typescript/bench/worker.mjs` process for every TypeScript row, with V8 made
  deterministic (`NODE_FLAGS`: one thread, so no concurrent compiler or collector, fixed seeds, a
  fixed heap-growing schedule). Callgrind counts every thread's instructions anyway, so this moves
  work between threads, not out of the count.

Each row is warmed up first (`WARM_LINES`) and its pass starts from a collected heap; the clock is read
outside the counted region (a clock read's instructions vary). The same binaries, inputs and
environment give the same counts in Python; in Node they agree to within a few hundredths of a percent
(V8 still reads the clock in its compiler and collector: 0.03% on a 64 KiB pass under load, 0.24% on an
8 KiB one), python/tests/test_bench_callgrind.py runs one measurement twice and holds Node to 1%.
Callgrind runs code ~50x slower, so the corpora are prefixes of the wall-time corpora (`SIZES`).
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHIM = Path(__file__).resolve().parent / "callgrind_shim.c"
WORKER = ROOT / "typescript" / "bench" / "worker.mjs"
VALGRIND = "/usr/bin/valgrind"

# (task, implementation, corpora): the rows counted. Each target of bench/report.py whose two sides
# are here is judged on instructions.
PYTHON_ROWS = [
    ("decode_validate", "omnimessage-python", ("trace", "stream", "small")),
    ("decode_validate", "msgspec-untyped", ("trace", "stream", "small")),
    ("decode_validate", "orjson+jsonschema_rs", ("trace",)),
    ("roundtrip", "omnimessage-python", ("trace",)),
    ("validate_rules", "omnimessage-python", ("trace", "stream")),
]
NODE_ROWS = [
    ("decode_validate", "omnimessage-typescript", ("trace", "stream", "small")),
    ("decode_validate", "json-parse", ("trace", "stream", "small")),
    ("roundtrip", "omnimessage-typescript", ("trace",)),
    ("roundtrip", "omnimessage-typescript-reserialise", ("trace",)),
]
# `--quick` (part of `make test`, so that this never rots): one row of each kind, on tiny corpora.
QUICK_PYTHON_ROWS = [("decode_validate", "omnimessage-python", ("trace",)), ("validate_rules", "omnimessage-python",
                                                                             ("stream",))]
QUICK_NODE_ROWS = [("decode_validate", "omnimessage-typescript", ("trace",))]
# Bytes of each corpus counted (a prefix of whole lines): the whole callgrind part of `make bench`
# takes a few minutes on an idle 2-core machine, `--quick` seconds.
SIZES = {"trace": 4 << 20, "stream": 1 << 20, "small": 512 << 10}
QUICK_SIZES = {"trace": 96 << 10, "stream": 32 << 10, "small": 16 << 10}


# V8 made deterministic: one thread, fixed seeds, a fixed heap-growing schedule, and a collection before
# each measured pass (the worker calls gc() when exposed), so a pass does not pay for its predecessor's garbage.
NODE_FLAGS = ["--predictable", "--predictable-gc-schedule", "--random-seed=1", "--hash-seed=1", "--expose-gc"]
# The warm-up pass runs again until it has seen this many lines (at least once): the corpora are small,
# and V8 compiles the hot code after a number of calls, which one pass of a few hundred lines does not
# reach (it would count the compiler). CPython 3.11 specialises within a few calls; the same rule holds.
WARM_LINES = 20_000
QUICK_WARM_LINES = 500


def available() -> str | None:
    """Why the instruction counts cannot be taken here, or None when they can."""
    if not os.access(VALGRIND, os.X_OK):
        return f"{VALGRIND} is missing"
    if shutil.which("gcc") is None:
        return "gcc is missing (the shim is compiled)"
    if not Path("/usr/include/valgrind/callgrind.h").is_file():
        return "valgrind/callgrind.h is missing"
    return None


def build_shims(out_dir: Path) -> tuple[Path, Path]:
    """The shim as a shared library (Python) and as a Node-API module, rebuilt when its source changes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    lib, node = out_dir / "libomcallgrind.so", out_dir / "omcallgrind.node"
    for target, extra in ((lib, []), (node, ["-DOM_NODE"])):
        if not target.exists() or target.stat().st_mtime < SHIM.stat().st_mtime:
            tmp = target.with_suffix(".tmp")
            subprocess.run(["gcc", "-O2", "-shared", "-fPIC", *extra, "-o", str(tmp), str(SHIM)], check=True)
            tmp.replace(target)
    return lib, node


def prefix(src: Path, nbytes: int, out_dir: Path) -> Path:
    """The first whole lines of `src` up to `nbytes` (at least one line), written once."""
    dst = out_dir / f"{src.stem}-first{nbytes}.jsonl"
    if not dst.exists():
        data = src.read_bytes()
        cut = data.rfind(b"\n", 0, nbytes + 1)
        if cut < 0:
            cut = data.find(b"\n")
        tmp = dst.with_suffix(".tmp")
        tmp.write_bytes(data if cut < 0 else data[: cut + 1])
        tmp.replace(dst)
    return dst


def _valgrind(out_file: Path) -> list[str]:
    return [VALGRIND, "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "-q",
            f"--callgrind-out-file={out_file}"]


def _dumps(out_file: Path, n: int) -> list[int]:
    """The `totals:` of the dumps `out_file`.1 .. .n (one per measured pass, in order)."""
    counts = []
    for k in range(1, n + 1):
        m = re.search(rb"^totals: (\d+)$", Path(f"{out_file}.{k}").read_bytes(), re.MULTILINE)
        if m is None:
            raise RuntimeError(f"callgrind dump {out_file}.{k} has no totals line")
        counts.append(int(m.group(1)))
    return counts


def run_rows(language: str, rows: Sequence[tuple[str, str, Path]], work: Path, shims: tuple[Path, Path],
             warm_lines: int = WARM_LINES) -> list[int]:
    """Instructions of each (task, implementation, corpus file) row of one language, in one process."""
    out_file = work / f"{language}.callgrind"
    for old in work.glob(f"{language}.callgrind*"):
        old.unlink()
    env = {**os.environ, "PYTHONHASHSEED": "0", "OMNIMESSAGE_CALLGRIND_SHIM": str(shims[language == "node"]),
           "OMNIMESSAGE_CALLGRIND_WARM_LINES": str(warm_lines)}
    flat = [str(x) for row in rows for x in row]
    if language == "python":
        cmd = [sys.executable, "-m", "bench.callgrind", *flat]
    else:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node is missing")
        cmd = [os.path.realpath(node), *NODE_FLAGS, str(WORKER), *flat]
    subprocess.run([*_valgrind(out_file), *cmd], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL,
                   timeout=1800)
    return _dumps(out_file, len(rows))


def measure(corpora: dict[str, Path], work: Path, *, quick: bool, node: bool) -> dict[str, Any]:
    """The `callgrind` part of results.json: each row's instructions, per line and in all."""
    started = time.time()
    shims = build_shims(work)
    sizes, warm = (QUICK_SIZES, QUICK_WARM_LINES) if quick else (SIZES, WARM_LINES)
    tables = (QUICK_PYTHON_ROWS, QUICK_NODE_ROWS) if quick else (PYTHON_ROWS, NODE_ROWS)
    files = {name: prefix(path, sizes[name], work) for name, path in corpora.items() if name in sizes}
    results = []
    for language, table in (("python", tables[0]), ("node", tables[1] if node else [])):
        rows = [(task, impl, files[c]) for task, impl, cs in table for c in cs if c in files]
        if not rows:
            continue
        counts = run_rows(language, rows, work, shims, warm)
        for (task, impl, path), n in zip(rows, counts, strict=True):
            corpus = next(c for c, p in files.items() if p == path)
            lines = sum(1 for _ in path.open("rb"))
            results.append({"task": task, "corpus": corpus, "impl": impl, "instructions": n,
                            "per_line": round(n / lines)})
            print(f"  callgrind {task:16s} {corpus:7s} {impl:36s} {n:>14,} instructions "
                  f"({results[-1]['per_line']:,} a line)", flush=True)
    version = subprocess.run([VALGRIND, "--version"], capture_output=True, text=True).stdout.strip()
    return {
        "valgrind": version,
        "corpora": {c: {"bytes": p.stat().st_size, "lines": sum(1 for _ in p.open("rb"))} for c, p in files.items()},
        "results": results,
        "warm_lines": warm,
        "seconds": round(time.time() - started, 1),
    }


def part(corpora: dict[str, Path], work: Path, *, quick: bool, node: bool, required: bool) -> dict[str, Any] | None:
    """`make bench`'s callgrind part, or None (said why) when it cannot run here and is not `required`."""
    why = available()
    if why is not None:
        if required:
            raise SystemExit(f"bench: the instruction counts cannot be taken: {why}")
        print(f"instruction counts skipped: {why}")
        return None
    return measure(corpora, work, quick=quick, node=node)


# --- the Python process: `python -m bench.callgrind TASK IMPL FILE [TASK IMPL FILE ...]` -------------


def _python_run(task: str, impl: str, corpus_file: Path) -> Callable[[Sequence[bytes]], Any]:
    from . import impls
    from .system import validate_impls

    if task == "validate_rules":
        for candidate in validate_impls():
            if candidate.name == impl and candidate.corpora and corpus_file.name.startswith(candidate.corpora[0]):
                return candidate.run
        raise SystemExit(f"no validate_rules row for {corpus_file.name}")
    table: dict[tuple[str, str], Callable[[], Callable[[Sequence[bytes]], Any]]] = {
        ("decode_validate", "omnimessage-python"): lambda: impls._om_decode,
        ("decode_validate", "msgspec-untyped"): lambda: impls._msgspec_untyped,
        ("decode_validate", "orjson+jsonschema_rs"): impls._orjson_jsonschema_rs,
        ("roundtrip", "omnimessage-python"): lambda: impls._om_roundtrip,
    }
    if (task, impl) not in table:
        raise SystemExit(f"unknown task/implementation {task}/{impl}")
    return table[(task, impl)]()


def main(argv: list[str]) -> int:
    if not argv or len(argv) % 3:
        print("usage: python -m bench.callgrind TASK IMPL FILE [TASK IMPL FILE ...]", file=sys.stderr)
        return 2
    shim = ctypes.CDLL(os.environ["OMNIMESSAGE_CALLGRIND_SHIM"])
    warm_lines = int(os.environ.get("OMNIMESSAGE_CALLGRIND_WARM_LINES", "0"))
    for k in range(0, len(argv), 3):
        task, impl, file = argv[k : k + 3]
        run = _python_run(task, impl, Path(file))
        lines = Path(file).read_bytes().splitlines()
        warmed = 0
        while True:  # warm-up (see WARM_LINES)
            run(lines)
            warmed += len(lines)
            if warmed >= warm_lines or not lines:
                break
        gc.collect()  # each pass starts from a collected heap
        shim.om_callgrind_start()
        result = run(lines)
        shim.om_callgrind_stop()
        print(json.dumps({"task": task, "impl": impl, "accepted": result[0]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
