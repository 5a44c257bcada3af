"""Group `verbatim`: hostile spellings inside fidelity, tool parameters and hook output."""

from __future__ import annotations

import base64
import random
from collections.abc import Iterable
from typing import Any

from .canonical_json import Raw, line, msg
from .collector import CASES
from .payload_values import full
from .schema_facts import DEFS, obj, props, slug


def _enum_of(defname: str, prop: str) -> str | None:
    ref = DEFS[defname]["properties"][prop].get("$ref", "")
    name = ref.rsplit("/", 1)[-1]
    return name if name in DEFS and "enum" in DEFS[name] else None


def _enum_props(defname: str) -> set[str]:
    return {p for p in props(defname) if _enum_of(defname, p) or "const" in DEFS[defname]["properties"][p]}




NEST_256 = "{" + '"a":{' * 255 + "}" * 255 + "}"
SPELLINGS: list[tuple[str, str, bool]] = [  # name, JSON object text, whether every member value is a scalar
    ("ws-inner", '{ "sig" : "abc" ,\t"n" :  1 }', True),
    ("ws-tabs", '{\t"a"\t:\t[\t1\t,\t2\t]\t}', False),
    ("ws-arrays", '{"a":[ ],"b":[ [ ] , [ { } ] ],"c":[1,"x",true,false,null]}', False),
    ("num-1.0", '{"n":1.0}', True),
    ("num-1E2", '{"n":1E2}', True),
    ("num-1e+2", '{"n":1e+2,"m":1e-2,"k":1E+0}', True),
    ("num-minus-zero", '{"n":-0,"m":-0.0,"k":-0e0}', True),
    ("num-beyond-2^53", '{"n":9007199254740993,"m":-9007199254740993}', True),
    ("num-beyond-2^64", '{"n":18446744073709551617,"m":340282366920938463463374607431768211457}', True),
    ("num-1.5e400", '{"n":1.5e400,"m":-1.5e400}', True),
    ("num-1e-400", '{"n":1e-400}', True),
    ("num-trailing-zeros", '{"n":1.50,"m":100e-2,"k":0.10}', True),
    ("num-long-fraction", '{"n":0.1000000000000000055511151231257827021181583404541015625}', True),
    ("num-300-digits", '{"n":' + "7" * 300 + "}", True),
    ("esc-u00e9", '{"s":"caf\\u00e9"}', True),
    ("esc-solidus", '{"url":"https:\\/\\/example.com\\/a"}', True),
    ("esc-u0041", '{"s":"\\u0041BC"}', True),
    ("esc-upper-hex", '{"s":"\\u00E9\\u001F\\u00e9"}', True),
    ("esc-surrogate-pair", '{"s":"\\ud83d\\ude00"}', True),
    ("esc-surrogate-pair-upper", '{"s":"\\uD83D\\uDE00"}', True),
    ("esc-lone-high", '{"s":"\\ud800"}', True),
    ("esc-lone-reversed", '{"s":"\\udc00\\ud800"}', True),
    ("esc-lone-in-key", '{"\\udfff":1}', True),
    ("esc-controls", '{"s":"\\u0000\\b\\f\\n\\r\\t\\u001f\\u0008"}', True),
    ("esc-in-key", '{"\\u0074ype":"x","t\\u0079pe":"y"}', True),
    ("esc-everything", '{"\\u0061":"\\u0062\\/\\"\\\\"}', True),
    ("keys-integer-like", '{"2":"b","1":"a","10":"c","-1":"d","01":"e","4294967295":"f"}', True),
    ("keys-reverse", '{"z":1,"y":2,"a":3}', True),
    ("keys-duplicate", '{"a":1,"a":2}', True),
    ("keys-duplicate-escaped", '{"a":1,"\\u0061":2}', True),
    ("keys-proto", '{"__proto__":"x","constructor":1,"toString":true}', True),
    ("keys-proto-object", '{"__proto__":{"polluted":true}}', False),
    ("keys-empty", '{"":"empty key","":""}', True),
    ("empty-object", "{}", True),
    ("empty-object-ws", "{ }", True),
    ("literals", '{"t":true,"f":false,"n":null}', False),
    ("raw-unicode", '{"s":"😀\u2028\u2029\x7f é","ü":"ü"}', True),
    ("nesting-256", NEST_256, False),
    ("nesting-arrays", '{"a":' + "[" * 200 + "]" * 200 + "}", False),
]


def verbatim_case(cid: str, desc: str, m: dict[str, Any], tags: Iterable[str]) -> None:
    CASES.add(cid, "verbatim", desc, "3", line(m), tags=["verbatim", *tags])


def generate_verbatim() -> None:
    for name, text, scalar in SPELLINGS:
        raw = Raw(text)
        verbatim_case(
            f"fidelity.{name}",
            f"thinking fidelity kept byte for byte: {name}",
            msg("ThinkingPayload", full("ThinkingPayload", fidelity=raw)),
            ["fidelity", name],
        )
        tool = obj("ToolDefinition", name="t", description="d", parameters=raw)
        verbatim_case(
            f"parameters.{name}",
            f"tool parameters kept byte for byte: {name}",
            msg("ToolListReadyPayload", obj("ToolListReadyPayload", tools=[tool])),
            ["parameters", name],
        )
        if scalar:
            verbatim_case(
                f"hook-output.{name}",
                f"hook output kept byte for byte: {name}",
                msg("HookPayload", full("HookPayload", output=raw)),
                ["hook-output", name],
            )
    torture = Raw(
        '{ "sig":"a\\/b\\u00e9" , "n":1.0,"n":1E2, "big":18446744073709551617, "x":-0,'
        '"\\ud800":"\\udc00", "2":1,"1":2, "":{ } }'
    )
    for d in ("TextPayload", "ThinkingPayload", "InlineThinkingPayload", "ToolCallPayload", "InlineDataPayload"):
        verbatim_case(
            f"fidelity.torture.{slug(d)}",
            f"a torture fidelity on {d}",
            msg(d, full(d, fidelity=torture)),
            ["fidelity", "torture"],
        )
    params = Raw(
        '{ "$schema" : "https://json-schema.org/draft/2020-12/schema",\t"type":"object", '
        '"properties" : { "path" : { "type" : "string", "default" : "\\/tmp" }, '
        '"depth": {"type":"integer","maximum":1E3, "minimum" : 0.0} }, "required":["path"] }'
    )
    verbatim_case(
        "parameters.pretty-json-schema",
        "a hand-formatted JSON Schema as tool parameters",
        msg(
            "ToolListReadyPayload",
            obj("ToolListReadyPayload", tools=[obj("ToolDefinition", name="ls", description="l", parameters=params)]),
        ),
        ["parameters"],
    )
    tools = [
        obj("ToolDefinition", name=f"t{i}", description="d", parameters=Raw(t))
        for i, (_, t, _) in enumerate(SPELLINGS[:12])
    ]
    tools.insert(3, obj("ToolDefinition", name="bare", description="no parameters"))
    verbatim_case(
        "parameters.many-tools-mixed",
        "twelve tools with different parameter spellings and one without",
        msg("ToolListReadyPayload", obj("ToolListReadyPayload", tools=tools)),
        ["parameters"],
    )
    verbatim_case(
        "hook-output.mixed-scalars",
        "hook output with string, number, boolean values in hostile spellings",
        msg("HookPayload", full("HookPayload", output=Raw('{"ok" : true,"n":1.0E-0,"s":"\\u0041","f":false}'))),
        ["hook-output"],
    )
    # depth: a verbatim value may nest to the envelope's limit (512 levels counted from the envelope)
    k = 512 - 3  # envelope 1, payload 2, fidelity 3: 509 more levels reach exactly 512
    deep = Raw('{"a":' + "[" * k + "]" * k + "}")
    verbatim_case(
        "fidelity.depth-512",
        "fidelity nesting to exactly 512 levels counted from the envelope (the limit)",
        msg("ThinkingPayload", full("ThinkingPayload", fidelity=deep)),
        ["fidelity", "depth-limit"],
    )
    deep_obj = Raw("{" + '"a":{' * (k) + "}" * (k) + "}")
    verbatim_case(
        "fidelity.depth-512-objects",
        "fidelity of nested objects reaching exactly 512 levels",
        msg("ThinkingPayload", full("ThinkingPayload", fidelity=deep_obj)),
        ["fidelity", "depth-limit"],
    )
    rng = random.Random(7)
    sig = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(786432))).decode()
    verbatim_case(
        "fidelity.large-1mb",
        "a 1 MiB signature in fidelity, with inner whitespace",
        msg("ThinkingPayload", full("ThinkingPayload", fidelity=Raw('{ "signature" : "' + sig + '" }'))),
        ["fidelity", "large"],
    )
    verbatim_case(
        "fidelity.number-1e6-digits",
        "a number of 10^6 digits inside fidelity",
        msg("ThinkingPayload", full("ThinkingPayload", fidelity=Raw('{"n":' + "8" * 10**6 + "}"))),
        ["fidelity", "large"],
    )
    verbatim_case(
        "hook-output.number-1e6-digits",
        "a number of 10^6 digits inside a hook output",
        msg("HookPayload", full("HookPayload", output=Raw('{"n":-' + "9" * 10**6 + ".5e-3}"))),
        ["hook-output", "large"],
    )

