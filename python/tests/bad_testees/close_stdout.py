"""Closes its stdout on a request and stays alive, reading nothing more."""

import os
import time

from _common import serve


def close(req: object) -> None:
    os.close(1)
    while True:
        time.sleep(3600)


serve(close, "bad-close-stdout")
