# ruff: noqa: E501  (fixture lines are long literals)
"""Cases pinning the twelve contract points issue 20 settled (suite 2.1): the precedence of a
verbatim value's shape, ECMAScript number ties, the order of the checks on one number, torn lines
cut inside a UTF-8 character, lines that are not objects, the edge of the double range, the
characters that end a number token, CR and the line limit, lone surrogates in keys, the one depth
limit, and what JSON whitespace is. Each expected byte string is checked against `JSON.stringify`
(`reference_producer.mjs`); every tie below was checked against Node's `Number::toString`."""

from __future__ import annotations

from .collector import CASES, rejection_case
from .hand_written_lines import GOOD_LINE, GOOD_LINE_BYTES, TIMESTAMP_MEMBER, event_line, model_line

_C = "contract"


def _retry(number: str) -> str:
    return event_line('{"type":"request_end","status":"retryable","retry_in_ms":' + number + "}")


def _body(line: str) -> bytes:
    return line.rstrip("\n").encode("utf-8", "surrogatepass")


def _hook(output: str) -> str:
    return '{"type":"hook","hook":"stop","name":"n","output":' + output + "}"


def _verbatim_shape_precedence() -> None:
    """A verbatim value's shape is checked by the walk of level 3, where the walk meets it (section 4)."""
    T = ["precedence", "verbatim", _C, "point:verbatim-shape"]
    text = '{"type":"text","role":"user","text":"x","fidelity":F}'
    for cid, line, category, pointer, desc in [
        ("output-1-then-duplicate-origin", event_line(_hook("1"), ',"origin":["a"],"origin":["b"]'), "wrong_type", "/payload/output", "`\"output\":1`, then a duplicate `origin`: the shape is met first"),
        ("output-array-member-then-lone-surrogate", event_line(_hook('{"a":[1]}'), ',"origin":["\\ud800"]'), "wrong_type", "/payload/output/a", "a `hook.output` member that is an array, then a lone surrogate in `origin`"),
        ("output-null-member-then-beyond-range", event_line(_hook('{"a":null}'), ',"origin":["a"],"x":1e400'), "wrong_type", "/payload/output/a", "a `hook.output` member that is null, then a number beyond the double range"),
        ("fidelity-1-then-duplicate-role", model_line(text.replace("F", '1,"role":"user"')), "wrong_type", "/payload/fidelity", "`\"fidelity\":1`, then a duplicate `role`"),
        ("duplicate-role-then-fidelity-1", model_line(text.replace('"role":"user"', '"role":"user","role":"user"').replace("F", "1")), "duplicate_key", "/payload/role", "a duplicate `role`, then `\"fidelity\":1`: the duplicate is met first"),
        ("unexpected-field-then-fidelity-string", model_line(text.replace('"role"', '"x":1,"role"').replace("F", '"s"')), "wrong_type", "/payload/fidelity", "an unknown field (level 4), then `\"fidelity\":\"s\"` (level 3)"),
        ("parameters-1-then-duplicate-key", event_line('{"type":"tool_list_ready","tools":[{"name":"a","description":"d","parameters":1,"name":"b"}]}'), "wrong_type", "/payload/tools/0/parameters", "a tool's `parameters` of 1, then a duplicate `name`"),
    ]:
        rejection_case(f"shape-{cid}", f"{desc}: {category}", line, category, "4", pointer=pointer, tags=T)


# Doubles whose shortest digits tie (two candidates exactly as close to the exact value): the
# exact decimal of each, and what Number::toString writes (the even candidate).
TIES = [
    ("867349580282088.25", "867349580282088.2"),
    ("2011431797113887.75", "2011431797113887.8"),
    ("952174098701070.25", "952174098701070.2"),
    ("1313325912837961.75", "1313325912837961.8"),
    ("86964097877639.625", "86964097877639.62"),
    ("547694.43017578125", "547694.4301757812"),
    ("13.2982025146484375", "13.298202514648438"),
    ("0.000081539154052734375", "0.00008153915405273438"),
    ("0.00006151199340820312" + "5", "0.00006151199340820312"),
]


def _ties() -> None:
    """Number::toString on an exact tie picks the even last digit (section 2.5)."""
    T = ["number", "tie", _C, "point:number-ties"]
    for n, (exact, spelled) in enumerate(TIES):
        CASES.add(f"number-tie-{n}", "canonicalization", f"a number field holding the double {exact} (exact), a tie between two shortest spellings: written {spelled}, the even one", "2.5", _retry(exact).encode(), expect="canonical", output=_body(_retry(spelled)), tags=T)
    for n, (_, spelled) in enumerate(TIES[:4]):
        CASES.add(f"number-tie-even-{n}", "roundtrip", f"{spelled}, the even spelling of a tie, is canonical", "2.5", _retry(spelled).encode(), tags=T)
    for n, (exact, spelled) in enumerate(TIES[:3]):
        odd = spelled[:-1] + str(int(spelled[-1]) + (1 if exact > spelled else -1))
        CASES.add(f"number-tie-odd-{n}", "canonicalization", f"{odd}, the other spelling of the tie {exact}: the same double, written {spelled}", "2.5", _retry(odd).encode(), expect="canonical", output=_body(_retry(spelled)), tags=T)


def _number_check_order() -> None:
    """One number with two defects: range of the double, integrality, spelling, then range (section 4)."""
    T = ["precedence", "integer", _C, "point:number-order"]
    for cid, payload, category, pointer, desc in [
        ("attempt-0.0", '{"type":"request_end","status":"completed","attempt":0.0}', "invalid_number", "/payload/attempt", "`attempt: 0.0` (spelled with a fraction and 0 is out of range): the spelling first"),
        ("attempt-minus-1.0", '{"type":"request_end","status":"completed","attempt":-1.0}', "invalid_number", "/payload/attempt", "`attempt: -1.0`: the spelling before the range"),
        ("attempt-0e5", '{"type":"request_end","status":"completed","attempt":0e5}', "invalid_number", "/payload/attempt", "`attempt: 0e5`: the spelling before the range"),
        ("total-2pow53-dot-0", '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":0,"total":9007199254740992.0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}', "invalid_number", "/payload/session/total", "a token count of 2^53 written `9007199254740992.0`: the spelling before the range"),
        ("attempt-minus-1.5", '{"type":"request_end","status":"completed","attempt":-1.5}', "wrong_type", "/payload/attempt", "`attempt: -1.5`: not integral, before the range"),
        ("attempt-minus-1e400", '{"type":"request_end","status":"completed","attempt":-1e400}', "invalid_number", "/payload/attempt", "`attempt: -1e400`: beyond the double range (level 3), before its sign"),
        ("duration-minus-1e400", '{"type":"request_end","status":"retryable","retry_in_ms":-1e400}', "invalid_number", "/payload/retry_in_ms", "`retry_in_ms: -1e400`: beyond the double range before the range of the field"),
    ]:
        rejection_case(f"order-{cid}", f"{desc}: {category}", event_line(payload), category, "4", pointer=pointer, tags=T)


def _torn_utf8() -> None:
    """Level 1 comes first, also after a complete object (sections 1.3, 1.4)."""
    T = ["torn", "precedence", _C, "point:torn-utf8"]
    half = '{"timestamp":"é'.encode()[:-1]
    rejection_case("torn-object-then-half-cut-in-utf8", "a last line without LF: a complete object, then half of the next cut inside a UTF-8 character: invalid UTF-8 (level 1), so truncated", GOOD_LINE_BYTES + half, "truncated", "1.4", pointer="", tags=T)
    rejection_case("torn-object-then-ff", "a last line without LF: a complete object, then an FF byte: truncated", GOOD_LINE_BYTES + b"\xff", "truncated", "1.4", pointer="", tags=T)
    rejection_case("object-then-ff", "a complete object, then an FF byte, then the LF: invalid_utf8 (level 1), not trailing_data", GOOD_LINE_BYTES + b"\xff\n", "invalid_utf8", "1.3", pointer="", tags=T)
    rejection_case("object-then-x-and-half-character", "a complete object, then ` x` and half a UTF-8 character: invalid_utf8 before trailing_data", GOOD_LINE_BYTES + b" x\xe2\x82\n", "invalid_utf8", "1.3", pointer="", tags=T)
    rejection_case("torn-object-then-valid-half", "a last line without LF: a complete object, then half of the next cut between characters: trailing_data", GOOD_LINE_BYTES + b'{"timestamp":"\xc3\xa9', "trailing_data", "1.4", pointer="", tags=T)


def _not_objects() -> None:
    """A line whose value is not an object is wrong_type, whatever it holds (section 4, (2b))."""
    T = ["top-level", _C, "point:not-object"]
    for cid, text, desc in [
        ("array-lone-surrogate", '["\\ud800"]', "an array holding a lone surrogate escape"),
        ("number-beyond-range", "1e400", "a number beyond the double range"),
        ("array-duplicate-key", '[{"a":1,"a":2}]', "an array holding an object with a duplicate key"),
        ("string-lone-surrogate", '"\\udc00"', "a string escaping a lone surrogate"),
        ("array-beyond-range", "[1e400]", "an array holding a number beyond the double range"),
    ]:
        rejection_case(f"top-{cid}", f"a line that is {desc}: wrong_type, before level 3", text + "\n", "wrong_type", "4", pointer="", tags=T)
        CASES.add(f"top-{cid}", "lenient", f"lenient mode: a line that is {desc}: still wrong_type", "5", (text + "\n").encode(), mode="lenient", expect="reject", category="wrong_type", tags=T)


_HALFWAY = 2**1024 - 2**970


def _double_range() -> None:
    """Beyond the double range: rounds to an infinity, at or beyond 2^1024 - 2^970 (section 6)."""
    T = ["number", _C, "point:double-range"]
    for cid, number, spelled, desc in [
        ("10pow308-integer", "1" + "0" * 308, "1e+308", "10^308 written as an integer of 309 digits (a finite double)"),
        ("halfway-minus-1", str(_HALFWAY - 1), "1.7976931348623157e+308", "2^1024 - 2^970 - 1 (309 digits, rounds down to the largest double)"),
        ("max-and-8", "1.7976931348623158e308", "1.7976931348623157e+308", "1.7976931348623158e308 (below the midpoint: the largest double)"),
        ("half-smallest-subnormal", "2.4703282292062327e-324", "0", "2.4703282292062327e-324 (below half the smallest subnormal: rounds to 0)"),
        ("above-half-smallest-subnormal", "2.4703282292062328e-324", "5e-324", "2.4703282292062328e-324 (rounds to the smallest subnormal)"),
    ]:
        CASES.add(f"double-{cid}", "canonicalization", f"a number field holding {desc}: written {spelled}", "6", _retry(number).encode(), expect="canonical", output=_body(_retry(spelled)), tags=T)
    for cid, number, desc in [
        ("halfway-integer", str(_HALFWAY), "2^1024 - 2^970 as an integer (309 digits): the midpoint rounds to 2^1024 (ties to even)"),
        ("max-and-9", "1.7976931348623159e308", "1.7976931348623159e308 (above the midpoint)"),
        ("10pow309-integer", "1" + "0" * 309, "10^309 written as an integer of 310 digits"),
    ]:
        rejection_case(f"double-{cid}", f"a number field holding {desc}: beyond the double range, invalid_number", _retry(number), "invalid_number", "6", pointer="/payload/retry_in_ms", tags=T)
    rejection_case("double-halfway-in-integer-field", "an integer field holding 2^1024 - 2^970 as an integer: beyond the double range (level 3), invalid_number", event_line('{"type":"compaction_begin","reason":"manual","mode":"discard","context":' + str(_HALFWAY) + ',"turns":0}'), "invalid_number", "6", pointer="/payload/context", tags=T)


def _after_numbers() -> None:
    """Only ASCII letters belong to a number token (section 1.3)."""
    T = ["top-level", "number", _C, "point:after-number"]
    for cid, text, desc in [
        ("1-e-acute", "1é", "`1é` (U+00E9, a Latin letter)"),
        ("1-cjk", "1中", "`1中` (U+4E2D)"),
        ("1-cjk-ext-h", "1\U00031350", "`1` then U+31350 (a letter since Unicode 15: no Unicode table decides)"),
        ("1-superscript-two", "1²", "`1²` (U+00B2, category No)"),
        ("1-ordinal", "1ª", "`1ª` (U+00AA, category Lo)"),
        ("minus-0-greek", "-0\u03b1", "`-0` then U+03B1 (a Greek letter)"),
        ("1e5-e-acute", "1e5é", "`1e5é`"),
        ("1-fullwidth-digit", "1\uff11", "`1` then U+FF11 (a fullwidth digit)"),
    ]:
        rejection_case(f"after-number-{cid}", f"at the top level, {desc}: a non-ASCII character ends the number token, trailing_data", text + "\n", "trailing_data", "1.3", pointer="", tags=T)
    for cid, text, desc in [("1-x", "1x", "`1x`"), ("1-Z", "1Z", "`1Z`")]:
        rejection_case(f"after-number-{cid}", f"at the top level, {desc}: an ASCII letter belongs to the number token, invalid_json", text + "\n", "invalid_json", "1.3", pointer="", tags=T)
    rejection_case("after-number-in-object", "`1é` as a member value: invalid_json (`,` or `}` expected after the number)", _retry("1é"), "invalid_json", "1.3", pointer="", tags=T)


def _cr_at_limit() -> None:
    """A CR before the LF counts against the line limit; the limit comes first (section 7)."""
    T = ["limit", "cr", _C, "point:cr-limit"]
    n = len(GOOD_LINE_BYTES)
    rejection_case("cr-at-limit", "a line of exactly the limit, then CR LF: the CR counts, too_large", GOOD_LINE_BYTES + b"\r\n", "too_large", "7", pointer="", max_line_bytes=n, tags=T)
    rejection_case("cr-at-limit-torn", "a last line without LF of exactly the limit, then CR: too_large", GOOD_LINE_BYTES + b"\r", "too_large", "7", pointer="", max_line_bytes=n, tags=T)
    rejection_case("over-limit-invalid-utf8", "a line over the limit holding invalid UTF-8: the limit first, too_large", GOOD_LINE_BYTES[:-1] + b"\xff}\n", "too_large", "7", pointer="", max_line_bytes=n - 1, tags=T)
    CASES.add("cr-within-limit", "canonicalization", "a line one byte under the limit, then CR LF: within it, the CR dropped", "7", GOOD_LINE_BYTES + b"\r\n", max_line_bytes=n + 1, expect="canonical", output=GOOD_LINE_BYTES, tags=T)
    CASES.add("cr-at-limit", "lenient", "lenient mode: a line of exactly the limit, then CR LF: too_large", "7", GOOD_LINE_BYTES + b"\r\n", mode="lenient", max_line_bytes=n, expect="reject", category="too_large", tags=T)


def _lone_surrogate_keys() -> None:
    """A key escaping a lone surrogate is refused at its member (section 4)."""
    T = ["pointer", _C, "point:lone-key"]
    for cid, line, pointer, desc in [
        ("payload-key", event_line('{"type":"request_begin","\\ud800":1}'), "/payload/\ud800", "a payload key `\\ud800`"),
        ("nested-key", event_line('{"type":"tool_list_ready","tools":[{"name":"a","description":"d","x\\udc00y":1}]}'), "/payload/tools/0/x\udc00y", "a tool key `x\\udc00y`"),
        ("envelope-key", "{" + TIMESTAMP_MEMBER + ',"\\udfff":1,"type":"event_msg","payload":{"type":"request_begin"}}\n', "/\udfff", "an envelope key `\\udfff`"),
        ("escaped-pointer-key", event_line('{"type":"request_begin","a/\\udbff~":1}'), "/payload/a~1\udbff~0", "a key `a/\\udbff~` (`/` and `~` escaped in the pointer)"),
        ("duplicate-lone-key", event_line('{"type":"request_begin","\\ud800":1,"\\ud800":2}'), "/payload/\ud800", "a key `\\ud800` twice: the first is refused"),
    ]:
        rejection_case(f"key-{cid}", f"{desc}: lone_surrogate, the pointer naming the member", line, "lone_surrogate", "4", pointer=pointer, tags=T)


def _one_depth_limit() -> None:
    """max_depth is the one limit, verbatim values included (section 7)."""
    T = ["depth", "verbatim", _C, "point:depth"]
    fid = '{"type":"text","role":"user","text":"x","fidelity":F}'
    CASES.add("depth-fidelity-512", "verbatim", "a fidelity nesting 510 levels (512 with the envelope and payload): kept", "7", model_line(fid.replace("F", '{"a":' * 510 + "1" + "}" * 510)).encode(), tags=T)
    CASES.add("depth-fidelity-arrays-512", "verbatim", "a fidelity holding 509 nested arrays (512 levels in all): kept", "7", model_line(fid.replace("F", '{"a":' + "[" * 509 + "]" * 509 + "}")).encode(), tags=T)
    tools = '{"type":"tool_list_ready","tools":[{"name":"a","description":"d","parameters":P}]}'
    CASES.add("depth-parameters-512", "verbatim", "tool parameters nesting 508 levels (512 with envelope, payload, tools and tool): kept", "7", event_line(tools.replace("P", '{"a":' * 508 + "1" + "}" * 508)).encode(), tags=T)
    rejection_case("depth-parameters-513", "tool parameters nesting 509 levels (513 in all): too_deep", event_line(tools.replace("P", '{"a":' * 509 + "1" + "}" * 509)), "too_deep", "7", pointer="", tags=T)


_LOOKALIKES = [
    ("nbsp", "\u00a0"), ("vt", "\x0b"), ("ff", "\x0c"), ("nel", "\u0085"), ("line-separator", "\u2028"),
    ("paragraph-separator", "\u2029"), ("ideographic-space", "\u3000"), ("bom", "\ufeff"), ("nul", "\x00"),
    ("mongolian-vowel-separator", "\u180e"), ("zero-width-space", "\u200b"), ("file-separator", "\x1c"),
]


def _whitespace() -> None:
    """JSON whitespace is space, tab, LF and CR, in strict and lenient mode (section 1.3)."""
    T = ["whitespace", _C, "point:whitespace"]
    for cid, ch in _LOOKALIKES:
        u = f"U+{ord(ch):04X}"
        rejection_case(f"ws-after-{cid}", f"{u} after the object: not JSON whitespace, trailing_data", GOOD_LINE + ch + "\n", "trailing_data", "1.3", pointer="", tags=T)
        if cid != "bom":
            rejection_case(f"ws-before-{cid}", f"{u} before the object: not JSON whitespace, invalid_json", ch + GOOD_LINE + "\n", "invalid_json", "1.3", pointer="", tags=T)
    for cid, ch in _LOOKALIKES[:5]:
        u = f"U+{ord(ch):04X}"
        rejection_case(f"ws-between-{cid}", f"{u} between a key and its colon: invalid_json", event_line('{"type"' + ch + ':"request_begin"}'), "invalid_json", "1.3", pointer="", tags=T)
        CASES.add(f"ws-after-{cid}", "lenient", f"lenient mode: {u} after the object is not trimmed: trailing_data", "5", (GOOD_LINE + ch + "\n").encode(), mode="lenient", expect="reject", category="trailing_data", tags=T)
        CASES.add(f"ws-before-{cid}", "lenient", f"lenient mode: {u} before the object: invalid_json", "5", (ch + GOOD_LINE + "\n").encode(), mode="lenient", expect="reject", category="invalid_json", tags=T)
    CASES.add("ws-all-four", "canonicalization", "JSON whitespace: space and tab before the object and between its tokens, all four after it (CR before the terminating LF): accepted (a CR inside the message is `line_break`, section 1.5)", "1.3", (" \t{\t" + TIMESTAMP_MEMBER.replace('":"', '" \t:\t"') + ' ,\t"type"\t: "event_msg" ,"payload" :\t{ "type"\t: "request_begin" } }\t \r\n').encode(), expect="canonical", output=GOOD_LINE_BYTES, tags=T)


def generate_contract_points() -> None:
    _verbatim_shape_precedence()
    _ties()
    _number_check_order()
    _torn_utf8()
    _not_objects()
    _double_range()
    _after_numbers()
    _cr_at_limit()
    _lone_surrogate_keys()
    _one_depth_limit()
    _whitespace()
