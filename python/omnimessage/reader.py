"""Streaming JSON Lines reading: every line decoded or reported, memory flat."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO, Generic, Literal, overload

from msgspec import Struct

from omnimessage.codec.api import OpaqueMessage, decode
from omnimessage.codec.errors import DecodeError

from ._generated.models import DEFAULT_MAX_LINE_BYTES, Message

__all__ = ["TORN_CATEGORIES", "Line", "iter_lines", "iter_messages"]

_CHUNK = 1 << 20
TORN_CATEGORIES: frozenset[str] = frozenset({"invalid_json", "invalid_utf8"})
"""An unterminated last line refused with one of these does not even parse: a torn write
(`truncated`). Any other refusal of a complete last line keeps its category."""


if TYPE_CHECKING:  # a default for the type parameter (typing.TypeVar takes one from Python 3.13 on)
    from typing_extensions import TypeVar

    M = TypeVar("M", bound=Message | OpaqueMessage, covariant=True, default=Message | OpaqueMessage)
else:
    from typing import TypeVar

    M = TypeVar("M", bound=Message | OpaqueMessage, covariant=True)


class Line(Struct, Generic[M], frozen=True):
    """One line of a JSON Lines input.

    Exactly one of `message` and `error` is set. `raw` is the line without its line feed
    (empty for a line refused as `too_large`, which is not kept in memory). `terminated`
    is false for a last line with no line feed.

    Generic in the message type for type checkers: strict reading yields `Line[Message]`,
    lenient reading `Line[Message | OpaqueMessage]` (what a bare `Line` means).

    Immutable, compared and hashed by its fields, matched by position (`case Line(number, raw,
    message, error)`); a frozen `msgspec.Struct`, which costs a tenth of a frozen dataclass per
    line (`msgspec.structs.replace` makes a changed copy).
    """

    number: int
    raw: bytes
    message: M | None
    error: DecodeError | None
    terminated: bool = True


def iter_lines(
    fh: BinaryIO, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[tuple[int, bytes | None, bool]]:
    """Yield (line number, bytes without LF or None when longer than the limit, terminated)."""
    number = 0
    while True:
        chunk = fh.readline(max_line_bytes + 1)
        if not chunk:
            return
        number += 1
        if len(chunk) > max_line_bytes and not chunk.endswith(b"\n"):
            # Too long: skip to the end of this line without keeping it.
            terminated = False
            while True:
                rest = fh.readline(_CHUNK)
                if not rest:
                    break
                if rest.endswith(b"\n"):
                    terminated = True
                    break
            yield number, None, terminated
            if not terminated:
                return
            continue
        if chunk.endswith(b"\n"):
            yield number, chunk[:-1], True
        else:
            # The end of the input, as it stands: a file being appended to may grow, and reading on
            # would return the rest of this line as a line of its own. The unterminated line is the last.
            yield number, chunk, False
            return


@overload
def iter_messages(
    source: str | os.PathLike[str] | BinaryIO,
    *,
    lenient: Literal[False] = False,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[Line[Message]]: ...
@overload
def iter_messages(
    source: str | os.PathLike[str] | BinaryIO,
    *,
    lenient: Literal[True],
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[Line[Message | OpaqueMessage]]: ...
@overload
def iter_messages(
    source: str | os.PathLike[str] | BinaryIO,
    *,
    lenient: bool,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[Line[Message | OpaqueMessage]]: ...


def iter_messages(
    source: str | os.PathLike[str] | BinaryIO,
    *,
    lenient: bool = False,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
) -> Iterator[Line[Message | OpaqueMessage]]:
    """Decode a JSON Lines file or binary stream line by line.

    Never stops early: each line yields a :class:`Line` holding its message or its
    :class:`DecodeError` (with `.line` set). A last line with no line feed that does not
    parse (a torn write) is reported as `truncated`; a complete but invalid one keeps its
    own category. Memory is bounded by the longest line kept (at most `max_line_bytes`).
    Typed by overloads: strict reading yields `Line[Message]`, `lenient=True` adds
    `OpaqueMessage` to `Line.message`.
    """
    if isinstance(source, (str, os.PathLike)):
        if os.path.isdir(source):  # a trace root: its sessions are read by omnimessage.traces
            import errno

            raise IsADirectoryError(
                errno.EISDIR, "a directory, not a JSON Lines file: read a trace root's sessions (their files in "
                "rotation order) with omnimessage.traces.iter_sessions(root)", os.fspath(source))
        with open(source, "rb") as fh:
            yield from iter_messages(fh, lenient=lenient, max_line_bytes=max_line_bytes)
        return
    for number, raw, terminated in iter_lines(source, max_line_bytes=max_line_bytes):
        if raw is None:
            err = DecodeError("too_large", f"line longer than {max_line_bytes} bytes", line=number)
            yield Line(number, b"", None, err, terminated)
            continue
        try:
            msg = decode(raw, lenient=lenient)
        except DecodeError as exc:
            if not terminated and exc.category in TORN_CATEGORIES:
                exc = DecodeError(
                    "truncated",
                    f"last line has no line feed and does not decode ({exc.category}: {exc.detail})",
                    pointer=exc.pointer,
                    offset=exc.offset,
                )
            exc.line = number
            yield Line(number, raw, None, exc, terminated)
            continue
        yield Line(number, raw, msg, None, terminated)
