"""Differential fuzzing: the Python, TypeScript, Rust and Go decoders on the same generated and mutated lines.

Every input goes through the four bindings, strict and lenient (and, when it is UTF-8, through the
TypeScript decoder once more as a JavaScript string); they must give the same verdict: the same
canonical bytes (and both opaque or neither), or the same refusal (category, JSON pointer and byte
offset: the normative part; the detail text is for people, schema/README.md). Nothing but a
DecodeError may escape either.

Inputs come from
- seeds: every conformance case input (compact hostile ones included), the examples, and the lines
  of the schema-driven generator of the differential test, omnimessage_dev.synth.random_lines (every payload kind,
  verbatim values written every odd way, defects of every category, partials whose fragment
  field holds half of a split surrogate pair);
- mutations of them: byte flips, insertions of hostile tokens (invalid UTF-8, BOMs, NULs, escapes,
  surrogates, brackets, numbers), deletions, duplicated and swapped ranges, splices of two seeds,
  truncation, a line feed or CR at the end, nesting, and the generator's own structural defects;
- feedback: the canonical bytes of every accepted mutant join the seed pool.

The TypeScript side is one long-running `node typescript/test/differential-harness.mjs all`,
the Rust side one `omnimessage-rs differential` ($OMNIMESSAGE_RS_BIN, `make rust-test` builds it),
the Go side one `omnimessage-go differential` ($OMNIMESSAGE_GO_BIN, `make go-test` builds it),
each fed in batches. A disagreement or a crash is written to fuzz/crashes-new/differential-<sha1>.bin
(the input bytes) with a .txt beside it (both verdicts); the run goes on, and exits 1 at the end.

    python fuzz/differential.py --inputs 100000          # the long run (make fuzz-differential)
    python fuzz/differential.py --seconds 15             # the short run in make test
    python fuzz/differential.py --seed 42 --inputs 5000  # reproducible
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import omnimessage as om
from omnimessage.conformance.suite import load_suite
from omnimessage_dev.synth.defects import corrupt, mutate, split_surrogate_lines
from omnimessage_dev.synth.random_lines import Gen, Style, write

ROOT = Path(__file__).resolve().parent.parent

HARNESS = ROOT / "typescript" / "test" / "differential-harness.mjs"
RUST_BIN = ROOT / "rust" / "target" / "release" / "omnimessage-rs"
GO_BIN = ROOT / "go" / "bin" / "omnimessage-go"
CRASHES = ROOT / "fuzz" / "crashes-new"
MAX_INPUT = 200_000  # bytes of one input (seeds above it are kept as they are, not mutated)
BATCH = 500

Verdict = tuple[Any, ...]

TOKENS = [
    b"\xff", b"\xc0\xaf", b"\xc0\x80", b"\xed\xa0\x80", b"\xed\xb0\x80", b"\xe2\x82", b"\xf0\x9f\x98",
    b"\xf4\x90\x80\x80",
    b"\x80", b"\xef\xbb\xbf", b"\x00", b"\x01", b"\x1f", b"\x7f", b"\t", b"\r", b"\r\n", b"\n", b" ",
    b"\\u0000", b"\\ud800", b"\\udc00", b"\\ud83d\\ude00", b"\\uDBFF", b"\\ud83d", b"\\uDE00", b"\\u0065", b"\\u0041",
    b"\\/", b"\\", b"\\x", b"\\u12",
    b'"', b"'", b"{", b"}", b"[", b"]", b":", b",", b",,", b"//", b"/*", b"*/", b"#",
    b"NaN", b"Infinity", b"-", b"01", b"1.", b".5", b"-0", b"1.0", b"1e400", b"1E2", b"9007199254740993", b"9" * 400,
    b"true", b"false", b"null", b"True", b"None",
    b'"__proto__"', b'"constructor"', b'"toString"', b'"type"', b'"typ\\u0065"', b'"payload"', b'"origin"',
    b'"fidelity"', b'"parameters"', b'"output"', b'"timestamp"', b'"model_msg"', b'"event_msg"', b'"session_meta"',
    b'"text"', b'"request_begin"', b'"stop_reason"', b'"failed"', b'"x":1,', b'"type":"text",',
]


# ---------------------------------------------------------------------------
# the two bindings
# ---------------------------------------------------------------------------


def python_verdict(data: bytes, lenient: bool) -> Verdict:
    try:
        msg = om.decode(data, lenient=lenient)
    except om.DecodeError as err:
        return ("err", err.category, err.pointer, err.offset)
    except Exception as exc:  # a crash: anything but DecodeError
        return ("crash", f"{type(exc).__name__}: {exc}"[:2000])
    try:
        return ("out", om.encode(msg), isinstance(msg, om.OpaqueMessage))
    except Exception as exc:
        return ("crash", f"encode: {type(exc).__name__}: {exc}"[:2000])


def _ts(r: dict[str, Any] | None) -> Verdict | None:
    if r is None:
        return None
    if "crash" in r:
        return ("crash", str(r["crash"])[:2000])
    if "err" in r:
        category, pointer, offset, _detail = r["err"]
        return ("err", category, pointer, offset)
    return ("out", base64.b64decode(r["out"]), r["opaque"])


class TypeScript:
    """One node process answering batches."""

    def __init__(self) -> None:
        node = shutil.which("node")
        if node is None:
            raise SystemExit("differential: node is not on PATH")
        if not (ROOT / "typescript" / "dist" / "index.js").is_file():
            raise SystemExit("differential: typescript/dist is not built (make setup)")
        self.proc = subprocess.Popen(
            [node, str(HARNESS), "all"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1 << 20
        )

    def batch(self, inputs: list[bytes]) -> list[tuple[Verdict, Verdict, Verdict | None]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        payload = b"".join(base64.b64encode(x) + b"\n" for x in inputs) + b"=\n"
        self.proc.stdin.write(payload)
        self.proc.stdin.flush()
        out = []
        for _ in inputs:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"differential: the node harness exited ({self.proc.wait()})")
            r = json.loads(line)
            s, lenient, t = _ts(r["s"]), _ts(r["l"]), _ts(r["t"])
            assert s is not None and lenient is not None
            out.append((s, lenient, t))
        return out

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _rs(r: dict[str, Any]) -> Verdict:
    if "crash" in r:
        return ("crash", str(r["crash"])[:2000])
    if "err" in r:
        category, pointer, offset = r["err"]
        return ("err", category, pointer, offset)
    return ("out", base64.b64decode(r["out"]), r["opaque"])


class Native:
    """One `omnimessage-rs differential` (or `omnimessage-go differential`) process answering batches."""

    def __init__(self, env: str, default: Path, make: str) -> None:
        binary = Path(os.environ.get(env) or default)
        if not binary.is_file():
            raise SystemExit(f"differential: {binary} is not built ({make})")
        self.name = binary.name
        self.proc = subprocess.Popen(
            [str(binary), "differential"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=1 << 20
        )

    def batch(self, inputs: list[bytes]) -> list[tuple[Verdict, Verdict]]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(b"".join(base64.b64encode(x) + b"\n" for x in inputs) + b"=\n")
        self.proc.stdin.flush()
        out = []
        for _ in inputs:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"differential: {self.name} exited ({self.proc.wait()})")
            r = json.loads(line)
            out.append((_rs(r["s"]), _rs(r["l"])))
        return out

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------


def seed_pool(rng: random.Random) -> list[bytes]:
    pool: list[bytes] = []
    for case in load_suite(ROOT / "conformance").cases:
        pool.append(case.input)
    for f in sorted((ROOT / "examples").glob("*.jsonl")):
        pool += [ln + b"\n" for ln in f.read_bytes().splitlines()]
    g = Gen(rng.randrange(1 << 30))
    for _ in range(2000):
        msg = g.message()
        if g.chance(0.3):
            mutate(g, msg)
        pool.append(write(msg, Style(g.rng, g.chance(0.5))).encode("utf-8", "surrogatepass"))
    pool += split_surrogate_lines(g, 300)  # lone halves in partials' fragment fields (contract 4.1)
    for crash in sorted((ROOT / "fuzz" / "crashes").glob("differential-*.bin")):
        pool.append(crash.read_bytes())
    return pool


class Mutator:
    def __init__(self, rng: random.Random, pool: list[bytes]) -> None:
        self.rng = rng
        self.pool = pool
        self.gen = Gen(rng.randrange(1 << 30))

    def pick(self) -> bytes:
        return self.rng.choice(self.pool)

    def generated(self) -> bytes:
        g = self.gen
        msg = g.message()
        for _ in range(self.rng.choice([0, 0, 1, 1, 2])):
            mutate(g, msg)
        data = write(msg, Style(g.rng, g.chance(0.5))).encode("utf-8", "surrogatepass")
        if g.chance(0.2):
            data = corrupt(g, data)
        return data

    def mutate_bytes(self, data: bytes) -> bytes:
        rng = self.rng
        b = bytearray(data)
        for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
            n = len(b)
            at = rng.randrange(n + 1)
            op = rng.randrange(11)
            if op == 0 and n:  # flip a bit
                i = rng.randrange(n)
                b[i] ^= 1 << rng.randrange(8)
            elif op == 1:  # insert a hostile token
                b[at:at] = rng.choice(TOKENS)
            elif op == 2 and n:  # delete a range
                b[at : at + rng.randrange(1, 8)] = b""
            elif op == 3 and n:  # replace a byte
                b[rng.randrange(n)] = rng.randrange(256)
            elif op == 4 and n:  # duplicate a range
                j = rng.randrange(n)
                k = min(n, j + rng.randrange(1, 64))
                b[at:at] = b[j:k]
            elif op == 5:  # splice another input in
                other = self.pick()
                j = rng.randrange(len(other) + 1)
                b[at:] = other[j:]
            elif op == 6 and n:  # truncate
                del b[rng.randrange(n) :]
            elif op == 7:  # a line end
                b += rng.choice([b"\n", b"\r\n", b"\r", b"", b" \n"])
            elif op == 8:  # nesting, sometimes past the limit
                depth = rng.choice([2, 100, 255, 300, 511, 512, 513, 600, 5000])
                opener = rng.choice([b"[", b'{"a":'])
                closer = b"]" if opener == b"[" else b"}"
                b[at:at] = opener * depth + b"1" + closer * depth
            elif op == 9 and n:  # swap two ranges
                i, j = sorted(rng.randrange(n) for _ in range(2))
                k = rng.randrange(1, 16)
                b[i : i + k], b[j : j + k] = b[j : j + k], b[i : i + k]
            else:  # a huge number or string somewhere
                b[at:at] = rng.choice([b"9" * rng.randrange(300, 5000), b"a" * rng.randrange(1000, 70000)])
        return bytes(b)

    def next(self) -> bytes:
        r = self.rng.random()
        if r < 0.35:
            data = self.generated()
        else:
            data = self.pick()
            if len(data) > MAX_INPUT:
                return data
        if r < 0.35 and self.rng.random() < 0.5:
            return data
        return self.mutate_bytes(data)[: MAX_INPUT * 2]


# ---------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------


def record(data: bytes, what: str) -> Path:
    CRASHES.mkdir(parents=True, exist_ok=True)
    name = "differential-" + hashlib.sha1(data).hexdigest()
    path = CRASHES / f"{name}.bin"
    path.write_bytes(data)
    (CRASHES / f"{name}.txt").write_text(what, encoding="utf-8", errors="backslashreplace")
    return path


def show(v: Verdict | None) -> str:
    return repr(v)[:600]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", type=int, default=0, help="stop after this many inputs")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock; printed)")
    ap.add_argument("--max-findings", type=int, default=20, help="stop after this many disagreements")
    args = ap.parse_args(argv)
    if not args.inputs and not args.seconds:
        args.inputs = 100_000
    seed = args.seed if args.seed is not None else int(time.time() * 1000) % (1 << 31)
    rng = random.Random(seed)
    t0 = time.monotonic()
    pool = seed_pool(rng)
    mutator = Mutator(rng, pool)
    ts = TypeScript()
    rs = Native("OMNIMESSAGE_RS_BIN", RUST_BIN, "make rust-test")
    go = Native("OMNIMESSAGE_GO_BIN", GO_BIN, "make go-test")
    done = 0
    findings = 0
    verdicts: Counter[str] = Counter()
    print(f"differential: seed {seed}, {len(pool)} seeds", flush=True)
    try:
        while findings < args.max_findings:
            if args.inputs and done >= args.inputs:
                break
            if args.seconds and time.monotonic() - t0 >= args.seconds:
                break
            n = BATCH if not args.inputs else min(BATCH, args.inputs - done)
            inputs = [pool[done + i] if done + i < len(pool) else mutator.next() for i in range(n)]
            answers = zip(inputs, ts.batch(inputs), rs.batch(inputs), go.batch(inputs), strict=True)
            for data, (ts_s, ts_l, ts_t), (rs_s, rs_l), (go_s, go_l) in answers:
                py_s = python_verdict(data, False)
                py_l = python_verdict(data, True)
                verdicts[py_s[1] if py_s[0] == "err" else py_s[0]] += 1
                problems = []
                if py_s[0] == "crash" or py_l[0] == "crash":
                    problems.append(f"python crashed: {show(py_s)} / {show(py_l)}")
                if py_s != ts_s:
                    problems.append(f"strict:\n  python:     {show(py_s)}\n  typescript: {show(ts_s)}")
                if py_l != ts_l:
                    problems.append(f"lenient:\n  python:     {show(py_l)}\n  typescript: {show(ts_l)}")
                if py_s != rs_s:
                    problems.append(f"strict:\n  python:     {show(py_s)}\n  rust:       {show(rs_s)}")
                if py_l != rs_l:
                    problems.append(f"lenient:\n  python:     {show(py_l)}\n  rust:       {show(rs_l)}")
                if py_s != go_s:
                    problems.append(f"strict:\n  python:     {show(py_s)}\n  go:         {show(go_s)}")
                if py_l != go_l:
                    problems.append(f"lenient:\n  python:     {show(py_l)}\n  go:         {show(go_l)}")
                if ts_t is not None and ts_t != ts_s:
                    problems.append(f"typescript, bytes vs string:\n  bytes:  {show(ts_s)}\n  string: {show(ts_t)}")
                if problems:
                    findings += 1
                    path = record(data, "\n".join(problems) + "\n")
                    print(f"DISAGREEMENT on {data[:200]!r} ({len(data)} bytes) -> {path}", flush=True)
                    for p in problems:
                        print("  " + p.replace("\n", "\n  "), flush=True)
                elif py_s[0] == "out" and py_s[1] not in (data, data[:-1]) and rng.random() < 0.2:
                    pool.append(py_s[1])  # feedback: an accepted mutant's canonical form
            done += n
            if done % 50_000 < n:
                elapsed = time.monotonic() - t0
                print(f"differential: {done} inputs, {elapsed:.0f} s, {findings} disagreements", flush=True)
    finally:
        ts.close()
        rs.close()
        go.close()
    elapsed = time.monotonic() - t0
    top = ", ".join(f"{k} {v}" for k, v in verdicts.most_common())
    print(
        f"differential: {done} inputs in {elapsed:.0f} s ({done / max(elapsed, 1e-9):.0f}/s), seed {seed}, "
        f"{findings} disagreements; strict verdicts: {top}",
        flush=True,
    )
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
