# ruff: noqa: E501  (fixture lines are long literals)
"""Escaped `type` values beside a defect or an oddity inside a verbatim value or a fragment (issue 38).

Where the verbatim values are, and whether a field is a streaming fragment (which alone may hold a
lone surrogate), follows from the envelope's and the payload's `type`: their unescaped values.
A decoder that reads them from the raw bytes (`"model\\u005fmsg"` is not `model_msg` to it) takes
a duplicate key inside `fidelity` for a duplicate key of the message, or a fragment's lone
surrogate for a defect. No other fixed case combines the two, so only random fresh cases caught
such a decoder, and not on every seed. Suite 3.0.0 adds these cases (the version that also made a raw CR or LF `line_break`).
"""

from __future__ import annotations

from .canonicalization import canonicalization_case
from .collector import rejection_case

T = '"timestamp":"2026-07-18T03:10:22.531Z"'

# (id, description, the line with its escapes, the same line with the `type` values unescaped)
_CANONICAL = [
    ("fidelity-duplicate-key", "an escaped envelope `type` (`model\\u005fmsg`) and a duplicate key inside fidelity (kept: verbatim)",
     '"type":"model\\u005fmsg","payload":{"type":"text","role":"user","text":"x","fidelity":{"a":1,"a":2}}',
     '"type":"model_msg","payload":{"type":"text","role":"user","text":"x","fidelity":{"a":1,"a":2}}'),
    ("fidelity-odd-spelling", "escaped envelope and payload `type` values and a fidelity spelled oddly (whitespace, `\\/`, `1.0`, a duplicate)",
     '"type":"model\\u005fmsg","payload":{"type":"th\\u0069nking","role":"assistant","thinking":"x","fidelity":{ "a" : 1.0 ,"b":"\\/","a":-0 }}',
     '"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"x","fidelity":{ "a" : 1.0 ,"b":"\\/","a":-0 }}'),
    ("parameters-duplicate-key", "an escaped payload `type` (`tool_list_r\\u0065ady`) and a duplicate key inside tool parameters",
     '"type":"event\\u005fmsg","payload":{"type":"tool_list_r\\u0065ady","tools":[{"name":"f","description":"d","parameters":{"x":1,"x":{ }}}]}',
     '"type":"event_msg","payload":{"type":"tool_list_ready","tools":[{"name":"f","description":"d","parameters":{"x":1,"x":{ }}}]}'),
    ("hook-output-duplicate-key", "an escaped payload `type` (`h\\u006fok`) and a hook output with a duplicate key and odd numbers",
     '"type":"event\\u005fmsg","payload":{"type":"h\\u006fok","hook":"pre_tool_use","name":"g","output":{"n":1E2,"n":-0}}',
     '"type":"event_msg","payload":{"type":"hook","hook":"pre_tool_use","name":"g","output":{"n":1E2,"n":-0}}'),
    ("fragment-lone-surrogate", "an escaped partial `type` (`partial_\\u0074ext`) whose fragment ends in a lone surrogate (a fragment may)",
     '"type":"model\\u005fmsg","payload":{"type":"partial_\\u0074ext","role":"assistant","event_type":"delta","text":"abc\\ud83d"}',
     '"type":"model_msg","payload":{"type":"partial_text","role":"assistant","event_type":"delta","text":"abc\\ud83d"}'),
]

# (id, description, the line, category, pointer)
_REJECTED = [
    ("escaped-type.fidelity-overlong", "an escaped envelope `type` and an overlong UTF-8 form inside fidelity",
     b'{' + T.encode() + b',"type":"model\\u005fmsg","payload":{"type":"text","role":"user","text":"x","fidelity":{"s":"\xc0\xaf"}}}\n',
     "invalid_utf8", ""),
    ("escaped-type.fidelity-not-an-object", "an escaped payload `type` and a fidelity that is not an object",
     b'{' + T.encode() + b',"type":"model_msg","payload":{"type":"t\\u0065xt","role":"user","text":"x","fidelity":[{"a":1,"a":2}]}}\n',
     "wrong_type", "/payload/fidelity"),
    ("escaped-type.hook-output-nested", "an escaped payload `type` and a hook output member that is an object",
     b'{' + T.encode() + b',"type":"event\\u005fmsg","payload":{"type":"h\\u006fok","hook":"pre_tool_use","name":"g","output":{"a":{"b":1,"b":2}}}}\n',
     "wrong_type", "/payload/output/a"),
    ("escaped-type.lone-surrogate-outside-fragment", "an escaped payload `type` (`t\\u0065xt`, not a partial): a lone surrogate in its text is refused",
     b'{' + T.encode() + b',"type":"model\\u005fmsg","payload":{"type":"t\\u0065xt","role":"user","text":"abc\\ud83d"}}\n',
     "lone_surrogate", "/payload/text"),
]


def generate_escaped_type() -> None:
    for cid, desc, inp, out in _CANONICAL:
        canonicalization_case(f"escaped-type.{cid}", desc, "{" + T + "," + inp + "}\n", "{" + T + "," + out + "}",
                              "2.4", ["escape", "escaped-type", "verbatim"])
    for cid, desc, data, category, pointer in _REJECTED:
        rejection_case(cid, desc, data, category, pointer=pointer, tags=["escape", "escaped-type", "verbatim"])
