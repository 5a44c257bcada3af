# ruff: noqa: E501  (fixture lines are long literals)
"""Group `rejection`, the shape of a message: `wrong_type`, `missing_field`, `unexpected_field`, `unknown_type`.

One defect per line, each category several times."""

from __future__ import annotations

from .collector import rejection_case
from .hand_written_lines import GOOD_LINE, REQUEST_BEGIN, TIMESTAMP_MEMBER, event_line, model_line


def generate_structure_rejections() -> None:
    # wrong_type
    W = "wrong_type"
    for name, top in [
        ("top-array", "[]"),
        ("top-string", '"x"'),
        ("top-number", "1"),
        ("top-null", "null"),
        ("top-true", "true"),
        ("top-array-of-message", "[" + GOOD_LINE + "]"),
    ]:
        rejection_case(name, f"the line is {top[:20]}, not an object", top + "\n", W, pointer="")
    rejection_case("payload-array", "the payload is an array", event_line("[]"), W, pointer="/payload")
    rejection_case("payload-null", "the payload is null", event_line("null"), W, pointer="/payload")
    rejection_case("text-number", "text is a number", model_line('{"type":"text","role":"user","text":1}'), W, pointer="/payload/text")
    rejection_case(
        "timestamp-number",
        "the timestamp is a number",
        '{"timestamp":1,"type":"event_msg","payload":' + REQUEST_BEGIN + "}\n",
        W,
        pointer="/timestamp",
    )
    rejection_case(
        "envelope-type-number",
        "the envelope type is a number",
        "{" + TIMESTAMP_MEMBER + ',"type":1,"payload":' + REQUEST_BEGIN + "}\n",
        W,
        pointer="/type",
    )
    rejection_case("payload-type-null", "the payload type is null", event_line('{"type":null}'), W, pointer="/payload/type")
    rejection_case(
        "fidelity-string",
        "fidelity is a string",
        model_line('{"type":"text","role":"user","text":"x","fidelity":"sig"}'),
        W,
        pointer="/payload/fidelity",
        tags=["verbatim"],
    )
    rejection_case(
        "fidelity-array",
        "fidelity is an array",
        model_line('{"type":"text","role":"user","text":"x","fidelity":[]}'),
        W,
        pointer="/payload/fidelity",
        tags=["verbatim"],
    )
    rejection_case(
        "fidelity-null",
        "fidelity is null",
        model_line('{"type":"text","role":"user","text":"x","fidelity":null}'),
        W,
        pointer="/payload/fidelity",
        tags=["verbatim"],
    )
    rejection_case(
        "parameters-array",
        "tool parameters are an array",
        event_line('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","parameters":[]}]}'),
        W,
        pointer="/payload/tools/0/parameters",
        tags=["verbatim"],
    )
    rejection_case(
        "hook-output-nested",
        "a hook output member is an object",
        event_line('{"type":"hook","hook":"stop","name":"h","output":{"a":{}}}'),
        W,
        pointer="/payload/output/a",
        tags=["verbatim"],
    )
    rejection_case(
        "hook-output-array-member",
        "a hook output member is an array",
        event_line('{"type":"hook","hook":"stop","name":"h","output":{"ok":true,"a":[1]}}'),
        W,
        pointer="/payload/output/a",
        tags=["verbatim"],
    )
    rejection_case(
        "hook-output-null-member",
        "a hook output member is null",
        event_line('{"type":"hook","hook":"stop","name":"h","output":{"a":null}}'),
        W,
        pointer="/payload/output/a",
        tags=["verbatim"],
    )
    rejection_case(
        "hook-output-string",
        "the hook output is a string",
        event_line('{"type":"hook","hook":"stop","name":"h","output":"x"}'),
        W,
        pointer="/payload/output",
        tags=["verbatim"],
    )
    rejection_case("origin-string", "origin is a string", event_line(REQUEST_BEGIN, ',"origin":"a"'), W, pointer="/origin")
    rejection_case("origin-null", "origin is null (null is a value, not absence)", event_line(REQUEST_BEGIN, ',"origin":null'), W, pointer="/origin")
    rejection_case(
        "stop-reason-null",
        "stop_reason is null (null is a value, not absence)",
        model_line('{"type":"text","role":"user","text":"x","stop_reason":null}'),
        W,
        pointer="/payload/stop_reason",
    )
    rejection_case(
        "attempt-null",
        "attempt is null",
        event_line('{"type":"request_end","status":"completed","attempt":null}'),
        W,
        pointer="/payload/attempt",
    )
    rejection_case("origin-item-number", "an origin id is a number", event_line(REQUEST_BEGIN, ',"origin":["a",1]'), W, pointer="/origin/1")
    rejection_case(
        "stop-reason-number",
        "stop_reason is a number",
        model_line('{"type":"text","role":"user","text":"x","stop_reason":0}'),
        W,
        pointer="/payload/stop_reason",
    )
    rejection_case(
        "attempt-boolean",
        "attempt is a boolean",
        event_line('{"type":"request_end","status":"completed","attempt":true}'),
        W,
        pointer="/payload/attempt",
    )
    rejection_case(
        "attempt-string",
        "attempt is a string",
        event_line('{"type":"request_end","status":"completed","attempt":"1"}'),
        W,
        pointer="/payload/attempt",
    )
    rejection_case(
        "window-boolean",
        "model_context_window is a boolean",
        "{"
        + TIMESTAMP_MEMBER
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":true,"system_prompt":"","agent_state":"","workspace":""}}\n',
        W,
        pointer="/payload/model_context_window",
    )
    rejection_case("reason-number", "abort reason is a number", event_line('{"type":"abort","reason":1}'), W, pointer="/payload/reason")
    rejection_case("tools-object", "tools is an object", event_line('{"type":"tool_list_ready","tools":{}}'), W, pointer="/payload/tools")
    rejection_case(
        "results-item-string",
        "a results item is a string",
        event_line('{"type":"mcp_connect_end","status":"completed","results":["x"]}'),
        W,
        pointer="/payload/results/0",
    )
    rejection_case(
        "images-item-number",
        "an image is a number",
        model_line('{"type":"tool_call_output","role":"user","output":"","images":[1],"tool_call_id":"c"}'),
        W,
        pointer="/payload/images/0",
    )
    rejection_case(
        "counts-array",
        "token counts are an array",
        event_line('{"type":"token_usage","session":[],"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'),
        W,
        pointer="/payload/session",
    )
    # missing_field
    M = "missing_field"
    rejection_case("timestamp", "no timestamp", '{"type":"event_msg","payload":' + REQUEST_BEGIN + "}\n", M, pointer="/timestamp")
    rejection_case("envelope-type", "no envelope type", "{" + TIMESTAMP_MEMBER + ',"payload":' + REQUEST_BEGIN + "}\n", M, pointer="/type")
    rejection_case("payload", "no payload", "{" + TIMESTAMP_MEMBER + ',"type":"event_msg"}\n', M, pointer="/payload")
    rejection_case("payload-type", "no payload type", event_line("{}"), M, pointer="/payload/type")
    rejection_case("text", "a text without text", model_line('{"type":"text","role":"user"}'), M, pointer="/payload/text")
    rejection_case("role", "a text without role", model_line('{"type":"text","text":"x"}'), M, pointer="/payload/role")
    rejection_case(
        "tool-call-id",
        "a tool call without id",
        model_line('{"type":"tool_call","role":"assistant","name":"n","arguments":"{}"}'),
        M,
        pointer="/payload/tool_call_id",
    )
    rejection_case(
        "session-workspace",
        "session_meta without workspace",
        "{"
        + TIMESTAMP_MEMBER
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":""}}\n',
        M,
        pointer="/payload/workspace",
    )
    rejection_case(
        "counts-total",
        "token counts without total",
        event_line(
            '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        M,
        pointer="/payload/session/total",
    )
    rejection_case(
        "server-duration",
        "an MCP result without duration_ms",
        event_line(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed"}]}'
        ),
        M,
        pointer="/payload/results/0/duration_ms",
    )
    rejection_case(
        "tool-description",
        "a tool without description",
        event_line('{"type":"tool_list_ready","tools":[{"name":"a"}]}'),
        M,
        pointer="/payload/tools/0/description",
    )
    rejection_case("hook-name", "a hook without name", event_line('{"type":"hook","hook":"stop"}'), M, pointer="/payload/name")
    rejection_case(
        "compaction-turns",
        "compaction_begin without turns",
        event_line('{"type":"compaction_begin","reason":"manual","mode":"discard","context":0}'),
        M,
        pointer="/payload/turns",
    )
    # unexpected_field
    U = "unexpected_field"
    rejection_case("envelope", "an unknown envelope key", event_line(REQUEST_BEGIN, ',"extra":1'), U, pointer="/extra")
    rejection_case("payload", "an unknown payload key", event_line('{"type":"request_begin","extra":true}'), U, pointer="/payload/extra")
    rejection_case(
        "session-meta-type",
        "session_meta payloads have no `type`",
        "{"
        + TIMESTAMP_MEMBER
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":"","workspace":"","type":"session_meta"}}\n',
        U,
        pointer="/payload/type",
    )
    rejection_case(
        "counts",
        "an unknown TokenCounts key",
        event_line(
            '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":0,"total":0,"input":0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        U,
        pointer="/payload/session/input",
    )
    rejection_case(
        "server",
        "an unknown McpServerResult key",
        event_line(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed","duration_ms":1,"pid":7}]}'
        ),
        U,
        pointer="/payload/results/0/pid",
    )
    rejection_case(
        "tool",
        "an unknown ToolDefinition key",
        event_line('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","input_schema":{}}]}'),
        U,
        pointer="/payload/tools/0/input_schema",
    )
    rejection_case(
        "compaction-end-retry",
        "compaction_end never carries retry_in_ms",
        event_line('{"type":"compaction_end","reason":"manual","mode":"discard","status":"retryable","retry_in_ms":5}'),
        U,
        pointer="/payload/retry_in_ms",
    )
    rejection_case(
        "thinking-sender",
        "sender is not a thinking field",
        model_line('{"type":"thinking","role":"assistant","thinking":"x","sender":"user"}'),
        U,
        pointer="/payload/sender",
    )
    rejection_case(
        "output-fidelity",
        "tool_call_output has no fidelity",
        model_line('{"type":"tool_call_output","role":"user","output":"","tool_call_id":"c","fidelity":{}}'),
        U,
        pointer="/payload/fidelity",
    )
    rejection_case(
        "capitalised-key",
        "keys are case-sensitive (`Type`)",
        event_line('{"type":"request_begin","Type":"x"}'),
        U,
        pointer="/payload/Type",
    )
    # unknown_type
    Y = "unknown_type"
    rejection_case(
        "envelope",
        "an unknown envelope type",
        "{" + TIMESTAMP_MEMBER + ',"type":"model_message","payload":' + REQUEST_BEGIN + "}\n",
        Y,
        pointer="/type",
    )
    rejection_case("envelope-empty", "an empty envelope type", "{" + TIMESTAMP_MEMBER + ',"type":"","payload":' + REQUEST_BEGIN + "}\n", Y, pointer="/type")
    rejection_case("payload", "an unknown payload type", event_line('{"type":"request_started"}'), Y, pointer="/payload/type")
    rejection_case("model-with-event", "model_msg with an event payload type", model_line(REQUEST_BEGIN), Y, pointer="/payload/type")
    rejection_case(
        "event-with-model",
        "event_msg with a model payload type",
        event_line('{"type":"text","role":"user","text":"x"}'),
        Y,
        pointer="/payload/type",
    )
    rejection_case(
        "payload-case",
        "payload types are case-sensitive",
        model_line('{"type":"Text","role":"user","text":"x"}'),
        Y,
        pointer="/payload/type",
    )
    rejection_case(
        "partial-image",
        "a plausible but undefined partial type",
        model_line('{"type":"partial_image_url","role":"user"}'),
        Y,
        pointer="/payload/type",
    )
