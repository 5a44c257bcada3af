"""The slow path of decoding: the strict scanner (`.scan`) knows every value's position; the
builder refuses what JSON Schema cannot see (outside verbatim values), cuts verbatim values as
raw bytes, then `msgspec.convert` checks the schema. A refusal of a well-formed object is a
`Refusal` (lenient decoding keeps the object as an opaque message); a grammar error is a
`DecodeError` straight away."""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

import msgspec

from omnimessage._generated.models import FRAGMENT_OF, PAYLOAD_CLASSES, VERBATIM_LOCATIONS, Message
from omnimessage.codec import scan as _scan
from omnimessage.codec.errors import DecodeError, clip_repr, escape_pointer_token
from omnimessage.codec.schema_errors import schema_error
from omnimessage.codec.text_walk import _byte_offset, _item_start, _members, _value_end


class Shapes(NamedTuple):
    """What the slow path reads from a generated types module: its `Message` (what
    `msgspec.convert` checks against), `PAYLOAD_CLASSES`, `VERBATIM_LOCATIONS` and `FRAGMENT_OF`.
    The runtime's own (`RUNTIME_SHAPES`), or a bound package's (a pinned protocol version's
    structs decode that version's vocabulary)."""

    message: Any
    payload_classes: Any
    verbatim: Any
    fragment_of: Any


RUNTIME_SHAPES: Final = Shapes(Message, PAYLOAD_CLASSES, VERBATIM_LOCATIONS, FRAGMENT_OF)


class Refusal(Exception):
    """Strict decoding refused a well-formed JSON object: `err` says why, `raw` is the object
    from its `{` to its `}` (what a lenient decode keeps)."""

    def __init__(self, err: DecodeError, raw: bytes = b"") -> None:
        self.err = err
        self.raw = raw


def decode_slow(data: bytes, shapes: Shapes = RUNTIME_SHAPES) -> Any:
    """Decode a line strictly into the structs of `shapes`; raises `DecodeError` (grammar, UTF-8,
    not an object) or `Refusal`."""
    body = data[:-1] if data.endswith(b"\n") else data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError("invalid_utf8", f"invalid UTF-8 ({exc.reason})", offset=exc.start) from None
    at = line_break_at(body)
    if at is not None:
        raise DecodeError("line_break", f"raw {_BREAK_NAMES[body[at]]} inside the message", offset=at)
    try:
        root = _scan.scan(text)
    except _scan.ScanError as exc:
        raise DecodeError(exc.category, exc.detail, offset=_byte_offset(text, exc.pos)) from None
    except RecursionError:  # pragma: no cover - the scanner's depth limit comes first
        raise DecodeError("too_deep", "nesting too deep", offset=None) from None
    if root.kind != _scan.OBJ:
        raise DecodeError("wrong_type", "a message is a JSON object", offset=0)
    try:
        value = _Builder(text, root, shapes).build()
        try:
            msg = msgspec.convert(value, shapes.message, strict=True)
        except msgspec.ValidationError as exc:
            raise Refusal(schema_error(str(exc), root.start, text)) from None
    except Refusal as r:
        # The opaque message is the object, from its `{` to its `}`: the JSON whitespace
        # around it (a CR before the LF included) is not part of it (section 5).
        r.raw = body.strip(_JSON_WS)
        raise
    return msg


def line_break_at(body: bytes) -> int | None:
    """Where the first raw LF or CR of a line (less its terminating LF) is, when it comes before
    the JSON whitespace that ends the line: inside the message (section 1.5, `line_break`)."""
    lf = body.find(b"\n")
    cr = body.find(b"\r")
    if lf < 0 and cr < 0:
        return None
    at = cr if lf < 0 or 0 <= cr < lf else lf
    return None if _WS_TO_END.match(body, at) else at


_WS_TO_END: Final = re.compile(rb"[ \t\r\n]*\Z")
_BREAK_NAMES: Final = {0x0A: "line feed (LF)", 0x0D: "carriage return (CR)"}
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

    def __init__(self, text: str, root: _scan.Node, shapes: Shapes = RUNTIME_SHAPES) -> None:
        self.text = text
        self.root = root
        env = root.member("type")
        payload = root.member("payload")
        ptype = payload.member("type") if type(payload) is _scan.Node else None
        env_tag = env if type(env) is str else None
        p_tag = ptype if type(ptype) is str else None
        cls = shapes.payload_classes.get((env_tag, p_tag))
        self.verbatim = {path: shape for path, shape in shapes.verbatim.get(cls, ())} if cls else _NO_VERBATIM
        # A streaming partial's fragment field may escape lone surrogates (a pair cut between two
        # deltas); its path from the payload, or None.
        frag = shapes.fragment_of.get(cls) if cls else None
        self.fragment: tuple[str] | None = (frag[1],) if frag else None
        self.raws: dict[str, msgspec.Raw] = {}  # short verbatim values, interned as `.scan` does strings

    def refuse(
        self, category: str, detail: str, frames: list[list[Any]], pos: int | None, last: str | None = None
    ) -> Refusal:
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
        return Refusal(DecodeError(category, detail, pointer=pointer, offset=_byte_offset(self.text, pos)))

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
