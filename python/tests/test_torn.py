"""`is_record_prefix`: what a crash can leave mid-file (a proper prefix of a record) and what it cannot."""

from __future__ import annotations

import json

import pytest

from omnimessage.validate.engine.torn import is_record_prefix

RECORD = json.dumps(
    {
        "timestamp": "2026-07-18T03:10:22.531Z",
        "type": "model_msg",
        "payload": {"type": "text", "role": "user", "text": 'hé😀 "q" \\ \n\u0001',
                    "n": [1, -2.5e3, 0, 1e-7, True, False, None, {}, []], "x": {"a": [{"b": "c"}]}},
        "origin": ["s"],
    },
    ensure_ascii=False,
    separators=(",", ":"),
).encode()
ESCAPED = json.dumps({"a": "\u0001\ud83d\ude00x", "b": 1.5, "c": [True, None]}).encode()


@pytest.mark.parametrize("record", [RECORD, ESCAPED], ids=["raw-utf8", "escaped"])
def test_every_proper_prefix_is_torn_and_the_whole_record_is_not(record: bytes) -> None:
    assert not is_record_prefix(record)
    bad = [i for i in range(1, len(record)) if not is_record_prefix(record[:i])]
    assert bad == []


@pytest.mark.parametrize(
    "line",
    [
        b"{",
        b'{ "a" : [ 1 , 2',
        b'{"a":"\xc3',  # a two-byte character cut after its first byte
        b'{"a":"\xe6\x95',
        b'{"a":-',
        b'{"a":1.',
        b'{"a":1e+',
        b'{"a":nu',
        b'{"a":"\\u00',
        b'{"a":"\\',
        b'{"a":{"b":[[',
    ],
)
def test_torn(line: bytes) -> None:
    assert is_record_prefix(line)


@pytest.mark.parametrize(
    "line",
    [
        b"",  # an empty line is a heal of its own kind (OM006), not a torn record
        b"[1,",  # a record is an object
        b' {"a":1',
        b'{"a":1}{"b"',  # a complete record and more: spliced
        b'{"a":1}}',
        b'{"a":tru e',
        b'{"a":01',
        b'{"a":1.e',
        b'{"a" 1',
        b'{"a":"\\x',
        b"{1",
        b'{"a":1,}',
        b'{"a":[1,]',
        b'{"a":"\x01',  # a raw control character in a string
        b"{\xff",
        b'{"a":\xc3',  # a cut character outside a string
        b'{"a":1\xc3',
        RECORD[:40] + RECORD,  # a torn record and the next one on the same line: two writers
        b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","pay{"timestamp":"x"}',
    ],
)
def test_not_torn(line: bytes) -> None:
    assert not is_record_prefix(line)


def test_deep_and_long_prefixes_are_linear() -> None:
    deep = b'{"a":' + b"[" * 100_000
    assert is_record_prefix(deep)
    long = b'{"a":"' + b"x" * 5_000_000
    assert is_record_prefix(long)
