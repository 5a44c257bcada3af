"""`omnimessage canonicalize`, `schema`, `generate` as a user runs them."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from test_verbatim import HEAD, TORTURE

from omnimessage_dev.synth.samples import canonical_samples

# (a line feed inside a verbatim value's whitespace cannot sit in a JSON Lines file: one message, one line)
GOOD = list(canonical_samples()) + [
    (f"fidelity-{k}", HEAD + v + b"}}") for k, v in sorted(TORTURE.items()) if b"\n" not in v
]
CANONICAL = b"".join(line + b"\n" for _, line in GOOD)
NONCANON = b'{ "type":"event_msg","payload":{"type":"request_begin"},"timestamp":"2026-07-18T03:10:22.531Z"}\n'
NONCANON_OUT = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}\n'
BAD = b'{"timestamp":"t","type":"model_msg","payload":{"type":"text","role":"user","text":"a","text":"b"}}\n'


def run(*args: str, stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "omnimessage", *args], input=stdin, capture_output=True, cwd=cwd, timeout=120
    )


def test_canonical_file_is_byte_identical(tmp_path: Path) -> None:
    f = tmp_path / "trace.jsonl"
    f.write_bytes(CANONICAL)
    r = run("canonicalize", str(f))
    assert r.returncode == 0, r.stderr
    assert r.stdout == CANONICAL
    assert r.stderr == b""


def test_stdin_to_stdout_with_errors_reported_and_valid_lines_kept() -> None:
    r = run("canonicalize", stdin=NONCANON + BAD + b"[1]\n" + NONCANON)
    assert r.returncode == 1
    assert r.stdout == NONCANON_OUT * 2
    lines = r.stderr.decode().splitlines()
    assert lines[0].startswith("<stdin>:2: duplicate_key: ") and "at /payload/text" in lines[0]
    assert lines[1].startswith("<stdin>:3: wrong_type: ")
    assert "Traceback" not in r.stderr.decode()


def test_torn_last_line_is_reported_as_truncated() -> None:
    r = run("canonicalize", stdin=NONCANON + NONCANON[:30])
    assert r.returncode == 1
    assert r.stdout == NONCANON_OUT
    assert b"<stdin>:2: truncated: " in r.stderr


def test_check_mode(tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    f.write_bytes(CANONICAL)
    assert run("canonicalize", "--check", str(f)).returncode == 0
    f.write_bytes(CANONICAL + NONCANON)
    r = run("canonicalize", "--check", str(f))
    assert r.returncode == 1 and r.stdout == b""
    assert f"{f}:{len(GOOD) + 1}: not canonical".encode() in r.stderr


def test_in_place_is_atomic_keeps_mode_and_refuses_invalid_files(tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    f.write_bytes(NONCANON * 3)
    os.chmod(f, 0o640)
    r = run("canonicalize", "--in-place", str(f))
    assert r.returncode == 0, r.stderr
    assert f.read_bytes() == NONCANON_OUT * 3
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    g = tmp_path / "b.jsonl"
    original = NONCANON + BAD
    g.write_bytes(original)
    r = run("canonicalize", "--in-place", str(g))
    assert r.returncode == 1
    assert g.read_bytes() == original  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.jsonl"]  # no temp file left
    r = run("canonicalize", "--in-place", "--keep-invalid", str(g))
    assert r.returncode == 1
    assert g.read_bytes() == NONCANON_OUT + BAD


def test_lenient_passes_unknown_messages_through() -> None:
    future = b'{"timestamp":"t","type":"model_msg","payload":{"type":"video","role":"user","url":"x"}}\n'
    r = run("canonicalize", "--lenient", stdin=NONCANON + future)
    assert r.returncode == 0, r.stderr
    assert r.stdout == NONCANON_OUT + future


def test_usage_errors_exit_2_without_traceback(tmp_path: Path) -> None:
    r = run("canonicalize", "--in-place")
    assert r.returncode == 2 and b"Traceback" not in r.stderr
    r = run("canonicalize", str(tmp_path / "missing.jsonl"))
    assert r.returncode == 2 and b"Traceback" not in r.stderr and b"missing.jsonl" in r.stderr
    r = run("generate", "--target", "cobol", "--out", str(tmp_path))
    assert r.returncode == 2 and b"unknown target" in r.stderr


def test_schema_command_prints_the_canonical_schema() -> None:
    r = run("schema")
    assert r.returncode == 0
    assert json.loads(r.stdout)["$id"].startswith("urn:omnimessage:schema:")


def test_generate_python_writes_an_importable_standalone_module(tmp_path: Path) -> None:
    r = run("generate", "--target", "python", "--out", str(tmp_path / "omtypes"))
    assert r.returncode == 0, r.stderr
    code = 'import omtypes.models as m, msgspec; print(msgspec.json.decode(b\'{"type":"request_begin"}\', type=m.EventPayload))'
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "RequestBeginPayload" in out.stdout


@pytest.mark.parametrize("junk", [b"\x00\x01\x02\xff\xfe" * 50, b"\n\n\n", b"{" * 5000])
def test_binary_junk_never_crashes(junk: bytes) -> None:
    r = run("canonicalize", stdin=junk)
    assert r.returncode == 1
    assert b"Traceback" not in r.stderr


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGTERM"])
def test_in_place_killed_mid_write_leaves_the_original_and_no_partial_file(tmp_path: Path, sig: str) -> None:
    import signal
    import time

    f = tmp_path / "big.jsonl"
    original = NONCANON * 600_000  # ~60 MB: takes a while to rewrite
    f.write_bytes(original)
    proc = subprocess.Popen([sys.executable, "-m", "omnimessage", "canonicalize", "--in-place", str(f)],
                            stderr=subprocess.PIPE)
    # Wait until the replacement is being written: an anonymous file open in tmp_path.
    deadline = time.monotonic() + 60
    writing = False
    while time.monotonic() < deadline and proc.poll() is None and not writing:
        try:
            targets = [os.readlink(p) for p in Path(f"/proc/{proc.pid}/fd").iterdir()]
        except OSError:
            targets = []
        writing = any(t.startswith(str(tmp_path)) and t.endswith("(deleted)") for t in targets)
        time.sleep(0.01)
    assert writing, "never saw the replacement being written"
    time.sleep(0.2)
    proc.send_signal(getattr(signal, sig))
    proc.wait(timeout=30)
    # atomic: the original, or (if the signal landed after the rename) the complete new file
    assert f.read_bytes() in (original, NONCANON_OUT * 600_000)
    assert [p.name for p in tmp_path.iterdir()] == ["big.jsonl"]
    assert b"Traceback" not in (proc.stderr.read() if proc.stderr else b"")


def test_main_in_process_gives_back_the_sigterm_handler(capsys: pytest.CaptureFixture[str]) -> None:
    """`cli.main` called by an embedding program (or a test) puts back the SIGTERM handler it found,
    and from a thread other than the main one it runs without touching signals."""
    import signal
    import threading

    from omnimessage.cli import main as cli

    def mine(signum: int, frame: object) -> None: ...

    previous = signal.signal(signal.SIGTERM, mine)
    try:
        assert cli.main(["schema"]) == 0
        assert signal.getsignal(signal.SIGTERM) is mine
        codes: list[int] = []
        worker = threading.Thread(target=lambda: codes.append(cli.main(["schema"])))
        worker.start()
        worker.join(60)
        assert codes == [0]
    finally:
        signal.signal(signal.SIGTERM, previous)
    capsys.readouterr()
