"""Never answers the handshake (reads it, then sleeps)."""

import sys
import time

sys.stdin.readline()
while True:
    time.sleep(3600)
