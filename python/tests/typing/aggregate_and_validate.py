"""Type-checked, never run: the Aggregator and the validator's Python API as a user's checker sees
them (python/tests/test_typing.py)."""

from collections.abc import Sequence
from pathlib import Path
from typing import Literal, assert_type

import omnimessage as om
from omnimessage import Message
from omnimessage.validate import RULES, Finding, Rule, Validator


def aggregate(path: Path) -> list[Message]:
    agg = om.Aggregator()
    complete: list[Message] = []
    for line in om.iter_messages(path):
        if line.message is not None:
            out = agg.feed(line.message)  # strict lines hold a Message: no cast needed
            assert_type(out, list[Message])
            complete += out
    complete += agg.finish()
    return complete


def aggregate_lenient(path: Path) -> None:
    agg = om.Aggregator()
    for line in om.iter_messages(path, lenient=True):
        msg = line.message
        if msg is not None and not isinstance(msg, om.OpaqueMessage):
            agg.feed(msg)


def validate(path: Path) -> int:
    v = Validator("stream", source=str(path), lenient=True)
    found: list[Finding] = []
    for line in om.iter_messages(path, lenient=True):
        assert_type(v.feed(line), Sequence[Finding])
    found += v.finish()
    for f in found:
        assert_type(f.rule, str)
        assert_type(f.severity, Literal["error", "warning"])
        assert_type(f.line, int)
        assert_type(RULES[f.rule], Rule)
    return sum(f.severity == "error" for f in found)


def validate_bytes(lines: list[bytes]) -> Sequence[Finding]:
    v = Validator()
    for raw in lines:
        v.feed(raw)
    return v.finish()
