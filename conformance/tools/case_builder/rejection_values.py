# ruff: noqa: E501  (fixture lines are long literals)
"""Group `rejection`, values outside their vocabulary or range: `invalid_value`.

One defect per line, each category several times."""

from __future__ import annotations

from .collector import rejection_case
from .hand_written_lines import REQUEST_BEGIN, TIMESTAMP_MEMBER, event_line, model_line


def generate_value_rejections() -> None:
    # invalid_value
    V = "invalid_value"
    for retired in ("failed", "timeout", "malformed", "auth"):
        rejection_case(
            f"retired-stop-reason-{retired}",
            f"the retired stop reason {retired!r}",
            model_line('{"type":"text","role":"user","text":"x","stop_reason":"' + retired + '"}'),
            V,
            pointer="/payload/stop_reason",
        )
    rejection_case(
        "retired-source-benchmark",
        "the retired session source `benchmark`",
        "{"
        + TIMESTAMP_MEMBER
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":"","workspace":"","source":"benchmark"}}\n',
        V,
        pointer="/payload/source",
    )
    rejection_case("role-system", "role `system`", model_line('{"type":"text","role":"system","text":"x"}'), V, pointer="/payload/role")
    rejection_case(
        "thinking-role-user",
        "thinking's role is always assistant",
        model_line('{"type":"thinking","role":"user","thinking":"x"}'),
        V,
        pointer="/payload/role",
    )
    rejection_case(
        "output-role-assistant",
        "tool_call_output's role is always user",
        model_line('{"type":"tool_call_output","role":"assistant","output":"","tool_call_id":"c"}'),
        V,
        pointer="/payload/role",
    )
    rejection_case(
        "attempt-0",
        "attempt 0",
        event_line('{"type":"request_end","status":"completed","attempt":0}'),
        V,
        pointer="/payload/attempt",
    )
    rejection_case(
        "attempt-negative",
        "attempt -1",
        event_line('{"type":"request_end","status":"completed","attempt":-1}'),
        V,
        pointer="/payload/attempt",
    )
    rejection_case(
        "count-2^53",
        "a token count of 2^53",
        event_line(
            '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":0,"total":9007199254740992},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        V,
        pointer="/payload/session/total",
    )
    rejection_case(
        "count-negative",
        "a negative token count",
        event_line(
            '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":-1,"total":0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        V,
        pointer="/payload/session/output",
    )
    rejection_case(
        "context-huge-integer",
        "compaction context of 10^25 (an integer beyond 2^53-1)",
        event_line(
            '{"type":"compaction_begin","reason":"manual","mode":"discard","context":10000000000000000000000000,"turns":0}'
        ),
        V,
        pointer="/payload/context",
    )
    rejection_case(
        "duration-negative",
        "a negative duration",
        event_line(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed","duration_ms":-1}]}'
        ),
        V,
        pointer="/payload/results/0/duration_ms",
    )
    rejection_case(
        "retry-negative",
        "retry_in_ms -0.5",
        event_line('{"type":"request_end","status":"retryable","retry_in_ms":-0.5}'),
        V,
        pointer="/payload/retry_in_ms",
    )
    rejection_case(
        "window-negative",
        "model_context_window -1",
        "{"
        + TIMESTAMP_MEMBER
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":-1,"system_prompt":"","agent_state":"","workspace":""}}\n',
        V,
        pointer="/payload/model_context_window",
    )
    rejection_case("origin-empty", "an empty origin", event_line(REQUEST_BEGIN, ',"origin":[]'), V, pointer="/origin")
    rejection_case(
        "abort-code-unknown",
        "an abort error code that is no `ErrorCode`",
        event_line('{"type":"abort","error_code":"cancelled"}'),
        V,
        pointer="/payload/error_code",
    )
    rejection_case(
        "sender-assistant",
        "sender `assistant`",
        model_line('{"type":"text","role":"user","text":"x","sender":"assistant"}'),
        V,
        pointer="/payload/sender",
    )
    rejection_case(
        "transport-ws",
        "transport `ws`",
        event_line(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"ws","status":"completed","duration_ms":1}]}'
        ),
        V,
        pointer="/payload/results/0/transport",
    )
    rejection_case(
        "decision-maybe",
        "approval decision `maybe`",
        event_line('{"type":"approval_decision","decision":"maybe","tool_call_id":"c"}'),
        V,
        pointer="/payload/decision",
    )
    rejection_case(
        "hook-decision-block",
        "hook decision `block`",
        event_line('{"type":"hook","hook":"stop","name":"h","decision":"block"}'),
        V,
        pointer="/payload/decision",
    )
    rejection_case(
        "event-type-end",
        "stream event type `end`",
        model_line('{"type":"partial_text","role":"assistant","event_type":"end","text":""}'),
        V,
        pointer="/payload/event_type",
    )
    rejection_case(
        "error-code-unknown",
        "an unknown error code",
        event_line('{"type":"request_end","status":"fatal","error_code":"E_TIMEOUT"}'),
        V,
        pointer="/payload/error_code",
    )
    rejection_case(
        "enum-case",
        "enum values are case-sensitive",
        event_line('{"type":"request_end","status":"Completed"}'),
        V,
        pointer="/payload/status",
    )


# ---------------------------------------------------------------------------
# lenient: the optional mode of spec section 5
# ---------------------------------------------------------------------------
