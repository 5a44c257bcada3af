"""Issue 25: Python and TypeScript write byte-identical files for the same scripted session: the
trace root (every file, every byte), the stream, and the SSE capture (all but the random epoch)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, needs
from produce_script import SCRIPT, run_script

from omnimessage import produce

pytestmark = needs("node")
RUNNER = ROOT / "typescript" / "test" / "support" / "produce-script.mjs"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _no_epoch(capture: bytes, epoch: bytes) -> bytes:
    assert re.fullmatch(rb"[0-9a-f]{8}", epoch)
    return capture.replace(b"id: " + epoch + b"-", b"id: EPOCH-")


def test_python_and_typescript_write_the_same_bytes(tmp_path: Path) -> None:
    assert (ROOT / "typescript" / "dist" / "produce" / "index.js").is_file(), "run `make setup` (typescript build)"
    ch = produce.SseChannel()
    frames: list[bytes] = []
    ch.subscribe(lambda e: frames.append(e.frame()))
    stream = run_script(SCRIPT.read_bytes().splitlines(), tmp_path / "py")
    run_script(SCRIPT.read_bytes().splitlines(), tmp_path / "py-sse", sse=ch)
    node = shutil.which("node")
    assert node is not None
    res = subprocess.run([node, str(RUNNER), str(SCRIPT), str(tmp_path / "ts"), str(tmp_path / "ts.stream"),
                          str(tmp_path / "ts.sse")], capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    py_files, ts_files = _files(tmp_path / "py"), _files(tmp_path / "ts")
    assert list(py_files) == list(ts_files) and len(py_files) == 5
    for name, data in py_files.items():
        assert ts_files[name] == data, f"{name} differs between the bindings"
    assert (tmp_path / "ts.stream").read_bytes() == stream
    ts_capture = (tmp_path / "ts.sse").read_bytes()
    ts_epoch = ts_capture.split(b"\nid: ", 1)[1][:8]
    assert _no_epoch(ts_capture, ts_epoch) == _no_epoch(b"".join(frames), ch.epoch.encode())
    exe = Path(sys.executable).with_name("omnimessage")
    res = subprocess.run([str(exe), "validate", "--no-progress", "--sse", str(tmp_path / "ts.sse")],
                         capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0 and "0 error(s), 0 warning(s)" in res.stdout, res.stdout + res.stderr
