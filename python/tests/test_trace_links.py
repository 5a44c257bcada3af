"""Issue 32, low: the Python `TraceWriter` never follows a symbolic link planted in its trace root
(a shared root such as `/tmp/traces` is enough to plant one)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import omnimessage as om
from omnimessage import produce

SID = "session-2026-09-14-16-12-40-0c9d2b6e"
DAY = "2026-09-14"
NAME = f"{SID}_001.jsonl"
pytestmark = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX links")


def _msg() -> om.Message:
    return om.user_text("hello", timestamp="2026-09-14T08:12:41.000Z")


def test_a_dangling_link_never_creates_a_file_outside_the_root(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / DAY).mkdir(parents=True)
    outside.mkdir()
    (root / DAY / NAME).symlink_to(outside / "planted.jsonl")
    w = produce.TraceWriter(root, SID, date=DAY)
    with pytest.raises(OSError, match="symbolic link"):
        w.write(_msg())
    assert list(outside.iterdir()) == []


def test_a_linked_file_is_never_appended_to(tmp_path: Path) -> None:
    root, victim = tmp_path / "root", tmp_path / "victim.txt"
    (root / DAY).mkdir(parents=True)
    victim.write_bytes(b"precious\n")
    (root / DAY / NAME).symlink_to(victim)
    w = produce.TraceWriter(root, SID, date=DAY)
    with pytest.raises(OSError, match="symbolic link"):
        w.write(_msg())
    assert victim.read_bytes() == b"precious\n"


def test_a_linked_date_directory_is_refused(tmp_path: Path) -> None:
    root, elsewhere = tmp_path / "root", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    (root / DAY).symlink_to(elsewhere, target_is_directory=True)
    w = produce.TraceWriter(root, SID, date=DAY)
    with pytest.raises(OSError, match="date directory"):
        w.write(_msg())
    assert list(elsewhere.iterdir()) == []


def test_a_plain_root_still_works_and_a_linked_root_is_the_callers_choice(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real, target_is_directory=True)
    w = produce.TraceWriter(tmp_path / "alias", SID, date=DAY)
    w.write(_msg())
    assert (real / DAY / NAME).read_bytes() == om.encode(_msg()) + b"\n"
