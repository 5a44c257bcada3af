"""The fast path of decoding: msgspec decodes into the generated structs, and re-encoding
gives back the input bytes when the line was canonical (which also proves it had no duplicate
keys and no non-canonical spelling). `None` whenever the slow path must decide."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

import msgspec

from omnimessage._generated.models import MAX_DEPTH, VERBATIM_LOCATIONS, Message
from omnimessage.codec.encoder import ENC, Wire, canonical_payload
from omnimessage.codec.tables import RUNTIME, Tables

_LF = 0x0A


def decode_fast(data: bytes, t: Tables = RUNTIME) -> Message | None:
    """The message (of the structs `t` reads) when msgspec decodes the line and re-encoding it
    gives back its very bytes; `None` when the slow path must decide."""
    native = t.native
    if native is not None:  # the same, in one call: msgspec's typed decode, then the one-pass proof
        return cast("Message | None", native(data))
    try:
        msg = t.decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, MemoryError):
        return None
    # msgspec checked types, enums, required and unknown fields and ranges. What it cannot
    # see (duplicate keys, non-canonical spelling) is settled by re-encoding (or, above, by the
    # native verifier): equal bytes prove the line canonical; anything else takes the slow path,
    # which decides exactly.
    payload = msg.payload
    ptype = type(payload)
    if ptype in t.verbatim and not _verbatim_shapes_ok(msg, t.verbatim):
        return None
    try:
        if ptype in t.numbers:
            payload = canonical_payload(payload, t.numbers)
        out = ENC(Wire(msg.timestamp, t.tags[type(msg)], payload, msg.origin))
    except (UnicodeEncodeError, ValueError):  # a number beyond the double range: the slow path refuses it
        return None
    if out == data or (len(out) + 1 == len(data) and data[-1] == _LF and data.startswith(out)):
        return cast(Message, msg)
    return None




# Outside verbatim values a schema-valid message nests at most this deep (envelope, payload,
# tools, tool, parameters), so a verbatim value with fewer brackets than the rest of the
# budget cannot exceed MAX_DEPTH; one that might is settled by the slow path.
_VERBATIM_DEPTH_BUDGET: Final = MAX_DEPTH - 5


def _verbatim_shapes_ok(msg: Any, verbatim: Mapping[Any, Any] = VERBATIM_LOCATIONS) -> bool:
    """Fast-path check of verbatim values: UTF-8, what the schema says (objects, scalar
    maps) and depth; anything doubtful goes to the slow path, which decides exactly."""
    locs = verbatim.get(type(msg.payload))
    if locs is None:
        return True
    for path, shape in locs:
        for raw in _values_at(msg.payload, path):
            data = bytes(raw)
            if not data or data[0] != 0x7B:  # "{"
                return False
            if b"\n" in data or b"\r" in data:  # a message is one line: the slow path refuses it (`line_break`)
                return False
            if not data.isascii():  # msgspec skips verbatim values without checking UTF-8
                try:
                    data.decode("utf-8")
                except UnicodeDecodeError:
                    return False
            if len(data) > _VERBATIM_DEPTH_BUDGET and data.count(b"{") + data.count(b"[") > _VERBATIM_DEPTH_BUDGET:
                return False
            if shape == "scalar_map":
                try:
                    msgspec.json.decode(raw, type=dict[str, str | int | float | bool])
                except (msgspec.DecodeError, msgspec.ValidationError):
                    return False
    return True


def _values_at(obj: Any, path: tuple[str, ...]) -> list[Any]:
    if obj is msgspec.UNSET:
        return []
    if not path:
        return [obj]
    head, rest = path[0], path[1:]
    if head == "*":
        return [v for item in obj for v in _values_at(item, rest)]
    return _values_at(getattr(obj, head), rest)
