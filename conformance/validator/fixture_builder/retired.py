# ruff: noqa: E501  (fixture descriptions are long literals)
"""OM75x: retired spellings of old releases (--legacy)."""

from __future__ import annotations

from .fixture import SID, M, fx, trace


def declare() -> None:
    """Declare the OM75x fixtures."""
    f = trace("OM751", "pass-current-stop-reasons", "current stop reasons, with --legacy", legacy=True)
    f.begin()
    f.end(status="fatal", error_code="auth", error_message="401")
    f = trace("OM751", "fail-failed", "an old trace's request_end status failed (--legacy)", legacy=True)
    f.begin()
    n = f.obj(M("event_msg", {"type": "request_end", "status": "failed",
                                                          "error_code": "network", "error_message": "reset"}))
    f.expect("OM751", n)
    f = trace("OM751", "fail-failed-then-retried", "releases 0.1.5 to 0.2.4 retried `failed`: with retry_in_ms it reads as "
              "retryable (--legacy), so no OM502", legacy=True)
    f.begin()
    n = f.obj(M("event_msg", {"type": "request_end", "status": "failed", "error_code": "network",
                              "error_message": "socket hang up", "attempt": 1, "retry_in_ms": 2000}))
    f.begin()
    f.say()
    f.usage()
    f.end()
    f.expect("OM751", n)
    f = trace("OM751", "fail-timeout-stop-reason", "a model message with stop_reason timeout (--legacy)", legacy=True)
    n = f.obj(M("model_msg", {"type": "text", "role": "assistant", "text": "par",
                                                          "stop_reason": "timeout"}))
    f.expect("OM751", n)

    f = fx("OM752", "pass-current-session-meta", "trace", "no retired fields, with --legacy", legacy=True)
    f.meta()
    f.tools()
    f = fx("OM752", "fail-thinking-level", "trace", "session_meta with thinking_level and tools (--legacy)", legacy=True)
    n = f.obj(M("session_meta", {
        "session_id": SID, "provider": "anthropic", "model_id": "claude", "model_context_window": 200000,
        "system_prompt": "", "agent_state": "/s", "workspace": "/w", "thinking_level": "high", "tools": ["read_file"]}))
    f.tools()
    f.expect("OM752", n)
    f.expect("OM752", n)

    f = trace("OM753", "pass-abort-error-pair", "abort with error_code and error_message")
    f.ev({"type": "abort", "error_code": "user_abort", "error_message": "Interrupted"})
    f = trace("OM753", "fail-abort-reason", "abort with legacy prose reason")
    n = f.ev({"type": "abort", "reason": "User pressed Ctrl-C"})
    f.expect("OM753", n)
    f = trace("OM753", "pass-abort-reason-null", "abort with reason null (no prose)")
    f.ev({"type": "abort", "error_code": "user_abort", "error_message": "Interrupted", "reason": None})

    f = fx("OM754", "pass-mcp-error-pair", "trace", "a failed MCP server with the error pair (--legacy)", legacy=True)
    f.meta()
    f.ev({"type": "mcp_connect_begin", "servers": ["files"]})
    f.ev({"type": "mcp_connect_end", "status": "fatal", "error_code": "connect_failed", "error_message": "1 failed",
          "results": [{"server": "files", "transport": "stdio", "status": "fatal", "duration_ms": 3,
                       "error_code": "connect_failed", "error_message": "spawn ENOENT"}]})
    f.tools()
    f = fx("OM754", "fail-mcp-error-field", "trace", "a per-server error string (--legacy)", legacy=True)
    f.meta()
    f.ev({"type": "mcp_connect_begin", "servers": ["files"]})
    n = f.obj(M("event_msg", {
        "type": "mcp_connect_end", "status": "fatal", "error_code": "connect_failed", "error_message": "1 failed",
        "results": [{"server": "files", "transport": "stdio", "status": "fatal", "duration_ms": 3,
                     "error_code": "connect_failed", "error": "spawn ENOENT"}]}))
    f.tools()
    f.expect("OM754", n)

    f = trace("OM755", "pass-error-message", "request_end with error_message (--legacy)", legacy=True)
    f.begin()
    f.end(status="fatal", error_code="auth", error_message="401")
    f = trace("OM755", "fail-request-end-message", "request_end with message (--legacy)", legacy=True)
    f.begin()
    n = f.obj(M("event_msg", {"type": "request_end", "status": "fatal", "error_code": "auth",
                                                          "message": "401 Unauthorized"}))
    f.expect("OM755", n)

    f = trace("OM757", "pass-no-goal-event", "a legacy trace without goal mode (--legacy)", legacy=True)
    f.turn()
    f = trace("OM757", "fail-goal-finished", "goal mode's goal_finished event of releases 0.1.5 to 0.2.4 (--legacy)",
              legacy=True)
    f.turn()
    n = f.obj(M("event_msg", {"type": "goal_finished", "outcome": "achieved", "rounds": 3, "tokens_used": 48210}))
    f.expect("OM757", n)

    f = fx("OM756", "pass-source-cli", "trace", "source cli (--legacy)", legacy=True)
    f.meta(source="cli")
    f.tools()
    f = fx("OM756", "fail-source-benchmark", "trace", "source benchmark (--legacy)", legacy=True)
    n = f.obj(M("session_meta", {
        "session_id": SID, "provider": "anthropic", "model_id": "claude", "model_context_window": 200000,
        "system_prompt": "", "agent_state": "/s", "workspace": "/w", "source": "benchmark"}))
    f.tools()
    f.expect("OM756", n)
