"""Shared by the conformance runner's tests (test_conformance_processes.py, _judging.py, _cli.py,
_protocol.py): the suite and three small cases of it, a fake testee that misbehaves on demand,
and the `omnimessage conformance` command."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from conftest import ROOT

from omnimessage.conformance import load_suite
from omnimessage.conformance.outcomes import RunResult

__all__ = [
    "BY_ID", "FIRST", "LAST", "PYTHON", "PYTHON_KNOWN", "RAW_CONTROL", "SUITE", "SUMMARY", "TARGET", "THREE",
    "FakeTestee", "cli", "fake_testee", "statuses",
]

SUITE = load_suite()
BY_ID = SUITE.by_id()
PYTHON = [sys.executable, "-m", "omnimessage.conformance.testee"]
PYTHON_KNOWN = ROOT / "conformance" / "expected-failures" / "python.txt"
SUMMARY = re.compile(
    r"^\d+ passed, \d+ failed, \d+ skipped, \d+ expected failures"
    r"( \(\d+ failed below --level \w+, not gating\))?; level reached: (none|required|recommended)"
    r"(; seed \d+ \(replay: --seed \d+\))?$",
    re.M,
)

# three small cases: the middle one is where the fake testees misbehave
FIRST, TARGET, LAST = (
    BY_ID["roundtrip.request_begin.minimal"],
    BY_ID["rejection.duplicate_key.payload-type"],
    BY_ID["canonicalization.framing.spec-example"],
)
THREE = [FIRST, TARGET, LAST]

RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
"""A character the runner's output must show escaped: controls, bidirectional overrides, separators."""

FAKE = """
import json, os, subprocess, sys, time
from omnimessage.conformance.testee import Binding, handle
MODE = sys.argv[1]
TARGET = {target!r}
hello = json.loads(sys.stdin.readline())
if MODE == "bad-hello":
    print(json.dumps({{"hello": "something-else"}}), flush=True)
elif MODE == "exit-at-hello":
    sys.stderr.write("testee: cannot initialise\\n"); sys.exit(7)
else:
    print(json.dumps({{"hello": hello["hello"], "protocol": 1, "implementation": "fake-" + MODE}}), flush=True)
if MODE == "no-read":
    time.sleep(60)
for raw in sys.stdin:
    req = json.loads(raw)
    if MODE == "slow":
        time.sleep(0.4)
    if MODE == "skip-all":
        print(json.dumps({{"id": req["id"], "result": "skipped", "reason": "not implemented"}}), flush=True)
        continue
    if MODE == "stderr-flood":
        sys.stderr.write("x" * 1_000_000)
        sys.stderr.flush()
    if req["id"] == TARGET:
        if MODE == "crash":
            sys.stderr.write("Traceback: boom\\n"); sys.stderr.flush(); os._exit(3)
        if MODE == "hang":
            time.sleep(60)
        if MODE == "garbage":
            print("hello, I am not JSON", flush=True); continue
        if MODE == "wrong-id":
            print(json.dumps({{"id": "someone-else", "result": "skipped"}}), flush=True); continue
        if MODE == "flood":
            sys.stdout.write("x" * 3_000_000); sys.stdout.flush(); time.sleep(60)
        if MODE == "grandchild":
            child = subprocess.Popen(["sleep", "300"])
            open(sys.argv[2], "w").write(str(child.pid))
            time.sleep(60)
    print(json.dumps(handle(Binding(), req)), flush=True)
"""


FakeTestee = Callable[..., list[str]]
"""`argv(mode, *extra)`: the command line of the fake testee misbehaving in `mode`."""


def fake_testee(tmp_path: Path) -> FakeTestee:
    """The fake testee's script written to `tmp_path`; returns its command line by mode."""
    script = tmp_path / "fake_testee.py"
    script.write_text(FAKE.format(target=TARGET.id))

    def argv(mode: str, *extra: str) -> list[str]:
        return [sys.executable, str(script), mode, *extra]

    return argv


def statuses(result: RunResult) -> list[str]:
    return [o.status for o in result.outcomes]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`omnimessage conformance ARGS` run to its end (five minutes at most)."""
    return subprocess.run(
        [sys.executable, "-m", "omnimessage", "conformance", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
    )
