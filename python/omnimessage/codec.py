"""Byte-exact codec: strict `decode`, canonical `encode`, `canonicalize`.

Decoding has two paths that must agree (the test-suite checks they do):

* fast: msgspec decodes straight into the generated structs (types, enums, required and
  unknown fields, ranges), verbatim values come back as `msgspec.Raw` slices of the input,
  then the message is re-encoded; when that gives back the input bytes, the line was
  canonical, which also proves it had no duplicate keys and no non-canonical spelling.
* slow (anything else: non-canonical, invalid, or beyond msgspec's recursion): a strict
  scanner (:mod:`._scan`) that knows every value's position checks what JSON Schema cannot
  see, outside verbatim values only, then `msgspec.convert` checks the schema.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, Literal, NamedTuple, cast, overload

import msgspec

from . import _scan
from ._generated.models import (
    ENVELOPE_TAGS,
    FRAGMENT_OF,
    MAX_DEPTH,
    MAX_SAFE_INTEGER,
    NUMBER_LOCATIONS,
    PAYLOAD_CLASSES,
    VERBATIM_LOCATIONS,
    Message,
)
from ._write import es_number, write_json
from .errors import DecodeError, clip_repr, escape_pointer_token

__all__ = ["OpaqueMessage", "canonicalize", "decode", "decode_canonical", "encode"]

_decoder: Final = msgspec.json.Decoder(Message)
_encoder: Final = msgspec.json.Encoder()
_enc = _encoder.encode
_TAGS: Final[dict[type, str]] = dict(ENVELOPE_TAGS)
_LF = 0x0A


class _Tables(NamedTuple):
    """What the fast paths read from a generated types module: the runtime's own (`_RUNTIME`), or the
    same tables generated into a user's project (`omnimessage.bind.Codec`)."""

    decoder: msgspec.json.Decoder[Any]
    tags: Mapping[Any, str]  # envelope class -> `type`
    verbatim: Mapping[Any, Any]  # VERBATIM_LOCATIONS
    numbers: Mapping[Any, Any]  # NUMBER_LOCATIONS
    unknown: Callable[[object], TypeError]  # the error for a value `encode` cannot take
    adopt: Callable[[Any], Any] | None  # a slow-path result (the runtime's structs) in these types


def _unknown(msg: object) -> TypeError:
    from .bind import unknown_struct  # a refusal only: the explanation lives with the binding

    return unknown_struct(msg)


_RUNTIME: Final = _Tables(_decoder, _TAGS, VERBATIM_LOCATIONS, NUMBER_LOCATIONS, _unknown, None)


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


# ---------------------------------------------------------------------------
# encode
# ---------------------------------------------------------------------------


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


def _canonical_payload(payload: Any, numbers: Mapping[Any, Any] = NUMBER_LOCATIONS) -> Any:
    """The payload with `number` values that msgspec would spell differently from
    ECMAScript replaced by their ECMAScript spelling (as raw JSON)."""
    paths = numbers.get(type(payload))
    if paths:
        for path in paths:
            payload = _at(payload, path, _spell_number)
    return payload


class _Wire(msgspec.Struct, gc=False):
    """An envelope in canonical member order, for encoding (msgspec writes a tagged struct's
    tag first, so the tagged envelope classes cannot be encoded directly)."""

    timestamp: Any
    type: str
    payload: Any
    origin: Any = msgspec.UNSET


def encode(msg: Message | OpaqueMessage) -> bytes:
    """The canonical bytes of a message (no trailing line feed).

    Keys in schema order, optional keys only when set, strings escaped and numbers spelled as
    `JSON.stringify` writes them, verbatim values copied byte for byte. An `OpaqueMessage`
    encodes to its original bytes.
    """
    return _encode(msg, _RUNTIME)


def _encode(msg: Any, t: _Tables) -> bytes:
    if type(msg) is OpaqueMessage:
        return msg.raw
    tag = t.tags.get(type(msg))
    if tag is None:
        raise t.unknown(msg)
    payload = msg.payload
    if type(payload) in t.numbers:
        payload = _canonical_payload(payload, t.numbers)
    try:
        return _enc(_Wire(msg.timestamp, tag, payload, msg.origin))
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


# ---------------------------------------------------------------------------
# decode
# ---------------------------------------------------------------------------


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
    return cast("Message | OpaqueMessage", _decode(data, lenient, _RUNTIME))


def _decode(data: bytes | bytearray | memoryview | str, lenient: bool, t: _Tables) -> Any:
    try:
        if type(data) is not bytes:
            data = _as_bytes(data)
        msg = _decode_fast(data, t)
        if msg is not None:
            return msg
        slow = _decode_slow(data, lenient)
        return slow if t.adopt is None or type(slow) is OpaqueMessage else t.adopt(slow)
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


def _decode_fast(data: bytes, t: _Tables = _RUNTIME) -> Message | None:
    """The message when msgspec decodes the line and re-encoding it gives back its very bytes;
    `None` when the slow path must decide."""
    try:
        msg = t.decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, MemoryError):
        return None
    # msgspec checked types, enums, required and unknown fields and ranges. What it cannot
    # see (duplicate keys, non-canonical spelling) is settled by re-encoding: equal bytes
    # prove the line canonical; anything else takes the slow path, which decides exactly.
    payload = msg.payload
    ptype = type(payload)
    if ptype in t.verbatim and not _verbatim_shapes_ok(msg, t.verbatim):
        return None
    try:
        if ptype in t.numbers:
            payload = _canonical_payload(payload, t.numbers)
        out = _enc(_Wire(msg.timestamp, t.tags[type(msg)], payload, msg.origin))
    except (UnicodeEncodeError, ValueError):  # a number beyond the double range: the slow path refuses it
        return None
    if out == data or (len(out) + 1 == len(data) and data[-1] == _LF and data.startswith(out)):
        return cast(Message, msg)
    return None


def canonicalize(line: bytes | bytearray | memoryview | str, *, lenient: bool = False) -> bytes:
    """The canonical bytes of one line (no trailing line feed); raises :class:`DecodeError`."""
    return encode(decode(line, lenient=lenient))


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


# --- slow path ---------------------------------------------------------------


class _Refusal(Exception):
    def __init__(self, err: DecodeError) -> None:
        self.err = err


def _byte_offset(text: str, pos: int) -> int:
    return len(text[:pos].encode("utf-8", "surrogatepass"))


def _decode_slow(data: bytes, lenient: bool) -> Message | OpaqueMessage:
    body = data[:-1] if data.endswith(b"\n") else data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError("invalid_utf8", f"invalid UTF-8 ({exc.reason})", offset=exc.start) from None
    try:
        root = _scan.scan(text)
    except _scan.ScanError as exc:
        raise DecodeError(exc.category, exc.detail, offset=_byte_offset(text, exc.pos)) from None
    except RecursionError:  # pragma: no cover - the scanner's depth limit comes first
        raise DecodeError("too_deep", "nesting too deep", offset=None) from None
    if root.kind != _scan.OBJ:
        raise DecodeError("wrong_type", "a message is a JSON object", offset=0)
    try:
        value = _Builder(text, root).build()
        try:
            msg: Message = msgspec.convert(value, Message, strict=True)
        except msgspec.ValidationError as exc:
            raise _Refusal(_schema_error(str(exc), root.start, text)) from None
    except _Refusal as r:
        if lenient:
            # The opaque message is the object, from its `{` to its `}`: the JSON whitespace
            # around it (a CR before the LF included) is not part of it (section 5).
            return OpaqueMessage(raw=body.strip(_JSON_WS), error=r.err)
        raise r.err from None
    return msg


_NO_VERBATIM: Final[dict[tuple[str, ...], str]] = {}
_JSON_WS: Final = b" \t\r\n"
# Outside verbatim values the schema nests a few levels deep; values deeper than this are
# still checked (duplicate keys, surrogates, numbers) but handed to msgspec as `[]`, which
# cannot change where its first schema error is, and keeps its recursion shallow.
_BUILD_DEPTH: Final = 32
_TOKEN: Final = 5  # in a _Builder frame: the key or index being walked


class _Builder:
    """Turns the scanned tree into plain values for `msgspec.convert`, refusing what JSON
    Schema cannot see (outside verbatim values) and cutting verbatim values as raw bytes.

    The tree is taken apart as it is built (each child is dropped from its container once
    entered), so the scanned tree and the built values are not both held whole; an array of
    plain scalars (nothing to check) is handed over as the scanner's own list."""

    def __init__(self, text: str, root: _scan.Node) -> None:
        self.text = text
        self.root = root
        env = root.member("type")
        payload = root.member("payload")
        ptype = payload.member("type") if type(payload) is _scan.Node else None
        env_tag = env if type(env) is str else None
        p_tag = ptype if type(ptype) is str else None
        cls = PAYLOAD_CLASSES.get((env_tag, p_tag))  # type: ignore[arg-type]
        self.verbatim = {path: shape for path, shape in VERBATIM_LOCATIONS.get(cls, ())} if cls else _NO_VERBATIM
        # A streaming partial's fragment field may escape lone surrogates (a pair cut between two
        # deltas); its path from the payload, or None.
        frag = FRAGMENT_OF.get(cls) if cls else None
        self.fragment: tuple[str] | None = (frag[1],) if frag else None
        self.raws: dict[str, msgspec.Raw] = {}  # short verbatim values, interned as `_scan` does strings

    def refuse(
        self, category: str, detail: str, frames: list[list[Any]], pos: int | None, last: str | None = None
    ) -> _Refusal:
        """A refusal at the value the walk is at (`frames`), or at its member `last`: the
        pointer is rendered here, only when refusing (a JSON pointer per value costs the
        depth times the key length: a 100,000-character key over 20,000 items is 2 GB).
        `pos` None: at the value the walk is at, found in the text (plain scalars keep no
        position)."""
        if pos is None:
            pos = self.locate(frames, False)
        tokens = [escape_pointer_token(t) if type(t) is str else str(t) for t in (f[_TOKEN] for f in frames)]
        if last is not None:
            tokens.append(escape_pointer_token(last))
        pointer = "".join("/" + t for t in tokens)
        return _Refusal(DecodeError(category, detail, pointer=pointer, offset=_byte_offset(self.text, pos)))

    def locate(self, frames: list[list[Any]], key: bool) -> int:
        """Where the value the walk is at starts in the text (or its key, with `key`): each
        frame's container is walked to the member or item being built (refusals only)."""
        at = self.root.start
        for n, frame in enumerate(frames):
            if frame[0].kind == _scan.OBJ:
                index = frame[1] // 2 - 1
                for m, (_, key_start, value_start) in enumerate(_members(self.text, at)):
                    if m == index:
                        at = key_start if key and n == len(frames) - 1 else value_start
                        break
            else:
                item = _item_start(self.text, at, frame[1] - 1)
                assert item is not None
                at = item
        return at

    def build(self) -> Any:
        """Walk the tree in document order (an explicit stack of open containers: no recursion).

        Each frame is [node, next member/item, output container or None, rel, depth, token]:
        `rel` is the path from the payload (None outside it), `token` the key or index being
        walked, from which a refusal renders its pointer."""
        frames: list[list[Any]] = []
        value = self.enter(self.root, None, 1, frames)
        while frames:
            frame = frames[-1]
            node, i, out, rel, depth = frame[0], frame[1], frame[2], frame[3], frame[4]
            members = node.value
            if i == len(members):
                frames.pop()
                continue
            if node.kind == _scan.OBJ:  # a member: check its key, then its value
                frame[1] = i + 2
                key = members[i]
                if type(key) is not str:  # a STR node: it escapes a lone surrogate
                    frame[_TOKEN] = key.value
                    raise self.refuse("lone_surrogate", "object key escapes a lone surrogate", frames, key.start)
                frame[_TOKEN] = key
                if key in out:
                    raise self.refuse(
                        "duplicate_key", f"duplicate key {clip_repr(key)}", frames, self.locate(frames, True)
                    )
                out[key] = None
                if rel is None:
                    crel: tuple[str | int, ...] | None = () if len(frames) == 1 and key == "payload" else None
                else:
                    crel = (*rel, key)
                child = members[i + 1]
                members[i + 1] = None  # built from here on: the scanned child is not kept
                out[key] = self.enter(child, crel, depth + 1, frames)
            else:
                frame[1] = i + 1
                frame[_TOKEN] = i
                child = members[i]
                members[i] = None
                v = self.enter(child, None if rel is None else (*rel, i), depth + 1, frames)
                if out is not None:
                    out[i] = v
        return value

    def shape_at(self, rel: tuple[str | int, ...] | None) -> str | None:
        """The verbatim shape this payload keeps at `rel`, or None."""
        if rel is None or not self.verbatim:
            return None
        return self.verbatim.get(tuple("*" if isinstance(p, int) else p for p in rel))

    def enter(self, child: Any, rel: tuple[str | int, ...] | None, depth: int, frames: list[list[Any]]) -> Any:
        """The value of `child` (a node or a plain scalar; a container is filled later: its
        frame is pushed)."""
        if rel is not None and self.verbatim:
            shape = self.shape_at(rel)
            if shape is not None:
                return self.verbatim_value(child, frames, shape)
        if type(child) is not _scan.Node:
            return child  # a plain scalar: nothing to refuse
        node: _scan.Node = child
        kind = node.kind
        if kind == _scan.RAW:  # not verbatim in this payload after all: build it
            _scan.expand(self.text, node, len(frames))
            kind = node.kind
        if kind == _scan.OBJ:
            # Below the schema's depth nothing can validate: keep checking, stop building
            # (the dict only holds the keys seen, to find duplicates).
            d: dict[str, Any] = {}
            frames.append([node, 0, d, rel, depth, None])
            return d if depth <= _BUILD_DEPTH else []
        if kind == _scan.ARR:
            members: list[Any] = node.value  # type: ignore[assignment]
            if (rel is None or self.shape_at((*rel, 0)) is None) and not any(type(m) is _scan.Node for m in members):
                return members if depth <= _BUILD_DEPTH else []  # plain scalars: nothing to refuse
            items: list[Any] | None = [None] * len(members) if depth <= _BUILD_DEPTH else None
            frames.append([node, 0, items, rel, depth, None])
            return items if items is not None else []
        if kind == _scan.STR:  # one that escapes a lone surrogate
            if self.fragment is None or rel != self.fragment:
                raise self.refuse("lone_surrogate", "string escapes a lone surrogate", frames, node.start)
            return node.value
        if kind == _scan.NUM:  # one beyond the double range
            spelling: str = node.value  # type: ignore[assignment]
            raise self.refuse(
                "invalid_number",
                f"{spelling[:40]}... is beyond the IEEE 754 double range"
                if len(spelling) > 40
                else f"{spelling} is beyond the IEEE 754 double range",
                frames,
                node.start,
            )
        return node.value

    def verbatim_value(self, child: Any, frames: list[list[Any]], shape: str) -> msgspec.Raw:
        if type(child) is not _scan.Node or (child.kind != _scan.RAW and child.kind != _scan.OBJ):
            raise self.refuse("wrong_type", "a verbatim value here must be a JSON object", frames, None)
        node: _scan.Node = child
        start, end = node.start, node.end
        if start < 0:  # an object, not a RAW value: where it is is found in the text
            start = self.locate(frames, False)
            end = _value_end(self.text, start)
        if shape == "scalar_map":
            bad: tuple[str, int] | None = None
            if node.kind == _scan.RAW:
                bad = node.value  # type: ignore[assignment]  # (key, start) of the first member that is not a scalar, or None
            else:
                members: list[Any] = node.value  # type: ignore[assignment]
                for j in range(0, len(members), 2):
                    v = members[j + 1]
                    k = _scan.kind_of(v)
                    if k != _scan.STR and k != _scan.NUM and not (k == _scan.LIT and v is not None):
                        name = members[j] if type(members[j]) is str else members[j].value
                        at = next(vs for m, (_, _, vs) in enumerate(_members(self.text, start)) if m == j // 2)
                        bad = (name, at)
                        break
            if bad is not None:
                key, at = bad
                raise self.refuse("wrong_type", "values here must be strings, numbers or booleans", frames, at, key)
        span = self.text[start:end]
        if len(span) > _scan.INTERN_LEN:
            return msgspec.Raw(span.encode("utf-8"))
        raw = self.raws.get(span)  # many small verbatim values (`{}`) share one
        if raw is None:
            raw = msgspec.Raw(span.encode("utf-8"))
            if len(self.raws) < _scan.INTERN_CAP:
                self.raws[span] = raw
        return raw


# --- msgspec validation messages -> categories ----------------------------------

_PATH = re.compile(r"(.*) - at `(\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)`", re.S)
_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def _pointer(path: str) -> str:
    return "".join("/" + (m.group(1) or m.group(2)) for m in _PATH_PART.finditer(path[1:]))


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


# msgspec.convert names Python types where msgspec.json names JSON ones: speak JSON.
_JSON_NAMES = (("`list`", "`array`"), ("`dict`", "`object`"), ("`NoneType`", "`null`"))


def _schema_error(message: str, root_start: int, text: str) -> DecodeError:
    for py, js in _JSON_NAMES:
        message = message.replace(py, js)
    m = _PATH.fullmatch(message)
    what, pointer = (m.group(1), _pointer(m.group(2))) if m else (message, "")
    at = _node_at(text, root_start, pointer)
    offset = None if at is None else _byte_offset(text, at)
    first = "" if at is None else text[at]
    string: str | None = _scan.Scanner(text).string(at)[0] if at is not None and first == '"' else None
    numeric = at is not None and (first == "-" or "0" <= first <= "9")
    spelling: str | None = text[at : _value_end(text, at)] if at is not None and numeric else None
    if what.startswith("Object missing required field `"):
        field = what[len("Object missing required field `") : -1]
        return DecodeError(
            "missing_field", f"required key {field!r} is missing", pointer=f"{pointer}/{field}", offset=offset
        )
    if what.startswith("Object contains unknown field `"):
        field = what[len("Object contains unknown field `") : -1]
        ptr = f"{pointer}/{escape_pointer_token(field)}"
        off = offset
        if at is not None and first == "{":
            for k, k_start, _ in _members(text, at):
                if k == field:
                    off = _byte_offset(text, k_start)
                    break
        return DecodeError("unexpected_field", f"key {clip_repr(field)} is not defined here", pointer=ptr, offset=off)
    # msgspec quotes the whole value: quote it ourselves, cut (a 100 MB value makes a short detail)
    shown = clip_repr(string) if string is not None else None
    if what.startswith("Invalid value ") and pointer.endswith("/type"):
        return DecodeError(
            "unknown_type", f"unknown type {shown or what[len('Invalid value ') :]}", pointer=pointer, offset=offset
        )
    if what.startswith("Invalid enum value"):
        return DecodeError(
            "invalid_value",
            (shown or what[len("Invalid enum value ") :]) + " is not allowed here",
            pointer=pointer,
            offset=offset,
        )
    if what.startswith("Expected `int`, got `float`") and spelling is not None:
        if float(spelling).is_integer():
            return DecodeError(
                "invalid_number",
                f"integer written as {clip_repr(spelling)}: integers take no fraction or exponent",
                pointer=pointer,
                offset=offset,
            )
        return DecodeError(
            "wrong_type", f"expected an integer, got {clip_repr(spelling)}", pointer=pointer, offset=offset
        )
    if what.startswith("Expected `") and ", got `" in what:
        return DecodeError("wrong_type", what[0].lower() + what[1:], pointer=pointer, offset=offset)
    if what.startswith("Expected `") and (" of length " in what or " >= " in what or " <= " in what):
        return DecodeError("invalid_value", what[0].lower() + what[1:], pointer=pointer, offset=offset)
    if what.startswith("Expected `"):
        return DecodeError("wrong_type", what[0].lower() + what[1:], pointer=pointer, offset=offset)
    if "out of range" in what:
        return DecodeError("invalid_value", what, pointer=pointer, offset=offset)
    return DecodeError("invalid_value", what, pointer=pointer, offset=offset)  # pragma: no cover
