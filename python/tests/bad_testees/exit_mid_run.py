"""Exits in the middle of the run: with status 3 (mode `status`) or killed by SIGSEGV (mode `signal`)."""

import os
import signal
import sys

from _common import serve

MODE = sys.argv[1] if len(sys.argv) > 1 else "status"


def die(req: object) -> None:
    sys.stderr.write("bad testee: giving up in the middle of the run\n")
    sys.stderr.flush()
    if MODE == "signal":
        os.kill(os.getpid(), signal.SIGSEGV)
    os._exit(3)


serve(die, f"bad-exit-{MODE}")
