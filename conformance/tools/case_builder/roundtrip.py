# ruff: noqa: E501  (fixture lines are long literals)
"""Group `roundtrip`: canonical lines that must come back byte for byte."""

from __future__ import annotations

import base64
import random
from collections.abc import Iterable
from typing import Any

from .canonical_json import Raw, line, msg
from .collector import CASES
from .payload_values import FULL, PAYLOADS, counts, full, minimal, server_failed, server_ok
from .schema_facts import CHILD, DEFS, FRAGMENT_FIELD, MAX_SAFE, envelope_of, obj, props, required, slug
from .verbatim import _enum_of, _enum_props


def roundtrip_case(cid: str, desc: str, m: dict[str, Any], spec: str = "2", tags: Iterable[str] = ()) -> None:
    CASES.add(cid, "roundtrip", desc, spec, line(m), tags=tags)


def split_surrogate_case(cid: str, desc: str, defname: str, value: str, tags: Iterable[str] = ()) -> None:
    """A canonical partial whose fragment field is `value` (lone surrogates written `\\udxxx`)."""
    m = msg(defname, full(defname, **{FRAGMENT_FIELD[defname]: value}))
    roundtrip_case(f"split-surrogate.{cid}", desc, m, "4.1", ["unicode", "split-surrogate", *tags])


def generate_roundtrip() -> None:
    for d in PAYLOADS:
        s = slug(d)
        roundtrip_case(f"{s}.minimal", f"{d} with only its required fields", msg(d, minimal(d)), "2.3", ["minimal"])
        roundtrip_case(f"{s}.full", f"{d} with every optional field present", msg(d, full(d)), "2.2", ["full"])
        optional = [p for p in props(d) if p != "type" and p not in required(d)]
        if len(optional) > 1:
            for p in optional:
                rest = {k: v for k, v in FULL[d].items() if k != p}
                roundtrip_case(
                    f"{s}.without-{p}",
                    f"{d} with every optional field but `{p}`",
                    msg(d, obj(d, **rest)),
                    "2.3",
                    ["optional-absent"],
                )
            for p in optional:
                rest = {k: v for k, v in FULL[d].items() if k in required(d) or k == p}
                roundtrip_case(
                    f"{s}.only-{p}",
                    f"{d} with `{p}` as its only optional field",
                    msg(d, obj(d, **rest)),
                    "2.3",
                    ["optional-present"],
                )
        strs = {k: ("" if isinstance(v, str) else v) for k, v in FULL[d].items() if k in required(d)}
        enumish = {p for p in props(d) if _enum_of(d, p) or "const" in DEFS[d]["properties"][p]}
        strs = {k: (FULL[d][k] if k in enumish else v) for k, v in strs.items()}
        if any(v == "" for v in strs.values()):
            roundtrip_case(
                f"{s}.empty-strings",
                f"{d}: every required free-text field is the empty string",
                msg(d, obj(d, **strs)),
                "2.4",
                ["unicode", "empty-string"],
            )

    # every value of every enum, in every place that enum is used
    for d in [*PAYLOADS, "McpServerResult"]:
        for p in props(d):
            en = _enum_of(d, p)
            if not en:
                continue
            for v in DEFS[en]["enum"]:
                if d == "McpServerResult":
                    res = obj("McpServerResult", **{**server_failed(), p: v})
                    m = msg("McpConnectEndPayload", full("McpConnectEndPayload", results=[res]))
                else:
                    m = msg(d, full(d, **{p: v}))
                roundtrip_case(f"enum.{slug(d)}.{p}.{v}", f"{d}.{p} = {v!r} ({en})", m, "2", ["enum"])

    # origin chains on every envelope kind
    for d in ("SessionMetaPayload", "TextPayload", "RequestEndPayload"):
        for depth in (1, 2, 3):
            roundtrip_case(
                f"origin.{envelope_of(d)}.depth-{depth}",
                f"a {envelope_of(d)} forwarded through {depth} subagent(s)",
                msg(d, full(d), origin=CHILD[:depth]),
                "2.2",
                [f"origin-depth-{depth}", "origin"],
            )
    roundtrip_case(
        "origin.long-chain",
        "an origin chain of 64 ids",
        msg("TextPayload", full("TextPayload"), origin=[f"session-2026-07-18-03-10-22-{i:08x}" for i in range(64)]),
        "2.2",
        ["origin"],
    )
    roundtrip_case(
        "origin.minimal-payload",
        "origin on a payload with no optional field",
        msg("RequestBeginPayload", minimal("RequestBeginPayload"), origin=[CHILD[0]]),
        "2.2",
        ["origin"],
    )

    # null is a value
    roundtrip_case(
        "abort.reason-null",
        "`abort.reason: null` is present-and-null and round-trips as such",
        msg("AbortPayload", obj("AbortPayload", reason=None)),
        "2.3",
        ["null"],
    )
    roundtrip_case(
        "abort.reason-null-full",
        "`reason: null` beside the other abort fields",
        msg("AbortPayload", full("AbortPayload", reason=None)),
        "2.3",
        ["null"],
    )
    roundtrip_case(
        "abort.reason-empty",
        '`reason: ""` is a string, not absent',
        msg("AbortPayload", obj("AbortPayload", reason="")),
        "2.3",
        ["empty-string"],
    )

    # numbers: canonical ECMAScript spellings in `number` fields
    numbers = [
        "0",
        "1",
        "0.5",
        "1.5",
        "2000",
        "123456789.125",
        "0.1",
        "0.30000000000000004",
        "0.000001",
        "1e-7",
        "1.5e-7",
        "5e-324",
        "100000000000000000000",
        "1e+21",
        "1.7976931348623157e+308",
        "9007199254740992",
        "18014398509481984",
        "4.35",
        "1e+100",
    ]
    for n in numbers:
        roundtrip_case(
            f"number.retry_in_ms.{n}",
            f"retry_in_ms spelled canonically: {n}",
            msg("RequestEndPayload", full("RequestEndPayload", retry_in_ms=Raw(n))),
            "2.5",
            ["number-spelling"],
        )
    for n in ("0", "200000", "1.5", "1e+21", "5e-324"):
        roundtrip_case(
            f"number.model_context_window.{n}",
            f"model_context_window as a number: {n}",
            msg("SessionMetaPayload", full("SessionMetaPayload", model_context_window=Raw(n))),
            "2.5",
            ["number-spelling"],
        )
    for n in ("200k", "", "1e6", "0"):
        roundtrip_case(
            f"number.model_context_window.string-{n or 'empty'}",
            f"model_context_window as a string: {n!r}",
            msg("SessionMetaPayload", full("SessionMetaPayload", model_context_window=n)),
            "2.5",
            ["string-number"],
        )
    for n in ("0", "0.001", "61234.5", "1e+21"):
        res = obj("McpServerResult", **{**server_ok(), "duration_ms": Raw(n)})
        roundtrip_case(
            f"number.duration_ms.{n}",
            f"duration_ms spelled canonically: {n}",
            msg("McpConnectEndPayload", full("McpConnectEndPayload", results=[res])),
            "2.5",
            ["number-spelling"],
        )

    # integer fields at their bounds
    top = counts(MAX_SAFE, MAX_SAFE, MAX_SAFE, MAX_SAFE)
    roundtrip_case(
        "integer.token-counts-max",
        "every token count at 2^53-1",
        msg("TokenUsagePayload", obj("TokenUsagePayload", session=top, request=counts(0, 0, 0, 0))),
        "6",
        ["integer-bounds"],
    )
    roundtrip_case(
        "integer.compaction-max",
        "context and turns at 2^53-1 and 0",
        msg("CompactionBeginPayload", full("CompactionBeginPayload", context=MAX_SAFE, turns=0)),
        "6",
        ["integer-bounds"],
    )
    roundtrip_case(
        "integer.attempt-max",
        "attempt at 2^53-1",
        msg("RequestEndPayload", full("RequestEndPayload", attempt=MAX_SAFE)),
        "6",
        ["integer-bounds"],
    )
    roundtrip_case(
        "integer.tools-max",
        "mcp tools at 2^53-1 and 0",
        msg(
            "McpConnectEndPayload",
            full(
                "McpConnectEndPayload",
                results=[
                    obj("McpServerResult", **{**server_ok(), "tools": MAX_SAFE}),
                    obj("McpServerResult", **{**server_ok(), "tools": 0}),
                ],
            ),
        ),
        "6",
        ["integer-bounds"],
    )

    # unicode
    def text(t: str, cid: str, desc: str, tags: Iterable[str] = ()) -> None:
        roundtrip_case(
            f"unicode.{cid}",
            desc,
            msg("TextPayload", obj("TextPayload", role="assistant", text=t)),
            "2.4",
            ["unicode", *tags],
        )

    text("😀 𝄞 \U0010ffff \U00010000", "astral", "astral characters (U+1F600, U+1D11E, U+10FFFF, U+10000) written raw")
    text("a\u2028b\u2029c", "line-separators", "U+2028 and U+2029 written raw, not escaped")
    text("\x7f\x80\x9f\xa0", "del-and-c1", "U+007F and C1 controls written raw")
    text(
        "".join(chr(i) for i in range(0x20)),
        "all-c0-controls",
        "every C0 control: \\b \\t \\n \\f \\r short escapes, the rest \\u00xx in lower-case hex",
        ["escape"],
    )
    text('quote " backslash \\ slash / tab \t', "short-escapes", 'the " and \\ escapes; / stays raw', ["escape"])
    text("\ufeff\ufffe\uffff\ufdd0", "bom-and-noncharacters", "U+FEFF inside a string and noncharacters, raw")
    text("👩\u200d👩\u200d👧 é e\u0301 \u202eRTL", "combining", "ZWJ sequences, combining marks, bidi controls")
    text(
        "\\u0041 \\n \\ud800",
        "escape-lookalikes",
        "text that merely looks like escapes (backslashes are escaped)",
        ["escape"],
    )
    text("ünïcödé ∀∃ 中文 日本語 한국어 العربية עברית", "scripts", "many scripts, raw UTF-8")
    text("\u0800\uffff\u07ff\u0080", "utf8-boundaries", "characters at the UTF-8 length boundaries")
    uni = {
        k: (
            v + " ✓ é 😀"
            if isinstance(v, str) and not isinstance(v, Raw) and k not in _enum_props("ToolCallPayload")
            else v
        )
        for k, v in FULL["ToolCallPayload"].items()
    }
    roundtrip_case(
        "unicode.every-string-field",
        "non-ASCII text in every free-text field of a tool call",
        msg("ToolCallPayload", obj("ToolCallPayload", **uni), ts="2026-07-18T03:10:22.531Z ⌚"),
        "2.4",
        ["unicode"],
    )
    # split surrogate pairs in streaming fragments (spec 4.1): the fragment field of a partial
    # (the one `x-omnimessage-fragment-of` names) may escape a lone surrogate
    for pd in FRAGMENT_FIELD:
        ps, pf = slug(pd), FRAGMENT_FIELD[pd]
        split_surrogate_case(f"{ps}.high-at-end", f"{pd}.{pf}: a delta ending with the high half of a split pair", pd, "abc\ud83d")
        split_surrogate_case(f"{ps}.low-at-start", f"{pd}.{pf}: the next delta, starting with the low half", pd, "\ude00def")
    po = "PartialToolCallOutputPayload"
    split_surrogate_case(
        "both-ends",
        "a delta that starts with the low half of one split pair and ends with the high half of the next",
        po,
        "\udc00 \u2713 \udbff",
    )
    split_surrogate_case(
        "alone",
        "a delta of one UTF-16 code unit: the high half alone (a JavaScript producer cutting mid-pair)",
        "PartialTextPayload",
        "\ud83d",
        tags=["hostile"],
    )
    split_surrogate_case("low-alone", "a delta holding only a low half", "PartialThinkingPayload", "\udfff")
    split_surrogate_case(
        "anywhere",
        "lone halves anywhere in the fragment, not only at its ends (the rule is per field)",
        "PartialToolCallPayload",
        '{"q":"a\udc00b\ud800c"}',
    )
    split_surrogate_case("reversed", "a low half then a high half: two lone halves, no pair", po, "\ude00\ud83d")
    split_surrogate_case("pair-then-half", "a whole pair (written raw) then the high half of the next", po, "\U0001f600\ud83d")
    for ev in ("start", "stop"):
        roundtrip_case(
            f"split-surrogate.event-{ev}",
            f"a lone half in a `{ev}` fragment",
            msg(po, full(po, event_type=ev, output="\ude00")),
            "4.1",
            ["unicode", "split-surrogate"],
        )
    roundtrip_case(
        "unicode.timestamp-free-form",
        "a decoder accepts any string as timestamp (section 8)",
        msg("RequestBeginPayload", minimal("RequestBeginPayload"), ts="yesterday"),
        "8",
        ["unicode"],
    )

    # large values
    rng = random.Random(4)
    alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:!?-_()[]{}<>/'"
    big = "".join(rng.choice(alphabet) for _ in range(1 << 20))
    roundtrip_case(
        "large.text-1mb-ascii",
        "a 1 MiB ASCII text",
        msg("TextPayload", obj("TextPayload", role="assistant", text=big)),
        "7",
        ["large"],
    )
    roundtrip_case(
        "large.text-1mb-multibyte",
        "a 1 MiB text of 2-, 3- and 4-byte characters",
        msg("TextPayload", obj("TextPayload", role="user", text="é中😀" * (1 << 20 // 9))),
        "7",
        ["large", "unicode"],
    )
    roundtrip_case(
        "large.text-escapes",
        "a text of 200000 characters that all need escaping",
        msg("TextPayload", obj("TextPayload", role="user", text='\n"\\\x01' * 50000)),
        "7",
        ["large", "escape"],
    )
    data = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(786432))).decode()
    roundtrip_case(
        "large.inline-data-1mb",
        "1 MiB of base64 inline data",
        msg("InlineDataPayload", full("InlineDataPayload", data=data)),
        "7",
        ["large"],
    )
    img = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(3000))).decode()
    roundtrip_case(
        "large.many-images",
        "a tool output with 256 images",
        msg(
            "ToolCallOutputPayload",
            full("ToolCallOutputPayload", images=[f"data:image/png;base64,{img}{i:04d}" for i in range(256)]),
        ),
        "7",
        ["large", "images"],
    )
    roundtrip_case(
        "large.no-images",
        "a tool output with an empty images array (kept: an empty array is a value)",
        msg("ToolCallOutputPayload", full("ToolCallOutputPayload", images=[])),
        "2.3",
        ["images"],
    )
    tools = [
        obj(
            "ToolDefinition",
            name=f"tool_{i}",
            description=f"Tool number {i}.",
            parameters=Raw('{"type":"object","properties":{"n":{"type":"integer","minimum":' + str(i) + "}}}"),
        )
        for i in range(300)
    ]
    roundtrip_case(
        "large.many-tools",
        "a tool list of 300 tools",
        msg("ToolListReadyPayload", obj("ToolListReadyPayload", tools=tools)),
        "7",
        ["large"],
    )
    roundtrip_case(
        "large.many-servers",
        "100 MCP servers",
        msg(
            "McpConnectEndPayload",
            full(
                "McpConnectEndPayload",
                results=[obj("McpServerResult", **{**server_ok(), "server": f"srv{i}"}) for i in range(100)],
            ),
        ),
        "7",
        ["large"],
    )
    roundtrip_case(
        "large.empty-arrays",
        "empty tools, servers and results arrays",
        msg("McpConnectEndPayload", obj("McpConnectEndPayload", status="aborted", results=[])),
        "2",
        ["empty-array"],
    )
    roundtrip_case(
        "large.empty-tools",
        "an empty tool list",
        msg("ToolListReadyPayload", obj("ToolListReadyPayload", tools=[])),
        "2",
        ["empty-array"],
    )
    exact = line(msg("RequestBeginPayload", minimal("RequestBeginPayload")))
    CASES.add(
        "limits.line-exactly-at-limit",
        "roundtrip",
        "a line exactly as long as the reader's limit (LF not counted) is read",
        "7",
        exact,
        max_line_bytes=len(exact) - 1,
        tags=["limits"],
    )
    roundtrip_case(
        "large.empty-servers",
        "an empty server list",
        msg("McpConnectBeginPayload", obj("McpConnectBeginPayload", servers=[])),
        "2",
        ["empty-array"],
    )


