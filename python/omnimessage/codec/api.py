"""Byte-exact codec: strict `decode`, canonical `encode`, `canonicalize`.

Decoding has three paths that must agree (the test-suite checks they do); a line takes the first
that accepts it, and a line the fast path turns down goes to the slow path:

* native fast (`omnimessage._accel`, C, when built, current and not disabled by `OMNIMESSAGE_PURE=1`; see
  :mod:`.native`): msgspec's typed decode into the generated structs, then a one-pass check
  that the line is canonical, in a single call. With it, the public `decode` itself is the
  accelerator's C entry (`_accel.entry`): a line of bytes costs that one C call and no Python frame.
* pure fast (:mod:`.fast_path`, when there is no accelerator): msgspec decodes straight into the
  generated structs (types, enums, required and unknown fields, ranges), verbatim values come back
  as `msgspec.Raw` slices of the input, then the message is re-encoded; when that gives back the
  input bytes, the line was canonical, which also proves it had no duplicate keys and no
  non-canonical spelling.
* slow (:mod:`.slow_path`; anything else: non-canonical, invalid, or beyond msgspec's
  recursion): a strict scanner (:mod:`.scan`) that knows every value's position checks what
  JSON Schema cannot see, outside verbatim values only, then `msgspec.convert` checks the
  schema (:mod:`.schema_errors` names its errors in the contract's categories).

Encoding is :mod:`.encoder`. This module holds the public API and the lenient policy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal, cast, overload

import msgspec

from omnimessage._generated.models import Message
from omnimessage.codec import native as _accel_select
from omnimessage.codec import slow_path as _slow_path
from omnimessage.codec.encoder import encode_message
from omnimessage.codec.errors import DecodeError
from omnimessage.codec.fast_path import decode_fast as _decode_fast
from omnimessage.codec.tables import RUNTIME, Tables

__all__ = ["OpaqueMessage", "canonicalize", "decode", "decode_canonical", "encode"]


class OpaqueMessage(msgspec.Struct, frozen=True):
    """A well-formed line that strict decoding refused (lenient mode only).

    It re-encodes to exactly the bytes of its object, from `{` to `}` (schema/README.md section
    5), so relays and forward-compatible readers can pass through messages of a newer protocol
    version untouched.

    Attributes:
        raw: the bytes of the line's object, from its `{` to its `}` (the JSON whitespace
            around it, a CR before the line feed included, is not part of it).
        error: why strict decoding refused it.
    """

    raw: bytes
    error: DecodeError


def encode(msg: Message | OpaqueMessage) -> bytes:
    """The canonical bytes of a message (no trailing line feed).

    Keys in schema order, optional keys only when set, strings escaped and numbers spelled as
    `JSON.stringify` writes them, verbatim values copied byte for byte. An `OpaqueMessage`
    encodes to its original bytes.

    A message is one line: a verbatim value (or an opaque message's bytes) holding a raw line
    feed or carriage return, which only a struct built by hand can hold (decoding and the
    builders refuse them), raises `ValueError` (schema/README.md section 1.5).
    """
    return _encode(msg, RUNTIME)


def _encode(msg: Any, t: Tables) -> bytes:
    """`encode` for the structs `t` reads (`omnimessage.runtime.Codec`)."""
    out: bytes = msg.raw if type(msg) is OpaqueMessage else encode_message(msg, t)
    if b"\n" in out or b"\r" in out:
        raise ValueError(one_line_refusal(out))
    return out


def one_line_refusal(out: bytes) -> str:
    """Why the bytes `out` of a message cannot be written as one line (they hold a raw LF or CR)."""
    lf, cr = out.find(b"\n"), out.find(b"\r")
    at = cr if lf < 0 or 0 <= cr < lf else lf
    name = "line feed (LF)" if out[at] == 0x0A else "carriage return (CR)"
    return (f"a message is one line: its bytes hold a raw {name} at byte {at} "
            "(line_break; a verbatim value built by hand?)")




@overload
def decode(data: bytes | bytearray | memoryview | str, *, lenient: Literal[False] = False) -> Message: ...
@overload
def decode(data: bytes | bytearray | memoryview | str, *, lenient: Literal[True]) -> Message | OpaqueMessage: ...
@overload
def decode(data: bytes | bytearray | memoryview | str, *, lenient: bool) -> Message | OpaqueMessage: ...


def decode(data: bytes | bytearray | memoryview | str, *, lenient: bool = False) -> Message | OpaqueMessage:
    """Decode one line (one trailing line feed allowed) into a message.

    Strict by default: anything the wire contract refuses raises :class:`DecodeError`, and no
    other exception escapes, whatever the input. With `lenient=True`, a well-formed JSON
    object that strict decoding refuses comes back as an :class:`OpaqueMessage`.

    Typed by overloads: strict decoding returns a `Message`; only `lenient=True` (or a `bool`
    not known statically) adds `OpaqueMessage` to the result type.
    """
    if _NATIVE is not None and type(data) is bytes:  # the accelerator's fast path (when `decode` is not its entry)
        fast: Message | None = _NATIVE(data)
        if fast is not None:
            return fast
        refused: Message | OpaqueMessage = _refused(data, lenient)
        return refused
    result: Message | OpaqueMessage = _decode(data, lenient, RUNTIME)
    return result


_NATIVE: Final = RUNTIME.native


def _refused(data: bytes, lenient: bool) -> Any:
    """A line of bytes the fast path turned down: straight to the slow path (a refused line costs one
    fast attempt, not two)."""
    return _decode(data, lenient, RUNTIME, fast_tried=True)


PYTHON_DECODE: Final = decode
"""The `decode` defined here: what the accelerator's C entry stands for (and its tests' oracle)."""

if not TYPE_CHECKING and _accel_select.ENTRY is not None:
    # With the accelerator, the public `decode` is its C entry: the common call (one line of bytes) is one
    # C call, the fast path and no Python frame; it calls `_refused` for a line the fast path turns down,
    # and the `decode` above, as called, for anything else (same results, same errors).
    decode = _accel_select.ENTRY(decode, _refused, __name__,
                                 "decode(data, *, lenient=False)\n--\n\n" + (decode.__doc__ or ""))


def _decode(data: bytes | bytearray | memoryview | str, lenient: bool, t: Tables, *, fast_tried: bool = False) -> Any:
    """`decode` into the structs `t` reads (`omnimessage.runtime.Codec`): the slow path decodes into
    them too (`t.shapes`), so a pinned protocol version's vocabulary is decoded as that version's.
    `fast_tried`: the caller already ran the fast path on these bytes and it said no: go straight
    to the slow path (a refused line costs one fast attempt, not two)."""
    try:
        if type(data) is not bytes:
            data = _as_bytes(data)
        if not fast_tried:
            native = t.native  # the native accelerator's fast path in one call, else the pure one
            msg = native(data) if native is not None else _decode_fast(data, t)
            if msg is not None:
                return msg
        return _decode_slow(data, lenient, t.shapes)
    except (MemoryError, RecursionError):
        pass  # leave the handler first, so that what the failed attempt held is freed
    raise _too_large()


def decode_canonical(data: bytes | bytearray | memoryview | str) -> tuple[Message, bool]:
    """Strict `decode`, and whether the line (less one line feed) is already the canonical
    encoding of the message: known for free when the fast path took it, so callers that need
    both (the validator's OM114) do not encode every line a second time."""
    try:
        if type(data) is not bytes:
            data = _as_bytes(data)
        msg = _decode_fast(data)
        if msg is not None:
            return msg, True
        msg = cast(Message, _decode_slow(data, False))  # strict: never an OpaqueMessage
        return msg, encode(msg) == (data[:-1] if data.endswith(b"\n") else data)
    except (MemoryError, RecursionError):
        pass
    raise _too_large()


def _too_large() -> DecodeError:
    """The limits of this process (memory; the interpreter's recursion, in msgspec) refuse a
    line as `too_large`: only `DecodeError` escapes a decode."""
    return DecodeError("too_large", "line too large to decode in this process's memory", offset=None)


def _as_bytes(data: bytes | bytearray | memoryview | str) -> bytes:
    if isinstance(data, str):
        return data.encode("utf-8", "surrogatepass")
    return data if isinstance(data, bytes) else bytes(data)


def canonicalize(line: bytes | bytearray | memoryview | str, *, lenient: bool = False) -> bytes:
    """The canonical bytes of one line (no trailing line feed); raises :class:`DecodeError`."""
    return encode(decode(line, lenient=lenient))


def _decode_slow(data: bytes, lenient: bool, shapes: _slow_path.Shapes = _slow_path.RUNTIME_SHAPES) -> Any:
    try:
        return _slow_path.decode_slow(data, shapes)
    except _slow_path.Refusal as r:
        if lenient:
            return OpaqueMessage(raw=r.raw, error=r.err)
        raise r.err from None
