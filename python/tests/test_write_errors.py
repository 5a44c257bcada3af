"""A report or output that cannot be written (a full disk) is an error naming it, never exit 0 and
never a traceback: `omnimessage: /dev/full: No space left on device`, exit 2 (issue 12)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT

FULL = "/dev/full"  # every write fails with ENOSPC
pytestmark = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full on this system")

STREAM = str(ROOT / "examples" / "stream.jsonl")
CASES = [
    (["validate", "--profile", "stream", STREAM, "-o", FULL], "devnull", FULL),
    (["validate", "--profile", "stream", STREAM], "full", "<stdout>"),
    (["validate", "--list-rules"], "full", "<stdout>"),
    (["conformance", "--impl", "python", "--fresh", "3", "--json", FULL], "devnull", FULL),
    (["conformance", "--impl", "python", "--fresh", "3", "--junit", FULL], "devnull", FULL),
    (["conformance", "--impl", "python", "--fresh", "3"], "full", "<stdout>"),
    (["schema"], "full", "<stdout>"),
    (["canonicalize", str(ROOT / "examples" / "trace.jsonl")], "full", "<stdout>"),
]


@pytest.mark.parametrize(("args", "stdout", "name"), CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_a_write_error_names_what_could_not_be_written(args: list[str], stdout: str, name: str) -> None:
    with open(FULL if stdout == "full" else os.devnull, "w") as out:
        p = subprocess.run([sys.executable, "-m", "omnimessage", *args], stdout=out, stderr=subprocess.PIPE,
                           text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 2, p.stderr
    assert f"{name}: No space left on device" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr, p.stderr
