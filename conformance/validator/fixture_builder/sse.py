# ruff: noqa: E501  (fixture descriptions are long literals)
"""OM9xx: text/event-stream captures (a fixture is an `.sse` file)."""

from __future__ import annotations

from typing import Any

from .fixture import FIXTURES, Fx


class Sse(Fx):
    """An SSE capture: events built from lines; `self.text` is the file."""

    def __init__(self, rule: str, name: str, about: str) -> None:
        super().__init__(rule, name, "stream", about)
        self.chunks: list[bytes] = []
        self.lineno = 0
        self.seq = 0

    def put(self, *lines: bytes) -> int:
        first = self.lineno + 1
        for line in lines:
            self.chunks.append(line + b"\n")
            self.lineno += 1
        return first

    def msg_event(self, builder: Any, *args: Any, event_id: bytes | None = None, **kw: Any) -> int:
        """An unnamed event carrying the line `builder` makes; returns its data line number."""
        n = builder(*args, **kw)
        data = self.lines[n - 1]
        self.seq += 1
        eid = event_id if event_id is not None else b"3f9a0c12-%d" % self.seq  # the reference: 8 hex of a UUID
        first = self.put(b"id: " + eid, b"data: " + data, b"")
        return first + 1


def sfx(rule: str, name: str, about: str) -> Sse:
    s = Sse(rule, name, about)
    FIXTURES.append(s)
    return s


def sse_turn(s: Sse) -> None:
    s.put(b": connected", b"retry: 3000", b"")
    s.msg_event(s.user)
    s.msg_event(s.begin)
    s.put(b": heartbeat", b"")
    s.msg_event(s.ptext, "start")
    s.msg_event(s.ptext, "delta", "Hi")
    s.msg_event(s.ptext, "stop", stop_reason="completed")
    s.msg_event(s.say, "Hi")
    s.put(b"event: server_event", b'data: {"type":"task_state","state":"running"}', b"")
    s.msg_event(s.usage)
    s.msg_event(s.end)


def declare() -> None:
    """Declare the OM9xx fixtures."""
    s = sfx("OM901", "pass-epoch-seq-ids", "ids shaped <epoch>-<seq>, comments, retry and a server_event")
    sse_turn(s)
    s = sfx("OM901", "pass-decimal-epoch", "an epoch of digits is as opaque as any other")
    s.msg_event(s.user, event_id=b"1784344222-1")
    s.msg_event(s.begin, event_id=b"1784344222-2")
    s.msg_event(s.usage, event_id=b"1784344222-3")
    s.msg_event(s.end, event_id=b"1784344222-4")
    s = sfx("OM901", "fail-uuid-id", "an event id that is not <epoch>-<seq>")
    s.msg_event(s.user)
    n = s.msg_event(s.begin, event_id=b"3f1c-uuid")
    s.msg_event(s.usage)
    s.msg_event(s.end)
    s.expect("OM901", n - 1)
    s = sfx("OM901", "fail-no-sequence", "an epoch with no sequence number")
    s.msg_event(s.user)
    n = s.msg_event(s.begin, event_id=b"3f9a0c12")
    s.msg_event(s.usage)
    s.msg_event(s.end)
    s.expect("OM901", n - 1)

    s = sfx("OM902", "pass-increasing-ids", "seq increases within an epoch; a new (random, unordered) epoch restarts it")
    s.msg_event(s.user, event_id=b"f3a90c12-16")
    s.msg_event(s.begin, event_id=b"f3a90c12-17")
    s.msg_event(s.usage, event_id=b"f3a90c12-19")  # a unicast to another subscriber took seq 18
    s.msg_event(s.end, event_id=b"f3a90c12-20")
    s.msg_event(s.user, "again", event_id=b"0b71e4d5-1")
    s.msg_event(s.begin, event_id=b"0b71e4d5-2")
    s.msg_event(s.say, event_id=b"0b71e4d5-3")
    s.msg_event(s.usage, event_id=b"0b71e4d5-4")
    s.msg_event(s.end, event_id=b"0b71e4d5-5")
    s = sfx("OM902", "pass-epoch-change-mid-segment", "the server restarted mid-request: the new epoch is a new channel; "
            "the open segment and request died with the old server and are forgotten")
    s.msg_event(s.user, event_id=b"f3a90c12-1")
    s.msg_event(s.begin, event_id=b"f3a90c12-2")
    s.msg_event(s.ptext, "start", event_id=b"f3a90c12-3")
    s.msg_event(s.ptext, "delta", "Hel", event_id=b"f3a90c12-4")
    s.put(b"event: server_event", b'data: {"type":"resync_required"}', b"")
    s.msg_event(s.user, "are you there?", event_id=b"0b71e4d5-1")
    s.msg_event(s.begin, event_id=b"0b71e4d5-2")
    s.msg_event(s.say, "Yes.", event_id=b"0b71e4d5-3")
    s.msg_event(s.usage, event_id=b"0b71e4d5-4")
    s.msg_event(s.end, event_id=b"0b71e4d5-5")
    s = sfx("OM902", "fail-id-goes-back", "a sequence number smaller than the previous one of the same epoch")
    s.msg_event(s.user, event_id=b"3f9a0c12-5")
    n = s.msg_event(s.begin, event_id=b"3f9a0c12-4")
    s.msg_event(s.usage, event_id=b"3f9a0c12-6")
    s.msg_event(s.end, event_id=b"3f9a0c12-7")
    s.expect("OM902", n - 1)
    s = sfx("OM902", "fail-id-repeats", "the same id twice")
    s.msg_event(s.user, event_id=b"3f9a0c12-5")
    n = s.msg_event(s.begin, event_id=b"3f9a0c12-5")
    s.msg_event(s.usage, event_id=b"3f9a0c12-6")
    s.msg_event(s.end, event_id=b"3f9a0c12-7")
    s.expect("OM902", n - 1)

    s = sfx("OM903", "pass-single-data-line", "each message on one data: line")
    sse_turn(s)
    s = sfx("OM903", "fail-split-message", "a message split over two data: lines")
    s.msg_event(s.user)
    s.user("split")
    line = s.lines[-1]
    cut = line.index(b'"payload"')
    n = s.put(b"id: 1784344222-9", b"data: " + line[:cut], b"data: " + line[cut:], b"") + 1
    s.expect("OM903", n)
    s.expect("OM118", n)  # joined with a line feed: a raw LF inside the message (line_break)

    s = sfx("OM904", "pass-known-events", "unnamed events and server_event only")
    sse_turn(s)
    s = sfx("OM904", "fail-custom-event", "an event with another name")
    s.msg_event(s.user)
    n = s.put(b"event: debug", b'data: {"x":1}', b"")
    s.expect("OM904", n)

    s = sfx("OM905", "pass-server-event-object", "server_event data is a JSON object with a type")
    sse_turn(s)
    s.put(b"event: server_event", b'data: {"type":"resync_required"}', b"")
    s = sfx("OM905", "fail-server-event-text", "server_event data that is plain text")
    s.msg_event(s.user)
    n = s.put(b"event: server_event", b"data: task running", b"") + 1
    s.expect("OM905", n)

    s = sfx("OM906", "pass-terminated-events", "every event ends with a blank line")
    sse_turn(s)
    s = sfx("OM906", "fail-capture-ends-mid-event", "the capture ends inside an event")
    s.msg_event(s.user)
    n = s.put(b"id: 1784344222-9", b'data: {"timestamp":"2026-07-18T03:11:00.000Z","type":"event_msg","payload":')
    s.expect("OM906", n)

    s = sfx("OM907", "pass-omnimessage-channel", "the OmniMessage channel: unnamed events carry envelopes")
    sse_turn(s)
    s = sfx("OM907", "fail-amsp-v1-stream", "the server's AMSP /v1 stream: dotted event types, closed by data: [DONE]; "
            "reported once, its events not decoded")
    n = s.put(b'data: {"type":"run.started","at":"2026-07-18T03:10:22.531Z","session_id":"session-2026-07-18-03-10-22-5d41402a","agent":"p/default_agent"}', b"")
    s.put(b'data: {"type":"request.started","at":"2026-07-18T03:10:22.540Z","request":1}', b"")
    s.put(b'data: {"type":"text.delta","at":"2026-07-18T03:10:23.001Z","role":"assistant","text":"Hi"}', b"")
    s.put(b'data: {"type":"run.done","at":"2026-07-18T03:10:23.200Z","status":"completed","requests":1,'
          b'"usage":{"cache_read":0,"cache_write":0,"output":2,"total":12},"session_usage":null}', b"")
    s.put(b"data: [DONE]", b"")
    s.expect("OM907", n)
