"""Hostile edits of the written line (its bytes, LF included) and of the request's settings."""

from __future__ import annotations

import random

from .draft import Edit, _Draft


def _flip_byte(rng: random.Random, d: _Draft) -> bool:
    body = bytearray(d.data[:-1])
    if not body:
        return False
    at = rng.randrange(len(body))
    body[at] ^= 1 << rng.randrange(8)
    if body[at] == 0x0A:
        return False
    d.data = bytes(body) + b"\n"
    return True


def _truncate(rng: random.Random, d: _Draft) -> bool:
    body = d.data[:-1]
    d.data = body[: rng.randrange(len(body))] if rng.random() < 0.8 else body  # torn, or complete without its LF
    return True


def _trailing(rng: random.Random, d: _Draft) -> bool:
    d.data = d.data[:-1] + rng.choice([b" x", b"{}", b",", b"\x00", b" \t ", b" 1", b"]"]) + b"\n"
    return True


def _bom(rng: random.Random, d: _Draft) -> bool:
    d.data = b"\xef\xbb\xbf" + d.data
    return True


def _invalid_utf8(rng: random.Random, d: _Draft) -> bool:
    at = rng.randrange(len(d.data))
    bad = rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80"])
    d.data = d.data[:at] + bad + d.data[at:]
    return True


def _limit(rng: random.Random, d: _Draft) -> bool:
    body = len(d.data) - 1 if d.data.endswith(b"\n") else len(d.data)
    d.max_line_bytes = max(1, body + rng.randint(-3, 3))
    return True


def _lenient(rng: random.Random, d: _Draft) -> bool:
    d.mode = "lenient"
    return True


BYTE_EDITS: dict[str, tuple[Edit, bool]] = {
    "flip-byte": (_flip_byte, True),
    "truncate": (_truncate, False),
    "trailing-data": (_trailing, False),
    "bom": (_bom, False),
    "invalid-utf8": (_invalid_utf8, False),
    "line-limit": (_limit, False),
    "lenient": (_lenient, False),
}
