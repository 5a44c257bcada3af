# ruff: noqa: E501  (long and non-ASCII data literals are the point of this corpus)
"""The SSE capture of a session channel."""

from __future__ import annotations

from .js_json import stringify
from .material import TOOLS, new_session
from .payloads import counts, partial_text

# ---------------------------------------------------------------------------------------------
# SSE capture (server http/sse.ts + hono writeSSE + runtime/channel.ts)
# ---------------------------------------------------------------------------------------------


class Channel:
    """Event ids `<epoch>-<seq>`: epoch = first 8 characters of a random UUID (lower-case hex),
    seq from 1, consumed by broadcasts and by unicasts to any subscriber alike."""

    def __init__(self, epoch: str) -> None:
        self.epoch = epoch
        self.seq = 0

    def event(self, data: str, name: str | None = None) -> str:
        self.seq += 1
        lines = ([f"event: {name}"] if name else []) + [f"data: {data}", f"id: {self.epoch}-{self.seq}"]
        return "\n".join(lines) + "\n\n"

    def skip(self, n: int) -> None:
        """Seqs consumed by unicasts to other subscribers (replay, approvals, hello)."""
        self.seq += n


def sse_capture() -> bytes:
    s = new_session("session-2026-09-14-21-05-19-38c0e5ab", "2026-09-14T13:05:19.880Z")
    out: list[str] = []
    first = Channel("e4c1a7f0")
    server = stringify                    # server events are JSON.stringify'd too
    first.skip(2)
    out.append(first.event(server({"type": "task_state", "state": "idle"}), "server_event"))
    out.append(first.event(server({"type": "task_state", "state": "running"}), "server_event"))
    mark = len(s.stream)
    s.tool_list(TOOLS, 1900)
    s.begin(4)
    s.stream_text(["Let me check the station file first."], gap=120)
    r = "toolu_01TnE6vKp3WsQ9cMx2LbRa7H"
    s.stream_tool_call("read_file", r, ['{"path":"data/stations.csv","limit":20}'])
    for m in s.stream[mark:]:
        out.append(first.event(stringify(m)))
    call = s.stream[-1]
    out.append(first.event(server({"type": "approval_request", "toolCall": call}), "server_event"))
    out.append(": ping\n\n")                               # 20 s heartbeat while the human decides
    mark = len(s.stream)
    s.approve(r, "allow", 21450)
    s.run_tool(r, ["id,name,tz\nKEL-01,Kelpie Point 1,Pacific/Auckland\n"], gap=30)
    s.usage(counts(9984, 420, 52, 10456), 120)
    s.end(2)
    s.begin(30)
    s.model(partial_text("start"), 300, trace=False)
    s.model(partial_text("delta", "The file has a `tz` column; "), 90, trace=False)
    for m in s.stream[mark:]:
        out.append(first.event(stringify(m)))
    # the server restarts here: the run dies, the client reconnects with Last-Event-ID
    # e4c1a7f0-<last>, the new channel's epoch misses, and resync_required comes first
    second = Channel("0b7e41d5")
    out.append(second.event(server({"type": "resync_required"}), "server_event"))
    out.append(second.event(server({"type": "task_state", "state": "idle"}), "server_event"))
    out.append(": ping\n\n")
    out.append(second.event(server({"type": "task_state", "state": "running"}), "server_event"))
    mark = len(s.stream)
    s.clock.tick(61000)
    s.tool_list(TOOLS, 40)                                 # the resumed Session's first run
    s.begin(4)
    s.stream_text(["Three stations lack a timezone: KEL-04, KEL-09, PTH-12."], gap=100)
    s.usage(counts(10240, 300, 20, 10560), 110)
    s.end(2)
    for m in s.stream[mark:]:
        out.append(second.event(stringify(m)))
    second.skip(1)
    out.append(second.event(server({"type": "session_title", "sessionId": s.sid, "title": "Stations missing timezones"}), "server_event"))
    out.append(second.event(server({"type": "task_state", "state": "idle"}), "server_event"))
    out.append(": ping\n\n")
    return "".join(out).encode("utf-8", "surrogatepass")


def amsp_capture() -> bytes:
    """The server's separate AMSP `/v1` stream of one run (search index id 70216828558, the AMSP wire
    types): unnamed `data: <json>` events, flat objects with a dotted `type` and an `at` time
    (`run.started`, `request.started`, `thinking.delta`, `text.delta`, `text.done`, `request.done`,
    `run.done`), closed by `data: [DONE]`. Another protocol: the OmniMessage validator says so once
    (OM907). The key order inside each event is not settled by the types file (written here as the
    interfaces list them, `type` and `at` first)."""
    at = ["2026-10-12T04:10:00.120Z", "2026-10-12T04:10:00.131Z", "2026-10-12T04:10:01.402Z",
          "2026-10-12T04:10:01.655Z", "2026-10-12T04:10:01.790Z", "2026-10-12T04:10:01.791Z",
          "2026-10-12T04:10:01.799Z", "2026-10-12T04:10:01.803Z"]
    usage = counts(0, 5200, 14, 5214)
    events = [
        {"type": "run.started", "at": at[0], "session_id": "session-2026-10-12-12-10-00-4d2a91f3",
         "agent": "default_project/default_agent"},
        {"type": "request.started", "at": at[1], "request": 1},
        {"type": "thinking.delta", "at": at[2], "thinking": "A greeting; answer briefly."},
        {"type": "text.delta", "at": at[3], "role": "assistant", "text": "Hello! "},
        {"type": "text.delta", "at": at[4], "role": "assistant", "text": "How can I help?"},
        {"type": "text.done", "at": at[5], "role": "assistant", "text": "Hello! How can I help?",
         "stop_reason": "completed"},
        {"type": "request.done", "at": at[6], "request": 1, "status": "completed", "usage": usage},
        {"type": "run.done", "at": at[7], "status": "completed", "requests": 1, "usage": usage,
         "session_usage": usage},
    ]
    return ("".join(f"data: {stringify(e)}\n\n" for e in events) + "data: [DONE]\n\n").encode("utf-8")
