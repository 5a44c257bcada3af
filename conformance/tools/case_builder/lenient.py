# ruff: noqa: E501  (fixture lines are long literals)
"""Group `lenient`: the optional lenient mode (section 5): opaque messages kept byte for byte, and
what it still refuses."""

from __future__ import annotations

from .collector import CASES
from .hand_written_lines import TIMESTAMP_MEMBER, event_line


def generate_lenient() -> None:
    def keep(cid: str, desc: str, data: str) -> None:
        CASES.add(cid, "lenient", desc, "5", data.encode("utf-8", "surrogatepass"), mode="lenient", tags=["opaque"])

    keep(
        "unknown-payload-type",
        "a payload type from a newer version is kept as an opaque message",
        event_line('{"type":"request_paused","for_ms":1.0}'),
    )
    keep(
        "unknown-envelope-type",
        "an envelope type from a newer version is kept",
        "{" + TIMESTAMP_MEMBER + ',"type":"telemetry_msg","payload":{ "a" : 1 }}\n',
    )
    keep(
        "unknown-field",
        "an unknown field is kept, with the whole line's spelling",
        event_line('{"type":"request_begin", "trace_id" : "\\u0041"}'),
    )
    keep(
        "retired-value",
        "a retired stop reason is kept",
        "{" + TIMESTAMP_MEMBER + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"x","stop_reason":"failed"}}\n',
    )
    keep("duplicate-key", "a duplicate key is kept", event_line('{"type":"request_begin","type":"request_begin"}'))
    keep(
        "lone-surrogate",
        "a lone surrogate outside a partial's fragment field (here a complete text) is kept",
        "{" + TIMESTAMP_MEMBER + ',"type":"model_msg","payload":{"type":"text","role":"assistant","text":"\\ud83d"}}\n',
    )
    keep(
        "beyond-double",
        "a number beyond the double range is kept",
        event_line('{"type":"request_end","status":"completed","retry_in_ms":1e400}'),
    )
    keep(
        "integer-fraction",
        "an integer field written 1.0 is kept",
        event_line('{"type":"request_end","status":"completed","attempt":1.0}'),
    )
    keep("missing-field", "an object lacking required fields is kept", '{"timestamp":"t"}\n')
    keep("empty-object", "an empty object is kept", "{ }\n")
    CASES.add(
        "valid-noncanonical",
        "lenient",
        "a valid but non-canonical line is still re-encoded canonically",
        "5",
        ("{ " + TIMESTAMP_MEMBER + ', "type":"event_msg","payload":{"type":"request_begin"}}\n').encode(),
        mode="lenient",
        expect="canonical",
        output=("{" + TIMESTAMP_MEMBER + ',"type":"event_msg","payload":{"type":"request_begin"}}').encode(),
    )
    CASES.add(
        "valid-canonical",
        "lenient",
        "a valid canonical line comes back byte for byte",
        "5",
        ("{" + TIMESTAMP_MEMBER + ',"type":"event_msg","payload":{"type":"abort","reason":null}}\n').encode(),
        mode="lenient",
    )

    def refuse(cid: str, desc: str, data: bytes, category: str) -> None:
        CASES.add(cid, "lenient", desc, "5", data, mode="lenient", expect="reject", category=category)

    refuse("invalid-json", "lenient mode still refuses what is not JSON", b'{"timestamp":"t",}\n', "invalid_json")
    refuse("invalid-utf8", "lenient mode still refuses invalid UTF-8", b'{"timestamp":"\xff"}\n', "invalid_utf8")
    refuse("trailing-data", "lenient mode still refuses trailing data", b'{"timestamp":"t"} {}\n', "trailing_data")
    refuse(
        "too-deep",
        "lenient mode still refuses nesting beyond the limit",
        b'{"a":' + b"[" * 600 + b"]" * 600 + b"}\n",
        "too_deep",
    )
    CASES.add(
        "not-an-object", "lenient", "lenient mode keeps objects only", "5", b"[1,2]\n",
        mode="lenient", expect="reject", category="wrong_type", pointer="",
    )
    refuse("truncated", "lenient mode still reports a torn last line", b'{"timestamp":"t', "truncated")
