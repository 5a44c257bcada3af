"""The kill sweep (Linux): what a testee left running outside its process group, found and killed.

A testee's process group is killed as a whole; a process it started may have left the group
(`setsid`, a daemon). Such a process is still found by its session id, or by the token the runner
puts in the testee's environment (:data:`TOKEN_VAR`), which every descendant inherits unless it
clears its environment. Elsewhere than Linux (no /proc) nothing is found.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

from omnimessage.text.sanitize import clip

__all__ = ["TOKEN_VAR", "sweep"]

TOKEN_VAR = "OMNIMESSAGE_CONFORMANCE_TESTEE"
"""Set in each testee's environment to a fresh token, so that its descendants can be found."""


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, process group, session) of a process, from /proc."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return fields[0].decode(), int(fields[2]), int(fields[3])
    except (IndexError, ValueError):
        return None


def sweep(leader: int, token: str) -> list[str]:
    """SIGKILL what a testee left behind outside its (already killed) process group: the processes
    of its session, and those whose environment carries its token. Returns a description of each
    one found alive (Linux; elsewhere nothing is found)."""
    needle = f"{TOKEN_VAR}={token}".encode()
    me = os.getpid()
    found: dict[int, str] = {}
    for _ in range(5):  # a forking process may add one between two scans
        hit = False
        try:
            pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
        except OSError:
            return []
        for pid in pids:
            if pid == me:
                continue
            st = _stat(pid)
            if st is None or st[0] in ("Z", "X"):
                continue
            ours = st[2] == leader
            if not ours:
                try:
                    ours = needle in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                except OSError:
                    continue
            if not ours:
                continue
            if pid not in found and st[1] != leader:  # not in its process group: report it
                try:
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").strip()
                except OSError:
                    cmd = b"?"
                found[pid] = f"pid {pid} ({clip(cmd, 80)})"
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                hit = True
        if not hit:
            break
        time.sleep(0.02)
    return list(found.values())
