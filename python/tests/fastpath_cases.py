"""The fast paths' catalogue of hard lines (issue 38), and their oracle: the pure Python path.

Every class of defect a hand-written fast path got wrong once (or could), placed inside every kind
of verbatim value (`fidelity`, a tool's `parameters`, a hook's `output`: keys and values, nested)
and every kind of string outside them (free text, a tool's arguments, an error message, an array
member), at the offsets where the vector code changes blocks (`OFFSETS`); trailing data after the
line and duplicate keys (envelope, payload, escaped) in each template. Raw control characters
also go into a line spelled with one space (so that a one-pass reader gives up and the general
grammar check meets them). Numbers go where numbers go.

The oracle is `codec` with the native verifier switched off (`RUNTIME._replace(native=None)`):
the strict decoder, then the canonical encoder compared byte for byte. It shares no code with
verify.c, the Rust crate or the TypeScript reader.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator

import omnimessage as om
from omnimessage.codec import api as codec
from omnimessage.codec.tables import RUNTIME
from omnimessage.conformance import Case, load_suite
from omnimessage.conformance.fresh import POINTED_CATEGORIES

__all__ = ["ORACLE", "Answer", "canonical", "cases", "lines", "must_prove", "oracle", "verifier_inputs"]

ORACLE = RUNTIME._replace(native=None)
Answer = tuple[str, bytes | str]
"""("encoded", canonical bytes) or ("refused", category)."""

_T = b'{"timestamp":"2026-07-18T03:10:22.531Z",'
# `@` is where the string content goes
STRINGS = {
    "text": _T + b'"type":"model_msg","payload":{"type":"text","role":"user","text":"@"}}',
    "arguments": _T + b'"type":"model_msg","payload":{"type":"tool_call","role":"assistant","name":"f",'
                      b'"arguments":"@","tool_call_id":"t1"}}',
    "error_message": _T + b'"type":"event_msg","payload":{"type":"request_end","status":"retryable",'
                          b'"error_code":"timeout","error_message":"@","attempt":1,"retry_in_ms":5}}',
    "array-member": _T + b'"type":"event_msg","payload":{"type":"mcp_connect_begin","servers":["a","@"]}}',
    # a streaming fragment (the one field a lone surrogate may stand in): its own unescaping path
    "fragment": _T + b'"type":"model_msg","payload":{"type":"partial_text","role":"assistant","event_type":"delta",'
                     b'"text":"@"}}',
}
VERBATIM = {
    "fidelity-value": _T + b'"type":"model_msg","payload":{"type":"text","role":"user","text":"x",'
                           b'"fidelity":{"k":"@"}}}',
    "fidelity-key": _T + b'"type":"model_msg","payload":{"type":"text","role":"user","text":"x",'
                         b'"fidelity":{"k":1,"@":2}}}',
    "fidelity-nested": _T + b'"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"x",'
                            b'"fidelity":{"a":[1,{"b":["@"]}]}}}',
    "parameters-value": _T + b'"type":"event_msg","payload":{"type":"tool_list_ready","tools":[{"name":"f",'
                             b'"description":"d","parameters":{"type":"object","description":"@"}}]}}',
    "parameters-key": _T + b'"type":"event_msg","payload":{"type":"tool_list_ready","tools":[{"name":"f",'
                           b'"description":"d","parameters":{"@":{"type":"string"}}}]}}',
    "output-value": _T + b'"type":"event_msg","payload":{"type":"hook","hook":"pre_tool_use","name":"g",'
                         b'"output":{"checked":true,"why":"@"}}}',
    "output-key": _T + b'"type":"event_msg","payload":{"type":"hook","hook":"pre_tool_use","name":"g",'
                       b'"output":{"@":"v"}}}',
}
NUMBERS = {
    "retry_in_ms": _T + b'"type":"event_msg","payload":{"type":"request_end","status":"retryable",'
                        b'"error_code":"timeout","error_message":"m","attempt":1,"retry_in_ms":@}}',
    "duration_ms": _T + b'"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed",'
                        b'"results":[{"server":"s","transport":"http","status":"completed","duration_ms":@,"tools":1}]}}',
    "fidelity-number": _T + b'"type":"model_msg","payload":{"type":"text","role":"user","text":"x","fidelity":{"n":@}}}',
    "output-number": _T + b'"type":"event_msg","payload":{"type":"hook","hook":"pre_tool_use","name":"g",'
                          b'"output":{"n":@}}}',
    # a number where none belongs: beyond the double range it is invalid_number first (section 4)
    "text-as-number": _T + b'"type":"model_msg","payload":{"type":"text","role":"user","text":@}}',
    "unknown-field-number": _T + b'"type":"model_msg","payload":{"type":"text","role":"user","text":"x","zz":@}}',
}
OFFSETS = (0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 39, 40, 41, 47, 48, 49, 63, 64, 65)
"""Bytes of plain text before the defect: either side of each block edge (verify.c: 32 bytes a turn
with SSE2, then one block of 16; 8 with SWAR; the Rust scanner: 8 bytes, then 32 at a time)."""

# Well-formed UTF-8 (the first and last of every lead byte class) and ill-formed UTF-8 of every kind.
GOOD_UTF8 = (b"\xc2\x80", b"\xdf\xbf", b"\xe0\xa0\x80", b"\xed\x9f\xbf", b"\xee\x80\x80", b"\xef\xbf\xbf",
             b"\xf0\x90\x80\x80", b"\xf3\xbf\xbf\xbf", b"\xf4\x8f\xbf\xbf")
BAD_UTF8 = (
    b"\xc0\xaf", b"\xc1\xbf",                      # overlong two-byte forms
    b"\xe0\x80\xaf", b"\xe0\x9f\xbf",              # overlong three-byte forms
    b"\xf0\x80\x80\xaf", b"\xf0\x8f\xbf\xbf",      # overlong four-byte forms
    b"\xf4\x90\x80\x80", b"\xf4\xbf\xbf\xbf",      # above U+10FFFF
    b"\xf5\x80\x80\x80", b"\xf6\x80\x80\x80", b"\xf7\xbf\xbf\xbf", b"\xf8\x88\x80\x80\x80",  # lead bytes F5..F8
    b"\xed\xa0\x80", b"\xed\xbf\xbf",              # surrogates
    b"\xc3\x28", b"\xe2\x28\xa1", b"\xf0\x28\x8c\xbc",  # the second byte not a continuation
    b"\xc3\xc3", b"\xe2\x82\xe2", b"\xf0\x90\xf0",  # ... a lead byte there
    b"\xe2\x82\x28", b"\xf0\x90\x28\xbc",          # the third byte not a continuation
    b"\xf0\x90\x8c\x28", b"\xf0\x90\x8c\xc3",      # the fourth byte not a continuation
    b"\x80", b"\xbf", b"\xfe", b"\xff",            # never a first byte
    b"\xc3", b"\xe2\x82", b"\xf0\x90\x8c",         # truncated by the closing quote
)
CONTROLS = tuple(bytes([b]) for b in [*range(0x20), 0x7F])
"""Every raw control character and DEL (which JSON allows raw and canonical form keeps raw)."""
ESCAPES = (
    b"\\u0020", b"\\u0008", b"\\u0009", b"\\u000a", b"\\u000c", b"\\u000d", b"\\u0041", b"\\u00e9",
    b"\\u007f", b"\\u001F", b"\\u001f", b"\\u0000", b"\\/", b"\\b", b"\\f", b"\\n", b"\\r", b"\\t", b'\\"',
    b"\\\\", b"\\ud83d\\ude00", b"\\ud800", b"\\udc00", b"\\ud800\\u0041", b"\\x41", b"\\u12", b"\\",
    b"\\u1000", b"\\ue001", b"\\u00g0", b"\\uD83D\\uDE00", b"\\ud800xudc00", b"\\ud800\\nudc00",
    b"\\ud800\\udc00", b"\\udbff\\udfff", b"\\udbff", b"\\udfff",  # the first and last pairs, lone ends
)
NUMBER_SPELLINGS = (
    b"0", b"1", b"12.5", b"0.000001", b"0.0000001", b"9007199254740991", b"9007199254740992",
    b"9007199254740993", b"12345678901234567", b"123456789012345678", b"1234567890123456789012",
    b"0.1", b"0.10000000000000001", b"0.30000000000000004", b"1.0000000000000002", b"1.0000000000000001",
    b"123456789012345.6", b"123456789012345.67", b"1234567890123456.7", b"100000000000000000000",
    b"1e21", b"1e3", b"1E3", b"1.5e2", b"-0", b"1.50", b"01", b"1.", b".5", b"+1", b"-1",
    b"18446744073709551616", b"99999999999999999999999999999", b"340282366920938463463374607431768211457",
    # at the double's range: 300 digits and more (1e299 .. 1e308 fit; 2e308, 1e309 round to infinity)
    b"1" + b"0" * 299, b"1" + b"0" * 308, b"2" + b"0" * 308, b"9" * 309, b"1" + b"0" * 309, b"-" + b"9" * 309,
    b"17976931348623157" + b"0" * 292, b"17976931348623158" + b"0" * 292, b"1e308", b"1e309", b"0.5e309",
)


def _fill(n: int) -> bytes:
    return (b"abcdefghijklmnopqrstuvwxyz0123456789" * 2)[:n]


def lines(tails: tuple[int, ...] = (0, 1, 17), offsets: tuple[int, ...] = OFFSETS) -> Iterator[tuple[str, bytes]]:
    """(a name saying what and where, the line): the whole catalogue (about 33,000 lines; `tails`:
    the runs of plain text after the defect)."""
    for kind, template in {**STRINGS, **VERBATIM}.items():
        for at in offsets:
            for what, pieces in (("utf8", GOOD_UTF8 + BAD_UTF8), ("control", CONTROLS), ("escape", ESCAPES)):
                for piece in pieces:
                    for tail in tails:  # the defect last in the string, or followed by a short or long run
                        text = _fill(at) + piece + _fill(tail)
                        yield f"{kind}/{what}/{piece!r}@{at}+{tail}", template.replace(b"@", text)
                        if what == "control" and tail == tails[-1]:
                            spaced = template.replace(b'{"timestamp"', b'{ "timestamp"', 1)
                            yield f"{kind}/{what}/{piece!r}@{at}+{tail}/spaced", spaced.replace(b"@", text)
        yield f"{kind}/plain", template.replace(b"@", _fill(40))
    for kind, template in {**STRINGS, **VERBATIM}.items():
        line = template.replace(b"@", _fill(20))
        for tail in (b"x", b" ", b"{}", b",", b"\x00", b"\n\n", b" \n"):  # trailing data (one LF ends a line)
            yield f"{kind}/trailing/{tail!r}", line + tail
        head, _, rest = line.partition(b'"payload":{')
        first = rest[:rest.index(b",") + 1]  # the payload's first member, `"type":"..."`,
        yield f"{kind}/duplicate/payload-type", head + b'"payload":{' + first + rest
        second = rest[len(first):]
        member = second[:second.index(b",") + 1]  # and its second member
        yield f"{kind}/duplicate/payload-member", head + b'"payload":{' + first + member + second
        yield f"{kind}/duplicate/envelope", line.replace(b'"timestamp"', b'"timestamp":"x","timestamp"', 1)
        yield f"{kind}/duplicate/envelope-escaped", line.replace(b'"timestamp"', b'"timestamp":"x","t\\u0069mestamp"', 1)
    for kind, template in NUMBERS.items():
        for n in NUMBER_SPELLINGS:
            yield f"{kind}/number/{n[:24].decode()}({len(n)})", template.replace(b"@", n)


def verifier_inputs() -> Iterator[tuple[str, bytes]]:
    """What the C verifier is asked: the catalogue, then every input of the conformance suite."""
    yield from lines()
    for case in load_suite().cases:
        yield case.id, case.input


def must_prove() -> Iterator[tuple[str, bytes]]:
    """Canonical lines the verifier is built to prove (a verifier that proves nothing would pass
    every soundness check): well-formed non-ASCII, DEL, a surrogate pair and the escapes a verbatim
    value may keep, in every verbatim value at every offset; numbers and literals where the
    verifier proves them (integers within 2^53, plain decimals of up to 15 digits, any spelling
    inside fidelity; true, false, null)."""
    for kind, template in VERBATIM.items():
        for at in OFFSETS:
            for piece in (*GOOD_UTF8, b"\x7f", b"\\u0041", b"\\u00E9", b"\\/", b"\\ud83d\\ude00"):
                yield f"{kind}/{piece!r}@{at}", template.replace(b"@", _fill(at) + piece + _fill(17))
    for kind in ("retry_in_ms", "duration_ms"):
        for n in (b"0", b"7", b"12", b"4096", b"9007199254740991"):
            yield f"{kind}/{n.decode()}", NUMBERS[kind].replace(b"@", n)
    for n in (b"0.5", b"12.5", b"0.000001", b"123456789012.125"):
        yield f"duration_ms/{n.decode()}", NUMBERS["duration_ms"].replace(b"@", n)
    for n in (b"0", b"-0", b"1.50", b"1e3", b"-2.5E-7", b"true", b"false", b"null", b"[1,{}]", b"1.5e+3"):
        yield f"fidelity-number/{n.decode()}", NUMBERS["fidelity-number"].replace(b"@", n)
    for n in (b"0", b"-12", b"3.25", b"true", b"false"):
        yield f"output-number/{n.decode()}", NUMBERS["output-number"].replace(b"@", n)
    for flag in (b"true", b"false"):
        yield f"request_begin/{flag.decode()}", _T + (b'"type":"event_msg","payload":{"type":"request_begin",'
                                                       b'"prefix_records":4,"prefix_extends_prev":%s}}' % flag)


def oracle(data: bytes) -> Answer:
    """The pure path's answer to `data` (strict mode)."""
    try:
        msg = codec._decode(data, False, ORACLE)
    except om.DecodeError as err:
        return ("refused", err.category)
    return ("encoded", om.encode(msg))


def canonical(data: bytes) -> bool:
    """`data` (one trailing line feed allowed, as the verifier allows it) is the canonical encoding
    of what it decodes to."""
    data = data[:-1] if data.endswith(b"\n") else data
    answer = oracle(data)
    return answer[0] == "encoded" and answer[1] == data


def cases(tails: tuple[int, ...] = (17,), offsets: tuple[int, ...] = OFFSETS) -> list[Case]:
    """The catalogue as conformance cases (strict mode; lines holding a raw line feed left out), each
    expecting the pure path's answer: what
    a testee of any binding is judged by (`omnimessage.conformance.runner.run_cases`)."""
    out = []
    for i, (name, data) in enumerate(lines(tails, offsets)):
        if b"\n" in data:
            continue  # a line feed ends the line: the testee protocol sends one line per case
        common = {"id": f"fastpath.{i:05d}", "group": "fresh", "description": name, "spec": "generated",
                  "input": data + b"\n", "tags": ("fastpath",),
                  "source": f"fastpath_cases.py: {name} (base64 {base64.b64encode(data[:48]).decode()}...)"}
        kind, value = oracle(data)
        if kind == "encoded":
            assert isinstance(value, bytes)
            out.append(Case(expect="identical" if value == data else "canonical", output=value, **common))
        else:
            assert isinstance(value, str)
            pointer = _pointer(data) if value in POINTED_CATEGORIES else None
            out.append(Case(expect="reject", category=value, pointer=pointer, **common))
    return out


def _pointer(data: bytes) -> str:
    try:
        codec._decode(data, False, ORACLE)
    except om.DecodeError as err:
        return err.pointer
    raise AssertionError(data)
