"""A FIFO named as FILE whose writer wrote everything and closed before the reader waited (issue 39).

`omnimessage validate <(cmd)` and `canonicalize FIFO` open the FIFO non-blocking, check what it is,
then wait for its writer. Both bindings once waited by opening the FIFO a second time, blocking:
a writer that had already come and gone in between left that open waiting forever. Here the seam
is `fstat` (called once the FIFO is open, before the wait): the patched call runs a whole writer
(open, write, close) and then answers, so the writer is gone before the wait begins, every time,
with no sleep. The command runs under a time limit, so the old code fails instead of hanging.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, needs

TRACE = (ROOT / "conformance" / "validator" / "OM801" / "pass-laid-out" / "2026-07-18" / "sess-a_001.jsonl").read_bytes()
NONCANONICAL = TRACE.replace(b'{"timestamp"', b'{ "timestamp"')
TIMEOUT = 60
"""Seconds the command may take: an open that waits for a writer which is gone never returns."""

PY_SEAM = """
import os, runpy, stat, sys
fifo, data = sys.argv[1], open(sys.argv[2], "rb").read()
real, done = os.fstat, []
def fstat(fd):
    st = real(fd)
    if stat.S_ISFIFO(st.st_mode) and not done:  # the FIFO is open: a whole writer runs now
        done.append(1)
        w = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.write(w, data)
        os.close(w)
    return st
os.fstat = fstat
sys.argv = ["omnimessage", *sys.argv[3:]]
runpy.run_module("omnimessage", run_name="__main__")
"""

TS_SEAM = """
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const [fifo, dataFile, bin, ...args] = process.argv.slice(2);
const data = fs.readFileSync(dataFile);
const real = fs.fstatSync;
let done = false;
fs.fstatSync = (fd, ...rest) => {
  const st = real(fd, ...rest);
  if (st.isFIFO() && !done) { // the FIFO is open: a whole writer runs now
    done = true;
    const w = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    fs.writeSync(w, data);
    fs.closeSync(w);
  }
  return st;
};
syncBuiltinESMExports();
process.argv = [process.argv[0], bin, ...args];
await import(bin);
"""


def _run(cmd: list[str]) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the reader waited for a writer that had already written and closed: {cmd[-2:]}")


def _fifo(tmp_path: Path) -> tuple[Path, Path]:
    fifo, data = tmp_path / "live.jsonl", tmp_path / "data"
    os.mkfifo(fifo)
    data.write_bytes(NONCANONICAL)
    return fifo, data


@pytest.mark.parametrize("command", ["canonicalize", "validate"])
def test_python_reads_a_fifo_whose_writer_is_already_gone(tmp_path: Path, command: str) -> None:
    fifo, data = _fifo(tmp_path)
    args = [command, str(fifo)] if command == "canonicalize" else [command, "--no-progress", str(fifo)]
    proc = _run([sys.executable, "-c", PY_SEAM, str(fifo), str(data), *args])
    if command == "canonicalize":
        assert proc.returncode == 0 and proc.stdout == TRACE, proc.stderr
    else:  # every line read: the non-canonical spelling is the only finding
        assert b"13 line(s)" in proc.stdout, proc.stdout + proc.stderr


@needs("node")
def test_typescript_reads_a_fifo_whose_writer_is_already_gone(tmp_path: Path) -> None:
    fifo, data = _fifo(tmp_path)
    seam = tmp_path / "seam.mjs"
    seam.write_text(TS_SEAM)
    bin_ = ROOT / "typescript" / "bin" / "omnimessage.mjs"
    proc = _run(["node", str(seam), str(fifo), str(data), str(bin_), "canonicalize", str(fifo)])
    assert proc.returncode == 0 and proc.stdout == TRACE, proc.stderr
