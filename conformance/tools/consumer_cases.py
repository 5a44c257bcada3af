"""Writes conformance/consumer/cases.json: the scripted SSE streams of the consumer role.

Run from the repository root: `python conformance/tools/consumer_cases.py` (python/tests/
test_conformance_consumer.py checks that the file is what this script writes). Each case is a
list of connections, each a list of pieces of bytes the runner's server writes, and the complete
messages per card the testee's render model must hold once the stream ends
(conformance/TESTEE-PROTOCOL.md, "The consumer role"). The messages are lines the codec suite
round-trips; every one is checked here with the strict decoder before it is written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "consumer" / "cases.json"
TS = '"timestamp":"2026-07-18T03:10:22.531Z"'


def text(words: str, origin: list[str] | None = None) -> str:
    tail = "" if not origin else ',"origin":' + json.dumps(origin, separators=(",", ":"))
    return '{' + TS + ',"type":"model_msg","payload":{"type":"text","role":"assistant","text":' + \
        json.dumps(words, ensure_ascii=False) + "}" + tail + "}"


def partial(event_type: str, words: str) -> str:
    return '{' + TS + ',"type":"model_msg","payload":{"type":"partial_text","role":"assistant","event_type":"' + \
        event_type + '","text":' + json.dumps(words) + "}}"


A, B, C, D = text("one"), text("two"), text("three: 😀 é"), text("four")
SUB, SUBSUB, AFTER = text("in the subagent", ["sub-1"]), text("deeper", ["sub-1", "sub-2"]), text("back", ["sub-1"])
RESYNC = '{"type":"resync_required"}'


def frame(data: str, eid: str | None, eol: str = "\n", event: str | None = None) -> str:
    out = "" if event is None else f"event: {event}{eol}"
    out += f"data: {data}{eol}"
    if eid is not None:
        out += f"id: {eid}{eol}"
    return out + eol


def conn(*pieces: str | dict[str, Any], last_event_id: str | None = None, retry: bool = True) -> dict[str, Any]:
    """A connection: `retry: 1` first (so a reconnect waits a millisecond), then the pieces."""
    body: list[dict[str, Any]] = [{"text": "retry: 1\n\n"}] if retry else []
    body += [p if isinstance(p, dict) else {"text": p} for p in pieces]
    return {"last_event_id": last_event_id, "send": body}


def split(s: str) -> dict[str, Any]:
    return {"text": s, "split": "bytes"}


def root(*messages: str) -> list[dict[str, Any]]:
    return [{"origin": [], "messages": list(messages)}]


ERROR = "error"
"""A case's expectation when a strict consumer must refuse what the stream carries (it ends with an error)."""


def case(cid: str, description: str, tags: list[str], connections: list[dict[str, Any]],
         cards: list[dict[str, Any]] | str) -> dict[str, Any]:
    return {"id": cid, "description": description, "tags": tags, "connections": connections, "expect": cards}


def cases() -> list[dict[str, Any]]:
    f = frame
    out = [
        case("consumer.basic.lf", "three messages, LF line ends, one connection", ["line-ends"],
             [conn(f(A, "e-1"), f(B, "e-2"), f(C, "e-3"))], root(A, B, C)),
        case("consumer.line-ends.crlf", "CRLF line ends", ["line-ends"],
             [conn(f(A, "e-1", "\r\n"), f(B, "e-2", "\r\n"))], root(A, B)),
        case("consumer.line-ends.cr", "CR-only line ends", ["line-ends"],
             [conn(f(A, "e-1", "\r"), f(B, "e-2", "\r"), f(C, "e-3", "\r"))], root(A, B, C)),
        case("consumer.line-ends.cr-then-lf-in-next-write",
             "a CRLF whose CR ends one write and whose LF starts the next is one line end, not two",
             ["line-ends", "fragments"],
             [conn("data: " + A + "\r", "\nid: e-1\r", "\n\r", "\n", "data: " + B + "\r\n", "id: e-2\r\n\r\n")],
             root(A, B)),
        case("consumer.line-ends.mixed", "LF, CRLF and CR in one stream", ["line-ends"],
             [conn(f(A, "e-1", "\n"), f(B, "e-2", "\r\n"), f(C, "e-3", "\r"), f(D, "e-4", "\n"))],
             root(A, B, C, D)),
        case("consumer.split.every-byte", "every byte of every frame written and flushed on its own "
             "(a four-byte character split across writes)", ["fragments"],
             [conn(split(f(A, "e-1") + f(C, "e-2")))], root(A, C)),
        case("consumer.split.every-byte.crlf", "every byte on its own, CRLF line ends", ["fragments", "line-ends"],
             [conn(split(f(B, "e-1", "\r\n") + f(C, "e-2", "\r\n")))], root(B, C)),
        case("consumer.split.every-byte.cr", "every byte on its own, CR-only line ends", ["fragments", "line-ends"],
             [conn(split(f(C, "e-1", "\r") + f(D, "e-2", "\r")))], root(C, D)),
        case("consumer.multiline-data", "a message's data in two `data:` lines, joined with LF: the message "
             "holds a raw LF, which a strict consumer refuses (`line_break`: a message is one line, "
             "schema/README.md section 1.5), so the consumer ends with an error", ["data", "one-line"],
             [conn(f(A, "e-1"), "data: " + B[:40] + "\ndata: " + B[40:] + "\nid: e-2\n\n")],
             ERROR),
        case("consumer.data.no-space", "`data:` without the space after the colon; a second space kept", ["data"],
             [conn("data:" + A + "\nid: e-1\n\n")], root(A)),
        case("consumer.heartbeat", "`: ping` comments between frames and between the lines of one", ["heartbeat"],
             [conn(": ping\n\n", "id: e-1\n: ping\ndata: " + A + "\n\n", ": ping\n\n", f(B, "e-2"), ":\n\n")],
             root(A, B)),
        case("consumer.resume.mid-frame", "cut inside the third frame; the reconnect sends Last-Event-ID e-2 and "
             "gets the third again: the torn frame is dropped, nothing doubled", ["resume"],
             [conn(f(A, "e-1"), f(B, "e-2"), f(C, "e-3")[:30]),
              conn(f(C, "e-3"), f(D, "e-4"), last_event_id="e-2")], root(A, B, C, D)),
        case("consumer.resume.before-blank-line", "cut after a frame's `id:` line, before its empty line: "
             "the event was never dispatched", ["resume"],
             [conn(f(A, "e-1"), f(B, "e-2")[:-1]), conn(f(B, "e-2"), last_event_id="e-1")], root(A, B)),
        case("consumer.resume.split-and-cut", "every byte on its own, cut mid-frame twice", ["resume", "fragments"],
             [conn(split(f(A, "e-1") + f(B, "e-2")[:7])),
              conn(split(f(B, "e-2") + f(C, "e-3")[:-2]), last_event_id="e-1"),
              conn(split(f(C, "e-3")), last_event_id="e-2")], root(A, B, C)),
        case("consumer.resume.empty-connection", "a connection that sends nothing but `retry:`; the next one "
             "still resumes from the last id", ["resume"],
             [conn(f(A, "e-1")), conn(last_event_id="e-1"), conn(f(B, "e-2"), last_event_id="e-1")], root(A, B)),
        case("consumer.resync", "the server cannot replay: `resync_required`, then live messages; the model "
             "drops what it had", ["resync"],
             [conn(f(A, "e-1"), f(B, "e-2")),
              conn(f(RESYNC, "e-9", event="server_event"), f(C, "e-10"), last_event_id="e-2")], root(C)),
        case("consumer.epoch-change", "the server restarted (new epoch): resync, then the new epoch's ids, "
             "which the next reconnect sends", ["resync", "resume"],
             [conn(f(A, "a-1"), f(B, "a-2")),
              conn(f(RESYNC, "b-1", event="server_event"), f(C, "b-2"), last_event_id="a-2"),
              conn(f(D, "b-3"), last_event_id="b-2")], root(C, D)),
        case("consumer.server-event.ignored", "named events other than a resync are not messages", ["events"],
             [conn(f(A, "e-1"), f('{"type":"session_status","state":"idle"}', "e-2", event="server_event"),
                   f(B, "e-3", event="custom"), f(C, "e-4"))], root(A, C)),
        case("consumer.cards.nested", "messages nested into cards by their origin chain", ["cards"],
             [conn(f(A, "e-1"), f(SUB, "e-2"), f(SUBSUB, "e-3"), f(AFTER, "e-4"), f(B, "e-5"))],
             [{"origin": [], "messages": [A, B]}, {"origin": ["sub-1"], "messages": [SUB, AFTER]},
              {"origin": ["sub-1", "sub-2"], "messages": [SUBSUB]}]),
        case("consumer.partial.replaced", "partial fragments are not complete messages; the complete one is",
             ["cards"],
             [conn(f(partial("start", "Here"), "e-1"), f(partial("delta", " are"), "e-2"),
                   f(partial("stop", ""), "e-3"), f(text("Here are"), "e-4"))], root(text("Here are"))),
        case("consumer.hostile.unknown-fields", "fields the standard does not know (and `Data:`, ` data:`, "
             "`retry: abc`) are ignored", ["hostile"],
             [conn("foo: bar\nData: x\n data: y\nretry: abc\nidx: 3\ndata: " + A + "\nid: e-1\n\n", f(B, "e-2"))],
             root(A, B)),
        case("consumer.hostile.long-lines", "a 256 KiB comment and a 64 KiB unknown field before a message",
             ["hostile"],
             [conn(":", {"text": "x", "repeat": 256 << 10}, "\nzz: ", {"text": "y", "repeat": 64 << 10}, "\n",
                   f(A, "e-1"))], root(A)),
        case("consumer.hostile.id-with-nul", "an `id` holding NUL is ignored: the reconnect sends the id before "
             "it", ["hostile", "resume"],
             [conn(f(A, "e-1"), f(B, "e-2\u0000x")), conn(f(C, "e-3"), last_event_id="e-1")], root(A, B, C)),
        case("consumer.hostile.id-only-event", "an event with an id and no data dispatches nothing but sets the "
             "last event id", ["hostile", "resume"],
             [conn(f(A, "e-1"), "id: e-2\n\n"), conn(f(B, "e-3"), last_event_id="e-2")], root(A, B)),
        case("consumer.hostile.bom", "a byte order mark before the first field is dropped", ["hostile"],
             [conn("\ufeffdata: " + A + "\nid: e-1\n\n", retry=False)], root(A)),
    ]
    return out


def check(all_cases: list[dict[str, Any]]) -> None:
    from omnimessage import (
        DecodeError,
        decode,  # the strict decoder: every expected message is one
    )

    for c in all_cases:
        if c["expect"] == ERROR:  # the stream's one multi-line message must be one the decoder refuses
            joined = "".join(p["text"] for conn in c["connections"] for p in conn["send"] if "text" in p)
            lines = [x[len("data: "):] for x in joined.split("\n\n")[-2].split("\n") if x.startswith("data: ")]
            try:
                decode("\n".join(lines).encode())
            except DecodeError:
                continue
            raise SystemExit(f"{c['id']}: expects an error, but its data decodes")
        for card in c["expect"]:
            for m in card["messages"]:
                decode(m.encode())


def render() -> str:
    doc = {"role": "consumer", "cases": cases()}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    check(cases())
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(render(), "utf-8")
    sys.stdout.write(f"wrote {OUT} ({len(cases())} cases)\n")
