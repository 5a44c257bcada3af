"""Type-checked, never run: `decode` and `canonicalize` as `mypy --strict` and pyright (strict) see
them (python/tests/test_typing.py). Strict decoding gives a `Message`; only `lenient=True`, or a
`bool` the checker cannot know, adds `OpaqueMessage`."""

from typing import assert_type

import omnimessage as om
from omnimessage import Message, OpaqueMessage

LINE = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}'


def strict() -> None:
    assert_type(om.decode(LINE), Message)
    assert_type(om.decode(LINE, lenient=False), Message)
    assert_type(om.decode(LINE.decode()), Message)  # str, bytearray and memoryview too
    assert_type(om.decode(bytearray(LINE)), Message)
    assert_type(om.decode(memoryview(LINE)), Message)


def lenient(flag: bool) -> None:
    assert_type(om.decode(LINE, lenient=True), Message | OpaqueMessage)
    assert_type(om.decode(LINE, lenient=flag), Message | OpaqueMessage)
    opaque = om.decode(LINE, lenient=True)
    if isinstance(opaque, OpaqueMessage):
        assert_type(opaque.raw, bytes)
        assert_type(opaque.error, om.DecodeError)
    else:
        assert_type(opaque, Message)


def encode_and_canonicalize() -> None:
    assert_type(om.encode(om.decode(LINE)), bytes)
    assert_type(om.encode(om.decode(LINE, lenient=True)), bytes)  # an OpaqueMessage encodes to its bytes
    assert_type(om.canonicalize(LINE), bytes)
    assert_type(om.canonicalize(LINE, lenient=True), bytes)


def errors() -> None:
    try:
        om.decode(LINE)
    except om.DecodeError as exc:
        assert_type(exc.category, str)
        assert_type(exc.pointer, str)
        assert_type(exc.offset, int | None)
        assert_type(exc.line, int | None)
