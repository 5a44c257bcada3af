"""Hangs on a request, deaf to SIGTERM and SIGINT: only SIGKILL ends it."""

import signal
import time

from _common import serve


def hang(req: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        time.sleep(3600)


serve(hang, "bad-hang")
