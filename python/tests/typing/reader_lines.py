"""Type-checked, never run: `iter_messages` yields `Line[Message]` when strict and
`Line[Message | OpaqueMessage]` when lenient (python/tests/test_typing.py)."""

from pathlib import Path
from typing import assert_type

import omnimessage as om
from omnimessage import Line, Message, OpaqueMessage


def strict(path: Path) -> None:
    for line in om.iter_messages(path):
        assert_type(line, Line[Message])
        assert_type(line.message, Message | None)
        assert_type(line.error, om.DecodeError | None)
        assert_type(line.number, int)
        assert_type(line.raw, bytes)
        assert_type(line.terminated, bool)
        if line.message is not None and om.is_event(line.message):
            assert_type(line.message, om.EventMessage)


def lenient(path: str, flag: bool) -> None:
    for line in om.iter_messages(path, lenient=True):
        assert_type(line.message, Message | OpaqueMessage | None)
    for line2 in om.iter_messages(path, lenient=flag, max_line_bytes=1 << 20):
        assert_type(line2.message, Message | OpaqueMessage | None)


def from_a_stream(path: Path) -> None:
    with path.open("rb") as fh:
        lines = list(om.iter_messages(fh))
    assert_type(lines, list[Line[Message]])


def bare_line(line: Line) -> Message | OpaqueMessage | None:
    """A bare `Line` (no type argument) is accepted under --strict and means the lenient form."""
    assert_type(line.message, Message | OpaqueMessage | None)
    return line.message


def strict_lines_are_lines(path: Path) -> None:
    for line in om.iter_messages(path):
        bare_line(line)  # covariant: a Line[Message] is a Line
