"""Files and trace roots from a third party: only regular files are read, nothing is skipped silently.

Under a trace root a FIFO named `*.jsonl` (which blocked the validator forever), a symbolic link to
`/dev/zero` (which it read forever), a link out of the root (which echoed `/etc/passwd`), a device,
a socket and a directory it cannot list are each one OM806 finding; the rest of the root is still
validated. A FILE named on the command line may be a FIFO or a pipe (`<(zcat t.gz)`), never a
device. `canonicalize --in-place` refuses links, hard-linked files and special files, keeps the
owner, group and mode, and a write error names the file, in both bindings.

Every run is a subprocess under a time limit (`timeout`: a hang fails the test) and, for the
Python commands, an address-space limit (`RLIMIT_AS`): reading `/dev/zero` would exceed either.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, needs

TS_BIN = ROOT / "typescript" / "bin" / "omnimessage.mjs"
FIXTURE = ROOT / "conformance" / "validator" / "OM801" / "pass-laid-out" / "2026-07-18" / "sess-a_001.jsonl"
TRACE = FIXTURE.read_bytes()
NONCANONICAL = TRACE.replace(b'{"timestamp"', b'{ "timestamp"')
AS_LIMIT = 2 << 30
"""The address space a Python command runs in: 2 GiB (reading /dev/zero without bound exceeds it)."""
TIMEOUT = 60
"""Seconds a command may take: a FIFO that blocks or a device read forever fails the test."""


def _limits(fsize: int | None = None) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return apply


def py(*args: str, cwd: Path | None = None, fsize: int | None = None,
       **kw: object) -> subprocess.CompletedProcess[bytes]:
    kw.setdefault("capture_output", True)
    proc = subprocess.run([sys.executable, "-m", "omnimessage", *args], timeout=TIMEOUT,
                          cwd=cwd, preexec_fn=_limits(fsize), **kw)  # type: ignore[call-overload]
    assert b"Traceback" not in proc.stderr, proc.stderr[-2000:]
    return proc  # type: ignore[no-any-return]


def ts(*args: str, cwd: Path | None = None, fsize: int | None = None,
       **kw: object) -> subprocess.CompletedProcess[bytes]:
    def apply() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    kw.setdefault("capture_output", True)
    proc = subprocess.run(["node", "--max-old-space-size=512", str(TS_BIN), *args],
                          timeout=TIMEOUT, cwd=cwd, preexec_fn=apply, **kw)  # type: ignore[call-overload]
    assert b"internal error" not in proc.stderr, proc.stderr[-2000:]
    return proc  # type: ignore[no-any-return]


CLIS = [pytest.param(py, id="python"), pytest.param(ts, id="typescript", marks=needs("node"))]


# ------------------------------------------------------------------ trace roots


def _hostile_root(base: Path) -> tuple[Path, dict[str, str]]:
    """A trace root with one good session and every kind of entry that must not be read; returns
    it and {relative path: what the OM806 message must say}."""
    root = base / "root"
    day = root / "2026-07-18"
    day.mkdir(parents=True)
    (day / "sess-a_001.jsonl").write_bytes(TRACE)
    expect = {}
    os.mkfifo(day / "fifo_001.jsonl")
    expect["2026-07-18/fifo_001.jsonl"] = "a FIFO, not a regular file"
    (day / "zero_001.jsonl").symlink_to("/dev/zero")
    expect["2026-07-18/zero_001.jsonl"] = "a symbolic link (to '/dev/zero')"
    (day / "passwd_001.jsonl").symlink_to("/etc/passwd")
    expect["2026-07-18/passwd_001.jsonl"] = "a symbolic link (to '/etc/passwd')"
    (day / "inside_001.jsonl").symlink_to("sess-a_001.jsonl")  # inside the root: not followed either
    expect["2026-07-18/inside_001.jsonl"] = "a symbolic link (to 'sess-a_001.jsonl')"
    (root / "2026-07-19").symlink_to("/etc")
    expect["2026-07-19"] = "a symbolic link (to '/etc')"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "sock.jsonl"))
    sock.close()
    expect["sock.jsonl"] = "a socket, not a regular file"
    try:
        os.mknod(root / "null.jsonl", stat.S_IFCHR | 0o600, os.makedev(1, 3))
        expect["null.jsonl"] = "a character device, not a regular file"
    except PermissionError:  # not root, or no CAP_MKNOD: the device symlinks still cover it
        pass
    (root / "README").symlink_to("/etc/passwd")  # not a .jsonl name, not a directory: ignored
    return root, expect


@pytest.mark.parametrize("profile", ["trace", "stream"])
def test_trace_root_reads_only_regular_files_and_reports_the_rest(tmp_path: Path, profile: str) -> None:
    root, expect = _hostile_root(tmp_path)
    proc = py("validate", "--profile", profile, "--format", "json", "--no-progress", str(root))
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    om806 = {str(Path(f["path"]).relative_to(root)): f["message"] for f in doc["findings"] if f["rule"] == "OM806"}
    assert set(om806) == set(expect), om806
    for rel, says in expect.items():
        assert om806[rel].startswith(says), (rel, om806[rel])
    assert b"root:" not in proc.stdout + proc.stderr  # nothing of /etc/passwd
    assert doc["summary"]["files"] == 1 and not doc["summary"]["unreadable"]  # the good session: validated
    assert all(f["line"] == 0 for f in doc["findings"] if f["rule"] == "OM806")


def test_fixture_symlinks_are_committed_as_links() -> None:
    d = ROOT / "conformance" / "validator" / "OM806" / "fail-symlinks"
    assert (d / "2026-07-18" / "sess-b_001.jsonl").is_symlink()


def _without_dac(argv: list[str]) -> list[str]:
    """`argv` run without the capabilities that let root read any directory (a user needs none)."""
    if os.geteuid() != 0:
        return argv
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *argv]


@needs("setpriv")
def test_unreadable_directories_are_findings_not_silent_skips(tmp_path: Path) -> None:
    root = tmp_path / "root"
    for day in ("2026-07-18", "2026-07-19"):
        (root / day).mkdir(parents=True)
        (root / day / f"sess-{day[-1]}_001.jsonl").write_bytes(TRACE)
    (root / "2026-07-19").chmod(0)
    try:
        proc = subprocess.run(_without_dac([sys.executable, "-m", "omnimessage", "validate", "--format", "json",
                                            "--no-progress", str(root)]),
                              capture_output=True, timeout=TIMEOUT, preexec_fn=_limits())
    finally:
        (root / "2026-07-19").chmod(0o755)
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    om806 = [f for f in findings if f["rule"] == "OM806"]
    assert [f["path"] for f in om806] == [str(root / "2026-07-19")], findings
    assert "cannot list this directory (Permission denied)" in om806[0]["message"]


SWAP = """
import json, os, sys
from omnimessage.validate.sources.inputs import Options, discover, run_unit
root, good = sys.argv[1], sys.argv[2]
units, _, _ = discover([root], "trace")
os.unlink(good)
os.symlink("/dev/zero", good)  # swapped between the listing and the read
print(json.dumps([[r.name, r.failure, r.bytes] for r in (run_unit(u, Options()) for u in units)]))
"""


def test_a_file_swapped_after_the_listing_is_refused_not_read(tmp_path: Path) -> None:
    root, _ = _hostile_root(tmp_path)
    good = root / "2026-07-18" / "sess-a_001.jsonl"
    proc = subprocess.run([sys.executable, "-c", SWAP, str(root), str(good)], capture_output=True, timeout=TIMEOUT,
                          preexec_fn=_limits())
    assert proc.returncode == 0, proc.stderr[-2000:]
    (session,) = [r for r in json.loads(proc.stdout) if r[0] == str(good)]
    assert "a symbolic link: not followed" in session[1] and session[2] == 0, session


# ------------------------------------------------------------------ FILE arguments


@pytest.mark.parametrize("cli", CLIS)
def test_a_device_named_as_file_is_refused(cli: Callable[..., subprocess.CompletedProcess[bytes]],
                                          tmp_path: Path) -> None:
    link = tmp_path / "zero.jsonl"
    link.symlink_to("/dev/zero")
    for target in ("/dev/zero", str(link)):
        proc = cli("canonicalize", target)
        assert proc.returncode == 2
        assert proc.stderr.decode() == f"omnimessage: {target}: a character device, not a regular file: not read\n"
    if cli is py:
        proc = py("validate", "--no-progress", str(link))
        assert proc.returncode == 2 and b"a character device, not a regular file" in proc.stdout + proc.stderr


@pytest.mark.parametrize("cli", CLIS)
def test_a_fifo_or_pipe_named_as_file_is_read_as_stdin_is(cli: Callable[..., subprocess.CompletedProcess[bytes]],
                                                         tmp_path: Path) -> None:
    # a pipe, as `<(cat trace)` gives one: /dev/fd/N
    r, w = os.pipe()
    os.write(w, NONCANONICAL)
    os.close(w)
    try:
        proc = cli("canonicalize", f"/dev/fd/{r}", pass_fds=(r,))
    finally:
        os.close(r)
    assert proc.returncode == 0 and proc.stdout == TRACE, proc.stderr
    # a named FIFO: waits for its writer, as cat does
    fifo = tmp_path / "live.jsonl"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"sleep 0.5; cat > '{fifo}'"], stdin=subprocess.PIPE)
    assert writer.stdin is not None
    writer.stdin.write(NONCANONICAL)
    writer.stdin.close()
    proc = cli("canonicalize", str(fifo))
    writer.wait(timeout=TIMEOUT)
    assert proc.returncode == 0 and proc.stdout == TRACE, proc.stderr
    if cli is py:  # the validator reads a FILE argument the same way
        r, w = os.pipe()
        os.write(w, TRACE)
        os.close(w)
        try:
            proc = py("validate", "--no-progress", f"/dev/fd/{r}", pass_fds=(r,))
        finally:
            os.close(r)
        assert proc.returncode == 0 and b"13 line(s)" in proc.stdout, proc.stdout + proc.stderr


# ------------------------------------------------------------------ canonicalize --in-place


@pytest.mark.parametrize("cli", CLIS)
def test_in_place_refuses_links_and_special_files(cli: Callable[..., subprocess.CompletedProcess[bytes]],
                                                 tmp_path: Path) -> None:
    target = tmp_path / "t.jsonl"
    target.write_bytes(NONCANONICAL)
    (tmp_path / "sym.jsonl").symlink_to("t.jsonl")
    os.link(target, tmp_path / "hard.jsonl")
    os.mkfifo(tmp_path / "fifo.jsonl")
    cases = {
        "sym.jsonl": "a symbolic link: --in-place replaces only regular files, not links (give the file it points to)",
        "hard.jsonl": "has 2 hard links: --in-place would split them (canonicalize to standard output instead)",
        "fifo.jsonl": "a FIFO, not a regular file: not read",
    }
    for name, says in cases.items():
        proc = cli("canonicalize", "--in-place", name, cwd=tmp_path)
        assert (proc.returncode, proc.stderr.decode()) == (2, f"omnimessage: {name}: {says}\n")
    assert target.read_bytes() == NONCANONICAL and (tmp_path / "sym.jsonl").is_symlink()
    assert target.stat().st_nlink == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.jsonl", "hard.jsonl", "sym.jsonl", "t.jsonl"]


@pytest.mark.skipif(os.geteuid() != 0, reason="keeping another user's ownership needs root")
@pytest.mark.parametrize("cli", CLIS)
def test_in_place_keeps_owner_group_and_mode(cli: Callable[..., subprocess.CompletedProcess[bytes]],
                                            tmp_path: Path) -> None:
    f = tmp_path / "t.jsonl"
    f.write_bytes(NONCANONICAL)
    os.chown(f, 1234, 2345)
    f.chmod(0o4640)  # set-user-ID too: fchown clears it, the mode is set after
    proc = cli("canonicalize", "--in-place", str(f))
    assert proc.returncode == 0, proc.stderr
    st = f.stat()
    assert f.read_bytes() == TRACE
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (1234, 2345, 0o4640)


@pytest.mark.parametrize("cli", CLIS)
def test_write_errors_name_the_file(cli: Callable[..., subprocess.CompletedProcess[bytes]], tmp_path: Path) -> None:
    f = tmp_path / "big.jsonl"
    f.write_bytes(NONCANONICAL * 200)
    before = f.read_bytes()
    proc = cli("canonicalize", "--in-place", "big.jsonl", cwd=tmp_path, fsize=len(before) // 2)
    assert (proc.returncode, proc.stderr.decode()) == (2, "omnimessage: big.jsonl: File too large\n")
    assert f.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["big.jsonl"]
    with open("/dev/full", "wb") as full:
        proc = cli("canonicalize", "big.jsonl", cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
                   capture_output=False)
    assert (proc.returncode, proc.stderr.decode()) == (2, "omnimessage: <stdout>: No space left on device\n")
    # a short output too: the error comes at the last flush
    with open("/dev/full", "wb") as full:
        proc = cli("canonicalize", "-", cwd=tmp_path, input=NONCANONICAL, stdout=full, stderr=subprocess.PIPE,
                   capture_output=False)
    assert (proc.returncode, proc.stderr.decode()) == (2, "omnimessage: <stdout>: No space left on device\n")
