"""Reading a trace while it is being written (a live session): whole lines only, the torn tail as such.

A writer process appends a valid synthetic trace to a file, half of its lines in two writes with a
pause between them (a reader may see the first half alone), while the readers read it again and
again: `iter_messages` in this process, `omnimessage validate --truncated` and the TypeScript reader
in subprocesses. Each read must see a prefix of what was written: every line but the last complete
and valid, the last either complete or reported as torn (`truncated`, OM001), never an invalid line
and never a finding of another kind. Whether a free-running read lands inside a torn line is luck,
so at four points the writer holds a line half written until every reader has read the file: there
each one must report exactly that line torn (a verdict no machine's speed can change). The same through a pipe (`writer | omnimessage validate -`,
`writer | omnimessage canonicalize`). And the validator never modifies what it reads, and
`canonicalize --in-place` (both bindings) refuses to replace a file that grows while it reads it:
before, 472 of 1,500 records survived, with exit 0.
"""

from __future__ import annotations

import hashlib
import json
import os
import select
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, tool_path

import omnimessage as om
from omnimessage_dev.synth.sessions import trace_lines

NODE = tool_path("node")
LINES = list(trace_lines(300_000, seed=3))

WRITER = r"""
import os, random, sys, time
from omnimessage_dev.synth.sessions import trace_lines
path, seed, torn_end = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "torn-end"
held = {int(i) for i in sys.argv[4].split(",") if i}  # lines held half written until stdin says go
rng = random.Random(seed)
fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) if path != "-" else 1
for i, line in enumerate(trace_lines(300_000, seed=3)):
    if rng.random() < 0.5 or i in held:  # two writes: a reader may see the first half alone
        cut = rng.randrange(1, len(line))
        os.write(fd, line[:cut])
        if i in held:  # torn now, for as long as the test reads
            sys.stderr.write("torn\n")
            sys.stderr.flush()
            sys.stdin.readline()
        else:
            time.sleep(rng.uniform(0.01, 0.04))
        os.write(fd, line[cut:])
    else:
        os.write(fd, line)
    time.sleep(rng.uniform(0, 0.004))
if torn_end:  # the writer dies in the middle of a record
    os.write(fd, b'{"timestamp":"2026-07-18T03:10:2')
"""


def writer(path: str, seed: int, torn_end: bool = False, held: tuple[int, ...] = (), **kw: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, path, str(seed), "torn-end" if torn_end else "whole", ",".join(map(str, held))],
        **kw,  # type: ignore[call-overload]
    )


def check_prefix(lines: list[om.Line]) -> bool:
    """A read of the live file: a prefix of the trace, the last line possibly torn. True if torn."""
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        if line.error is not None:
            assert last and not line.terminated and line.error.category == "truncated", (i, line.error)
            assert LINES[i].startswith(line.raw)
            return True
        assert line.raw == LINES[i].rstrip(b"\n"), i
        assert line.terminated or last
    return False


def validate_json(path: str, *extra: str, stdin: int | None = None) -> tuple[int, list[dict[str, object]]]:
    r = subprocess.run(
        [sys.executable, "-m", "omnimessage", "validate", "--truncated", "--format", "json", *extra, path],
        stdin=stdin,
        capture_output=True,
        timeout=120,
    )
    assert b"Traceback" not in r.stderr and b"internal error" not in r.stderr, r.stderr[-2000:]
    return r.returncode, json.loads(r.stdout)["findings"]


def validate_live(path: Path) -> list[dict[str, object]]:
    """`omnimessage validate --truncated` of the live file: only what a cut trace may hold, as warnings;
    its OM001 findings (at most one: the torn tail)."""
    rc, findings = validate_json(str(path))
    assert rc == 0, findings
    errors = [f for f in findings if f["severity"] == "error"]
    assert not errors, errors
    om001 = [f for f in findings if f["rule"] == "OM001"]
    assert len(om001) <= 1
    # a torn tail, open requests, phases and segments; or nothing at all yet (the writer not
    # started: OM004, alone)
    assert all(f["severity"] == "warning" for f in findings), findings
    if any(f["rule"] == "OM004" for f in findings):
        assert [f["rule"] for f in findings] == ["OM004"], findings
    else:
        assert all(str(f["rule"]) in ("OM001", "OM002") or str(f["rule"]) >= "OM3" for f in findings), findings
    return om001


def read_with_typescript(path: Path) -> dict[str, int]:
    """The TypeScript reader over the live file: every message it decodes re-encodes identically; what
    it refuses, by category (at most one torn tail)."""
    assert NODE is not None
    r = subprocess.run([NODE, str(ROOT / "typescript" / "test" / "hostile-reader.mjs"), str(path)], capture_output=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    summary = json.loads(r.stdout)
    assert summary["messages"] == summary["identical"]
    assert set(summary["refused"]) <= {"truncated"} and summary["refused"].get("truncated", 0) <= 1
    return dict(summary["refused"])


def test_readers_of_a_file_being_appended_see_whole_lines_and_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.touch()
    held = tuple(len(LINES) * k // 8 for k in (1, 3, 5, 7))
    w = writer(str(path), seed=11, held=held, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    assert w.stdin is not None and w.stderr is not None
    reads = caught = 0
    try:
        while True:
            if select.select([w.stderr], [], [], 0)[0]:
                note = w.stderr.readline()
                if not note:  # the writer is done
                    break
                assert note == b"torn\n", note + w.stderr.read()[-2000:]
                # line held[caught] is half written, and stays so until the writer is told to go on
                lines = list(om.iter_messages(path))
                assert check_prefix(lines) and len(lines) == held[caught] + 1, len(lines)
                assert [f["line"] for f in validate_live(path)] == [held[caught] + 1]
                if NODE is not None:
                    assert read_with_typescript(path) == {"truncated": 1}
                caught += 1
                w.stdin.write(b"go\n")
                w.stdin.flush()
                continue
            # free-running reads, at whatever point the writer is: whole lines, a torn tail or none
            check_prefix(list(om.iter_messages(path)))
            reads += 1
            if reads % 5 == 0:
                validate_live(path)
            if NODE is not None and reads % 7 == 0:
                read_with_typescript(path)
            time.sleep(0.003)
    finally:
        w.stdin.close()
        w.wait(timeout=120)
    assert w.returncode == 0
    assert caught == len(held)  # every reader saw each held line torn, in this process and the others
    print(f"\n{reads} free reads, {caught} held torn lines read by every reader")
    assert path.read_bytes() == b"".join(LINES)
    rc, findings = validate_json(str(path))
    assert rc == 0 and not [f for f in findings if f["rule"] == "OM001"], findings


def test_validate_and_canonicalize_read_a_pipe_line_by_line_and_report_the_torn_end() -> None:
    w = writer("-", seed=12, torn_end=True, stdout=subprocess.PIPE)
    rc, findings = validate_json("-", stdin=w.stdout.fileno() if w.stdout else None)
    w.wait(timeout=60)
    assert rc == 0, findings
    assert [(f["rule"], f["line"]) for f in findings if f["rule"] in ("OM001", "OM102")] == [("OM001", len(LINES) + 1)]
    w = writer("-", seed=13, torn_end=True, stdout=subprocess.PIPE)
    r = subprocess.run(
        [sys.executable, "-m", "omnimessage", "canonicalize"], stdin=w.stdout, capture_output=True, timeout=120
    )
    w.wait(timeout=60)
    assert r.returncode == 1 and r.stdout == b"".join(LINES)
    assert r.stderr.decode().startswith(f"<stdin>:{len(LINES) + 1}: truncated: ")
    assert r.stderr.count(b"\n") == 1


def test_validate_never_modifies_its_input(tmp_path: Path) -> None:
    d = tmp_path / "ro"
    d.mkdir()
    f = d / "trace.jsonl"
    data = b"".join(LINES[:50]) + b'{"timestamp":"bad"}' + b"\n" + LINES[50][:40]
    f.write_bytes(data)
    os.utime(f, ns=(1_000_000_000, 1_000_000_000))
    f.chmod(stat.S_IRUSR | stat.S_IRGRP)
    d.chmod(stat.S_IRUSR | stat.S_IXUSR)  # (root writes anyway: the bytes, times and listing prove it)
    before = (hashlib.sha256(f.read_bytes()).hexdigest(), f.stat().st_mtime_ns, f.stat().st_size, sorted(os.listdir(d)))
    try:
        for extra in ([], ["--format", "json"], ["--profile", "stream"], ["--jobs", "2"]):
            r = subprocess.run(
                [sys.executable, "-m", "omnimessage", "validate", *extra, str(f), str(d)],
                capture_output=True,
                timeout=120,
            )
            assert r.returncode == 1 and b"Traceback" not in r.stderr, r.stderr[-1000:]
        after = (hashlib.sha256(f.read_bytes()).hexdigest(), f.stat().st_mtime_ns, f.stat().st_size, sorted(os.listdir(d)))
        assert after == before
    finally:
        d.chmod(stat.S_IRWXU)
        f.chmod(stat.S_IRUSR | stat.S_IWUSR)


@pytest.mark.parametrize("impl", ["python", "typescript"])
def test_in_place_refuses_a_file_appended_while_it_is_read(tmp_path: Path, impl: str) -> None:
    if impl == "typescript" and NODE is None:
        pytest.skip("node is not on PATH")
    path = tmp_path / "live.jsonl"
    original = b"".join(line.replace(b'{"timestamp"', b'{ "timestamp"', 1) for line in LINES) * 20  # not canonical
    path.write_bytes(original)
    cmd = [sys.executable, "-m", "omnimessage"] if impl == "python" else [str(NODE), str(ROOT / "typescript" / "bin" /
                                                                                     "omnimessage.mjs")]
    proc = subprocess.Popen([*cmd, "canonicalize", "--in-place", str(path)], stderr=subprocess.PIPE)
    appended = []
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        while proc.poll() is None:  # a writer appending records all along, as an agent does
            line = LINES[len(appended) % len(LINES)]
            os.write(fd, line)
            appended.append(line)
            time.sleep(0.002)
    finally:
        os.close(fd)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert err.decode() == (f"omnimessage: {path}: changed while it was read (still being written?): left "
                            f"unchanged; run again when it is complete\n")
    assert path.read_bytes() == original + b"".join(appended)  # every record kept, none rewritten
    assert os.listdir(tmp_path) == ["live.jsonl"]
