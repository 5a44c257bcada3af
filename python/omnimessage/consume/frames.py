"""`FrameParser`: the WHATWG `text/event-stream` parsing rules, fed bytes as they arrive.

The rules followed (HTML Living Standard, "Server-sent events", "Parsing an event stream" and
"Interpreting an event stream"), on bytes so that a message's data reaches the codec untouched:

- one UTF-8 byte order mark at the very start of the stream is dropped (also when it is split
  across chunks);
- a line ends with CR LF, LF or CR; a CR that ends one chunk and an LF that starts the next are
  one line end, not two;
- an empty line dispatches the event; a line starting with `:` is a comment (heartbeats);
- `name:value` (one space after the colon stripped), or a whole line as a name with an empty value;
- `data`: the value and an LF are appended to the data buffer (the last LF is removed at
  dispatch, so several `data:` lines are joined with LF); `event`: the event type;
  `id`: the last event id, unless the value holds a NUL (then the field is ignored);
  `retry`: the reconnection time in milliseconds, only when the value is ASCII digits;
  any other field is ignored;
- at dispatch the last event id is set even when the event is not dispatched; an event whose data
  buffer is empty is not dispatched; the type defaults to `message`;
- what is left unterminated at the end of the stream is discarded.

One deviation, for safety: an `id` value over 4 KiB is ignored as one with a NUL is (the id is sent
back in the `Last-Event-ID` request header, which servers cap).

Bounded memory: a line longer than `max_line_bytes` or an event whose data grows beyond
`max_event_bytes` raises `FrameTooLarge` (what was buffered is dropped); nothing else grows with
the input. Both default to `MAX_EVENT_BYTES` (16 MiB). With `skip_oversized=True` such a line, or
such an event, is dropped instead (the event is not dispatched), and parsing goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["MAX_EVENT_BYTES", "Frame", "FrameParser", "FrameTooLarge"]

MAX_EVENT_BYTES: Final = 16 * 1024 * 1024
"""The default cap, in bytes, on one line and on one event's data."""
_BOM: Final = b"\xef\xbb\xbf"
_MAX_ID_BYTES: Final = 4096
"""An `id` value longer than this is ignored as one with a NUL is (it is echoed in a request header)."""


class FrameTooLarge(ValueError):
    """A line or an event's data went beyond its cap."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One dispatched event: its type (`message` when it has none), its data, and the last event id
    at dispatch (`""` when none was ever set)."""

    name: str
    data: bytes
    last_event_id: str


class FrameParser:
    """Incremental parser: `feed(chunk)` returns the events the chunk completed."""

    def __init__(self, *, max_line_bytes: int = MAX_EVENT_BYTES, max_event_bytes: int = MAX_EVENT_BYTES,
                 skip_oversized: bool = False) -> None:
        self.skip_oversized = skip_oversized
        """Drop a line or an event over its cap (the event is not dispatched) instead of raising."""
        self._skipping = False
        self._broken = False
        self.max_line_bytes = max_line_bytes
        self.max_event_bytes = max_event_bytes
        self.last_event_id = ""
        """The last event id string: the id buffer as it was at the last dispatch (empty line)."""
        self._id = ""
        self.retry_ms: int | None = None
        """The last `retry:` value (None: the server sent none)."""
        self._line = bytearray()
        self._data = bytearray()
        self._name = b""
        self._pending_cr = False
        self._head: bytes | None = b""  # the stream's first bytes, until the BOM question is settled

    def reset_stream(self) -> None:
        """A new connection: a new stream (BOM, line state and the event being built start over);
        the last event id and the reconnection time are kept, as a client keeps them."""
        self._line.clear()
        self._data.clear()
        self._name = b""
        self._pending_cr = False
        self._skipping = self._broken = False
        self._head = b""
        self._id = self.last_event_id

    def resume_from(self, last_event_id: str) -> None:
        """Start with this last event id (a subscription resumed by its caller)."""
        self.last_event_id = self._id = last_event_id

    def feed(self, chunk: bytes) -> list[Frame]:
        out: list[Frame] = []
        if self._head is not None:
            head = self._head + chunk
            if len(head) < 3 and _BOM.startswith(head):
                self._head = head
                return out
            self._head = None
            chunk = head[3:] if head.startswith(_BOM) else head
        if self._pending_cr and chunk:
            self._pending_cr = False
            if chunk[:1] == b"\n":
                chunk = chunk[1:]
        start, n = 0, len(chunk)
        while start < n:
            cr = chunk.find(b"\r", start)
            lf = chunk.find(b"\n", start)
            if cr < 0 and lf < 0:
                self._append(chunk[start:])
                break
            end = lf if cr < 0 or 0 <= lf < cr else cr
            nxt = end + 1
            if chunk[end] == 0x0D:
                if nxt < n and chunk[nxt] == 0x0A:
                    nxt += 1
                elif nxt == n:
                    self._pending_cr = True
            self._append(chunk[start:end])
            line = bytes(self._line)
            self._line.clear()
            if self._skipping:  # the rest of a line over the cap: the line is dropped, its event too
                self._skipping, self._broken = False, True
                start = nxt
                continue
            frame = self._line_done(line)
            if frame is not None:
                out.append(frame)
            start = nxt
        return out

    def _append(self, piece: bytes) -> None:
        if self._skipping:
            return
        if len(self._line) + len(piece) > self.max_line_bytes:
            self._line.clear()
            self._data.clear()
            if self.skip_oversized:
                self._skipping = True
                return
            raise FrameTooLarge(f"a line longer than {self.max_line_bytes} bytes")
        self._line += piece

    def _line_done(self, line: bytes) -> Frame | None:
        if not line:
            return self._dispatch()
        if line[:1] == b":":
            return None
        colon = line.find(b":")
        if colon < 0:
            name, value = line, b""
        else:
            name, value = line[:colon], line[colon + 1:]
            if value[:1] == b" ":
                value = value[1:]
        if name == b"data":
            if len(self._data) + len(value) + 1 > self.max_event_bytes:
                self._data.clear()
                if self.skip_oversized:
                    self._broken = True
                    return None
                raise FrameTooLarge(f"an event's data longer than {self.max_event_bytes} bytes")
            self._data += value
            self._data += b"\n"
        elif name == b"event":
            self._name = value
        elif name == b"id":
            if b"\x00" not in value and len(value) <= _MAX_ID_BYTES:
                self._id = value.decode("utf-8", "replace")
        elif name == b"retry" and value.isdigit():  # bytes.isdigit: ASCII digits only (False when empty)
            self.retry_ms = int(value) if len(value) <= 12 else 10**12
        return None

    def _dispatch(self) -> Frame | None:
        self.last_event_id = self._id  # set even when no event is dispatched
        name, self._name = self._name, b""
        if self._broken:
            self._broken = False
            self._data.clear()
            return None
        if not self._data:
            return None
        data = bytes(self._data[:-1])
        self._data.clear()
        return Frame((name or b"message").decode("utf-8", "replace"), data, self.last_event_id)
