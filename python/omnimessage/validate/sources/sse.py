"""Server-sent events: framing per the HTML spec, validation of the OmniMessages they carry.

The parser works on bytes so that the messages reach the codec untouched (a client decodes the
stream as UTF-8 with replacement; a validator must see invalid bytes). Lines end with CR LF, LF
or CR; a line starting with `:` is a comment (heartbeats); `data:` lines are joined with LF;
an empty line dispatches the event; an event with no data is not dispatched; an unterminated
event at the end of the input is discarded.

A live stream (`live.LiveStream`) adds two marks between its chunks: `Mark.CUT`, a new connection
(what was left of a line or an event torn by the cut is dropped; the stream goes on, judged as one,
the server replaying from `Last-Event-ID`), and `Mark.UNKNOWN_PAST`, the stream starts mid-session
(the rules then judge only what such a stream proves: `Context.unknown_past`). A `resync_required`
is a gap, so what came before it is unknown too. Findings about an event's message name the event
id (the last one seen, as a client's `lastEventId`) after the line number.
"""

from __future__ import annotations

import enum
import re
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, Final

import msgspec

from omnimessage.consume.request import MAX_HEADERS, check_header, redacted
from omnimessage.text.sanitize import clip_text
from omnimessage.validate.engine.feed import Cite, Item, Step, UnitResult, play
from omnimessage.validate.engine.rules import RULES
from omnimessage.validate.engine.state import MAX_SERVER_EVENT_TYPES
from omnimessage.validate.engine.validator import Finding, Validator

__all__ = [
    "MAX_HEADERS", "MAX_NOTED_LINES", "MAX_SERVER_EVENT_TYPES", "Mark", "SseEvent", "SseResult", "check_header",
    "check_sse_url", "iter_events", "iter_lines_bytes", "parse_header", "redacted", "sse_items", "validate_sse",
]

_ID: Final = re.compile(rb"([\x21-\x7e]{1,64})-([0-9]{1,19})\Z")
"""`<epoch>-<seq>`: an opaque epoch (printable ASCII, no spaces; the reference server takes 8 hex
characters of a random UUID), then a decimal sequence number. The epoch may itself hold `-`: the
sequence is what follows the last one."""
_BOM: Final = b"\xef\xbb\xbf"
MAX_NOTED_LINES: Final = 11
"""How many line numbers of resyncs and epoch changes a result keeps (the report names ten, then `...`)."""


class Mark(enum.Enum):
    """What a live stream says between its chunks (see the module's documentation)."""

    CUT = "cut"
    UNKNOWN_PAST = "unknown_past"


@dataclass(slots=True)
class SseEvent:
    """One dispatched event: its name (`message` when it has none), its data joined, where it was."""

    line: int
    """Line number of the event's first field line."""
    name: str
    data: bytes
    data_line: int
    """Line number of the first `data:` line."""
    data_lines: int
    id: bytes | None
    """The event's own `id:` field (None when it has none)."""
    id_line: int
    oversized: bool = False
    """The event's data went beyond the line limit: it was dropped, not kept."""


@dataclass(slots=True)
class SseResult:
    """What a stream held beside OmniMessages: server_events by type, resyncs, epochs, a torn end."""

    torn: int = 0
    """Line of an event left unterminated at the end of the input (0: none)."""
    server_events: Counter[str] = field(default_factory=Counter)
    events: int = 0
    resyncs: list[int] = field(default_factory=list)
    """Lines of `resync_required` server events (the streaming state was reset there; the first
    `MAX_NOTED_LINES`)."""
    other_kinds: int = 0
    """`server_event`s of types beyond `MAX_SERVER_EVENT_TYPES` (counted as `<other>`)."""
    other_protocol: int = 0
    """Unnamed events of the AMSP `/v1` stream (OM907), not decoded as OmniMessages."""
    epochs: list[int] = field(default_factory=list)
    """Lines of event ids whose epoch differs from the previous id's: a new channel (server restart or
    channel recreated), where the streaming state was reset as for a resync (the first `MAX_NOTED_LINES`)."""
    cuts: list[int] = field(default_factory=list)
    """Lines where a live stream's new connection started (the first `MAX_NOTED_LINES`)."""
    cut_count: int = 0
    midstream: bool = False
    """The stream started mid-session (`Mark.UNKNOWN_PAST`)."""
    lines: int = 0
    """Lines given to the validator (events carrying an OmniMessage, or one too large to keep)."""


def iter_lines_bytes(chunks: Iterable[bytes | Mark], max_line_bytes: int) -> Iterator[bytes | Mark | None]:
    """Split a byte stream into lines at CR LF, LF or CR (None: a line over the limit, skipped).

    Memory is bounded by the limit: the pieces of a line beyond it are dropped as they come. A mark
    passes through; at `Mark.CUT` a line left unfinished is dropped.
    """
    parts: list[bytes] = []
    size = 0
    skipping = False
    pending_cr = False
    for chunk in chunks:
        if isinstance(chunk, Mark):
            if chunk is Mark.CUT:
                parts, size, skipping, pending_cr = [], 0, False, False
            yield chunk
            continue
        if pending_cr and chunk:
            pending_cr = False
            if chunk[:1] == b"\n":
                chunk = chunk[1:]
        start = 0
        n = len(chunk)
        lf = chunk.find(b"\n")
        while start < n:
            if 0 <= lf < start:  # the next LF, searched for once per LF: bare-CR lines stay linear
                lf = chunk.find(b"\n", start)
            cr = chunk.find(b"\r", start, lf if lf >= 0 else n)
            if cr >= 0:
                end, nxt = cr, cr + 1
                if nxt < n and chunk[nxt] == 0x0A:
                    nxt += 1
                elif nxt == n:
                    pending_cr = True
            elif lf >= 0:
                end, nxt = lf, lf + 1
            else:
                if not skipping:
                    parts.append(chunk[start:])
                    size += n - start
                    if size > max_line_bytes:
                        skipping, parts, size = True, [], 0
                break
            if skipping:
                skipping = False
                yield None
            else:
                piece = chunk[start:end]
                if parts:
                    parts.append(piece)
                    piece = b"".join(parts)
                    parts, size = [], 0
                yield None if len(piece) > max_line_bytes else piece
            start = nxt
    if skipping:
        yield None
    elif parts:
        yield b"".join(parts)


def iter_events(
    lines: Iterable[bytes | Mark | None],
    result: SseResult,
    *,
    torn_ok: bool = False,
    on_line: Callable[[int], None] | None = None,
    max_bytes: int | None = None,
) -> Iterator[SseEvent | Mark]:
    """Parse SSE lines into events (HTML spec section 9.2.6).

    An event's data is held in one byte buffer (its `data:` values, each followed by LF), so what it
    costs in memory is what it holds: `max_bytes` caps that buffer in bytes, whatever the number of
    `data:` lines (a list of one object per line cost about 7 times the input). An event whose data
    grows beyond `max_bytes` (or holds a line the splitter dropped as too long) is kept without its
    data and flagged `oversized`, so memory stays bounded by `max_bytes` plus one line (twice
    `max_bytes` for the moment a full buffer is handed on as the event's bytes).
    """
    number = 0
    name = b""
    data = bytearray()
    data_lines = 0
    oversized = False
    ev_line = 0
    data_line = 0
    ev_id: bytes | None = None
    id_line = 0
    first = 1  # the number of a stream's first line (a BOM may start it)
    for raw in lines:
        if isinstance(raw, Mark):
            if raw is Mark.CUT:  # a new connection: the event the cut tore is dropped
                name, oversized, ev_line, data_line, ev_id, id_line = b"", False, 0, 0, None, 0
                data, data_lines = bytearray(), 0
                first = number + 1
                result.cut_count += 1
                if len(result.cuts) < MAX_NOTED_LINES:
                    result.cuts.append(first)
            yield raw
            continue
        number += 1
        if on_line is not None:
            on_line(number)
        if raw is None:  # a line beyond the limit: its event loses its data
            oversized = True
            ev_line = ev_line or number
            data_line = data_line or number
            data, data_lines = bytearray(), 0
            continue
        if number == first and raw.startswith(_BOM):
            raw = raw[3:]
        if not raw:
            if data_lines or oversized:
                result.events += 1
                del data[-1:]  # the LF after the last value
                yield SseEvent(ev_line, (name or b"message").decode("utf-8", "replace"), bytes(data),
                               data_line, data_lines, ev_id, id_line, oversized)
            name, oversized, ev_line, data_line, ev_id, id_line = b"", False, 0, 0, None, 0
            data, data_lines = bytearray(), 0
            continue
        if raw[:1] == b":":
            continue  # a comment: heartbeats
        colon = raw.find(b":")
        if colon < 0:
            fname, value = raw, b""
        else:
            fname, value = raw[:colon], raw[colon + 1 :]
            if value[:1] == b" ":
                value = value[1:]
        if not ev_line:
            ev_line = number
        if fname == b"data":
            if not data_line:
                data_line = number
            if not oversized:
                if max_bytes is not None and len(data) + len(value) + 1 > max_bytes:
                    oversized, data, data_lines = True, bytearray(), 0
                else:
                    data += value
                    data += b"\n"
                    data_lines += 1
        elif fname == b"event":
            name = value
        elif fname == b"id" and b"\x00" not in value:
            ev_id, id_line = value, number
        # `retry` and unknown fields are ignored, as clients do
    if (data_lines or oversized) and not torn_ok:
        result.torn = ev_line


def validate_sse(
    lines: Iterable[bytes | Mark | None],
    validator: Validator,
    sink: Callable[[Finding], None],
    *,
    torn_ok: bool = False,
    on_line: Callable[[int], None] | None = None,
    max_bytes: int | None = None,
) -> SseResult:
    """Validate a `text/event-stream` with `validator` (not finished here): framing, ids, and each
    unnamed event's OmniMessage."""
    result = SseResult()
    play(sse_items(lines, result, validator.source, torn_ok=torn_ok, on_line=on_line, max_bytes=max_bytes), sink,
         UnitResult(validator.source), validator=validator)
    return result


def sse_items(
    lines: Iterable[bytes | Mark | None],
    result: SseResult,
    src: str,
    *,
    torn_ok: bool = False,
    on_line: Callable[[int], None] | None = None,
    max_bytes: int | None = None,
) -> Iterator[Item]:
    """A `text/event-stream` as the engine's items (`feed`): framing and id findings, each unnamed
    event's OmniMessage as a line (numbered by its first `data:` line), gaps; `result` gathers the rest."""
    last_id: tuple[bytes, int] | None = None
    last_id_line = 0
    lines_fed = 0

    def found(rule: str, line: int, message: str) -> Finding:
        return Finding(rule, RULES[rule].severity, message, src, line)

    for ev in iter_events(lines, result, torn_ok=torn_ok, on_line=on_line, max_bytes=max_bytes):
        if isinstance(ev, Mark):
            if ev is Mark.UNKNOWN_PAST:
                result.midstream = True
                yield Step.UNKNOWN_PAST
            continue
        if ev.id is not None:
            yield Cite(clip_text(ev.id.decode("utf-8", "replace"), 80))
            m = _ID.match(ev.id)
            if m is None:
                yield found("OM901", ev.id_line, f"event id {ev.id[:60]!r} is not shaped <epoch>-<seq>")
            else:
                cur = (m.group(1), int(m.group(2)))
                if last_id is not None and cur[0] != last_id[0]:
                    # A new epoch is a new channel: epochs have no order, and the client resyncs.
                    yield Step.NEW_EPOCH
                    if len(result.epochs) < MAX_NOTED_LINES:
                        result.epochs.append(ev.id_line)
                elif last_id is not None and cur[1] <= last_id[1]:
                    yield found("OM902", ev.id_line, f"event id {ev.id.decode()} does not increase (the id on line "
                                                     f"{last_id_line} is {last_id[0].decode()}-{last_id[1]})")
                last_id, last_id_line = cur, ev.id_line
        if ev.oversized:
            lines_fed += 1
            yield ev.data_line, None, True  # OM105, and the line is counted
        elif ev.name == "message" and _amsp(ev.data):
            if not result.other_protocol:
                yield found("OM907", ev.data_line, "this is the AMSP /v1 stream (dotted event types, data: [DONE]), "
                                                   "another protocol than OmniMessage: its events are not validated")
            result.other_protocol += 1
        elif ev.name == "message":
            if ev.data_lines > 1:
                yield found("OM903", ev.data_line, f"the message is split over {ev.data_lines} data: lines")
            lines_fed += 1
            yield ev.data_line, ev.data, True
        elif ev.name == "server_event":
            try:
                obj = msgspec.json.decode(ev.data)
            except (msgspec.DecodeError, RecursionError):
                obj = None
            kind = obj.get("type") if isinstance(obj, dict) else None
            if not isinstance(kind, str):
                yield found("OM905", ev.data_line, "server_event data is not a JSON object with a string type")
                kind = "<invalid>"
            if kind not in result.server_events and len(result.server_events) >= MAX_SERVER_EVENT_TYPES:
                if not result.other_kinds:
                    yield found("OM007", ev.data_line, f"more than {MAX_SERVER_EVENT_TYPES} server_event types; "
                                                       "further ones are counted together as <other>")
                result.other_kinds += 1
                kind = "<other>"
            result.server_events[kind] += 1
            if kind == "resync_required":  # a gap: what came before it is unknown
                yield Step.GAP
                if len(result.resyncs) < MAX_NOTED_LINES:
                    result.resyncs.append(ev.data_line)
        else:
            yield found("OM904", ev.line, f"event named {ev.name[:60]!r} is neither an OmniMessage nor a "
                                          "server_event; not validated")
    result.lines = lines_fed
    if result.torn:
        yield found("OM906", result.torn, "the input ends inside this event (no blank line after it); clients "
                                          "discard it")


def _amsp(data: bytes) -> bool:
    """Whether an unnamed event is one of the AMSP `/v1` stream: its closing `[DONE]`, or a JSON
    object with a dotted `type` (`run.started`), an `at` time and no OmniMessage envelope keys."""
    if data == b"[DONE]":
        return True
    if not data.startswith(b"{") or b'"at"' not in data:
        return False
    try:
        obj = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return False
    kind = obj.get("type") if isinstance(obj, dict) else None
    return isinstance(kind, str) and "." in kind and "at" in obj and "payload" not in obj and "timestamp" not in obj


def parse_header(spec: str) -> tuple[str, str]:
    """`NAME:VALUE` (as `--header` takes it) into a checked (name, value); ValueError otherwise,
    never quoting the value."""
    name, sep, value = spec.partition(":")
    if not sep:  # the text is not shown: it may be a credential given alone
        raise ValueError("--header takes NAME:VALUE (for example 'Authorization: Bearer ...'); this one has no ':'")
    return check_header(name, value)


def check_sse_url(url: str) -> None:
    """ValueError for an `--sse-url` that is not http(s), or that holds user information (which
    would never be sent, and would be shown in every finding): credentials go in a `--header`."""
    from omnimessage.validate.sources.secrets import redact_url

    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname
    except ValueError:
        host = None
        parts = urllib.parse.urlsplit("")
    if parts.scheme not in ("http", "https") or not host:
        raise ValueError(f"not an http(s) URL: {redact_url(url)[:200]!r}")
    if "@" in parts.netloc:
        raise ValueError("user information in the URL (user:password@host) is never sent and would be shown in "
                         "the report: give credentials as a header, --header 'Authorization: Basic ...' (or Bearer)")


def file_chunks(fh: BinaryIO, size: int = 1 << 20) -> Iterator[bytes]:
    """Read `fh` in chunks of at most `size` bytes until its end."""
    while True:
        chunk = fh.read(size)
        if not chunk:
            return
        yield chunk
