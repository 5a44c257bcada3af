"""Rewriting a decoded message in place: the tools the mutants make their mistakes with."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from omnimessage._generated.models import FRAGMENT_OF, NUMBER_LOCATIONS, VERBATIM_LOCATIONS, Message
from omnimessage.codec.api import OpaqueMessage

__all__ = [
    "LONE_SURROGATE",
    "MAX_SAFE",
    "fragment",
    "map_numbers",
    "map_path",
    "map_verbatim",
    "tokens_outside_strings",
    "with_payload",
]

MAX_SAFE = 2**53 - 1
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\s+', re.S)


def map_path(obj: Any, path: tuple[str, ...], fn: Callable[[Any], Any]) -> Any:
    """`obj` with `fn` applied to the values at `path` (`*`: every list item)."""
    if obj is msgspec.UNSET:
        return obj
    if not path:
        return fn(obj)
    head, rest = path[0], path[1:]
    if head == "*":
        return [map_path(x, rest, fn) for x in obj]
    value = getattr(obj, head)
    if value is msgspec.UNSET:
        return obj
    return msgspec.structs.replace(obj, **{head: map_path(value, rest, fn)})


def with_payload(msg: Message, payload: Any) -> Message:
    return msgspec.structs.replace(msg, payload=payload)


def map_verbatim(msg: Message | OpaqueMessage, fn: Callable[[bytes], bytes]) -> Message | OpaqueMessage:
    if isinstance(msg, OpaqueMessage):
        return msg
    payload = msg.payload
    for path, _shape in VERBATIM_LOCATIONS.get(type(payload), ()):
        payload = map_path(payload, path, lambda raw: msgspec.Raw(fn(bytes(raw))))
    return with_payload(msg, payload)


def map_numbers(msg: Message | OpaqueMessage, fn: Callable[[Any], Any]) -> Message | OpaqueMessage:
    if isinstance(msg, OpaqueMessage):
        return msg
    payload = msg.payload
    for path in NUMBER_LOCATIONS.get(type(payload), ()):
        payload = map_path(payload, path, fn)
    return with_payload(msg, payload)


def tokens_outside_strings(raw: bytes, fn: Callable[[bytes], bytes]) -> bytes:
    """Apply `fn` to every number and whitespace token of a JSON text (strings untouched)."""
    return _TOKEN.sub(lambda m: m.group(0) if m.group(0).startswith(b'"') else fn(m.group(0)), raw)


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def fragment(msg: Message | OpaqueMessage) -> tuple[str, str] | None:
    """(fragment field, its string) of a streaming partial, else None."""
    if isinstance(msg, OpaqueMessage):
        return None
    frag = FRAGMENT_OF.get(type(msg.payload))
    return None if frag is None else (frag[1], getattr(msg.payload, frag[1]))
