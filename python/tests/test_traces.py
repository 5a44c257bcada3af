"""`omnimessage.traces`: a trace root's sessions, their files in rotation order, their messages;
`om.iter_messages` on a directory points there."""

from __future__ import annotations

from pathlib import Path

import pytest

import omnimessage as om
from omnimessage.traces import Session, iter_sessions
from omnimessage.validate import validate_path
from omnimessage_dev.synth.sessions import trace_lines


def _split(data: bytes, parts: int) -> list[bytes]:
    lines = data.splitlines(keepends=True)
    step = -(-len(lines) // parts)
    return [b"".join(lines[i : i + step]) for i in range(0, len(lines), step)]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "traces"
    d1, d2 = r / "2026-07-18", r / "2026-07-19"
    d1.mkdir(parents=True)
    d2.mkdir()
    # sess-b: rotated over three files, the third under the next day; index 10 sorts after 2 (numerically)
    b = b"".join(trace_lines(30_000, seed=2, session_id="sess-b"))
    first, second, third = _split(b, 3)
    (d1 / "sess-b_001.jsonl").write_bytes(first)
    (d1 / "sess-b_002.jsonl").write_bytes(second)
    (d2 / "sess-b_010.jsonl").write_bytes(third)
    (d1 / "sess-a_001.jsonl").write_bytes(b"".join(trace_lines(5_000, seed=1, session_id="sess-a")))
    (d2 / "sess-0_001.jsonl").write_bytes(b"".join(trace_lines(5_000, seed=3, session_id="sess-0")))
    (r / "loose.jsonl").write_bytes(b"{}\n")  # outside the layout: no session
    (d1 / "notes.txt").write_text("not a trace")
    return r


def test_sessions_files_and_messages(root: Path) -> None:
    sessions = list(iter_sessions(root))
    assert [(s.session_id, s.date) for s in sessions] == [
        ("sess-a", "2026-07-18"), ("sess-b", "2026-07-18"), ("sess-0", "2026-07-19")]
    b = sessions[1]
    assert isinstance(b, Session)
    assert [Path(p).name for p in b.files] == ["sess-b_001.jsonl", "sess-b_002.jsonl", "sess-b_010.jsonl"]
    assert b.indices == (1, 2, 10)
    # the messages of all files, in order: the session's whole trace
    whole = b"".join((root / "2026-07-18" / n).read_bytes() for n in ("sess-b_001.jsonl", "sess-b_002.jsonl")) + (
        root / "2026-07-19" / "sess-b_010.jsonl").read_bytes()
    assert [om.encode(m) + b"\n" for m in b.messages()] == whole.splitlines(keepends=True)
    lines = list(b.lines())
    assert [Path(x.path).name for x in lines].count("sess-b_010.jsonl") == len(
        (root / "2026-07-19" / "sess-b_010.jsonl").read_bytes().splitlines())
    assert all(x.line.error is None for x in lines)
    # the same index as the validator's
    assert validate_path(root, profile="trace").sessions == 3


def test_a_bad_line_names_its_file_and_line(root: Path) -> None:
    f = root / "2026-07-18" / "sess-a_001.jsonl"
    data = f.read_bytes().splitlines(keepends=True)
    f.write_bytes(b"".join([*data[:3], b'{"timestamp":1}\n', *data[3:]]))
    (a,) = [s for s in iter_sessions(root) if s.session_id == "sess-a"]
    got = []
    with pytest.raises(om.DecodeError) as exc:
        for m in a.messages():
            got.append(m)
    assert len(got) == 3 and exc.value.line == 4
    assert exc.value.__notes__ == [f"in {f}, line 4"]
    bad = [x for x in a.lines() if x.line.error is not None]  # lines() goes on past it
    assert [(x.path, x.line.number) for x in bad] == [(str(f), 4)]


def test_lenient_passes_through(root: Path) -> None:
    f = root / "2026-07-19" / "sess-0_001.jsonl"
    newer = b'{"timestamp":"2030-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"future_thing"}}\n'
    f.write_bytes(f.read_bytes() + newer)
    (s,) = [s for s in iter_sessions(root) if s.session_id == "sess-0"]
    with pytest.raises(om.DecodeError):
        list(s.messages())
    last = list(s.messages(lenient=True))[-1]
    assert isinstance(last, om.OpaqueMessage) and om.encode(last) == newer.rstrip(b"\n")


def test_not_a_root(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such trace root"):
        list(iter_sessions(tmp_path / "missing"))
    f = tmp_path / "t.jsonl"
    f.write_bytes(b"")
    with pytest.raises(NotADirectoryError, match="iter_messages"):
        list(iter_sessions(f))
    assert list(iter_sessions(tmp_path)) == []  # a directory without sessions


def test_iter_messages_on_a_directory_points_to_iter_sessions(root: Path) -> None:
    with pytest.raises(IsADirectoryError, match=r"omnimessage\.traces\.iter_sessions"):
        next(om.iter_messages(root))
