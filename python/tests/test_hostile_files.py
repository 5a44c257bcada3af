"""The hostile file catalogue (conformance/hostile/catalogue.json) against every reader we ship.

Each file (empty, no newline, a million lines, binary, CRLF, UTF-16, gzip, NUL-filled, 100 MiB
lines, ...) is written once, then read by five consumers, each in a subprocess under a time limit
and a memory limit (peak RSS: VmHWM polled every 20 ms while it runs; Python also runs under
RLIMIT_AS, Node under --max-old-space-size):

* `python/tests/hostile_reader.py` (`omnimessage.iter_messages`) and its TypeScript twin
  `typescript/test/hostile-reader.mjs` (`iterMessages` over a file stream): the expected lines,
  messages, lines re-encoding to themselves and refusals by category, and the same digest of
  every line's outcome in both languages;
* `omnimessage canonicalize FILE` and `node typescript/bin/omnimessage.mjs canonicalize FILE`: the
  expected exit status and standard output, one report per refused line with its category, and
  the same standard error in both languages;
* `omnimessage validate --select OM0,OM1 FILE`: the expected exit status and findings by rule.

No consumer may print a traceback, an internal error or a JavaScript stack. Cases of tier `full`
(minutes, or files beyond 256 MiB) run only with OMNIMESSAGE_HOSTILE=full (`make test-hostile`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import ROOT, tool_path

HOSTILE = ROOT / "conformance" / "hostile"
CATALOGUE: dict[str, Any] = json.loads((HOSTILE / "catalogue.json").read_text(encoding="utf-8"))
NODE = tool_path("node")
TS_DIR = ROOT / "typescript"
FULL = os.environ.get("OMNIMESSAGE_HOSTILE") == "full"
MIB = 1 << 20

# What no consumer may print, whatever the input.
CRASH_MARKERS = (
    b"Traceback (most recent call last)",
    b"internal error",
    b"\n    at ",  # a JavaScript stack frame
    b"FATAL ERROR",  # V8 out of memory
    b"MemoryError",
)


def test_catalogue_matches_its_schema_and_is_big_enough() -> None:
    schema = json.loads((HOSTILE / "catalogue.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(CATALOGUE)]
    assert not errors, errors[:5]
    ids = [c["id"] for c in CATALOGUE["cases"]]
    assert len(ids) == len(set(ids)) and len(ids) >= 25
    for c in CATALOGUE["cases"]:
        e = c["expect"]
        assert e["messages"] + sum(e["refused"].values()) == e["lines"], c["id"]
        assert e["identical"] <= e["messages"], c["id"]


# ---------------------------------------------------------------------------
# bytes
# ---------------------------------------------------------------------------


def chunks(parts: list[dict[str, Any]]) -> Iterator[bytes]:
    """The bytes of a `{"parts": [...]}` source, in chunks of at most a few MiB."""
    for p in parts:
        piece = p["text"].encode("utf-8") if "text" in p else base64.b64decode(p["base64"], validate=True)
        n = p.get("repeat", 1)
        per = max(1, (4 * MIB) // len(piece))
        while n > 0:
            k = min(n, per)
            yield piece * k
            n -= k


@dataclass
class Digest:
    sha256: str
    size: int


def digest_of(parts: list[dict[str, Any]]) -> Digest:
    h = hashlib.sha256()
    size = 0
    for c in chunks(parts):
        h.update(c)
        size += len(c)
    return Digest(h.hexdigest(), size)


@dataclass
class HostileFile:
    path: Path
    digest: Digest
    longest_line: int


_FILES: dict[str, HostileFile] = {}


def materialize(case: dict[str, Any], directory: Path) -> HostileFile:
    """Write the case's file once (streaming: a 257 MiB file never sits in memory)."""
    if case["id"] in _FILES:
        return _FILES[case["id"]]
    path = directory / f"{case['id']}.jsonl"
    h = hashlib.sha256()
    size = longest = current = 0
    with open(path, "wb") as fh:
        for c in chunks(case["input"]["parts"]):
            fh.write(c)
            h.update(c)
            size += len(c)
            start = 0
            while True:
                nl = c.find(b"\n", start)
                if nl < 0:
                    current += len(c) - start
                    break
                longest = max(longest, current + nl - start)
                current = 0
                start = nl + 1
    longest = max(longest, current)
    f = HostileFile(path, Digest(h.hexdigest(), size), longest)
    _FILES[case["id"]] = f
    return f


# ---------------------------------------------------------------------------
# running a consumer under limits
# ---------------------------------------------------------------------------


class Sink:
    """Consumes a pipe as it is written: sha256 and size of everything, the last 64 KiB, and
    (optionally) a count of the lines matching a pattern, by their first group."""

    def __init__(self, pattern: re.Pattern[bytes] | None = None) -> None:
        self.h = hashlib.sha256()
        self.size = 0
        self.tail = b""
        self.head = b""
        self.pattern = pattern
        self.counts: dict[str, int] = {}
        self.markers: set[bytes] = set()
        self._partial = b""

    def feed(self, data: bytes) -> None:
        self.h.update(data)
        self.size += len(data)
        if len(self.head) < 4096:
            self.head += data[: 4096 - len(self.head)]
        window = self.tail[-256:] + data
        for m in CRASH_MARKERS:
            if m in window:
                self.markers.add(m)
        self.tail = (self.tail + data)[-65536:]
        if self.pattern is not None:
            lines = (self._partial + data).split(b"\n")
            self._partial = lines.pop()
            for ln in lines:
                mo = self.pattern.match(ln)
                if mo:
                    key = mo.group(1).decode()
                    self.counts[key] = self.counts.get(key, 0) + 1

    def pump(self, fh: Any) -> None:
        while True:
            data = fh.read(1 << 20)
            if not data:
                break
            self.feed(data)
        if self._partial:
            self.feed(b"\n")

    @property
    def digest(self) -> Digest:
        return Digest(self.h.hexdigest(), self.size)


@dataclass
class Run:
    name: str
    returncode: int | None
    seconds: float
    peak_rss_mib: float
    stdout: Sink
    stderr: Sink
    problems: list[str] = field(default_factory=list)


def _hwm_mib(pid: int) -> float:
    """The peak RSS so far of the process's memory (VmHWM, reset by exec; ru_maxrss is not: it keeps
    the RSS of the forked pytest process)."""
    try:
        for ln in Path(f"/proc/{pid}/status").read_text().splitlines():
            if ln.startswith("VmHWM:"):
                return int(ln.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def run_limited(
    name: str,
    argv: list[str],
    *,
    seconds: float,
    rss_mib: float,
    address_space_mib: float | None,
    stdout: Sink,
    stderr: Sink,
) -> Run:
    """Run `argv` with its output consumed as it comes; kill it beyond `seconds` or `rss_mib`."""

    def limits() -> None:  # in the child, before exec
        if address_space_mib is not None:
            cap = int(address_space_mib * MIB)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    t0 = time.monotonic()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limits,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    pumps = [
        threading.Thread(target=stdout.pump, args=(proc.stdout,), daemon=True),
        threading.Thread(target=stderr.pump, args=(proc.stderr,), daemon=True),
    ]
    for t in pumps:
        t.start()
    problems: list[str] = []
    peak = 0.0
    status = 0
    while True:
        pid, st = os.waitpid(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            status = st
            break
        peak = max(peak, _hwm_mib(proc.pid))
        elapsed = time.monotonic() - t0
        if elapsed > seconds or peak > rss_mib:
            problems.append(
                f"killed: {elapsed:.1f}s (limit {seconds:g}s), RSS {peak:.0f} MiB (limit {rss_mib:.0f} MiB)"
            )
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, 9)
            _, status = os.waitpid(proc.pid, 0)
            break
        time.sleep(0.02)
    elapsed = time.monotonic() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    for t in pumps:
        t.join(timeout=30)
    proc.stdout.close()
    proc.stderr.close()
    if peak > rss_mib and not problems:
        problems.append(f"peak RSS {peak:.0f} MiB over the limit of {rss_mib:.0f} MiB")
    for sink, what in ((stdout, "stdout"), (stderr, "stderr")):
        for m in sorted(sink.markers):
            problems.append(f"{what} holds {m.decode().strip()!r}: {sink.tail[-1500:].decode(errors='replace')}")
    return Run(name, proc.returncode, elapsed, peak, stdout, stderr, problems)


# ---------------------------------------------------------------------------
# the consumers
# ---------------------------------------------------------------------------


def budget(case: dict[str, Any], f: HostileFile) -> tuple[float, float]:
    b = {**CATALOGUE["budget"], **case.get("budget", {})}
    return float(b["seconds"]), float(b["rss_mib"]) + float(b["rss_mib_per_mib"]) * f.longest_line / MIB


REPORT = re.compile(rb"^[^\n]*?:\d+: ([a-z_0-9]+): ")


def consumers(f: HostileFile, rss: float) -> dict[str, tuple[list[str], Sink, Sink, float | None]]:
    py = sys.executable
    path = str(f.path)
    address_space = rss * 2 + 1024
    out: dict[str, tuple[list[str], Sink, Sink, float | None]] = {
        "python-reader": ([py, str(ROOT / "python" / "tests" / "hostile_reader.py"), path], Sink(), Sink(), address_space),
        "python-canonicalize": ([py, "-m", "omnimessage", "canonicalize", path], Sink(), Sink(REPORT), address_space),
        "python-validate": (
            [py, "-m", "omnimessage", "validate", "--select", "OM0,OM1", "--color", "never", "--no-progress", path],
            Sink(),
            Sink(),
            address_space,
        ),
    }
    if NODE is not None:
        heap = [f"--max-old-space-size={int(rss * 0.6)}"]  # V8 collects before the RSS limit, not after
        out["typescript-reader"] = ([NODE, *heap, str(TS_DIR / "test" / "hostile-reader.mjs"), path], Sink(), Sink(), None)
        out["typescript-canonicalize"] = (
            [NODE, *heap, str(TS_DIR / "bin" / "omnimessage.mjs"), "canonicalize", path],
            Sink(),
            Sink(REPORT),
            None,
        )
    return out


_SUMMARY_ROW = re.compile(rb"^(OM\d{3})\s+(?:error|warning|info)\s+(\d+)\s", re.M)


def check(case: dict[str, Any], f: HostileFile, runs: dict[str, Run]) -> list[str]:
    e = case["expect"]
    bad: list[str] = []

    def fail(run: Run, msg: str) -> None:
        bad.append(f"{run.name}: {msg}")

    for r in runs.values():
        bad += [f"{r.name}: {p}" for p in r.problems]
    want_reader = {k: e[k] for k in ("lines", "messages", "identical", "refused")}
    summaries = {}
    for name in ("python-reader", "typescript-reader"):
        r = runs.get(name)
        if r is None:
            continue
        if r.returncode != 0:
            fail(r, f"exit {r.returncode}: {r.stderr.tail[-1500:].decode(errors='replace')}")
            continue
        got = json.loads(r.stdout.tail)
        summaries[name] = got.pop("digest")
        if got != want_reader:
            fail(r, f"read {got}, expected {want_reader}")
    if len(set(summaries.values())) > 1:
        bad.append(f"the Python and TypeScript readers disagree on some line (digests {summaries})")
    if e["canonicalize"]["stdout"] == "input":
        want_out = f.digest
    elif e["canonicalize"]["stdout"] == "empty":
        want_out = Digest(hashlib.sha256().hexdigest(), 0)
    else:
        want_out = digest_of(e["canonicalize"]["stdout"]["parts"])
    for name in ("python-canonicalize", "typescript-canonicalize"):
        r = runs.get(name)
        if r is None:
            continue
        if r.returncode != e["canonicalize"]["exit"]:
            fail(r, f"exit {r.returncode}, expected {e['canonicalize']['exit']}: {r.stderr.tail[-800:]!r}")
        if r.stdout.digest != want_out:
            fail(r, f"stdout is {r.stdout.digest}, expected {want_out}: starts {r.stdout.head[:200]!r}")
        if r.stderr.counts != e["refused"]:
            fail(r, f"reported {r.stderr.counts}, expected {e['refused']}: {r.stderr.head[:600]!r}")
    if "python-canonicalize" in runs and "typescript-canonicalize" in runs:
        a, b = runs["python-canonicalize"].stderr, runs["typescript-canonicalize"].stderr
        if a.digest != b.digest:
            bad.append(f"canonicalize: stderr differs between Python and TypeScript:\n{a.head[:800]!r}\n{b.head[:800]!r}")
    r = runs["python-validate"]
    if r.returncode != e["validate"]["exit"]:
        fail(r, f"exit {r.returncode}, expected {e['validate']['exit']}: {r.stdout.tail[-800:]!r}")
    rules = {m.group(1).decode(): int(m.group(2)) for m in _SUMMARY_ROW.finditer(r.stdout.tail)}
    if rules != e["validate"]["rules"]:
        fail(r, f"found {rules}, expected {e['validate']['rules']}: {r.stdout.tail[-1200:].decode(errors='replace')}")
    return bad


def _ensure_ts_built() -> None:
    if NODE is not None and not (TS_DIR / "dist" / "index.js").is_file():
        pytest.fail("typescript/dist is not built: run `make setup`")


CASES = [pytest.param(c, id=c["id"], marks=[] if c["tier"] == "test" or FULL else [pytest.mark.skip(
    reason="tier `full`: OMNIMESSAGE_HOSTILE=full (make test-hostile)")]) for c in CATALOGUE["cases"]]


@pytest.fixture(scope="module")
def hostile_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("hostile")
    yield d
    _FILES.clear()
    shutil.rmtree(d, ignore_errors=True)


@pytest.mark.parametrize("case", CASES)
def test_hostile_file(case: dict[str, Any], hostile_dir: Path) -> None:
    _ensure_ts_built()
    f = materialize(case, hostile_dir)
    seconds, rss = budget(case, f)
    todo = consumers(f, rss)
    with ThreadPoolExecutor(max_workers=2) as pool:  # two cores: two consumers at a time
        futures = {
            name: pool.submit(
                run_limited, name, argv, seconds=seconds, rss_mib=rss, address_space_mib=aspace, stdout=o, stderr=e
            )
            for name, (argv, o, e, aspace) in todo.items()
        }
        runs = {name: fut.result() for name, fut in futures.items()}
    f.path.unlink()  # big files do not pile up in /tmp
    _FILES.pop(case["id"], None)
    problems = check(case, f, runs)
    assert not problems, f"{case['id']} ({f.digest.size} bytes):\n" + "\n".join(problems)
    print(
        f"\n{case['id']}: "
        + ", ".join(f"{r.name} {r.seconds:.1f}s {r.peak_rss_mib:.0f}MiB" for r in runs.values())
        + f" (limits {seconds:g}s, {rss:.0f} MiB)"
    )
