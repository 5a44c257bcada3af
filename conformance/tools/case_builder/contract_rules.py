# ruff: noqa: E501  (fixture lines are long literals)
"""Cases pinning the rules issue 13 settled where the docs and the bindings disagreed (suite 1.4):
a torn last line of every category, integers judged by the parsed number, where verbatim values
are when the payload does not fit its envelope, the first token at the top level, the pointer of
grammar refusals (`""`, set for every grammar case by the collector), and the whitespace around an
opaque lenient message (a CR before the LF included)."""

from __future__ import annotations

from .collector import CASES, rejection_case
from .hand_written_lines import GOOD_LINE, GOOD_LINE_BYTES, TIMESTAMP_MEMBER, event_line, model_line

_TORN = ["torn", "contract"]


def _compaction(context: str) -> str:
    """A `compaction_begin` payload, valid but for its `context` (an integer field) spelled as given."""
    return '{"type":"compaction_begin","reason":"manual","mode":"discard","context":' + context + ',"turns":0}'


def _unterminated(line: str) -> bytes:
    return line.rstrip("\n").encode("utf-8", "surrogatepass")


def _torn_every_category() -> None:
    """A last line without LF: `truncated` only when it does not parse (it would be `invalid_utf8`
    or `invalid_json`); every other refusal keeps its category (section 1.4)."""
    kept = [
        ("trailing_data", "torn-second-object", "a complete object, then a second one cut short: trailing data before the tear", GOOD_LINE + '{"timestamp":"2026', ""),
        ("trailing_data", "torn-after-object", "a complete object followed by a word", GOOD_LINE + " x", ""),
        ("too_deep", "torn-deep", "nesting beyond the limit, cut before it closes: too deep before the end", event_line('{"type":"request_begin","x":' + "[" * 600).rstrip("\n"), ""),
        ("lone_surrogate", "torn-but-complete", "a complete object escaping a lone surrogate", model_line('{"type":"text","role":"user","text":"\\udc00"}'), "/payload/text"),
        ("invalid_number", "torn-but-complete", "a complete object with an integer field written 1.0", event_line(_compaction("1.0")), "/payload/context"),
        ("wrong_type", "torn-but-complete", "a complete object with a number where a string belongs", model_line('{"type":"text","role":"user","text":5}'), "/payload/text"),
        ("missing_field", "torn-but-complete", "a complete object missing its payload", '{"timestamp":"t","type":"event_msg"}', "/payload"),
        ("unexpected_field", "torn-but-complete", "a complete object with an unknown field", event_line('{"type":"request_begin","x":1}'), "/payload/x"),
        ("invalid_value", "torn-but-complete", "a complete object with a stop reason outside the enum", model_line('{"type":"text","role":"user","text":"x","stop_reason":"failed"}'), "/payload/stop_reason"),
        ("wrong_type", "torn-top-level-array", "a complete top-level array", "[1,2]", ""),
    ]
    for category, cid, desc, line, pointer in kept:
        rejection_case(cid, f"a last line without LF: {desc} (keeps `{category}`)", _unterminated(line), category, "1.4", pointer=pointer, tags=_TORN)
    rejection_case(
        "torn-over-limit",
        "a last line without LF longer than the reader's limit (keeps `too_large`)",
        GOOD_LINE_BYTES,
        "too_large",
        "1.4",
        max_line_bytes=len(GOOD_LINE_BYTES) - 1,
        tags=_TORN,
    )
    for cid, data, desc in [
        ("torn-overlong-utf8", b'{"timestamp":"\xc0\xaf","type":"event_msg","payload":{"type":"request_begin"}}', "an overlong UTF-8 form in a complete object"),
        ("torn-literal", b'{"timestamp":"t","type":"event_msg","payload":{"type":"request_begin","x":tr', "a literal cut short (`tr`)"),
        ("torn-escape", b'{"timestamp":"t","type":"event_msg","payload":{"type":"request_begin","x":"\\u12', "a string cut inside a `\\u` escape"),
        ("torn-number", _unterminated(event_line(_compaction("1."))).split(b".,")[0] + b".", "a number cut after its `.`"),
        ("torn-unquoted-key", b'{"timestamp":"t",type:"event_msg","payload":{"type":"request_begin"}}', "an unquoted key in an otherwise complete line"),
        ("torn-cr-only", b"\r", "a lone CR"),
        ("torn-space", b" ", "a single space"),
    ]:
        rejection_case(cid, f"a last line without LF holding {desc} does not parse: truncated", data, "truncated", "1.4", pointer="", tags=_TORN)
    CASES.add(
        "torn-cr-kept-without-cr",
        "lenient",
        "a last line without LF ending in CR, well-formed but refused by strict decoding: kept as its object, without the CR",
        "5",
        _unterminated(event_line('{"type":"request_ended"}')) + b"\r",
        mode="lenient",
        expect="canonical",
        output=_unterminated(event_line('{"type":"request_ended"}')),
        tags=["opaque", "cr", *_TORN],
    )
    CASES.add(
        "torn-syntax-truncated",
        "lenient",
        "lenient mode reports a last line without LF holding a syntax error as truncated, as strict mode does",
        "5",
        _unterminated(event_line('{"type":"request_begin",}')),
        mode="lenient",
        expect="reject",
        category="truncated",
        tags=_TORN,
    )


def _integers() -> None:
    """An integer field is judged by the parsed number (the double nearest the decimal): integral
    but spelled with a fraction or exponent is `invalid_number`, not integral is `wrong_type` (section 6)."""
    T = ["integer", "contract"]
    for cid, field, payload, desc in [
        ("context-1e-400", "context", _compaction("1e-400"), "1e-400 (parses to 0, an integral value, spelled with an exponent)"),
        ("attempt-1e-400", "attempt", '{"type":"request_end","status":"completed","attempt":1e-400}', "1e-400 in attempt (parses to 0: the spelling is refused, not the range)"),
        ("context-1-and-20-zeros-1", "context", _compaction("1.000000000000000000001"), "1.000000000000000000001 (parses to 1)"),
        ("context-minus-1e-400", "context", _compaction("-1e-400"), "-1e-400 (parses to -0)"),
        ("context-2^52-and-a-half", "context", _compaction("4503599627370496.5"), "2^52 + 0.5 (parses to the integral double 2^52)"),
    ]:
        rejection_case(cid, f"an integer field written {desc}: invalid_number", event_line(payload), "invalid_number", "6", pointer=f"/payload/{field}", tags=T)
    CASES.add(
        "integer-minus-zero",
        "canonicalization",
        "an integer field written -0: an integer (0), written 0",
        "6",
        event_line(_compaction("-0")).encode(),
        expect="canonical",
        output=_unterminated(event_line(_compaction("0"))),
        tags=T,
    )
    for cid, number, desc in [
        ("context-1e-7", "1e-7", "1e-7 (not integral)"),
        ("context-1.5e-300", "1.5e-300", "1.5e-300 (not integral)"),
        ("context-0.000001", "0.000001", "0.000001 (not integral)"),
    ]:
        rejection_case(
            cid,
            f"an integer field written {desc}: wrong_type",
            event_line(_compaction(number)),
            "wrong_type",
            "6",
            pointer="/payload/context",
            tags=T,
        )


def _verbatim_by_envelope() -> None:
    """Whether a value is verbatim is read from the envelope and payload `type`: a payload the
    envelope does not define has no verbatim values, so level 3 checks its `fidelity` and wins over
    the schema's `unknown_type` (section 4, precedence)."""
    T = ["precedence", "verbatim", "contract"]
    text_payload = '{"type":"text","role":"user","text":"x","fidelity":FID}'
    for category, cid, fid, desc, pointer in [
        ("duplicate_key", "fidelity-under-event-msg", '{"a":1,"a":2}', "a duplicate key", "/payload/fidelity/a"),
        ("lone_surrogate", "fidelity-under-event-msg", '{"a":"\\ud800"}', "a lone surrogate escape", "/payload/fidelity/a"),
        ("invalid_number", "fidelity-under-event-msg", '{"a":1e400}', "a number beyond the double range", "/payload/fidelity/a"),
    ]:
        rejection_case(
            cid,
            f"a `text` payload under `event_msg` (not its envelope) with {desc} inside `fidelity`: not verbatim here, so level 3 before unknown_type",
            event_line(text_payload.replace("FID", fid)),
            category,
            "4",
            pointer=pointer,
            tags=T,
        )
    rejection_case(
        "fidelity-under-unknown-envelope",
        "a `text` payload under an unknown envelope type with a duplicate key inside `fidelity`: duplicate_key before unknown_type",
        "{" + TIMESTAMP_MEMBER + ',"type":"telemetry_msg","payload":' + text_payload.replace("FID", '{"a":1,"a":2}') + "}\n",
        "duplicate_key",
        "4",
        pointer="/payload/fidelity/a",
        tags=T,
    )
    rejection_case(
        "text-under-event-msg",
        "a `text` payload under `event_msg` with a valid fidelity: unknown_type",
        event_line(text_payload.replace("FID", '{"a":1}')),
        "unknown_type",
        "4",
        pointer="/payload/type",
        tags=T,
    )
    CASES.add(
        "fidelity-under-model-msg-duplicate",
        "verbatim",
        "the same `text` payload under `model_msg`, its envelope: the duplicate key inside `fidelity` is kept byte for byte",
        "3",
        model_line(text_payload.replace("FID", '{"a":1,"a":2}')).encode(),
        tags=T,
    )


def _top_level_tokens() -> None:
    """The first token decides (section 1.3): a malformed number is `invalid_json`; a complete value
    followed by anything but whitespace is `trailing_data`, whatever the value."""
    T = ["top-level", "contract"]
    for cid, text, desc in [
        ("top-01", "01", "`01` (a leading zero: one malformed number token, not `0` then `1`)"),
        ("top-1-dot", "1.", "`1.` (a fraction without digits)"),
        ("top-minus-01", "-01", "`-01`"),
        ("top-1e", "1e", "`1e` (an exponent without digits)"),
        ("top-0x1", "0x1", "`0x1` (a letter right after a number belongs to the token)"),
        ("top-1.5.2", "1.5.2", "`1.5.2`"),
        ("top-1-2", "1-2", "`1-2`"),
        ("top-01-object", '01 {"a":1}', "`01` before an object"),
    ]:
        rejection_case(cid, f"at the top level, {desc}: invalid_json", text + "\n", "invalid_json", "1.3", pointer="", tags=T)
    for cid, text, desc in [
        ("top-0-1", "0 1", "`0 1` (a complete number, then another)"),
        ("top-true-x", "truex", "`truex` (the literal `true`, then a letter)"),
        ("top-string-then", '"a"b', '`"a"b`'),
        ("top-array-then", "[] x", "`[] x`"),
        ("top-null-null", "null null", "`null null`"),
        ("top-1-object", '1 {"a":1}', "a number before an object"),
    ]:
        rejection_case(cid, f"at the top level, {desc}: the grammar before the top-level type, trailing_data", text + "\n", "trailing_data", "1.3", pointer="", tags=T)


def _lenient_whitespace() -> None:
    """An opaque lenient message is its object, from `{` to `}`: the whitespace around it, a CR
    before the LF included, is not part of it (section 5), so a relay never re-emits a CR."""
    T = ["opaque", "cr", "contract"]
    body = _unterminated(event_line('{"type":"request_ended"}'))
    for cid, data, desc in [
        ("cr-before-lf", body + b"\r\n", "a CR before the LF"),
        ("cr-cr-before-lf", body + b"\r\r\n", "two CRs before the LF"),
        ("whitespace-around", b" \t" + body + b" \t\r\n", "spaces and tabs before and after the object"),
    ]:
        CASES.add(
            f"opaque-{cid}",
            "lenient",
            f"an opaque message with {desc}: re-encoded as its object, without the whitespace around it",
            "5",
            data,
            mode="lenient",
            expect="canonical",
            output=body,
            tags=T,
        )
    inner = event_line('{"type":"request_ended", "x" :\t 1}').rstrip("\n").encode()
    CASES.add(
        "opaque-inner-whitespace-kept",
        "lenient",
        "whitespace inside an opaque message (spaces and tabs: a CR inside is `line_break`, section 1.5) is part of it, byte for byte",
        "5",
        inner + b"\r\n",
        mode="lenient",
        expect="canonical",
        output=inner,
        tags=T,
    )
    CASES.add(
        "retired-source-benchmark",
        "lenient",
        "the retired session source `benchmark` (refused by strict decoding as invalid_value) is kept opaque, not mapped to `cli`",
        "5",
        (
            "{" + TIMESTAMP_MEMBER + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,'
            '"system_prompt":"","agent_state":"","workspace":"","source":"benchmark"}}\n'
        ).encode(),
        mode="lenient",
        tags=["opaque", "retired", "contract"],
    )


def generate_contract_rules() -> None:
    _torn_every_category()
    _integers()
    _verbatim_by_envelope()
    _top_level_tokens()
    _lenient_whitespace()
