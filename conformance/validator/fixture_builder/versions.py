"""Fixtures of the version-keyed rules: OM117 (`--protocol VERSION`), and the OM303 / OM309
behaviours the newest protocol (`next`) has and older ones do not."""

from __future__ import annotations

from .fixture import CB, M, fx, stream, trace

CE = {"type": "compaction_end", "reason": "context", "mode": "summarize", "status": "completed", "attempt": 1}
PREFIX = {"type": "request_begin", "prefix_hash": "5d41402abc4b2a76b9719d911017c592",
          "prefix_head_hash": "7d793037a0760186574b0282f2f435e7", "prefix_records": 3, "prefix_chars": 812}


def _thinking_compaction(f: object) -> None:
    f.ev(CB)  # type: ignore[attr-defined]
    for et, body in (("start", ""), ("delta", "Keep the open question."), ("stop", "")):
        f.model({"type": "partial_thinking", "role": "assistant", "event_type": et, "thinking": body,  # type: ignore[attr-defined]
                 "stop_reason": "completed"})
    f.ptext("start")  # type: ignore[attr-defined]
    f.ptext("delta", "[summary]The user asked for a listing.[/summary]")  # type: ignore[attr-defined]
    f.ptext("stop", stop_reason="completed")  # type: ignore[attr-defined]
    f.usage()  # type: ignore[attr-defined]
    f.ev(CE)  # type: ignore[attr-defined]


def declare() -> None:
    f = fx("OM117", "pass-own-version", "trace", "a 0.2.4 trace under --protocol 0.2.4: its retired spellings are its "
           "own", protocol="0.2.4")
    f.meta(source="schedule")
    f.tools()
    f.user()
    f.begin()
    f.say()
    f.usage()
    f.obj(M("event_msg", {"type": "request_end", "status": "failed", "retry_in_ms": 2000}))
    f = trace("OM117", "fail-newer-field", "request_begin's prefix fingerprint under --protocol 0.2.6 (it came in next)",
              protocol="0.2.6")
    f.user()
    n = f.obj(M("event_msg", PREFIX))
    f.say()
    f.usage()
    f.end()
    for key in ("prefix_hash", "prefix_head_hash", "prefix_records", "prefix_chars"):
        f.expect("OM117", n, pointer=f"/payload/{key}")
    f = fx("OM117", "fail-newer-value", "trace", "stop reason `retryable` under --protocol 0.2.4 (it came in 0.2.6)",
           protocol="0.2.4")
    f.meta(source="schedule")
    f.tools()
    f.user()
    f.begin()
    n = f.end("retryable", retry_in_ms=2000)
    f.expect("OM117", n, pointer="/payload/status")
    f.expect("OM506", n)  # read as the newest reads it: a retryable end without its error pair
    f = fx("OM117", "fail-retired-field", "trace", "session_meta `tools` under --protocol 0.2.4 (retired in 0.2.2)",
           protocol="0.2.4")
    n = f.obj(M("session_meta", {"session_id": "session-2026-08-22-09-15-48-f03b7c2a", "provider": "anthropic",
                                 "model_id": "claude-sonnet-4", "model_context_window": 200000,
                                 "system_prompt": "You are a helpful agent.", "tools": [],
                                 "agent_state": "/home/agent/.agent/state", "workspace": "/home/agent/work"}))
    f.expect("OM117", n, pointer="/payload/tools")

    f = stream("OM303", "pass-compaction-thinking-streamed", "protocol next: the compaction request's thinking streams "
               "as partial_thinking with no complete thinking after the stop, as its text does")
    _thinking_compaction(f)
    f = stream("OM303", "fail-compaction-thinking-before-next", "the same under --protocol 0.2.6: only the summary's "
               "text streamed that way then", protocol="0.2.6")
    _thinking_compaction(f)
    f.expect("OM303", 5)

    f = stream("OM309", "pass-model-switch-meta", "protocol next: a model switch ends with the new context's "
               "tool_list_ready and, last, its session_meta without origin")
    f.ev({**CB, "reason": "manual"})
    f.say("[summary]Renamed the field.[/summary]")
    f.usage()
    f.ev({**CE, "reason": "manual"})
    f.tools()
    f.meta()
    f.streamed_turn()
    f = stream("OM309", "fail-meta-after-other-messages", "a main-session session_meta after the new context's "
               "records were followed by other messages")
    f.ev(CB)
    f.usage()
    f.ev(CE)
    f.tools()
    f.streamed_turn()
    n = f.meta()
    f.expect("OM309", n)

    f = trace("OM707", "pass-prefix-digests", "the fingerprint's digests as the reference writes them")
    f.user()
    f.ev(PREFIX)
    f.say()
    f.usage()
    f.end()
    f = trace("OM707", "fail-prefix-digest-upper-case", "a full-length upper-case digest")
    f.user()
    n = f.ev({**PREFIX, "prefix_head_hash": "7D793037A0760186574B0282F2F435E7F2F435E7"})
    f.say()
    f.usage()
    f.end()
    f.expect("OM707", n)
