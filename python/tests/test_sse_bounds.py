"""SSE framing bounds (issue 23), each proved in a child process under resource limits:

- an event's `data:` lines are held in one byte buffer, capped in bytes (`--max-line-bytes`): many
  tiny `data:` lines no longer cost ~5-7x the input (a list of one bytes object per line);
- bare-CR line ends are split in linear time (the next LF was searched for again after every CR).
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from omnimessage.validate.sources.sse import SseResult, iter_events, iter_lines_bytes


def _limited(argv: list[str], *, mem: int | None = None, cpu: int | None = None) -> tuple[int, str, int]:
    """Run argv with RLIMIT_AS `mem` bytes and RLIMIT_CPU `cpu` seconds: (status, stderr, peak RSS KiB)."""

    def limits() -> None:
        if mem is not None:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        if cpu is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))

    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = subprocess.run(argv, preexec_fn=limits, capture_output=True, text=True, timeout=300)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return proc.returncode, proc.stdout + proc.stderr, peak if peak > before else 0


def test_many_tiny_data_lines_cost_their_bytes(tmp_path: Path) -> None:
    capture = tmp_path / "tiny.sse"
    with capture.open("wb") as fh:  # one event of 4 Mi `data:` lines of 2 bytes: 32 MiB of input
        for _ in range(64):
            fh.write(b"data:xy\n" * (1 << 16))
        fh.write(b"\n")
    mib = 1 << 20
    rc, out, rss = _limited([sys.executable, "-m", "omnimessage", "validate", "--no-progress", "--sse",
                             str(capture)], mem=400 * mib, cpu=120)
    assert rc == 1, out[-2000:]  # the one event's data is no OmniMessage: a finding, no MemoryError
    assert "MemoryError" not in out and "Traceback" not in out
    assert rss == 0 or rss < 150 * 1024, rss  # KiB: was ~260 MB for this input


def test_the_event_buffer_cap_is_in_bytes() -> None:
    lines = [b"data:xy"] * 1000 + [b""]  # 3 bytes a line in the buffer (value and LF): 3000 bytes
    for cap, oversized in ((2999, True), (3000, False)):
        (ev,) = list(iter_events(iter(lines), SseResult(), max_bytes=cap))
        assert ev.oversized is oversized
        assert ev.data == (b"" if oversized else b"\n".join([b"xy"] * 1000))
        assert ev.data_lines == (0 if oversized else 1000)


def test_bare_cr_lines_split_in_linear_time(tmp_path: Path) -> None:
    capture = tmp_path / "cr.sse"
    capture.write_bytes(b": heartbeat\r" * (2 << 20) + b"data:{}\r\r")  # 24 MiB, bare CRs only, no LF
    rc, out, _ = _limited([sys.executable, "-m", "omnimessage", "validate", "--no-progress", "--sse",
                           str(capture)], cpu=6)  # measured: 1.2 s of CPU; 13 s before (quadratic per chunk)
    assert rc == 1, out[-2000:]  # SIGXCPU would be -24
    assert "OM" in out


@pytest.mark.parametrize("ends", [b"\r", b"\n", b"\r\n"])
def test_line_ends_split_alike(ends: bytes) -> None:
    data = ends.join([b"a", b"", b"bc", b"d"]) + ends
    for size in (1, 2, 3, 100):
        chunks = [data[i:i + size] for i in range(0, len(data), size)]
        assert list(iter_lines_bytes(chunks, 100)) == [b"a", b"", b"bc", b"d"], (ends, size)
