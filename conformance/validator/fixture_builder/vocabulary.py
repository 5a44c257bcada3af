"""OM5xx: the error vocabulary (error pairs, retries, attempts, abort codes)."""

from __future__ import annotations

from .fixture import CB, MR, M, fx, trace

CE = {"type": "compaction_end", "reason": "context", "mode": "summarize"}


def declare() -> None:
    """Declare the OM5xx fixtures."""
    f = trace("OM501", "pass-error-on-failure", "the error pair on a failed request")
    f.begin()
    f.end(status="retryable", error_code="timeout", error_message="timed out", attempt=1, retry_in_ms=2000)
    f = trace("OM501", "fail-error-on-completed", "a completed request carrying an error_code")
    f.begin()
    f.usage()
    n = f.end(error_code="timeout", error_message="timed out")
    f.expect("OM501", n)
    f = fx("OM501", "fail-mcp-result-error-on-completed", "trace", "a completed MCP server result with an error")
    f.meta()
    f.ev({"type": "mcp_connect_begin", "servers": ["files"]})
    n = f.ev({"type": "mcp_connect_end", "status": "completed", "results": [
        {**MR, "error_code": "connect_failed", "error_message": "spawn failed"}]})
    f.tools()
    f.expect("OM501", n)

    f = trace("OM502", "pass-retry-on-retryable", "retry_in_ms on a retryable request_end")
    f.begin()
    f.end(status="retryable", error_code="network", error_message="reset", attempt=1, retry_in_ms=500)
    f = trace("OM502", "fail-retry-on-fatal", "retry_in_ms on a fatal request_end")
    f.begin()
    n = f.end(status="fatal", error_code="auth", error_message="401", retry_in_ms=500)
    f.expect("OM502", n)
    f = trace("OM503", "pass-compaction-end-attempt", "a failed compaction_end reports its attempt")
    f.ev(CB)
    f.ev({**CE, "status": "retryable", "attempt": 3, "error_code": "timeout", "error_message": "timed out"})
    f = trace("OM503", "fail-retry-on-compaction-end", "compaction_end with retry_in_ms")
    f.ev(CB)
    n = f.obj(M("event_msg", {**CE, "status": "retryable", "error_code": "timeout",
                                                          "error_message": "timed out", "retry_in_ms": 1000}))
    f.expect("OM503", n)

    f = trace("OM504", "pass-attempt-1", "attempt counts from 1")
    f.begin()
    f.usage()
    f.end(attempt=1)
    f = trace("OM504", "fail-attempt-0", "attempt 0")
    f.begin()
    f.usage()
    n = f.obj(M("event_msg", {"type": "request_end", "status": "completed", "attempt": 0}))
    f.expect("OM504", n)

    f = trace("OM505", "pass-abort-code", "abort with user_abort")
    f.ev({"type": "abort", "error_code": "user_abort", "error_message": "Interrupted by the user"})
    f = trace("OM505", "fail-abort-timeout", "abort with the failure code timeout")
    n = f.obj(M("event_msg", {"type": "abort", "error_code": "timeout",
                                                          "error_message": "timed out"}))
    f.expect("OM505", n)

    f = trace("OM506", "pass-full-error-pair", "code and message together")
    f.begin()
    f.end(status="fatal", error_code="rejected", error_message="400 bad request")
    f = trace("OM506", "fail-failure-without-code", "a retryable request_end with no error_code")
    f.begin()
    n = f.end(status="retryable", error_message="upstream hiccup")
    f.expect("OM506", n)
    f = trace("OM506", "pass-compaction-request-message-alone", "a compaction's summary request fails with "
              "error_message alone, as the reference builds it, then succeeds")
    f.ev(CB)
    f.begin()
    f.end(status="retryable", error_message="socket hang up", attempt=1, retry_in_ms=1000)
    f.begin()
    f.usage()
    f.end(attempt=2)
    f.ev({**CE, "status": "completed", "attempt": 2})
    f = trace("OM506", "fail-code-without-message", "an aborted request_end with error_code only")
    f.begin()
    n = f.end(status="aborted", error_code="user_abort")
    f.expect("OM506", n)

    f = trace("OM507", "pass-decisions-of-their-points", "stop gives continue, pre_tool_use gives deny")
    f.ev({"type": "hook", "hook": "stop", "name": "goal", "decision": "continue", "reason": "not done yet"})
    f.ev({"type": "hook", "hook": "pre_tool_use", "name": "guard", "decision": "deny", "reason": "rm -rf"})
    f.ev({"type": "hook", "hook": "stop", "name": "notify"})
    f = trace("OM507", "fail-allow-at-stop", "a stop hook that answers allow")
    n = f.ev({"type": "hook", "hook": "stop", "name": "goal", "decision": "allow"})
    f.expect("OM507", n)
    f = trace("OM507", "fail-continue-at-pre-tool-use", "a pre_tool_use hook that answers continue")
    n = f.ev({"type": "hook", "hook": "pre_tool_use", "name": "guard", "decision": "continue"})
    f.expect("OM507", n)
