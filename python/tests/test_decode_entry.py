"""`omnimessage.decode` as the native accelerator's C entry (issue 35): one C call for a line of
bytes, and for every other call the Python `decode` it stands for (`codec.PYTHON_DECODE`), called
as it was. Every form of call gives what that function gives: the same message, the same
`DecodeError`, the same `TypeError` for a wrong call."""

from __future__ import annotations

import inspect
import pickle
from collections.abc import Callable
from typing import Any

import pytest

import omnimessage as om
from omnimessage.codec import api as codec
from omnimessage.codec import native as _accel_select

CANONICAL = (b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg",'
             b'"payload":{"type":"text","role":"user","text":"hi"}}')
LINES = [CANONICAL, CANONICAL + b"\n", CANONICAL.replace(b'"hi"}}', b'"hi" }}'), CANONICAL.replace(b'"user"', b'"x"'),
         b'{"timestamp":', b"", b"[]", b"\xff", CANONICAL.replace(b"hi", b"\\ud800")]


class Bytes(bytes):
    pass


def _outcome(call: Callable[..., Any], decode: Callable[..., Any], line: bytes) -> tuple[Any, ...]:
    try:
        got = call(decode, line)
    except om.DecodeError as e:
        return ("DecodeError", e.category, e.pointer, e.offset, str(e))
    except TypeError as e:
        return ("TypeError", str(e))
    if isinstance(got, om.OpaqueMessage):
        return ("opaque", got.raw, str(got.error))
    return ("msg", type(got), got)


CALLS: list[tuple[str, Callable[[Callable[..., Any], bytes], Any]]] = [
    ("line", lambda f, b: f(b)),
    ("lenient", lambda f, b: f(b, lenient=True)),
    ("strict by keyword", lambda f, b: f(b, lenient=False)),
    ("lenient truthy", lambda f, b: f(b, lenient=1)),
    ("data by keyword", lambda f, b: f(data=b)),
    ("data and lenient by keyword", lambda f, b: f(lenient=True, data=b)),
    ("bytearray", lambda f, b: f(bytearray(b), lenient=True)),
    ("memoryview", lambda f, b: f(memoryview(b))),
    ("str", lambda f, b: f(b.decode("utf-8", "replace"))),
    ("a bytes subclass", lambda f, b: f(Bytes(b))),
    ("lenient positional", lambda f, b: f(b, True)),
    ("an unknown keyword", lambda f, b: f(b, strict=True)),
    ("no argument", lambda f, b: f()),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[n for n, _ in CALLS])
def test_every_form_of_call_answers_as_the_python_decode(name: str, call: Callable[..., Any]) -> None:
    for line in LINES:
        assert _outcome(call, om.decode, line) == _outcome(call, codec.PYTHON_DECODE, line), line


def test_with_the_accelerator_decode_is_its_entry_and_reads_as_the_python_one() -> None:
    if _accel_select.ENTRY is None:
        assert om.decode is codec.PYTHON_DECODE  # pure Python: nothing stands in for it
        return
    assert om.decode is not codec.PYTHON_DECODE and inspect.isbuiltin(om.decode)
    assert (om.decode.__name__, om.decode.__module__) == ("decode", "omnimessage.codec.api")
    assert om.decode.__doc__ == codec.PYTHON_DECODE.__doc__
    assert str(inspect.signature(om.decode)) == "(data, *, lenient=False)"
    # pickled by name, as the Python function was (a Dask task or a process pool may ship it)
    assert pickle.loads(pickle.dumps(om.decode)) is om.decode
