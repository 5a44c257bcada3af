"""`decode()` tries the native fast path once per line: a line it turns down goes straight to the
slow path, not through the fast path a second time (issue 39)."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

import omnimessage as om
from omnimessage.codec import api as codec
from omnimessage.codec.native import DECODE_ERRORS, DECODER

CANONICAL = (b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg",'
             b'"payload":{"type":"text","role":"user","text":"hi"}}')
NON_CANONICAL = CANONICAL.replace(b'"hi"}}', b'"hi" }}')  # valid, accepted by the slow path only
REFUSED = CANONICAL.replace(b'"user"', b'"nobody"')  # schema_violation
NOT_JSON = b'{"timestamp":'


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bytes]]:
    """Every call of the fast path's typed decode (msgspec's, into the generated structs): with the
    native accelerator, the decoder bound to it (`_accel.bind`, which `om.decode`, its C entry, calls);
    without it, the runtime tables' decoder (the pure fast path's)."""
    seen: list[bytes] = []

    def counting(data: bytes) -> Any:
        seen.append(bytes(data))
        return DECODER.decode(data)

    if codec.RUNTIME.native is None:
        monkeypatch.setattr(codec, "RUNTIME", codec.RUNTIME._replace(decoder=SimpleNamespace(decode=counting)))
        yield seen
        return
    from omnimessage import _accel  # type: ignore[attr-defined]

    _accel.bind(counting, DECODE_ERRORS)
    try:
        yield seen
    finally:
        _accel.bind(DECODER.decode, DECODE_ERRORS)


@pytest.mark.parametrize("line", [REFUSED, NOT_JSON])
def test_a_refused_line_costs_one_fast_attempt(calls: list[bytes], line: bytes) -> None:
    with pytest.raises(om.DecodeError):
        om.decode(line)
    assert calls == [line]


def test_a_line_kept_opaque_costs_one_fast_attempt(calls: list[bytes]) -> None:
    assert isinstance(om.decode(REFUSED, lenient=True), om.OpaqueMessage)
    assert calls == [REFUSED]


def test_a_line_only_the_slow_path_accepts_costs_one_fast_attempt(calls: list[bytes]) -> None:
    assert om.encode(om.decode(NON_CANONICAL)) == CANONICAL
    assert calls == [NON_CANONICAL]


def test_a_canonical_line_costs_one_fast_attempt(calls: list[bytes]) -> None:
    assert om.encode(om.decode(CANONICAL)) == CANONICAL
    assert calls == [CANONICAL]


def test_other_inputs_than_bytes_cost_one_fast_attempt(calls: list[bytes]) -> None:
    with pytest.raises(om.DecodeError):
        om.decode(bytearray(REFUSED))
    assert calls == [REFUSED]
