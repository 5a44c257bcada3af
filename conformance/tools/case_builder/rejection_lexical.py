# ruff: noqa: E501  (fixture lines are long literals)
"""Group `rejection`, what a parser sees but a schema cannot: `duplicate_key`, `lone_surrogate`, `invalid_number`.

One defect per line, each category several times."""

from __future__ import annotations

from .collector import rejection_case
from .hand_written_lines import REQUEST_BEGIN, TIMESTAMP_MEMBER, event_line, model_line, user_text_line


def generate_lexical_rejections() -> None:
    # duplicate_key
    K = "duplicate_key"
    rejection_case(
        "envelope-type",
        "the envelope `type` twice",
        '{"type":"event_msg",' + TIMESTAMP_MEMBER + ',"type":"event_msg","payload":' + REQUEST_BEGIN + "}\n",
        K,
        pointer="/type",
    )
    rejection_case(
        "payload-type",
        "the payload `type` twice",
        event_line('{"type":"request_begin","type":"request_begin"}'),
        K,
        pointer="/payload/type",
    )
    rejection_case(
        "after-unescaping",
        '`"type"` and `"typ\\u0065"` collide',
        event_line('{"type":"request_begin","typ\\u0065":"request_begin"}'),
        K,
        pointer="/payload/type",
        tags=["escape"],
    )
    rejection_case(
        "different-values",
        "a field twice with different values",
        model_line('{"type":"text","role":"user","text":"a","text":"b"}'),
        K,
        pointer="/payload/text",
    )
    rejection_case(
        "fidelity-key",
        "the `fidelity` key itself twice (it is outside the verbatim value)",
        model_line('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{},"fidelity":{}}'),
        K,
        pointer="/payload/fidelity",
        tags=["verbatim"],
    )
    rejection_case(
        "token-counts",
        "a nested TokenCounts key twice",
        event_line(
            '{"type":"token_usage","session":{"cache_read":1,"cache_write":1,"output":1,"total":1,"total":1},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        K,
        pointer="/payload/session/total",
    )
    rejection_case(
        "tool-definition",
        "a ToolDefinition key twice",
        event_line('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","name":"a"}]}'),
        K,
        pointer="/payload/tools/0/name",
    )
    rejection_case(
        "before-unexpected-field",
        "precedence: the duplicate key wins over the unknown field it duplicates",
        event_line('{"type":"request_begin","x":1,"x":1}'),
        K,
        pointer="/payload/x",
        tags=["precedence"],
    )
    rejection_case(
        "before-lone-surrogate",
        "precedence: document order, the duplicate key comes first",
        model_line('{"type":"text","type":"text","role":"user","text":"\\ud800"}'),
        K,
        pointer="/payload/type",
        tags=["precedence"],
    )
    # lone_surrogate
    L = "lone_surrogate"
    rejection_case("high", "a lone high surrogate escape", user_text_line("x\\ud800"), L, pointer="/payload/text")
    rejection_case("low", "a lone low surrogate escape", user_text_line("\\udc00x"), L, pointer="/payload/text")
    rejection_case("reversed-pair", "a low surrogate before a high one", user_text_line("\\udc00\\ud800"), L, pointer="/payload/text")
    rejection_case("high-at-end", "a high surrogate cut at the end of a string", user_text_line("abc\\ud83d"), L, pointer="/payload/text")
    rejection_case(
        "high-then-ascii",
        "a high surrogate followed by a non-surrogate escape",
        user_text_line("\\ud800\\u0041"),
        L,
        pointer="/payload/text",
    )
    rejection_case("upper-hex", "an upper-case lone surrogate escape", user_text_line("\\uDBFF"), L, pointer="/payload/text")
    rejection_case(
        "in-timestamp",
        "a lone surrogate in the timestamp",
        '{"timestamp":"\\ud800","type":"event_msg","payload":' + REQUEST_BEGIN + "}\n",
        L,
        pointer="/timestamp",
    )
    rejection_case("in-origin", "a lone surrogate in an origin id", event_line(REQUEST_BEGIN, ',"origin":["a","\\udfff"]'), L, pointer="/origin/1")
    rejection_case(
        "in-key",
        "a lone surrogate escaped in a key (before the unexpected-field check)",
        event_line('{"type":"request_begin","\\ud800":1}'),
        L,
        tags=["precedence"],
    )
    rejection_case(
        "in-tool-name",
        "a lone surrogate in a tool name",
        event_line('{"type":"tool_list_ready","tools":[{"name":"\\ud800","description":""}]}'),
        L,
        pointer="/payload/tools/0/name",
    )
    # spec 4.1: only the fragment field of a partial may escape a lone surrogate
    rejection_case(
        "partial-name",
        "a lone surrogate in a partial's other field (`partial_tool_call.name`)",
        model_line('{"type":"partial_tool_call","role":"assistant","event_type":"delta","name":"\\ud83d","arguments":"","tool_call_id":"c"}'),
        L,
        pointer="/payload/name",
    )
    rejection_case(
        "partial-tool-call-id",
        "a lone surrogate in `partial_tool_call_output.tool_call_id`",
        model_line('{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"x","tool_call_id":"c\\udbff"}'),
        L,
        pointer="/payload/tool_call_id",
    )
    rejection_case(
        "partial-images",
        "a lone surrogate in a partial's `images` item",
        model_line('{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"","images":["\\udc00"],"tool_call_id":"c"}'),
        L,
        pointer="/payload/images/0",
    )
    rejection_case(
        "partial-key",
        "a lone surrogate escaped in a key of a partial (before the unexpected-field check)",
        model_line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d","\\ud83d":1}'),
        L,
        tags=["precedence"],
    )
    rejection_case(
        "partial-fidelity",
        "a lone surrogate in a `fidelity` member of a partial: partials carry no fidelity, so it is not verbatim there (before the unexpected-field check)",
        model_line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"x","fidelity":{"sig":"\\ud83d"}}'),
        L,
        pointer="/payload/fidelity/sig",
        tags=["precedence"],
    )
    rejection_case(
        "partial-other-kind-field",
        "the fragment field of another partial kind (`arguments` on a `partial_text`), before the unexpected-field check",
        model_line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"","arguments":"\\ud83d"}'),
        L,
        pointer="/payload/arguments",
        tags=["precedence"],
    )
    rejection_case(
        "partial-origin",
        "a lone half in the fragment field is fine, one in the origin of the same line is not",
        "{"
        + TIMESTAMP_MEMBER
        + ',"type":"model_msg","payload":{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d"},"origin":["\\ud800"]}\n',
        L,
        pointer="/origin/0",
    )
    rejection_case(
        "complete-output",
        "a complete `tool_call_output.output` (the complete message never holds a lone half)",
        model_line('{"type":"tool_call_output","role":"user","output":"abc\\ud83d","tool_call_id":"c"}'),
        L,
        pointer="/payload/output",
    )
    rejection_case(
        "complete-arguments",
        "a complete `tool_call.arguments`",
        model_line('{"type":"tool_call","role":"assistant","name":"n","arguments":"\\ude00","tool_call_id":"c"}'),
        L,
        pointer="/payload/arguments",
    )
    rejection_case(
        "partial-under-event-envelope",
        "a partial payload type under `event_msg` is no partial: the lone surrogate wins over the unknown type",
        event_line('{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d"}'),
        L,
        pointer="/payload/text",
        tags=["precedence"],
    )
    rejection_case(
        "before-missing-field",
        "precedence: a lone surrogate wins over a missing field",
        model_line('{"type":"text","role":"user","tool":"\\ud800"}'),
        L,
        pointer="/payload/tool",
        tags=["precedence"],
    )
    # invalid_number
    N = "invalid_number"
    for name, field, v, ptr in [
        ("attempt-1.0", "attempt", "1.0", "/payload/attempt"),
        ("attempt-1e0", "attempt", "1e0", "/payload/attempt"),
        ("attempt-1E2", "attempt", "1E2", "/payload/attempt"),
        ("attempt-10e-1", "attempt", "10e-1", "/payload/attempt"),
        ("retry-1e400", "retry_in_ms", "1e400", "/payload/retry_in_ms"),
        ("retry-minus-1e400", "retry_in_ms", "-1E400", "/payload/retry_in_ms"),
        ("retry-2e308-plain", "retry_in_ms", "2" + "0" * 308, "/payload/retry_in_ms"),
        ("attempt-1e400", "attempt", "1e400", "/payload/attempt"),
        ("attempt-2e308-plain", "attempt", "2" + "0" * 308, "/payload/attempt"),
        ("retry-1-and-400-zeros", "retry_in_ms", "1" + "0" * 400, "/payload/retry_in_ms"),
    ]:
        rejection_case(
            name,
            f"{field} written {v[:24]}{'...' if len(v) > 24 else ''}",
            event_line('{"type":"request_end","status":"completed","' + field + '":' + v + "}"),
            N,
            "4",
            pointer=ptr,
            tags=["number-spelling"],
        )
    rejection_case(
        "token-count-0.0",
        "a token count written 0.0",
        event_line(
            '{"type":"token_usage","session":{"cache_read":0.0,"cache_write":0,"output":0,"total":0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        N,
        pointer="/payload/session/cache_read",
    )
    rejection_case(
        "context-1e3",
        "compaction context written 1e3",
        event_line('{"type":"compaction_begin","reason":"manual","mode":"discard","context":1e3,"turns":0}'),
        N,
        pointer="/payload/context",
    )
    rejection_case(
        "mcp-tools-2.0",
        "mcp tools written 2.0",
        event_line(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed","duration_ms":1,"tools":2.0}]}'
        ),
        N,
        pointer="/payload/results/0/tools",
    )
    rejection_case(
        "window-1e400",
        "model_context_window written 1e400",
        "{"
        + TIMESTAMP_MEMBER
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1e400,"system_prompt":"","agent_state":"","workspace":""}}\n',
        N,
        pointer="/payload/model_context_window",
    )
    rejection_case(
        "duration-1e400",
        "duration_ms written 1e400",
        event_line(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed","duration_ms":1e400}]}'
        ),
        N,
        pointer="/payload/results/0/duration_ms",
    )
    rejection_case(
        "in-origin-before-wrong-type",
        "precedence: 1e400 in origin is invalid_number before wrong_type",
        event_line(REQUEST_BEGIN, ',"origin":[1e400]'),
        N,
        pointer="/origin/0",
        tags=["precedence"],
    )
    rejection_case(
        "in-unknown-field",
        "precedence: 1e400 under an unknown key is invalid_number before unexpected_field",
        event_line(REQUEST_BEGIN, ',"x":1e400'),
        N,
        pointer="/x",
        tags=["precedence"],
    )
