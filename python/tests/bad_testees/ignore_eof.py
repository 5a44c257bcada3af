"""Answers every request correctly, but never exits: not when stdin closes, not on SIGTERM."""

import json
import signal
import sys
import time

from _common import answer

signal.signal(signal.SIGTERM, signal.SIG_IGN)
hello = json.loads(sys.stdin.readline())
sys.stdout.write(json.dumps({"hello": hello["hello"], "protocol": 1, "implementation": "bad-ignore-eof"}) + "\n")
sys.stdout.flush()
for raw in sys.stdin:
    answer(json.loads(raw))
while True:  # stdin closed: the runner said goodbye; stay anyway
    time.sleep(3600)
