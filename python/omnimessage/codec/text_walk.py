"""Positions in a text the strict scanner accepted: where values end, where members and items
start, where a JSON pointer leads. Used only on refusal (to name an offset), never per value."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from omnimessage.codec import scan as _scan


def _byte_offset(text: str, pos: int) -> int:
    return len(text[:pos].encode("utf-8", "surrogatepass"))


_WS_RUN: Final = re.compile(r"[ \t\n\r]*")
_CONTAINER_STOP: Final = re.compile(r'["\[\]{}]')


def _ws(text: str, i: int) -> int:
    return _WS_RUN.match(text, i).end()  # type: ignore[union-attr]


def _value_end(text: str, i: int) -> int:
    """The end of the value starting at `i` of a text the scanner accepted."""
    c = text[i]
    if c == '"':
        return _scan._STR.match(text, i).end()  # type: ignore[union-attr]
    if c == "{" or c == "[":
        depth, j = 0, i
        while True:
            m = _CONTAINER_STOP.search(text, j)
            assert m is not None
            ch, j = m.group(), m.end()
            if ch == '"':
                j = _scan._STR.match(text, m.start()).end()  # type: ignore[union-attr]
            elif ch == "{" or ch == "[":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return j
    if c == "-" or "0" <= c <= "9":
        return _scan._NUM.match(text, i).end()  # type: ignore[union-attr]
    return i + (5 if c == "f" else 4)


def _members(text: str, i: int) -> Iterator[tuple[str, int, int]]:
    """(key, key start, value start) of each member of the object at `i` (an accepted text)."""
    j = _ws(text, i + 1)
    if text[j] == "}":
        return
    scanner = _scan.Scanner(text)
    while True:
        key, _, end = scanner.string(j)
        value_start = _ws(text, _ws(text, end) + 1)
        yield key, j, value_start
        j = _ws(text, _value_end(text, value_start))
        if text[j] == "}":
            return
        j = _ws(text, j + 1)


def _item_start(text: str, i: int, index: int) -> int | None:
    """The start of item `index` of the array at `i` (an accepted text), or None."""
    j = _ws(text, i + 1)
    if text[j] == "]":
        return None
    for _ in range(index):
        j = _ws(text, _value_end(text, j))
        if text[j] == "]":
            return None
        j = _ws(text, j + 1)
    return j


def _node_at(text: str, start: int, pointer: str) -> int | None:
    """The start of the value at `pointer` under the value starting at `start`, found in the
    text (the tree was taken apart while building), or None."""
    at: int | None = start
    for tok in pointer.split("/")[1:]:
        if at is None:
            return None
        c = text[at]
        if c == "{":
            key = tok.replace("~1", "/").replace("~0", "~")
            at = next((v for k, _, v in _members(text, at) if k == key), None)
        elif c == "[" and tok.isascii() and tok.isdigit():
            at = _item_start(text, at, int(tok))
        else:
            return None
    return at
