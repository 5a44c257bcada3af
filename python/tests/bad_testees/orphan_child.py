"""Spawns a child that keeps running (and holds the testee's stdout open), then answers on, or exits.

argv: PIDFILE MODE [exit]. MODE `group`: the child stays in the testee's process group; `pgid`: it
moves to a process group of its own; `session`: it becomes a daemon (double fork, setsid), no longer
even the testee's descendant. With `exit`, the testee exits right after spawning it.
"""

import subprocess
import sys
import time
from pathlib import Path

from _common import answer, serve

PIDFILE, MODE = sys.argv[1], sys.argv[2]
EXIT = len(sys.argv) > 3 and sys.argv[3] == "exit"

CHILD = r"""
import os, sys, time
mode, pidfile = sys.argv[1], sys.argv[2]
if mode == "pgid":
    os.setpgid(0, 0)
elif mode == "session":
    if os.fork():
        os._exit(0)
    os.setsid()
    if os.fork():
        os._exit(0)
with open(pidfile, "a") as f:
    f.write(f"{os.getpid()}\n")
while True:
    time.sleep(3600)
"""


def spawn(req: dict[str, object]) -> None:
    # The child inherits stdout: the runner cannot wait for EOF on the testee's stdout.
    subprocess.Popen([sys.executable, "-c", CHILD, MODE, PIDFILE], stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not (Path(PIDFILE).exists() and Path(PIDFILE).read_text().strip()):
        time.sleep(0.01)
    if EXIT:
        sys.stdout.flush()
        import os

        os._exit(0)
    answer(req)


serve(spawn, f"bad-orphan-{MODE}")
