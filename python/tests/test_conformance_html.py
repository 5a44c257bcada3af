"""`omnimessage conformance --html FILE` and `--badge FILE`: the matrix by group with failures first,
each failure with its byte diff; a shields.io endpoint document; `--impl` typos are usage errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

MUTANT = f"{sys.executable} -m omnimessage_dev.mutants ensure-ascii"
CASES = ["roundtrip.unicode.*", "rejection.*duplicate*"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "omnimessage", "conformance", *args], capture_output=True,
                          text=True, timeout=300)


def _cases() -> list[str]:
    return [a for c in CASES for a in ("--case", c)]


def test_html_puts_failures_first_with_their_byte_diff(tmp_path: Path) -> None:
    page, badge = tmp_path / "c.html", tmp_path / "badge.json"
    r = _cli("--impl", MUTANT, "--fresh", "0", *_cases(), "--html", str(page), "--badge", str(badge))
    assert r.returncode == 1, r.stderr
    text = page.read_text("utf-8")
    assert text.startswith("<!DOCTYPE html>") and "default-src 'none'" in text and "<script" not in text
    groups = [line.split("<summary>", 1)[1].split(":", 1)[0] for line in text.split('<details class="group"')[1:]]
    assert groups[0] == "roundtrip" and "rejection" in groups  # the failing group first
    first_case = text.index('<div class="case ')
    assert text[first_case:].startswith('<div class="case failed">')  # failures first in the group
    assert "first difference at byte" in text and "expected: ..." in text and "got:      ..." in text
    assert '<td class="bad">' in text  # the matrix cell of the failing group
    doc = json.loads(badge.read_text())
    assert doc["schemaVersion"] == 1 and doc["color"] == "red" and "failing" in doc["message"]


def test_badge_of_a_green_run(tmp_path: Path) -> None:
    badge = tmp_path / "badge.json"
    r = _cli("--impl", "python", "--fresh", "0", *_cases(), "--badge", str(badge))
    assert r.returncode == 0, r.stderr
    doc = json.loads(badge.read_text())
    assert doc == {"schemaVersion": 1, "label": "omnimessage conformance", "color": "brightgreen",
                   "message": doc["message"]} and doc["message"].endswith(" passed")
    n, total = doc["message"].split()[0].split("/")
    assert n == total and int(n) > 0


def test_an_unknown_implementation_is_a_usage_error_with_a_suggestion() -> None:
    r = _cli("--impl", "pyhton")
    assert r.returncode == 2
    assert "did you mean 'python'?" in r.stderr and "passed" not in r.stdout  # no 0/419 tables
    r = _cli("--impl", "no-such-testee-anywhere")
    assert r.returncode == 2 and "no such command" in r.stderr
