"""The render model: cards by origin, segments replaced in place, the compaction exception, caps;
and, over the scripted session served live on loopback with the connection cut mid-frame several
times, each card's complete messages equal what that session's trace stores, byte for byte."""

from __future__ import annotations

import threading
from pathlib import Path

import msgspec
import pytest
from produce_script import CHILD, GRANDCHILD, MAIN, build_script, iter_ops, run_script
from sse_stub import CuttingProxy
from test_produce_session import _Server

import omnimessage as om
from omnimessage import produce
from omnimessage.consume import (
    Backoff,
    MessageEvent,
    RenderLimitError,
    RenderModel,
    Resync,
    ServerEvent,
    subscribe,
)

T = "2026-07-18T03:10:22.531Z"


def line(msg: om.Message) -> str:
    return om.encode(msg).decode()


def test_cards_segments_and_replacement() -> None:
    r = RenderModel()
    call = om.partial_tool_call("start", "read", "", "c1", timestamp=T)
    r.apply(om.partial_text("start", "", timestamp=T))
    r.apply(call)
    r.apply(om.partial_text("delta", "Hel", timestamp=T))
    r.apply(om.with_origin(om.user_text("child", timestamp=T), "kid"))
    r.apply(om.partial_tool_call("delta", "", '{"a":', "c1", timestamp=T))
    r.apply(om.partial_text("delta", "lo", timestamp=T))
    snap = r.snapshot()
    assert snap["items"][0] == {"segment": {"type": "partial_text", "tool_call_id": None, "text": "Hello",
                                            "open": True}}
    assert snap["items"][1]["segment"]["text"] == '{"a":' and snap["items"][2]["card"]["origin"] == ["kid"]
    r.apply(om.partial_text("stop", "", timestamp=T))
    done = om.assistant_text("Hello", timestamp=T)
    r.apply(om.encode(done))  # a line's bytes
    assert r.snapshot()["items"][0] == {"message": line(done)}  # the segment's slot
    grand = om.with_origin(om.with_origin(om.user_text("g", timestamp=T), "grand"), "kid")
    r.apply(grand)
    kid = r.card(["kid"])
    assert kid is not None and kid.messages[0] == om.encode(om.with_origin(om.user_text("child", timestamp=T), "kid"))
    assert r.snapshot()["items"][2]["card"]["items"][1]["card"]["items"] == [{"message": line(grand)}]
    r.apply(Resync("e-9"))
    assert r.snapshot() == {"origin": [], "items": []}


def test_compaction_stop_without_complete_leaves_a_closed_segment() -> None:
    r = RenderModel()
    for ev in ("start", "delta", "stop"):
        r.apply(om.partial_text(ev, "sum" if ev == "delta" else "", timestamp=T))
    r.apply(om.compaction_end("context", "summarize", "completed", timestamp=T))
    r.apply(om.partial_text("start", "", timestamp=T))  # a new segment of the same key after it
    items = r.snapshot()["items"]
    assert items[0] == {"segment": {"type": "partial_text", "tool_call_id": None, "text": "sum", "open": False}}
    assert items[2]["segment"]["open"] is True and len(items) == 3


def test_surrogate_halves_join_and_images() -> None:
    r = RenderModel()
    r.apply(om.partial_tool_call_output("start", "", "t", timestamp=T))
    r.apply(om.partial_tool_call_output("delta", "\ud83d", "t", timestamp=T))
    r.apply(om.partial_tool_call_output("delta", "\ude00", "t", images=["data:image/png;base64,AA=="],
                                        timestamp=T))
    seg = r.snapshot()["items"][0]["segment"]
    assert seg["text"] == "\U0001f600" and seg["images"] == ["data:image/png;base64,AA=="]


def test_caps() -> None:
    r = RenderModel(max_depth=2, max_cards=3, max_open_segments=1, max_bytes=400)
    with pytest.raises(RenderLimitError, match="deeper than 2"):
        r.apply(om.with_origin(om.with_origin(om.with_origin(om.user_text("x", timestamp=T), "a"), "b"), "c"))
    r.apply(om.with_origin(om.user_text("x", timestamp=T), "a"))
    r.apply(om.with_origin(om.user_text("x", timestamp=T), "b"))
    with pytest.raises(RenderLimitError, match="more than 3 cards"):
        r.apply(om.with_origin(om.user_text("x", timestamp=T), "c"))
    r.apply(om.partial_text("start", "", timestamp=T))
    with pytest.raises(RenderLimitError, match="more than 1 segments"):
        r.apply(om.partial_thinking("start", "", timestamp=T))
    with pytest.raises(RenderLimitError, match="more than 400 bytes"):
        r.apply(om.partial_text("delta", "x" * 300, timestamp=T))


def strip_origin(raw: bytes) -> bytes:
    """A forwarded line without its `origin`: the member is the last one, so this is a byte cut."""
    cut = raw[:raw.rindex(b',"origin":[')] + b"}"
    msg = om.decode(raw)
    assert om.encode(msg.__class__(**{**msgspec.structs.asdict(msg), "origin": om.UNSET})) == cut
    return cut


def trace_lines(root: Path, sid: str) -> list[bytes]:
    return [x for f in sorted(root.rglob(f"{sid}_*.jsonl")) for x in f.read_bytes().splitlines()]


def test_live_session_with_cuts_equals_trace(tmp_path: Path) -> None:
    """The relation, exactly: walking a session's trace (its files in order), each card's complete
    messages in arrival order (`Card.arrived`), origin stripped, come up in the same order and byte for byte; the trace lines not in
    the card are exactly the ones never streamed: its `session_meta`s (except a child's first, which
    its parent announces), what the producer `record`ed (user input, a compaction's request), and the
    `subagent` pointers (the stream carries the child's card instead)."""
    channel = produce.SseChannel()
    server = _Server(channel)
    proxy = CuttingProxy(server.port, [900, 1, 4097, 2500, 333, 7000])
    script = build_script()
    model = RenderModel()
    ids: list[str] = []
    done = threading.Event()
    final = [""]

    def consume() -> None:
        with subscribe(f"http://127.0.0.1:{proxy.port}/events", backoff=Backoff(initial_delay=0, max_delay=0),
                       idle_timeout=30) as sub:
            for ev in sub:
                model.apply(ev)
                if isinstance(ev, ServerEvent):  # published after the whole session
                    break
                if isinstance(ev, MessageEvent | Resync):
                    ids.append(ev.id)
        done.set()

    reader = threading.Thread(target=consume)
    reader.start()
    try:
        for _ in range(100_000):  # until the first connection is subscribed (then nothing is missed)
            if channel.subscriber_count:
                break
            done.wait(0.001)
        run_script(script, tmp_path, sse=channel)
        final[0] = channel.last_event_id
        channel.publish(b'{"type":"task_state"}', "server_event")
        reader.join(60)
        assert done.is_set()
    finally:
        proxy.close()
        server.close()
    assert proxy.cuts == 6
    seqs = [int(x.rpartition("-")[2]) for x in ids]
    assert ids[-1] == final[0] and seqs == list(range(1, len(seqs) + 1))  # resumed: no gap, no repeat
    recorded: dict[str, set[bytes]] = {MAIN: set(), CHILD: set(), GRANDCHILD: set()}
    names = {"main": MAIN}
    for header, msgs in iter_ops(script):
        if header["op"] == "open":
            names[header["session"]] = header["id"]
        sid = names[header["session"]]
        if header["op"] in ("record", "context") or (header["op"] == "start" and not header["announce"]):
            recorded[sid].add(om.encode(msgs[0]))
    for origin, sid in (((), MAIN), ((CHILD,), CHILD), ((CHILD, GRANDCHILD), GRANDCHILD)):
        card = model.card(origin)
        assert card is not None and card.origin == origin
        mine = [strip_origin(x) if origin else x for x in card.arrived]
        trace = trace_lines(tmp_path, sid)
        at = 0
        left_out = []
        for rec in trace:
            if at < len(mine) and rec == mine[at]:
                at += 1
            else:
                left_out.append(rec)
        assert at == len(mine) and len(mine) > 3, sid
        assert sorted(card.messages) == sorted(card.arrived)  # drawn in segment slots, the same messages
        for rec in left_out:
            kind = om.decode(rec)
            assert rec in recorded[sid] or (kind.type == "event_msg" and kind.payload.type == "subagent"), rec
    snap = model.snapshot()
    segments = [x["segment"] for x in snap["items"] if "segment" in x]
    assert segments == [{"type": "partial_text", "tool_call_id": None, "open": False,
                         "text": "[summary]\nKEL-04 lacks a timezone; the parser issues are pending.\n[/summary]"}]
    kinds = [next(iter(x)) for x in snap["items"]]
    assert kinds.count("card") == 1 and model.card((CHILD,)) is not None
