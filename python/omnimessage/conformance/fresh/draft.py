"""A case being built, and the walks the edits use to pick what to change."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .tree import _J


@dataclass
class _Draft:
    """A case being built: the tree, then (once written) the bytes, and the request's settings."""

    tree: _J
    data: bytes = b""
    mode: str = "strict"
    max_line_bytes: int | None = None
    odd: bool = False
    edits: list[str] = field(default_factory=list)


def _walk(v: _J, depth: int = 0) -> Iterable[tuple[_J, int]]:
    yield v, depth
    if v.kind in ("obj", "arr"):
        for c in v.children():
            yield from _walk(c, depth + 1)


def _objects(d: _Draft) -> list[_J]:
    return [v for v, _ in _walk(d.tree) if v.kind == "obj"]


def _values(d: _Draft) -> list[_J]:
    return [v for v, _ in _walk(d.tree) if v is not d.tree]


def _become(v: _J, other: _J) -> None:
    v.kind, v.members, v.items, v.text, v.key_spellings = other.kind, other.members, other.items, other.text, {}


Edit = Callable[[random.Random, _Draft], bool]
"""An edit changes a draft (its tree before it is written, or its bytes after); False: it did not apply."""
