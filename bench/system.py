"""Whole-program measurements: protocol validation throughput, peak memory on a large
trace, and the `--jobs` speedup, all through the installed `omnimessage validate`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from omnimessage_dev.synth import corpora as corpus

from .impls import Impl, Lines, Result

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "omnimessage"]


def _validator_available() -> bool:
    try:
        from omnimessage.validate import Validator  # noqa: F401
    except ImportError:
        return False
    return True


def validate_impls() -> list[Impl]:
    if not _validator_available():
        print("validate_rules skipped: omnimessage.validate is not available")
        return []
    from omnimessage.validate import Validator

    def make(profile: str) -> Any:
        def run(lines: Lines) -> Result:
            for _ in Validator(profile).validate_lines(lines):  # the fused loop; then finish()
                pass
            return len(lines), None

        return run

    return [
        Impl(
            "validate_rules",
            "omnimessage-python",
            make("trace"),
            "trace profile: schema + every rule",
            corpora=("trace",),
        ),
        Impl(
            "validate_rules",
            "omnimessage-python",
            make("stream"),
            "stream profile: schema + every rule",
            corpora=("stream",),
        ),
    ]


# The command runs under a small wrapper process: a child forked straight from this benchmark
# would count the benchmark's own resident pages (hundreds of MB of corpora) in its peak RSS.
_WRAPPER = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
dt = time.perf_counter() - t0
print(json.dumps([dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, code]))
"""


def _run_measured(cmd: list[str]) -> tuple[float, int, int]:
    """(seconds, peak RSS in bytes, exit code) of `cmd`."""
    out = subprocess.run([sys.executable, "-c", _WRAPPER, *cmd], capture_output=True, text=True, check=True).stdout
    dt, rss, code = json.loads(out)
    return float(dt), int(rss), int(code)


def memory_and_parallel(tasks: set[str], corpora_dir: Path, scale: float, *, quick: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not _validator_available():
        return out
    if "memory" in tasks:
        big_scale = 0.05 if quick else 10 * scale  # 1 GB trace at default scale
        big = corpora_dir / f"trace-v{corpus.VERSION}-x{big_scale:g}.jsonl"
        if not big.exists():
            tmp = big.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                for line in corpus.trace(int(100 * big_scale * corpus.MB)):
                    f.write(line)
            tmp.replace(big)
        dt, rss, code = _run_measured([*CLI, "validate", "--profile", "trace", "--format", "json", str(big)])
        out["memory"] = {
            "file_bytes": big.stat().st_size,
            "peak_rss_mb": round(rss / (1 << 20), 1),
            "seconds": round(dt, 2),
            "mb_per_s": round(big.stat().st_size / (1 << 20) / dt, 1),
            "exit_code": code,
        }
        print(f"  memory: {out['memory']}", flush=True)
    if "parallel" in tasks:
        pdir = corpora_dir / f"parallel-v{corpus.VERSION}-x{scale:g}"
        if not pdir.exists():
            tmpdir = pdir.with_suffix(".tmp")
            shutil.rmtree(tmpdir, ignore_errors=True)
            tmpdir.mkdir(parents=True)
            for k in range(8):  # eight sessions' trace files (400 MB at scale 1), as a trace root holds them
                with open(tmpdir / f"part-{k:02d}.jsonl", "wb") as f:
                    for line in corpus.trace(int(400 * scale * corpus.MB / 8), seed=100 + k):
                        f.write(line)
            tmpdir.rename(pdir)
        files = sorted(str(p) for p in pdir.glob("*.jsonl"))
        rounds = 1 if quick else 3
        t1 = min(
            _run_measured([*CLI, "validate", "--profile", "trace", "--format", "json", "--jobs", "1", *files])[0]
            for _ in range(rounds)
        )
        t2 = min(
            _run_measured([*CLI, "validate", "--profile", "trace", "--format", "json", "--jobs", "2", *files])[0]
            for _ in range(rounds)
        )
        out["parallel"] = {
            "files": len(files),
            "bytes": sum(Path(f).stat().st_size for f in files),
            "jobs1_seconds": round(t1, 2),
            "jobs2_seconds": round(t2, 2),
            "speedup": round(t1 / t2, 2),
            "cores": os.cpu_count(),
        }
        print(f"  parallel: {out['parallel']}", flush=True)
    return out
