"""Cases written against the mistakes third-party implementations make (issue 13): typed fields
written back another way, two defects in one line, limits counted in characters, JSON-pointer
escaping, `null` against absent, validator rules applied in a decoder, torn lines holding other
defects, and numbers at the edges of the double. Each case is spread over the groups it belongs to."""

from __future__ import annotations

from typing import Any

from .canonical_json import Raw, msg
from .canonicalization import canonicalization_case
from .collector import CASES, rejection_case
from .hand_written_lines import event_line, model_line
from .payload_values import full, minimal
from .roundtrip import roundtrip_case
from .schema_facts import obj


def _rt(
    cid: str, desc: str, defname: str, spec: str = "2", ts: str | None = None, tags: tuple[str, ...] = (), **fields: Any
) -> None:
    payload = obj(defname, **fields) if fields else minimal(defname)
    m = msg(defname, payload) if ts is None else msg(defname, payload, ts=ts)
    roundtrip_case(f"typed.{cid}", desc, m, spec, ["third-party", *tags])


def _typed_fields() -> None:
    # timestamps: the schema types them as strings, so any spelling comes back as it was written
    for cid, ts, desc in [
        ("timestamp-no-fraction", "2026-07-18T03:10:22Z", "a timestamp without fraction (not padded to `.000`)"),
        (
            "timestamp-fraction-zeros",
            "2026-07-18T03:10:22.500Z",
            "a timestamp whose fraction ends in zeros (not trimmed to `.5`)",
        ),
        ("timestamp-offset", "2026-07-18T05:10:22.531+02:00", "a timestamp with an offset (not converted to UTC)"),
        (
            "timestamp-nanoseconds",
            "2026-07-18T03:10:22.531123456Z",
            "a timestamp with nanoseconds (not cut to milliseconds)",
        ),
        (
            "timestamp-future",
            "2999-12-31T23:59:59.999Z",
            "a timestamp far in the future (the decoder does not check clocks)",
        ),
    ]:
        _rt(cid, desc, "RequestBeginPayload", "8", ts=ts, tags=("timestamp",))
    # base64 data: a plain string, never re-encoded
    for cid, data, desc in [
        ("base64-unpadded", "iVBORw0KGgo", "base64 data without its `=` padding"),
        ("base64-plus-slash", "+/+/ab==", "base64 data holding `+` and `/` (not re-encoded URL-safe)"),
        ("base64-url-safe", "-_-_ab", "URL-safe base64 data (not re-encoded in the standard alphabet)"),
        ("base64-not-base64", "not base64!", "data that is not base64 at all (the schema only says string)"),
    ]:
        _rt(cid, desc, "InlineDataPayload", tags=("base64",), role="user", data=data, mime_type="image/png")
    # arguments: a string holding JSON text, never re-serialised
    for cid, args, desc in [
        ("arguments-spaced", '{ "path" : "src" ,"n":1 }', "arguments with the model's own whitespace"),
        ("arguments-key-order", '{"b":1,"a":2}', "arguments with keys out of alphabetical order"),
        ("arguments-non-ascii", '{"q":"café 😀"}', "arguments holding non-ASCII text (not escaped)"),
        ("arguments-not-json", '{"path":', "arguments that are not JSON (a cut-off model output)"),
    ]:
        _rt(
            cid,
            desc,
            "ToolCallPayload",
            tags=("arguments",),
            role="assistant",
            name="read",
            arguments=args,
            tool_call_id="call_01",
        )
    for cid, mime, desc in [
        ("mime-upper-case", "image/PNG", "a MIME type spelt with upper case (not lower-cased)"),
        ("mime-parameters", "text/plain; charset=utf-8", "a MIME type with parameters (kept)"),
    ]:
        _rt(cid, desc, "InlineDataPayload", tags=("mime",), role="user", data="aGk=", mime_type=mime)
    for cid, text, desc in [
        ("text-crlf", "line one\r\nline two\r\n", "text with CR LF line ends (not normalised)"),
        ("text-lone-cr", "progress 10%\rprogress 20%", "text with a lone CR (not normalised)"),
        ("text-surrounding-space", "  indented\n\n", "text with leading and trailing whitespace (not stripped)"),
        ("text-decomposed", "cafe\u0301", "text in decomposed form (not normalised to NFC)"),
        ("text-html", "<b>bold</b> & 'quotes'", "text holding `<`, `>` and `&` (not escaped)"),
        ("text-del", "a\x7fb", "text holding U+007F (written raw)"),
    ]:
        _rt(cid, desc, "TextPayload", tags=("strings",), role="user", text=text)
    _rt(
        "context-window-numeric-string",
        "a model_context_window given as a string of digits (not turned into a number)",
        "SessionMetaPayload",
        **{**full("SessionMetaPayload"), "model_context_window": "200000"},
    )
    _rt(
        "image-url-as-written",
        "an image URL with an upper-case host and no path (not normalised)",
        "ImageUrlPayload",
        role="user",
        image_url="HTTPS://Example.COM",
    )
    _rt(
        "tool-output-empty-images",
        "an empty images array is kept (omitted only by producers)",
        "ToolCallOutputPayload",
        role="user",
        output="ok",
        images=[],
        tool_call_id="call_01",
    )
    _rt(
        "user-text-without-sender",
        "a user text without sender (no default invented)",
        "TextPayload",
        role="user",
        text="hi",
    )


def _validator_rules() -> None:
    """Lines only the protocol validator objects to (section 8): a decoder keeps them."""
    _rt(
        "assistant-sender",
        "an assistant text with a sender (the validator's rule, not the decoder's)",
        "TextPayload",
        "8",
        role="assistant",
        text="hi",
        sender="harness",
    )
    _rt(
        "unpaired-tool-output",
        "a tool output with no call before it (pairing is the validator's business)",
        "ToolCallOutputPayload",
        "8",
        role="user",
        output="ok",
        tool_call_id="call_unpaired",
    )
    _rt(
        "error-code-on-success",
        "a completed request_end with an error_code (the error vocabulary rule is the validator's)",
        "RequestEndPayload",
        "8",
        status="completed",
        error_code="timeout",
    )
    _rt(
        "empty-error-message",
        "an empty error message is kept (not omitted)",
        "RequestEndPayload",
        "2",
        status="fatal",
        error_code="network",
        error_message="",
    )
    _rt(
        "token-counts-beyond-int32",
        "token counts beyond 2^31-1",
        "TokenUsagePayload",
        "6",
        session={"cache_read": 2**31, "cache_write": 0, "output": 2**40, "total": 2**53 - 1},
        request={"cache_read": 0, "cache_write": 0, "output": 0, "total": 0},
    )


def _numbers() -> None:
    def retry(spelled: str) -> dict[str, Any]:
        return obj("RequestEndPayload", status="retryable", retry_in_ms=Raw(spelled))

    for cid, spelled, desc in [
        ("min-subnormal", "5e-324", "the smallest subnormal double (not flushed to zero)"),
        ("max-double", "1.7976931348623157e+308", "the largest double (within the range)"),
        ("exponent-plus", "1e+21", "1e21 is written `1e+21`"),
        ("exponent-one-digit", "1e-7", "1e-7 is written with one exponent digit"),
        ("shortest-digits", "0.1", "0.1 is written with the shortest digits"),
        ("float32-unsafe", "1.1", "1.1 is not a float32 value"),
        ("fraction", "1.5", "a fraction in a number field (not truncated)"),
        ("zero", "0", "a zero retry_in_ms is kept (not omitted)"),
        ("max-safe-plus-one", "9007199254740992", "2^53 in a number field"),
    ]:
        roundtrip_case(
            f"numbers.{cid}", desc, msg("RequestEndPayload", retry(spelled)), "2.5", ["third-party", "numbers"]
        )
    for cid, inp, out, desc in [
        ("underflow-to-zero", "1e-400", "0", "a number that underflows is zero, not out of range"),
        ("upper-exponent", "1E3", "1000", "an upper-case exponent"),
        ("plus-exponent", "1e+3", "1000", "an exponent with `+`"),
        (
            "near-max-double",
            "1.7976931348623158e308",
            "1.7976931348623157e+308",
            "a spelling that rounds to the largest double",
        ),
        (
            "two-pow-53-plus-one",
            "9007199254740993",
            "9007199254740992",
            "2^53+1 in a number field is the double nearest it",
        ),
        ("subnormal-spelt-long", "4.9406564584124654e-324", "5e-324", "the smallest subnormal spelt with 17 digits"),
    ]:
        canonicalization_case(
            f"numbers.{cid}",
            desc,
            event_line('{"type":"request_end","status":"retryable","retry_in_ms":' + inp + "}"),
            event_line('{"type":"request_end","status":"retryable","retry_in_ms":' + out + "}").rstrip("\n"),
            "2.5",
            ["third-party", "numbers"],
        )


def _pointers() -> None:
    """RFC 6901 escaping in refusals' pointers: `~` as `~0`, `/` as `~1`, in that order."""
    for cid, key, ptr, desc in [
        ("slash", "a/b", "/payload/a~1b", "an unexpected key holding `/` (escaped `~1`)"),
        ("tilde", "a~b", "/payload/a~0b", "an unexpected key holding `~` (escaped `~0`)"),
        ("tilde-one", "~1", "/payload/~01", "an unexpected key spelt `~1` (escaped `~01`, not `/`)"),
        ("space-and-accent", "a bé", "/payload/a bé", "an unexpected key with a space and `é` (no percent-encoding)"),
    ]:
        rejection_case(
            f"pointer-{cid}",
            desc,
            event_line('{"type":"request_begin","' + key + '":1}'),
            "unexpected_field",
            pointer=ptr,
            tags=["pointer", "third-party"],
        )
    rejection_case(
        "pointer-slash",
        "a duplicate key holding `/` and `~`",
        event_line('{"type":"request_begin","x/~y":1,"x/~y":2}'),
        "duplicate_key",
        pointer="/payload/x~1~0y",
        tags=["pointer", "third-party"],
    )
    rejection_case(
        "pointer-index",
        "a wrong type in the second server: the index counts from 0",
        event_line('{"type":"mcp_connect_begin","servers":["a",1]}'),
        "wrong_type",
        pointer="/payload/servers/1",
        tags=["pointer", "third-party"],
    )
    rejection_case(
        "pointer-of-key",
        "a missing key's pointer names the key, not its object",
        event_line('{"type":"request_end"}'),
        "missing_field",
        pointer="/payload/status",
        tags=["pointer", "third-party"],
    )
    rejection_case(
        "case-of-key",
        "a key differing from a field only in case is unexpected (no case-insensitive matching)",
        model_line('{"type":"text","role":"user","text":"hi","Stop_reason":"completed"}'),
        "unexpected_field",
        pointer="/payload/Stop_reason",
        tags=["third-party"],
    )


def _nulls() -> None:
    """`null` is a value: where the schema does not allow it, it is `wrong_type`, not absent."""
    for cid, line_text, ptr in [
        (
            "stop-reason",
            model_line('{"type":"text","role":"user","text":"hi","stop_reason":null}'),
            "/payload/stop_reason",
        ),
        ("fidelity", model_line('{"type":"text","role":"user","text":"hi","fidelity":null}'), "/payload/fidelity"),
        ("sender", model_line('{"type":"text","role":"user","text":"hi","sender":null}'), "/payload/sender"),
        ("text", model_line('{"type":"text","role":"user","text":null}'), "/payload/text"),
        ("origin", event_line('{"type":"request_begin"}', ',"origin":null'), "/origin"),
    ]:
        rejection_case(
            f"null-{cid}",
            f"`null` where {ptr} must be absent or a value",
            line_text,
            "wrong_type",
            pointer=ptr,
            tags=["null", "third-party"],
        )
    roundtrip_case(
        "typed.abort-reason-absent",
        "an abort without reason stays without (not written `null`)",
        msg("AbortPayload", obj("AbortPayload", error_code="user_abort")),
        "2.3",
        ["null", "third-party"],
    )


def _precedence() -> None:
    """Two defects in one line: section 4's precedence decides."""
    P = ["precedence", "third-party"]
    rejection_case(
        "duplicate-before-schema",
        "a duplicate key and an unexpected field: level 3 before the schema",
        event_line('{"type":"request_begin","x":1,"type":"request_begin"}'),
        tags=P,
        category="duplicate_key",
        pointer="/payload/type",
    )
    rejection_case(
        "surrogate-before-schema",
        "a lone surrogate and a missing field: level 3 before the schema",
        model_line('{"type":"text","role":"user","text":"\\ud800"}').replace(',"role":"user"', ""),
        tags=P,
        category="lone_surrogate",
        pointer="/payload/text",
    )
    rejection_case(
        "huge-number-before-schema",
        "a number beyond the double and an unknown type: level 3 before the schema",
        event_line('{"type":"request_ended","retry_in_ms":1e400}'),
        tags=P,
        category="invalid_number",
        pointer="/payload/retry_in_ms",
    )
    rejection_case(
        "utf8-before-grammar",
        "invalid UTF-8 and a trailing comma: UTF-8 first",
        b'{"timestamp":"\xff","type":"event_msg","payload":{"type":"request_begin"},}\n',
        tags=P,
        category="invalid_utf8",
    )
    rejection_case(
        "grammar-before-surrogate",
        "a lone surrogate and then a syntax error: the grammar first",
        model_line('{"type":"text","role":"user","text":"\\ud800",}'),
        tags=P,
        category="invalid_json",
    )
    rejection_case(
        "trailing-before-schema",
        "an unknown type and trailing data: the grammar first",
        event_line('{"type":"request_ended"}').rstrip("\n") + " x\n",
        tags=P,
        category="trailing_data",
    )
    rejection_case(
        "depth-before-later-syntax",
        "nesting beyond the limit, then a syntax error: whichever comes first (depth)",
        event_line('{"type":"request_begin","x":' + "[" * 600 + "]" * 600 + ",}"),
        tags=P,
        category="too_deep",
    )


def _torn() -> None:
    """A last line without LF that does not parse is `truncated`; one that parses keeps its category
    (section 1.4; every category: contract_rules.py)."""
    T = ["torn", "third-party"]
    for cid, data, desc in [
        (
            "invalid-utf8",
            b'{"timestamp":"\xff","type":"event_msg","payload":{"type":"request_begin"}}',
            "invalid UTF-8",
        ),
        (
            "syntax-mid-line",
            event_line('{"type":"request_begin",,"x":1}').rstrip("\n"),
            "a syntax error before the end",
        ),
    ]:
        rejection_case(
            f"torn-{cid}", f"a last line without LF holding {desc} is truncated", data, "truncated", "1.4", tags=T
        )
    # a complete object without LF keeps its own category: it parsed, so it was not torn
    rejection_case(
        "torn-but-complete",
        "a last line without LF that parses but names an unknown type keeps its category",
        event_line('{"type":"request_ended"}').rstrip("\n"),
        "unknown_type",
        "1.4",
        pointer="/payload/type",
        tags=T,
    )
    rejection_case(
        "torn-but-complete",
        "a last line without LF that parses but holds a duplicate key keeps its category",
        event_line('{"type":"request_begin","type":"request_begin"}').rstrip("\n"),
        "duplicate_key",
        "1.4",
        pointer="/payload/type",
        tags=T,
    )
    CASES.add(
        "torn-unknown-type-kept",
        "lenient",
        "lenient mode keeps a last line without LF that is well-formed JSON",
        "5",
        event_line('{"type":"request_ended"}').rstrip("\n").encode(),
        mode="lenient",
        tags=["opaque", *T],
    )


def _limits() -> None:
    body = model_line('{"type":"text","role":"user","text":"' + "é" * 40 + '"}').rstrip("\n").encode()
    chars = len(body.decode())
    rejection_case(
        "multibyte-over-limit",
        "a line of fewer characters than the limit but more bytes: the limit counts bytes",
        body + b"\n",
        "too_large",
        "7",
        max_line_bytes=chars,
        tags=["limits", "utf8", "third-party"],
    )
    CASES.add(
        "too_large.lenient-over-limit",
        "lenient",
        "lenient mode still refuses a line over the limit",
        "5",
        event_line('{"type":"request_ended"}').encode(),
        mode="lenient",
        expect="reject",
        category="too_large",
        max_line_bytes=40,
        tags=["limits", "third-party"],
    )
    text = "x" * (100 * 1024)
    roundtrip_case(
        "limits.over-64kib-default",
        "a 100 KiB line under the default limit (readers accept at least 64 MiB)",
        msg("TextPayload", obj("TextPayload", role="user", text=text)),
        "7",
        ["limits", "large", "third-party"],
    )


def generate_third_party() -> None:
    _typed_fields()
    _validator_rules()
    _numbers()
    _pointers()
    _nulls()
    _precedence()
    _torn()
    _limits()
