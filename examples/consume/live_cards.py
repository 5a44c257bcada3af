"""A live session with a subagent, served to a browser page that draws it as nested cards.

    python examples/consume/live_cards.py [--port N] [--delay 0.15] [--traces DIR] [--cut-after N,...]

One origin on 127.0.0.1: `/` is the page (index.html next to this file), `/cards.js` its script,
`/dist/...` the built TypeScript package (typescript/dist: `make setup` builds it), and `/events`
the session's SSE stream (`omnimessage.produce.sse_app` under `omnimessage.produce.serve`). The
session starts when the first client subscribes, streams with `--delay` seconds between messages,
writes its traces under `--traces` (default: a new temporary folder), prints `session done`, and the
server stays up until interrupted. Open the printed address in a browser. `--cut-after 10,30` drops
the page's connection when the 10th and the 30th event are sent (the frame in flight is lost), to
watch the page reconnect with `Last-Event-ID` and get the missed events from the replay buffer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import mimetypes
import tempfile
from pathlib import Path
from typing import Any

import omnimessage as om
from omnimessage.produce import Session, SseChannel, TraceWriter, new_session_id, serve, sse_app

HERE = Path(__file__).resolve().parent
DIST = HERE.parents[1] / "typescript" / "dist"
PAGES = {"/": HERE / "index.html", "/cards.js": HERE / "cards.js"}


def static_file(path: str) -> Path | None:
    """The file a request path names: the page, its script, or a `.js` file inside typescript/dist."""
    if path in PAGES:
        return PAGES[path]
    if not path.startswith("/dist/") or not path.endswith(".js"):
        return None
    target = (DIST / path[len("/dist/"):]).resolve()
    return target if target.is_relative_to(DIST.resolve()) and target.is_file() else None


class Cutter:
    """`--cut-after`: once an event whose number is in `after` is published, the next body a
    connection sends raises ConnectionResetError instead (as a broken socket would), dropping it."""

    def __init__(self, after: set[int]) -> None:
        self.after = after
        self.pending = 0

    def published(self, channel: SseChannel) -> None:
        if int(channel.last_event_id.rsplit("-", 1)[1]) in self.after:
            self.pending += 1

    def wrap(self, send: Any) -> Any:
        async def cutting(message: Any) -> None:
            if self.pending > 0 and message["type"] == "http.response.body" and message.get("body"):
                self.pending -= 1
                raise ConnectionResetError("--cut-after: the connection is dropped")
            await send(message)

        return cutting


def make_app(channel: SseChannel, cutter: Cutter) -> Any:
    events = sse_app(channel)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] == "/events":
            await events(scope, receive, cutter.wrap(send))
            return
        found = static_file(scope["path"])
        status, body = (200, found.read_bytes()) if found is not None else (404, b"not found\n")
        kind = mimetypes.guess_type(found.name)[0] if found is not None else "text/plain"
        if found is not None and found.suffix == ".js":
            kind = "text/javascript"
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", f"{kind}; charset=utf-8".encode()), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})

    return app


async def run_session(channel: SseChannel, traces: Path, delay: float, cutter: Cutter) -> None:
    """A main session that hands a task to a subagent, streamed message by message."""
    main_id, child_id = new_session_id(), new_session_id()
    while child_id == main_id:
        child_id = new_session_id()

    async def emit(session: Session, *msgs: om.Message) -> None:
        for msg in msgs:
            session.emit(msg)
            cutter.published(channel)
            await asyncio.sleep(delay)

    async def stream(session: Session, kind: str, words: list[str], call: tuple[str, str] | None = None) -> None:
        if kind == "tool_call" and call is not None:
            await emit(session, om.partial_tool_call("start", call[0], "", call[1]))
            await emit(session, *(om.partial_tool_call("delta", "", w, call[1]) for w in words))
            await emit(session, om.partial_tool_call("stop", "", "", call[1]),
                       om.tool_call(call[0], "".join(words), call[1]))
            return
        part = om.partial_thinking if kind == "thinking" else om.partial_text
        await emit(session, part("start", ""), *(part("delta", w) for w in words), part("stop", ""))
        text = "".join(words)
        await emit(session, om.thinking(text, fidelity={"signature": "EqQBCkYIBxgCKkD+/=="}) if kind == "thinking"
                   else om.assistant_text(text))

    def meta(sid: str, model: str, prompt: str, source: Any = None) -> om.SessionMetaMessage:
        return om.session_meta(session_id=sid, provider="anthropic", model_id=model, model_context_window=200000,
                               system_prompt=prompt, agent_state="/home/mira/.penguin/agent_state",
                               workspace="/home/mira/work/tidepool", source=source)

    usage = om.token_counts(cache_read=1200, cache_write=100, output=40, total=1340)
    main = Session(TraceWriter(traces, main_id), channel)
    main.start(meta(main_id, "claude-opus-5", "You are Penguin.\n"))
    await emit(main, om.user_text("Which stations lack a timezone? Ask a helper to audit the table."),
               om.request_begin())
    await stream(main, "thinking", ["The table ", "is large; ", "delegate the audit."])
    await stream(main, "text", ["I'll ask ", "a helper ", "to audit ", "stations.csv."])
    call = "toolu_01RsU8wHc5NpQ2kXz7LbTm4E"
    await stream(main, "tool_call", ['{"prompt":', '"Audit the ', 'stations table."}'], ("run_subagent", call))
    await emit(main, om.approval_decision("allow", call), om.partial_tool_call_output("start", "", call),
               om.token_usage(usage, usage), om.request_end("completed"))

    child = main.child(TraceWriter(traces, child_id))
    child.start(meta(child_id, "claude-sonnet-5", "You are a subagent.\n", "subagent"), announce=True)
    cutter.published(channel)
    await asyncio.sleep(delay)
    await emit(child, om.user_text("Audit the stations table.", sender="parent_agent"), om.request_begin())
    read = "toolu_01TnE6vKp3WsQ9cMx2LbRa7H"
    await stream(child, "tool_call", ['{"path":"data/', 'stations.csv"}'], ("read_file", read))
    rows = "id,name,tz\nKEL-04,Kelso,\nKEL-07,Kirkby,Europe/London\nKEL-09,Keld,\n"
    await emit(child, om.approval_decision("allow", read), om.partial_tool_call_output("start", "", read),
               om.partial_tool_call_output("delta", rows[:30], read),
               om.partial_tool_call_output("delta", rows[30:], read),
               om.partial_tool_call_output("stop", "", read), om.tool_call_output(rows, read),
               om.token_usage(usage, usage), om.request_end("completed"), om.request_begin())
    await stream(child, "text", ["KEL-04 and ", "KEL-09 lack ", "a timezone."])
    await emit(child, om.token_usage(usage, usage), om.request_end("completed"))
    child.close()

    done = "KEL-04 and KEL-09 lack a timezone."
    await emit(main, om.partial_tool_call_output("delta", done, call), om.partial_tool_call_output("stop", "", call),
               om.tool_call_output(done, call), om.request_begin())
    await stream(main, "text", ["Two stations ", "lack a timezone: ", "KEL-04 and KEL-09 ✓"])
    await emit(main, om.token_usage(usage, usage), om.request_end("completed"))
    main.close()


async def main(port: int, delay: float, traces: Path, cut_after: set[int]) -> None:
    channel = SseChannel()
    cutter = Cutter(cut_after)
    server = await serve(make_app(channel, cutter), "127.0.0.1", port)
    print(f"serving http://127.0.0.1:{server.sockets[0].getsockname()[1]}/", flush=True)
    print(f"traces under {traces}", flush=True)
    while channel.subscriber_count == 0:  # the session starts live, once a page listens
        await asyncio.sleep(0.02)
    await run_session(channel, traces, delay, cutter)
    print("session done", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0,
                    help="the port on 127.0.0.1 (default 0: any free port; the address is printed)")
    ap.add_argument("--delay", type=float, default=0.15, help="seconds between messages (default 0.15)")
    ap.add_argument("--traces", type=Path, default=None, help="where the traces go (default: a new temporary folder)")
    ap.add_argument("--cut-after", default="", help="drop the connection when these events (1, 2, ...) are sent")
    ns = ap.parse_args()
    cuts = {int(x) for x in ns.cut_after.split(",") if x.strip()}
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C stops the server
        asyncio.run(main(ns.port, ns.delay, ns.traces or Path(tempfile.mkdtemp(prefix="om-live-")), cuts))
