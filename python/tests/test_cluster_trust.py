"""`--dask ADDRESS` trusts the scheduler with code execution (issue 23): Dask's protocol unpickles
what the scheduler sends. An unauthenticated address (`tcp://`, directly or in a scheduler file,
`tls://` without a CA file) is refused before any connection unless `--dask-insecure` says so, and
storage options holding credentials never travel in the tasks. A fake scheduler on loopback records
whether the client connected."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT
from fake_listener import connected as _connected
from fake_listener import listener

pytest.importorskip("distributed")


@pytest.fixture
def scheduler() -> Iterator[tuple[socket.socket, str]]:
    with listener() as s:
        yield s, f"127.0.0.1:{s.getsockname()[1]}"


def _validate(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--no-progress", *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("how", ["tcp", "scheduler-file", "tls-without-ca", "ws"])
def test_unauthenticated_scheduler_is_refused_before_connecting(how: str, tmp_path: Path,
                                                                scheduler: tuple[socket.socket, str]) -> None:
    sock, hostport = scheduler
    trace = tmp_path / "t.jsonl"
    trace.write_bytes((ROOT / "examples" / "trace.jsonl").read_bytes())
    spec = {"tcp": f"tcp://{hostport}", "tls-without-ca": f"tls://{hostport}", "ws": f"ws://{hostport}"}.get(how)
    if spec is None:
        spec = str(tmp_path / "sched.json")
        Path(spec).write_text(json.dumps({"address": f"tcp://{hostport}"}))
    proc = _validate("--dask", spec, "--", str(trace), cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "--dask-insecure" in proc.stderr and "runs code in this process" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not _connected(sock)


def test_help_and_docs_say_the_scheduler_runs_code() -> None:
    out = subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--help"], capture_output=True,
                         text=True, check=True).stdout
    flat = " ".join(out.split())
    assert "can run code in this process" in flat and "--dask-insecure" in flat
    doc = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
    assert "## Trust: the cluster runs code in the client" in doc and "--dask-insecure" in doc


def test_secret_storage_options_never_travel_to_workers(tmp_path: Path,
                                                        scheduler: tuple[socket.socket, str]) -> None:
    sock, hostport = scheduler
    for option in ("secret=S3CR3T", 'client_kwargs={"aws_session_token": "T0KEN"}',
                   "endpoint_url=http://KEY:SECRET@127.0.0.1:9000"):
        for spec in (f"tcp://{hostport}", "local:1"):
            proc = _validate("--dask", spec, "--dask-insecure", "--storage-option", option, "s3://bucket/x/",
                             cwd=tmp_path)
            assert proc.returncode == 2 and "hold credentials" in proc.stderr, proc.stderr
            assert not any(s in proc.stderr for s in ("S3CR3T", "T0KEN", "KEY:SECRET"))
    assert not _connected(sock)


def test_insecure_opt_in_connects(tmp_path: Path, scheduler: tuple[socket.socket, str]) -> None:
    """With --dask-insecure the client does connect (the refusal above is the check, not a dead port)."""
    sock, hostport = scheduler
    sock.setblocking(True)
    sock.settimeout(30)
    proc = subprocess.Popen([sys.executable, "-m", "omnimessage", "validate", "--dask", f"tcp://{hostport}",
                             "--dask-insecure", "--", str(ROOT / "examples" / "trace.jsonl")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        conn, _ = sock.accept()
        conn.close()
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_api_refuses_secret_options_with_a_client(tmp_path: Path) -> None:
    from omnimessage.validate import validate_archive

    with pytest.raises(ValueError, match="credentials"):
        validate_archive(str(tmp_path), client=object(), storage_options={"client_kwargs": {"aws_session_token": "t"}})
