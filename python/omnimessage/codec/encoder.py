"""Canonical encoding of a message: schema order, ECMAScript spellings, verbatim values as is.

msgspec writes the envelope (through `Wire`, in canonical member order); `number` values it
would spell differently from `JSON.stringify` are given their ECMAScript spelling first, and a
string holding a lone surrogate (which UTF-8 cannot carry raw) takes the writer of `.write`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import msgspec

from omnimessage._generated.models import MAX_SAFE_INTEGER, NUMBER_LOCATIONS
from omnimessage.codec.tables import RUNTIME, Tables
from omnimessage.codec.write import es_number, write_json

_encoder: Final = msgspec.json.Encoder()
ENC: Final = _encoder.encode

def _at(obj: Any, path: tuple[str, ...], fn: Callable[[Any], Any]) -> Any:
    """`obj` with `fn` applied to the values at `path` (`*`: every list item); copies only
    what changes, returns `obj` itself when nothing does."""
    if not path:
        return fn(obj)
    head, rest = path[0], path[1:]
    if head == "*":
        items = [_at(item, rest, fn) for item in obj]
        return obj if all(a is b for a, b in zip(items, obj, strict=True)) else items
    value = getattr(obj, head)
    if value is msgspec.UNSET:
        return obj
    new = _at(value, rest, fn)
    return obj if new is value else msgspec.structs.replace(obj, **{head: new})


def _spell_number(v: Any) -> Any:
    if type(v) is float or (type(v) is int and abs(v) > MAX_SAFE_INTEGER):
        return msgspec.Raw(es_number(v).encode())
    return v


def canonical_payload(payload: Any, numbers: Mapping[Any, Any] = NUMBER_LOCATIONS) -> Any:
    """The payload with `number` values that msgspec would spell differently from
    ECMAScript replaced by their ECMAScript spelling (as raw JSON)."""
    paths = numbers.get(type(payload))
    if paths:
        for path in paths:
            payload = _at(payload, path, _spell_number)
    return payload


class Wire(msgspec.Struct, gc=False):
    """An envelope in canonical member order, for encoding (msgspec writes a tagged struct's
    tag first, so the tagged envelope classes cannot be encoded directly)."""

    timestamp: Any
    type: str
    payload: Any
    origin: Any = msgspec.UNSET


def encode_message(msg: Any, t: Tables = RUNTIME) -> bytes:
    """The canonical bytes of a (typed) message of the structs `t` reads, no trailing line feed;
    a `TypeError` saying what to pass for anything else."""
    tag = t.tags.get(type(msg))
    if tag is None:
        raise t.unknown(msg)
    payload = msg.payload
    if type(payload) in t.numbers:
        payload = canonical_payload(payload, t.numbers)
    try:
        return ENC(Wire(msg.timestamp, tag, payload, msg.origin))
    except UnicodeEncodeError:
        # A string holds a lone surrogate (a partial's fragment field cut mid-pair, or a message
        # built in Python): JSON.stringify writes it as a \udXXX escape, which UTF-8 cannot carry raw.
        return _encode_slow(msg, payload, tag)


def _encode_slow(msg: Any, payload: Any, tag: str) -> bytes:
    parts = ['{"timestamp":', write_json(msg.timestamp), ',"type":"', tag, '","payload":']
    parts.append(write_json(payload))
    if msg.origin is not msgspec.UNSET:
        parts += [',"origin":', write_json(msg.origin)]
    parts.append("}")
    return "".join(parts).encode("utf-8")
