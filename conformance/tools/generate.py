#!/usr/bin/env python3
# ruff: noqa: E501  (fixture lines are long literals)
"""Writes the conformance fixtures (`cases/*.jsonl`) and `manifest.json`.

Run from the repository root: `.venv/bin/python conformance/tools/generate.py` (`--check`
only compares). The fixture files are committed; this script documents how they were made.

Expected bytes never come from the codec under test. Round-trip lines are written here by
a small, independent implementation of the spec's canonical rules (schema key order, the
escaping of `JSON.stringify`; numbers are spelled by hand), and canonicalization cases pair
hand-written inputs with hand-written or rule-derived outputs. `make test` then checks the
Python codec against them, and (where Node is installed) checks the expected bytes once
more against `JSON.stringify` itself (`conformance/tools/reference_producer.mjs`).

Tags: structural tags (`def:`, `field:`, `absent:`, `enum:`, `anyof:`, `kind:`) are measured
by walking the expected message with the schema (`omnimessage.conformance.coverage`, which
reads the schema, not the codec); the others are written here.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SUITE = HERE.parent
REPO = SUITE.parent
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "codegen"))

from omnimessage.conformance.coverage import SchemaWalker, parse_json  # noqa: E402

SCHEMA: dict[str, Any] = json.loads((REPO / "schema" / "omnimessage.schema.json").read_text(encoding="utf-8"))
DEFS: dict[str, dict[str, Any]] = SCHEMA["$defs"]
REJECTIONS: dict[str, dict[str, Any]] = SCHEMA["x-omnimessage-rejections"]
WALKER = SchemaWalker(SCHEMA)
SUITE_VERSION = "1.2.0"
MAX_SAFE = 2**53 - 1
TS = "2026-07-18T03:10:22.531Z"
SID = "session-2026-07-18-03-10-22-1a2b3c4d"
CHILD = [
    "session-2026-07-18-03-11-02-9f8e7d6c",
    "session-2026-07-18-03-12-40-00ff00ff",
    "session-2026-07-18-03-13-07-abcdef01",
]


# ---------------------------------------------------------------------------
# The canonical writer (spec section 2), independent of the codec
# ---------------------------------------------------------------------------


class Raw(str):
    """JSON text written as is (verbatim values, hand-spelled numbers)."""


_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


_SURROGATE = re.compile("[\ud800-\udfff]")


def q(s: str) -> str:
    """`JSON.stringify` of a string: the seven short escapes, other C0 controls as lower-case \\u00xx,
    lone surrogates as lower-case \\udxxx (ES2019 well-formed JSON.stringify; JavaScript strings are
    UTF-16, so adjacent high and low halves are one character, written raw)."""
    if _SURROGATE.search(s):
        s = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    out = ['"']
    for ch in s:
        if ch in _SHORT:
            out.append(_SHORT[ch])
        elif ord(ch) < 0x20 or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def w(v: Any) -> str:
    """Canonical JSON text: insertion order (callers build objects in schema order), no whitespace."""
    if isinstance(v, Raw):
        return str(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        assert abs(v) <= 2**53, "spell larger numbers by hand with Raw"
        return str(v)
    if isinstance(v, float):
        raise AssertionError("spell non-integers by hand with Raw")
    if isinstance(v, str):
        return q(v)
    if isinstance(v, list):
        return "[" + ",".join(w(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(q(k) + ":" + w(x) for k, x in v.items()) + "}"
    raise TypeError(type(v))


def props(defname: str) -> list[str]:
    return list(DEFS[defname]["properties"])


def obj(defname: str, **fields: Any) -> dict[str, Any]:
    """An object of a struct `$def`, keys in schema order (the `type` const filled in)."""
    p = DEFS[defname]["properties"]
    unknown = set(fields) - set(p)
    assert not unknown, (defname, unknown)
    if "type" in p and "const" in p["type"]:
        fields = {"type": p["type"]["const"], **fields}
    return {k: fields[k] for k in p if k in fields}


def envelope_of(defname: str) -> str:
    if defname == "SessionMetaPayload":
        return "session_meta"
    model = {
        r["$ref"].rsplit("/", 1)[1] for u in ("CompleteModelPayload", "PartialModelPayload") for r in DEFS[u]["oneOf"]
    }
    return "model_msg" if defname in model else "event_msg"


def msg(payload_def: str, payload: dict[str, Any], origin: list[str] | None = None, ts: str = TS) -> dict[str, Any]:
    env = {"timestamp": ts, "type": envelope_of(payload_def), "payload": payload}
    if origin is not None:
        env["origin"] = origin
    return env


def line(m: dict[str, Any]) -> bytes:
    return (w(m) + "\n").encode("utf-8")


# ---------------------------------------------------------------------------
# Realistic values
# ---------------------------------------------------------------------------

FID = Raw('{"signature":"EqQBCkYIBxgCKkA"}')


def tool_def_full() -> dict[str, Any]:
    return obj(
        "ToolDefinition",
        name="list_files",
        description="List a directory.",
        parameters=Raw('{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}'),
    )


def server_ok() -> dict[str, Any]:
    return obj("McpServerResult", server="github", transport="http", status="completed", duration_ms=412, tools=23)


def server_failed() -> dict[str, Any]:
    return obj(
        "McpServerResult",
        server="files",
        transport="stdio",
        status="fatal",
        duration_ms=Raw("1500.25"),
        error_code="connect_failed",
        error_message="spawn mcp-files ENOENT",
    )


def counts(a: int, b: int, c: int, d: int) -> dict[str, Any]:
    return obj("TokenCounts", cache_read=a, cache_write=b, output=c, total=d)


FULL: dict[str, dict[str, Any]] = {
    "SessionMetaPayload": dict(
        session_id=SID,
        provider="anthropic",
        model_id="claude-sonnet-4-5",
        model_context_window=200000,
        system_prompt="You are a helpful agent.",
        agent_state="/home/ada/.penguin/agents/default",
        workspace="/home/ada/src/app",
        source="cli",
    ),
    "TextPayload": dict(role="user", text="list the files", stop_reason="completed", fidelity=FID, sender="harness"),
    "ThinkingPayload": dict(
        role="assistant", thinking="The user wants a listing.", stop_reason="completed", fidelity=FID
    ),
    "InlineThinkingPayload": dict(
        role="assistant",
        data="ZW5jcnlwdGVk",
        mime_type="application/octet-stream",
        stop_reason="completed",
        fidelity=FID,
    ),
    "ToolCallPayload": dict(
        role="assistant",
        name="list_files",
        arguments='{"path":"."}',
        tool_call_id="call_01",
        stop_reason="completed",
        fidelity=FID,
    ),
    "ToolCallOutputPayload": dict(
        role="user",
        output="README.md\nsrc\n",
        images=["data:image/png;base64,iVBORw0KGgo="],
        tool_call_id="call_01",
        stop_reason="completed",
    ),
    "ImageUrlPayload": dict(role="user", image_url="https://example.com/cat.png", stop_reason="completed"),
    "InlineDataPayload": dict(
        role="user", data="iVBORw0KGgo=", mime_type="image/png", stop_reason="completed", fidelity=FID
    ),
    "PartialTextPayload": dict(role="assistant", event_type="delta", text="Here are", stop_reason="completed"),
    "PartialThinkingPayload": dict(role="assistant", event_type="delta", thinking="The user", stop_reason="completed"),
    "PartialToolCallPayload": dict(
        role="assistant",
        event_type="delta",
        name="list_files",
        arguments='{"path":',
        tool_call_id="call_01",
        stop_reason="completed",
    ),
    "PartialToolCallOutputPayload": dict(
        role="user",
        event_type="delta",
        output="README.md\n",
        images=["data:image/png;base64,iVBORw0KGgo="],
        tool_call_id="call_01",
        stop_reason="completed",
    ),
    "ToolListReadyPayload": dict(tools=[tool_def_full(), obj("ToolDefinition", name="noop", description="")]),
    "McpConnectBeginPayload": dict(servers=["github", "files"]),
    "McpConnectEndPayload": dict(
        status="fatal",
        results=[server_ok(), server_failed()],
        error_code="connect_failed",
        error_message="1 of 2 failed",
    ),
    "RequestBeginPayload": dict(),
    "RequestEndPayload": dict(
        status="retryable",
        error_code="timeout",
        error_message="request timed out after 60s",
        attempt=1,
        retry_in_ms=2000,
    ),
    "ApprovalDecisionPayload": dict(decision="allow", tool_call_id="call_01"),
    "TokenUsagePayload": dict(session=counts(1200, 300, 95, 1650), request=counts(600, 0, 40, 700)),
    "CompactionBeginPayload": dict(reason="context", mode="summarize", context=180000, turns=42),
    "CompactionEndPayload": dict(
        reason="context",
        mode="summarize",
        status="retryable",
        attempt=2,
        error_code="compaction_interrupted",
        error_message="interrupted",
    ),
    "AbortPayload": dict(error_code="user_abort", error_message="interrupted by the user", reason="legacy prose"),
    "SubagentPayload": dict(session_id=CHILD[0]),
    "HookPayload": dict(
        hook="pre_tool_use", name="guard-rm", decision="allow", reason="not destructive", output=Raw('{"checked":true}')
    ),
}
PAYLOADS = list(FULL)
assert set(PAYLOADS) == {n for n in DEFS if n.endswith("Payload") and "properties" in DEFS[n]}


def required(defname: str) -> list[str]:
    return [p for p in DEFS[defname].get("required", []) if p != "type"]


def full(defname: str, **over: Any) -> dict[str, Any]:
    return obj(defname, **{**FULL[defname], **over})


def minimal(defname: str) -> dict[str, Any]:
    return obj(defname, **{k: v for k, v in FULL[defname].items() if k in required(defname)})


def slug(name: str) -> str:
    out = []
    for i, ch in enumerate(name.removesuffix("Payload")):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


# ---------------------------------------------------------------------------
# The case collector
# ---------------------------------------------------------------------------


def text_safe(data: bytes) -> bool:
    """Whether the bytes can sit as one line of a committed text file."""
    if not data.endswith(b"\n") or b"\n" in data[:-1] or data.startswith(b"\xef\xbb\xbf"):
        return False
    try:
        s = data[:-1].decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(ord(c) < 0x20 and c != "\t" for c in s) and not s.endswith((" ", "\t"))


Parts = list[tuple[str | bytes, int]]
"""A compact byte source for huge inputs: (text or bytes, repeat count) pieces, concatenated."""


def parts_bytes(parts: Parts) -> bytes:
    return b"".join((p.encode("utf-8") if isinstance(p, str) else p) * n for p, n in parts)


def parts_source(parts: Parts) -> dict[str, Any]:
    """The manifest form of `parts`: `{"parts": [{"text"|"base64": ..., "repeat": n}, ...]}`."""
    out: list[dict[str, Any]] = []
    for piece, n in parts:
        assert n >= 1 and piece, (piece, n)
        if isinstance(piece, str):
            piece.encode("utf-8")  # text pieces are well-formed Unicode (no lone surrogates)
            item: dict[str, Any] = {"text": piece}
        else:
            item = {"base64": base64.b64encode(piece).decode()}
        if n > 1:
            item["repeat"] = n
        out.append(item)
    return {"parts": out}


class Gen:
    def __init__(self) -> None:
        self.files: dict[str, list[bytes]] = defaultdict(list)
        self.cases: list[dict[str, Any]] = []
        self.ids: set[str] = set()

    def _place(self, file: str, data: bytes) -> dict[str, Any]:
        self.files[file].append(data)
        return {"file": file, "line": len(self.files[file])}

    def add(
        self,
        cid: str,
        group: str,
        description: str,
        spec: str,
        data: bytes,
        *,
        expect: str = "identical",
        output: bytes | None = None,
        category: str | None = None,
        pointer: str | None = None,
        tags: Iterable[str] = (),
        mode: str = "strict",
        max_line_bytes: int | None = None,
        parts: Parts | None = None,
        output_parts: Parts | None = None,
    ) -> None:
        """`parts` / `output_parts` (huge inputs or outputs) are written compactly in the manifest
        instead of `data` / `output`, which are then computed from them."""
        cid = f"{group}.{cid}".replace("^", "pow")
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]*", cid), cid
        assert cid not in self.ids, cid
        self.ids.add(cid)
        if parts is not None:
            data = parts_bytes(parts)
            src = parts_source(parts)
            assert b"\n" not in data.rstrip(b"\n")[:-1] and data.count(b"\n") <= 1, cid
        elif text_safe(data):
            src = self._place(f"cases/{group}.jsonl", data)
        else:
            src = {"base64": base64.b64encode(data).decode()}
        if output_parts is not None:
            output = parts_bytes(output_parts)
        case: dict[str, Any] = {"id": cid, "group": group, "description": description, "spec": spec, "input": src}
        if mode != "strict":
            case["mode"] = mode
            case["features"] = [mode]
        if max_line_bytes is not None:
            case["max_line_bytes"] = max_line_bytes
        ex: dict[str, Any] = {"kind": expect}
        facts: set[str] = set()
        if expect == "canonical":
            assert output is not None and b"\n" not in output
            if output_parts is not None:
                ex["output"] = parts_source(output_parts)
            else:
                ex["output"] = self._place(f"cases/{group}.expected.jsonl", output + b"\n")
            if mode == "strict":
                facts = WALKER.facts(parse_json(output))
        elif expect == "identical":
            body = data[:-1] if data.endswith(b"\n") else data
            if mode == "strict":
                facts = WALKER.facts(parse_json(body))
        else:
            assert category in REJECTIONS, category
            ex["category"] = category
            if pointer is not None:
                ex["pointer"] = pointer
        case["expect"] = ex
        case["lexical"] = bool(expect == "reject" and REJECTIONS[category or ""]["lexical"])
        facts = {f for f in facts if not f.startswith(("def:", "absent:"))}  # kept short; coverage measures all
        case["tags"] = sorted(facts | set(tags) | ({f"category:{category}"} if category else set()))
        self.cases.append(case)


G = Gen()


def rt(cid: str, desc: str, m: dict[str, Any], spec: str = "2", tags: Iterable[str] = ()) -> None:
    G.add(cid, "roundtrip", desc, spec, line(m), tags=tags)


# Streaming partial -> its fragment field (`x-omnimessage-fragment-of`): the one string where a
# lone surrogate escape is accepted (spec 4.1).
FRAGMENT_FIELD: dict[str, str] = {
    name: d["x-omnimessage-fragment-of"]["field"] for name, d in DEFS.items() if "x-omnimessage-fragment-of" in d
}


def frag(cid: str, desc: str, defname: str, value: str, tags: Iterable[str] = ()) -> None:
    """A canonical partial whose fragment field is `value` (lone surrogates written `\\udxxx`)."""
    m = msg(defname, full(defname, **{FRAGMENT_FIELD[defname]: value}))
    rt(f"split-surrogate.{cid}", desc, m, "4.1", ["unicode", "split-surrogate", *tags])


# ---------------------------------------------------------------------------
# roundtrip: canonical lines that must come back byte for byte
# ---------------------------------------------------------------------------


def gen_roundtrip() -> None:
    for d in PAYLOADS:
        s = slug(d)
        rt(f"{s}.minimal", f"{d} with only its required fields", msg(d, minimal(d)), "2.3", ["minimal"])
        rt(f"{s}.full", f"{d} with every optional field present", msg(d, full(d)), "2.2", ["full"])
        optional = [p for p in props(d) if p != "type" and p not in required(d)]
        if len(optional) > 1:
            for p in optional:
                rest = {k: v for k, v in FULL[d].items() if k != p}
                rt(
                    f"{s}.without-{p}",
                    f"{d} with every optional field but `{p}`",
                    msg(d, obj(d, **rest)),
                    "2.3",
                    ["optional-absent"],
                )
            for p in optional:
                rest = {k: v for k, v in FULL[d].items() if k in required(d) or k == p}
                rt(
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
            rt(
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
                rt(f"enum.{slug(d)}.{p}.{v}", f"{d}.{p} = {v!r} ({en})", m, "2", ["enum"])

    # origin chains on every envelope kind
    for d in ("SessionMetaPayload", "TextPayload", "RequestEndPayload"):
        for depth in (1, 2, 3):
            rt(
                f"origin.{envelope_of(d)}.depth-{depth}",
                f"a {envelope_of(d)} forwarded through {depth} subagent(s)",
                msg(d, full(d), origin=CHILD[:depth]),
                "2.2",
                [f"origin-depth-{depth}", "origin"],
            )
    rt(
        "origin.long-chain",
        "an origin chain of 64 ids",
        msg("TextPayload", full("TextPayload"), origin=[f"session-2026-07-18-03-10-22-{i:08x}" for i in range(64)]),
        "2.2",
        ["origin"],
    )
    rt(
        "origin.minimal-payload",
        "origin on a payload with no optional field",
        msg("RequestBeginPayload", minimal("RequestBeginPayload"), origin=[CHILD[0]]),
        "2.2",
        ["origin"],
    )

    # null is a value
    rt(
        "abort.reason-null",
        "`abort.reason: null` is present-and-null and round-trips as such",
        msg("AbortPayload", obj("AbortPayload", reason=None)),
        "2.3",
        ["null"],
    )
    rt(
        "abort.reason-null-full",
        "`reason: null` beside the other abort fields",
        msg("AbortPayload", full("AbortPayload", reason=None)),
        "2.3",
        ["null"],
    )
    rt(
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
        rt(
            f"number.retry_in_ms.{n}",
            f"retry_in_ms spelled canonically: {n}",
            msg("RequestEndPayload", full("RequestEndPayload", retry_in_ms=Raw(n))),
            "2.5",
            ["number-spelling"],
        )
    for n in ("0", "200000", "1.5", "1e+21", "5e-324"):
        rt(
            f"number.model_context_window.{n}",
            f"model_context_window as a number: {n}",
            msg("SessionMetaPayload", full("SessionMetaPayload", model_context_window=Raw(n))),
            "2.5",
            ["number-spelling"],
        )
    for n in ("200k", "", "1e6", "0"):
        rt(
            f"number.model_context_window.string-{n or 'empty'}",
            f"model_context_window as a string: {n!r}",
            msg("SessionMetaPayload", full("SessionMetaPayload", model_context_window=n)),
            "2.5",
            ["string-number"],
        )
    for n in ("0", "0.001", "61234.5", "1e+21"):
        res = obj("McpServerResult", **{**server_ok(), "duration_ms": Raw(n)})
        rt(
            f"number.duration_ms.{n}",
            f"duration_ms spelled canonically: {n}",
            msg("McpConnectEndPayload", full("McpConnectEndPayload", results=[res])),
            "2.5",
            ["number-spelling"],
        )

    # integer fields at their bounds
    top = counts(MAX_SAFE, MAX_SAFE, MAX_SAFE, MAX_SAFE)
    rt(
        "integer.token-counts-max",
        "every token count at 2^53-1",
        msg("TokenUsagePayload", obj("TokenUsagePayload", session=top, request=counts(0, 0, 0, 0))),
        "6",
        ["integer-bounds"],
    )
    rt(
        "integer.compaction-max",
        "context and turns at 2^53-1 and 0",
        msg("CompactionBeginPayload", full("CompactionBeginPayload", context=MAX_SAFE, turns=0)),
        "6",
        ["integer-bounds"],
    )
    rt(
        "integer.attempt-max",
        "attempt at 2^53-1",
        msg("RequestEndPayload", full("RequestEndPayload", attempt=MAX_SAFE)),
        "6",
        ["integer-bounds"],
    )
    rt(
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
        rt(
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
    rt(
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
        frag(f"{ps}.high-at-end", f"{pd}.{pf}: a delta ending with the high half of a split pair", pd, "abc\ud83d")
        frag(f"{ps}.low-at-start", f"{pd}.{pf}: the next delta, starting with the low half", pd, "\ude00def")
    po = "PartialToolCallOutputPayload"
    frag(
        "both-ends",
        "a delta that starts with the low half of one split pair and ends with the high half of the next",
        po,
        "\udc00 \u2713 \udbff",
    )
    frag(
        "alone",
        "a delta of one UTF-16 code unit: the high half alone (a JavaScript producer cutting mid-pair)",
        "PartialTextPayload",
        "\ud83d",
        tags=["hostile"],
    )
    frag("low-alone", "a delta holding only a low half", "PartialThinkingPayload", "\udfff")
    frag(
        "anywhere",
        "lone halves anywhere in the fragment, not only at its ends (the rule is per field)",
        "PartialToolCallPayload",
        '{"q":"a\udc00b\ud800c"}',
    )
    frag("reversed", "a low half then a high half: two lone halves, no pair", po, "\ude00\ud83d")
    frag("pair-then-half", "a whole pair (written raw) then the high half of the next", po, "\U0001f600\ud83d")
    for ev in ("start", "stop"):
        rt(
            f"split-surrogate.event-{ev}",
            f"a lone half in a `{ev}` fragment",
            msg(po, full(po, event_type=ev, output="\ude00")),
            "4.1",
            ["unicode", "split-surrogate"],
        )
    rt(
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
    rt(
        "large.text-1mb-ascii",
        "a 1 MiB ASCII text",
        msg("TextPayload", obj("TextPayload", role="assistant", text=big)),
        "7",
        ["large"],
    )
    rt(
        "large.text-1mb-multibyte",
        "a 1 MiB text of 2-, 3- and 4-byte characters",
        msg("TextPayload", obj("TextPayload", role="user", text="é中😀" * (1 << 20 // 9))),
        "7",
        ["large", "unicode"],
    )
    rt(
        "large.text-escapes",
        "a text of 200000 characters that all need escaping",
        msg("TextPayload", obj("TextPayload", role="user", text='\n"\\\x01' * 50000)),
        "7",
        ["large", "escape"],
    )
    data = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(786432))).decode()
    rt(
        "large.inline-data-1mb",
        "1 MiB of base64 inline data",
        msg("InlineDataPayload", full("InlineDataPayload", data=data)),
        "7",
        ["large"],
    )
    img = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(3000))).decode()
    rt(
        "large.many-images",
        "a tool output with 256 images",
        msg(
            "ToolCallOutputPayload",
            full("ToolCallOutputPayload", images=[f"data:image/png;base64,{img}{i:04d}" for i in range(256)]),
        ),
        "7",
        ["large", "images"],
    )
    rt(
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
    rt(
        "large.many-tools",
        "a tool list of 300 tools",
        msg("ToolListReadyPayload", obj("ToolListReadyPayload", tools=tools)),
        "7",
        ["large"],
    )
    rt(
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
    rt(
        "large.empty-arrays",
        "empty tools, servers and results arrays",
        msg("McpConnectEndPayload", obj("McpConnectEndPayload", status="aborted", results=[])),
        "2",
        ["empty-array"],
    )
    rt(
        "large.empty-tools",
        "an empty tool list",
        msg("ToolListReadyPayload", obj("ToolListReadyPayload", tools=[])),
        "2",
        ["empty-array"],
    )
    exact = line(msg("RequestBeginPayload", minimal("RequestBeginPayload")))
    G.add(
        "limits.line-exactly-at-limit",
        "roundtrip",
        "a line exactly as long as the reader's limit (LF not counted) is read",
        "7",
        exact,
        max_line_bytes=len(exact) - 1,
        tags=["limits"],
    )
    rt(
        "large.empty-servers",
        "an empty server list",
        msg("McpConnectBeginPayload", obj("McpConnectBeginPayload", servers=[])),
        "2",
        ["empty-array"],
    )


def _enum_of(defname: str, prop: str) -> str | None:
    ref = DEFS[defname]["properties"][prop].get("$ref", "")
    name = ref.rsplit("/", 1)[-1]
    return name if name in DEFS and "enum" in DEFS[name] else None


def _enum_props(defname: str) -> set[str]:
    return {p for p in props(defname) if _enum_of(defname, p) or "const" in DEFS[defname]["properties"][p]}


# ---------------------------------------------------------------------------
# verbatim: hostile spellings inside fidelity, parameters and hook output
# ---------------------------------------------------------------------------

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


def v_add(cid: str, desc: str, m: dict[str, Any], tags: Iterable[str]) -> None:
    G.add(cid, "verbatim", desc, "3", line(m), tags=["verbatim", *tags])


def gen_verbatim() -> None:
    for name, text, scalar in SPELLINGS:
        raw = Raw(text)
        v_add(
            f"fidelity.{name}",
            f"thinking fidelity kept byte for byte: {name}",
            msg("ThinkingPayload", full("ThinkingPayload", fidelity=raw)),
            ["fidelity", name],
        )
        tool = obj("ToolDefinition", name="t", description="d", parameters=raw)
        v_add(
            f"parameters.{name}",
            f"tool parameters kept byte for byte: {name}",
            msg("ToolListReadyPayload", obj("ToolListReadyPayload", tools=[tool])),
            ["parameters", name],
        )
        if scalar:
            v_add(
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
        v_add(
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
    v_add(
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
    v_add(
        "parameters.many-tools-mixed",
        "twelve tools with different parameter spellings and one without",
        msg("ToolListReadyPayload", obj("ToolListReadyPayload", tools=tools)),
        ["parameters"],
    )
    v_add(
        "hook-output.mixed-scalars",
        "hook output with string, number, boolean values in hostile spellings",
        msg("HookPayload", full("HookPayload", output=Raw('{"ok" : true,"n":1.0E-0,"s":"\\u0041","f":false}'))),
        ["hook-output"],
    )
    # depth: a verbatim value may nest to the envelope's limit (512 levels counted from the envelope)
    k = 512 - 3  # envelope 1, payload 2, fidelity 3: 509 more levels reach exactly 512
    deep = Raw('{"a":' + "[" * k + "]" * k + "}")
    v_add(
        "fidelity.depth-512",
        "fidelity nesting to exactly 512 levels counted from the envelope (the limit)",
        msg("ThinkingPayload", full("ThinkingPayload", fidelity=deep)),
        ["fidelity", "depth-limit"],
    )
    deep_obj = Raw("{" + '"a":{' * (k) + "}" * (k) + "}")
    v_add(
        "fidelity.depth-512-objects",
        "fidelity of nested objects reaching exactly 512 levels",
        msg("ThinkingPayload", full("ThinkingPayload", fidelity=deep_obj)),
        ["fidelity", "depth-limit"],
    )
    rng = random.Random(7)
    sig = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(786432))).decode()
    v_add(
        "fidelity.large-1mb",
        "a 1 MiB signature in fidelity, with inner whitespace",
        msg("ThinkingPayload", full("ThinkingPayload", fidelity=Raw('{ "signature" : "' + sig + '" }'))),
        ["fidelity", "large"],
    )
    v_add(
        "fidelity.number-1e6-digits",
        "a number of 10^6 digits inside fidelity",
        msg("ThinkingPayload", full("ThinkingPayload", fidelity=Raw('{"n":' + "8" * 10**6 + "}"))),
        ["fidelity", "large"],
    )
    v_add(
        "hook-output.number-1e6-digits",
        "a number of 10^6 digits inside a hook output",
        msg("HookPayload", full("HookPayload", output=Raw('{"n":-' + "9" * 10**6 + ".5e-3}"))),
        ["hook-output", "large"],
    )


# ---------------------------------------------------------------------------
# canonicalization: valid but non-canonical lines and their canonical bytes
# ---------------------------------------------------------------------------


def canon(cid: str, desc: str, inp: bytes | str, out: bytes | str, spec: str, tags: Iterable[str] = ()) -> None:
    ib = inp.encode("utf-8") if isinstance(inp, str) else inp
    ob = out.encode("utf-8") if isinstance(out, str) else out
    assert ib.rstrip(b"\n") != ob, cid
    G.add(cid, "canonicalization", desc, spec, ib, expect="canonical", output=ob, tags=tags)


def w_alt(v: Any, *, reverse: bool = False, ws: str = "", esc: bool = False) -> str:
    """A valid, non-canonical spelling of the same value (verbatim Raw text kept as is)."""
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, str):
        if esc:
            return '"' + "".join(_esc_all(c) for c in v) + '"'
        return q(v)
    if isinstance(v, list):
        return "[" + ws + ("," + ws).join(w_alt(x, reverse=reverse, ws=ws, esc=esc) for x in v) + ws + "]"
    if isinstance(v, dict):
        items = list(v.items())[::-1] if reverse else list(v.items())
        inner = ("," + ws).join(
            w_alt(k, esc=esc) + ws + ":" + ws + w_alt(x, reverse=reverse, ws=ws, esc=esc) for k, x in items
        )
        return "{" + ws + inner + ws + "}"
    return w(v)


def _esc_all(c: str) -> str:
    cp = ord(c)
    if cp > 0xFFFF:
        hi, lo = 0xD800 + ((cp - 0x10000) >> 10), 0xDC00 + ((cp - 0x10000) & 0x3FF)
        return f"\\u{hi:04X}\\u{lo:04x}"
    return f"\\u{cp:04x}" if cp % 2 else f"\\u{cp:04X}"


def gen_canonicalization() -> None:
    for d in PAYLOADS:
        s = slug(d)
        m = msg(d, full(d))
        out = w(m)
        canon(
            f"{s}.reversed-keys",
            f"{d}: every object's keys in reverse order",
            w_alt(m, reverse=True) + "\n",
            out,
            "2.2",
            ["key-order"],
        )
        canon(
            f"{s}.whitespace",
            f"{d}: spaces and tabs around every token",
            " \t" + w_alt(m, ws=" \t ") + " \t\n",
            out,
            "2.1",
            ["whitespace"],
        )
        canon(
            f"{s}.escaped-strings",
            f"{d}: every character of every key and string written as a \\u escape",
            w_alt(m, esc=True) + "\n",
            out,
            "2.4",
            ["escape"],
        )

    T = f'"timestamp":"{TS}"'
    rb = '{"type":"request_begin"}'
    base = "{" + T + ',"type":"event_msg","payload":' + rb + "}"
    canon(
        "framing.spec-example",
        "the example of spec section 2",
        '{ "type":"event_msg", "payload":{"type":"request_begin"}, "timestamp":"2026-07-18T03:10:23.004Z" }\n',
        '{"timestamp":"2026-07-18T03:10:23.004Z","type":"event_msg","payload":{"type":"request_begin"}}',
        "2",
    )
    canon(
        "framing.crlf", "CR before the LF is whitespace: accepted, dropped", base + "\r\n", base, "1.2", ["whitespace"]
    )
    canon(
        "framing.leading-whitespace", "whitespace before the object", "  \t" + base + "\n", base, "2.1", ["whitespace"]
    )
    canon("framing.trailing-whitespace", "whitespace after the object", base + " \t \r \n", base, "1.3", ["whitespace"])
    canon(
        "framing.origin-first",
        "origin first in the envelope",
        '{"origin":["a","b"],' + T + ',"type":"event_msg","payload":' + rb + "}\n",
        "{" + T + ',"type":"event_msg","payload":' + rb + ',"origin":["a","b"]}',
        "2.2",
        ["key-order", "origin"],
    )
    canon(
        "framing.payload-first",
        "payload before type before timestamp",
        '{"payload":{"type":"abort","reason":null},"type":"event_msg",' + T + "}\n",
        "{" + T + ',"type":"event_msg","payload":{"type":"abort","reason":null}}',
        "2.2",
        ["key-order"],
    )
    canon(
        "framing.type-last-in-payload",
        "the payload discriminator last",
        "{" + T + ',"type":"model_msg","payload":{"text":"hi","role":"user","type":"text"}}\n',
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}',
        "2.2",
        ["key-order"],
    )

    # escapes outside verbatim values
    def tx(t: str) -> str:
        return "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"assistant","text":"' + t + '"}}'

    pairs = [
        ("solidus", "a\\/b", "a/b"),
        ("u00e9", "caf\\u00e9", "café"),
        ("u00E9-upper", "caf\\u00E9", "café"),
        ("u0041", "\\u0041\\u0042C", "ABC"),
        ("surrogate-pair", "\\ud83d\\ude00", "😀"),
        ("surrogate-pair-upper", "\\uD83D\\uDE00", "😀"),
        ("u2028", "\\u2028\\u2029", "\u2028\u2029"),
        ("u007f", "\\u007f\\u0080", "\x7f\x80"),
        ("ufeff", "\\ufeff", "\ufeff"),
        ("u001F-upper", "\\u001F", "\\u001f"),
        ("u0008-to-b", "\\u0008\\u000c\\u000a\\u000d\\u0009", "\\b\\f\\n\\r\\t"),
        ("u0022-u005c", "\\u0022\\u005c\\u002f", '\\"\\\\/'),
        ("mixed", "\\u00e9\\/\\u0041\\ud83d\\ude00\\n\\u001F", "é/A😀\\n\\u001f"),
    ]
    for name, a, b in pairs:
        canon(
            f"escape.{name}",
            f"escape {a} outside verbatim values re-encoded as {b}",
            tx(a) + "\n",
            tx(b),
            "2.4",
            ["escape"],
        )
    # lone surrogates in a partial's fragment field (spec 4.1): any spelling is accepted; the
    # canonical one is JSON.stringify's, lower-case \udxxx
    def po(out: str) -> str:
        return (
            "{" + T + ',"type":"model_msg","payload":{"type":"partial_tool_call_output","role":"user",'
            '"event_type":"delta","output":"' + out + '","tool_call_id":"call_01"}}'
        )

    for name, a, b in [
        ("lone-high-upper", "abc\\uD83D", "abc\\ud83d"),
        ("lone-low-upper", "\\uDE00def", "\\ude00def"),
        ("lone-mixed-case", "\\uDc00x\\udBfF", "\\udc00x\\udbff"),
        ("pair-then-lone-upper", "\\uD83D\\uDE00\\uD83D", "😀\\ud83d"),
        ("other-escapes-around", "\\u0041\\/\\ud83d", "A/\\ud83d"),
    ]:
        canon(
            f"fragment.{name}",
            f"a lone surrogate in a partial's fragment field spelled {a}: re-encoded as {b}",
            po(a) + "\n",
            po(b),
            "4.1",
            ["escape", "split-surrogate"],
        )
    canon(
        "fragment.reversed-keys",
        "a partial holding a lone half, keys in reverse order (the slow path keeps the lone half)",
        '{"payload":{"tool_call_id":"call_01","output":"abc\\ud83d","event_type":"delta","role":"user",'
        '"type":"partial_tool_call_output"},"type":"model_msg",' + T + "}\n",
        po("abc\\ud83d"),
        "4.1",
        ["key-order", "split-surrogate"],
    )
    canon(
        "escape.in-keys",
        "escaped keys are unescaped (`\\u0074ype`, `r\\u006fle`)",
        "{" + T + ',"type":"model_msg","payload":{"\\u0074ype":"text","r\\u006fle":"user","te\\u0078t":"x"}}\n',
        tx("x").replace("assistant", "user"),
        "2.4",
        ["escape"],
    )
    canon(
        "escape.in-discriminators",
        "escaped envelope and payload `type` values",
        '{"timestamp":"2026\\u002d07-18T03:10:22.531Z","type":"model\\u005fmsg","payload":{"type":"t\\u0065xt","role":"user","text":"x"}}\n',
        tx("x").replace("assistant", "user"),
        "2.4",
        ["escape"],
    )
    canon(
        "escape.in-enum-values",
        "an escaped enum value (`compl\\u0065ted`)",
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"compl\\u0065ted"}}\n',
        "{" + T + ',"type":"event_msg","payload":{"type":"request_end","status":"completed"}}',
        "2.4",
        ["escape"],
    )
    canon(
        "escape.in-origin",
        "escapes inside origin ids",
        "{" + T + ',"type":"event_msg","payload":' + rb + ',"origin":["\\u0073ession-1"]}\n',
        "{" + T + ',"type":"event_msg","payload":' + rb + ',"origin":["session-1"]}',
        "2.4",
        ["escape", "origin"],
    )

    # numbers in `number` fields: ECMAScript Number::toString
    def retry(n: str) -> str:
        return (
            "{"
            + T
            + ',"type":"event_msg","payload":{"type":"request_end","status":"retryable","retry_in_ms":'
            + n
            + "}}"
        )

    numbers = [
        ("-0", "0"),
        ("-0.0", "0"),
        ("0.0", "0"),
        ("5.0", "5"),
        ("1E2", "100"),
        ("1e+2", "100"),
        ("0.5e1", "5"),
        ("1.50", "1.5"),
        ("2.5E+3", "2500"),
        ("1e21", "1e+21"),
        ("1E-7", "1e-7"),
        ("0.0000001", "1e-7"),
        ("0.1e-6", "1e-7"),
        ("1.23e-6", "0.00000123"),
        ("123e-9", "1.23e-7"),
        ("10000000000000000000000", "1e+22"),
        ("9007199254740993", "9007199254740992"),
        ("123456789012345678901234567890", "1.2345678901234568e+29"),
        ("1e-400", "0"),
        ("1.7976931348623157E308", "1.7976931348623157e+308"),
        ("0.30000000000000004441", "0.30000000000000004"),
        ("4.35000000000000000001", "4.35"),
        ("2e-324", "0"),
        ("3e-324", "5e-324"),
        ("1e0", "1"),
        ("12345678901234567890", "12345678901234567000"),
        ("1E+21", "1e+21"),
        ("999999999999999999999", "1e+21"),
        ("1" + "0" * 400 + "e-398", "100"),
    ]
    for a, b in numbers:
        canon(
            f"number.{a[:40]}",
            f"retry_in_ms {a[:40]} spelled {b}",
            retry(a) + "\n",
            retry(b),
            "2.5",
            ["number-spelling"],
        )
    mcw = (
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":%s,"system_prompt":"","agent_state":"","workspace":""}}'
    )
    canon(
        "number.model_context_window-2e5",
        "model_context_window 2e5 spelled 200000",
        mcw % "2e5" + "\n",
        mcw % "200000",
        "2.5",
        ["number-spelling"],
    )
    canon(
        "number.duration_ms-1.0",
        "duration_ms 412.0 spelled 412",
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"sse","status":"completed","duration_ms":412.0}]}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"sse","status":"completed","duration_ms":412}]}}',
        "2.5",
        ["number-spelling"],
    )
    canon(
        "number.model_context_window--0.0",
        "model_context_window -0.0 spelled 0",
        mcw % "-0.0" + "\n",
        mcw % "0",
        "2.5",
        ["number-spelling"],
    )
    canon(
        "number.duration_ms--0.0",
        "duration_ms -0.0 spelled 0",
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"sse","status":"completed","duration_ms":-0.0}]}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"sse","status":"completed","duration_ms":0}]}}',
        "2.5",
        ["number-spelling"],
    )
    canon(
        "number.integer-minus-zero",
        "an integer field written -0 is the integer 0",
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"compaction_begin","reason":"manual","mode":"discard","context":-0,"turns":0}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"compaction_begin","reason":"manual","mode":"discard","context":0,"turns":0}}',
        "2.5",
        ["number-spelling"],
    )

    # verbatim values inside non-canonical lines
    fid = '{ "sig" : "a\\/b", "n":1.0, "n":1E2 }'
    canon(
        "verbatim.spec-example",
        "the example of spec section 3: whitespace before the value dropped, the value kept",
        "{"
        + T
        + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity": {"sig" : "a\\/b", "n":1.0, "n":1E2}}}\n',
        "{"
        + T
        + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"sig" : "a\\/b", "n":1.0, "n":1E2}}}',
        "3.3",
        ["verbatim", "whitespace"],
    )
    canon(
        "verbatim.fidelity-first",
        "fidelity written first, with whitespace around it, and an escaped key",
        "{"
        + T
        + ',"type":"model_msg","payload":{ "fid\\u0065lity" :\t'
        + fid
        + ' ,"thinking":"\\u006fk","role":"assistant","type":"thinking"}}\n',
        "{"
        + T
        + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":'
        + fid
        + "}}",
        "3",
        ["verbatim", "key-order", "escape"],
    )
    canon(
        "verbatim.parameters-reordered",
        "a tool definition with parameters first",
        "{"
        + T
        + ',"type":"event_msg","payload":{"tools":[{"parameters": {"b":1, "a":2} ,"description":"d","name":"n"}],"type":"tool_list_ready"}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"tool_list_ready","tools":[{"name":"n","description":"d","parameters":{"b":1, "a":2}}]}}',
        "3",
        ["verbatim", "key-order"],
    )
    canon(
        "verbatim.hook-output-reordered",
        "hook output first, escapes outside it re-encoded, inside it kept",
        "{"
        + T
        + ',"type":"event_msg","payload":{"output" : {"s":"\\u0041","n":1E0},"name":"\\u0041","hook":"stop","type":"hook"}}\n',
        "{"
        + T
        + ',"type":"event_msg","payload":{"type":"hook","hook":"stop","name":"A","output":{"s":"\\u0041","n":1E0}}}',
        "3",
        ["verbatim", "key-order", "escape"],
    )
    canon(
        "verbatim.crlf-inside",
        "CR LF whitespace inside a verbatim value survives; after the line it is dropped",
        (
            "{"
            + T
            + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"a":1,\r"b":2}}}\r\n'
        ),
        (
            "{"
            + T
            + ',"type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"a":1,\r"b":2}}}'
        ),
        "3",
        ["verbatim", "whitespace"],
    )
    canon(
        "framing.no-trailing-lf-noncanonical",
        "a valid last line without LF is decoded (and canonicalised)",
        ("{" + T + ', "type":"event_msg","payload":' + rb + "}").encode(),
        base,
        "1.3",
        ["framing"],
    )


# ---------------------------------------------------------------------------
# rejection: one defect per line, each category several times
# ---------------------------------------------------------------------------


def rej(
    cid: str,
    desc: str,
    data: bytes | str,
    category: str,
    spec: str = "4",
    pointer: str | None = None,
    tags: Iterable[str] = (),
    max_line_bytes: int | None = None,
) -> None:
    b = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    G.add(
        f"{category}.{cid}",
        "rejection",
        desc,
        spec,
        b,
        expect="reject",
        category=category,
        pointer=pointer,
        tags=tags,
        max_line_bytes=max_line_bytes,
    )


def gen_rejection() -> None:
    T = f'"timestamp":"{TS}"'
    rb = '{"type":"request_begin"}'
    good = "{" + T + ',"type":"event_msg","payload":' + rb + "}"

    def ev(p: str, extra: str = "") -> str:
        return "{" + T + ',"type":"event_msg","payload":' + p + extra + "}\n"

    def mm(p: str) -> str:
        return "{" + T + ',"type":"model_msg","payload":' + p + "}\n"

    def text(t: str) -> str:
        return mm('{"type":"text","role":"user","text":"' + t + '"}')

    gb = good.encode()
    # invalid_utf8
    for name, bad in [
        ("overlong-c0af", b"\xc0\xaf"),
        ("encoded-surrogate", b"\xed\xa0\x80"),
        ("truncated-sequence", b"\xe2\x82"),
        ("byte-ff", b"\xff"),
        ("byte-fe", b"\xfe"),
        ("lone-continuation", b"\x80"),
        ("overlong-e080af", b"\xe0\x80\xaf"),
        ("beyond-u10ffff", b"\xf4\x90\x80\x80"),
        ("byte-f5", b"\xf5\x80\x80\x80"),
        ("overlong-4-byte", b"\xf0\x80\x80\xaf"),
    ]:
        rej(
            name,
            f"invalid UTF-8 ({bad.hex(' ')}) inside a string",
            text("x").encode().replace(b'"x"', b'"x' + bad + b'"'),
            "invalid_utf8",
            "4",
            tags=["utf8"],
        )
    rej("in-key", "invalid UTF-8 inside a key", ev(rb).encode().replace(b'"payload"', b'"pay\xffload"'), "invalid_utf8")
    rej(
        "surrogate-bytes-in-fragment",
        "a high surrogate encoded in UTF-8 (ED A0 BD) in a partial's fragment field: only the escape is allowed there",
        mm('{"type":"partial_text","role":"assistant","event_type":"delta","text":"abcX"}').encode().replace(b"X", b"\xed\xa0\xbd"),
        "invalid_utf8",
        tags=["utf8", "split-surrogate"],
    )
    rej(
        "in-fidelity",
        "invalid UTF-8 inside a verbatim value (UTF-8 applies everywhere)",
        mm('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"s":"X"}}')
        .encode()
        .replace(b'"X"', b'"\xed\xbf\xbf"'),
        "invalid_utf8",
        tags=["verbatim"],
    )
    rej(
        "outside-strings",
        "a stray invalid byte between tokens",
        gb.replace(b',"type"', b',\xff"type"') + b"\n",
        "invalid_utf8",
    )
    rej(
        "before-json-error",
        "precedence: invalid UTF-8 wins over a later syntax error",
        text("\xff").encode("latin-1").replace(b"}}\n", b",}}\n"),
        "invalid_utf8",
        tags=["precedence"],
    )
    rej(
        "after-json-error",
        "precedence: invalid UTF-8 wins over an earlier syntax error",
        b'{"timestamp":01,"x":"\xff"}\n',
        "invalid_utf8",
        tags=["precedence"],
    )

    # invalid_json
    J = "invalid_json"
    rej("bom", "a byte order mark before the object", b"\xef\xbb\xbf" + gb + b"\n", J, "1.1")
    rej("empty-line", "an empty line", b"\n", J, "4")
    rej(
        "bom-in-whitespace",
        "a byte order mark after leading whitespace (U+FEFF is not JSON whitespace)",
        b" \xef\xbb\xbf" + gb + b"\n",
        J,
        "1.1",
    )
    rej(
        "bom-between-tokens",
        "a byte order mark between two members",
        gb.replace(b',"type"', b',\xef\xbb\xbf"type"') + b"\n",
        J,
        "1.1",
    )
    for name, ws in [
        ("vertical-tab", b"\x0b"),
        ("form-feed", b"\x0c"),
        ("nbsp", "\u00a0".encode()),
        ("ideographic-space", "\u3000".encode()),
        ("nul", b"\x00"),
    ]:
        rej(
            f"whitespace-{name}",
            f"{ws!r} between tokens (JSON whitespace is space, tab, LF and CR only)",
            gb.replace(b',"type"', b"," + ws + b'"type"') + b"\n",
            J,
            "1.1",
        )
    rej("whitespace-line", "a line of whitespace only", b" \t \n", J, "4")
    for name, bad in [
        ("nan", "NaN"),
        ("infinity", "Infinity"),
        ("minus-infinity", "-Infinity"),
        ("leading-zero", "01"),
        ("bare-dot", "1."),
        ("bare-minus", "-"),
        ("leading-dot", ".5"),
        ("plus", "+1"),
        ("hex", "0x10"),
        ("exponent-without-digits", "1e"),
        ("true-capitalised", "True"),
        ("null-truncated", "nul"),
    ]:
        rej(
            name,
            f"{bad} is not a JSON value",
            ev('{"type":"request_end","status":"completed","retry_in_ms":' + bad + "}"),
            J,
        )
    rej("comment-block", "a /* */ comment", ev(rb).replace('"payload":', '/* c */"payload":'), J)
    rej("comment-line", "a // comment", good[:-1] + "//c}\n", J)
    rej("trailing-comma-object", "a trailing comma in an object", ev('{"type":"request_begin",}'), J)
    rej("trailing-comma-array", "a trailing comma in an array", ev(rb, ',"origin":["a",]'), J)
    rej("single-quotes", "single-quoted strings", ev("{'type':'request_begin'}"), J)
    rej("unquoted-key", "an unquoted key", ev('{type:"request_begin"}'), J)
    rej("raw-tab", "a raw tab inside a string", text("a\tb"), J)
    rej("raw-nul", "a raw NUL inside a string", text("a\x00b"), J)
    rej("raw-control-1f", "a raw U+001F inside a string", text("\x1f"), J)
    rej("raw-cr", "a raw CR inside a string", text("a\rb"), J)
    rej("invalid-escape", "an invalid escape (\\x)", text("\\x41"), J)
    rej("short-unicode-escape", "a \\u escape with three digits", text("\\u004"), J)
    rej("upper-u-escape", "\\U is not an escape", text("\\U0041"), J)
    rej("missing-colon", "a key without colon", ev('{"type" "request_begin"}'), J)
    rej("missing-comma", "members without comma", ev('{"type":"request_end" "status":"completed"}'), J)
    rej("unclosed-object", "an object that never closes (the line ends with LF)", good[:-1] + "\n", J)
    rej("unclosed-string", "a string that never closes (the line ends with LF)", '{"timestamp":"2026\n', J)
    rej(
        "in-fidelity",
        "the grammar applies inside verbatim values too (a leading zero)",
        mm('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"n":01}}'),
        J,
        "3.2",
        tags=["verbatim"],
    )
    rej(
        "nan-in-fidelity",
        "NaN inside a verbatim value",
        mm('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"n":NaN}}'),
        J,
        "3.2",
        tags=["verbatim"],
    )
    rej(
        "before-schema-error",
        "precedence: a syntax error wins over an unknown type before it",
        ev('{"type":"nope","x":[1,]}'),
        J,
        tags=["precedence"],
    )
    # trailing_data
    D = "trailing_data"
    rej("garbage", "a word after the object", good + " x\n", D, "1.3")
    rej("second-object", "a second object on the line", good + "{}\n", D, "1.3")
    rej("second-object-ws", "a second object after whitespace", good + " " + good + "\n", D, "1.3")
    rej("comma", "a comma after the object", good + ",\n", D, "1.3")
    rej("nul", "a NUL byte after the object", gb + b"\x00\n", D, "1.3")
    rej("closing-brace", "an extra closing brace", good + "}\n", D, "1.3")
    rej(
        "before-schema-error",
        "precedence: trailing data wins over an unknown type",
        "{" + T + ',"type":"event_msg","payload":{"type":"nope"}} x\n',
        D,
        tags=["precedence"],
    )
    rej(
        "after-array",
        "precedence: trailing data after a top-level array wins over wrong_type",
        "[] x\n",
        D,
        tags=["precedence"],
    )
    # too_deep
    k = 512 - 3
    deep = (
        '{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"a":' + "[" * (k + 1) + "]" * (k + 1) + "}}"
    )
    rej(
        "fidelity-513",
        "fidelity nesting to 513 levels counted from the envelope",
        mm(deep),
        "too_deep",
        "4",
        tags=["verbatim", "depth-limit"],
    )
    deep_o = (
        '{"type":"thinking","role":"assistant","thinking":"x","fidelity":'
        + "{"
        + '"a":{' * (k + 1)
        + "}" * (k + 1)
        + "}}"
    )
    rej(
        "fidelity-513-objects",
        "nested objects reaching 513 levels",
        mm(deep_o),
        "too_deep",
        tags=["verbatim", "depth-limit"],
    )
    rej(
        "unknown-field-513",
        "precedence: too deep wins over an unexpected field",
        ev(rb[:-1] + ',"x":' + "[" * 511 + "]" * 511 + "}"),
        "too_deep",
        tags=["precedence", "depth-limit"],
    )
    rej("array-100000", "100000 nested arrays", "[" * 100000 + "]" * 100000 + "\n", "too_deep", tags=["depth-limit"])
    rej(
        "unclosed-100000",
        "100000 open objects, never closed (too_deep is found first)",
        '{"a":' * 100000 + "\n",
        "too_deep",
        tags=["precedence", "depth-limit"],
    )
    rej(
        "before-trailing-data",
        "precedence: the nesting is found before the trailing data",
        ev(rb[:-1] + ',"x":' + "[" * 600 + "]" * 600 + "}").rstrip("\n") + " x\n",
        "too_deep",
        tags=["precedence"],
    )
    # too_large
    body = good.encode()
    rej(
        "over-limit",
        "a valid message longer than the reader's limit",
        body + b"\n",
        "too_large",
        "4",
        max_line_bytes=len(body) - 1,
        tags=["limits"],
    )
    rej(
        "far-over-limit",
        "a 4 KiB text over a 1 KiB limit",
        text("a" * 4096),
        "too_large",
        max_line_bytes=1024,
        tags=["limits"],
    )
    rej(
        "garbage-over-limit",
        "garbage longer than the limit is too_large (it is not parsed)",
        b"x" * 300 + b"\n",
        "too_large",
        max_line_bytes=64,
        tags=["limits", "precedence"],
    )
    # truncated (a torn last line: no LF)
    rej("torn-envelope", "a last line cut inside the timestamp", b'{"timestamp":"2026-07-18T03:1', "truncated", "1.4")
    rej(
        "torn-fidelity",
        "a last line cut inside fidelity",
        mm('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{"sig":"EqQB"}}').encode()[:-12],
        "truncated",
        "1.4",
    )
    rej(
        "torn-multibyte",
        "a last line cut inside a multi-byte character",
        text("😀").encode()[:-8],
        "truncated",
        "1.4",
        tags=["utf8"],
    )
    rej("torn-brace", "a last line holding only `{`", b"{", "truncated", "1.4")
    rej("torn-before-last-brace", "a last line missing its final brace", body[:-1], "truncated", "1.4")
    # duplicate_key
    K = "duplicate_key"
    rej(
        "envelope-type",
        "the envelope `type` twice",
        '{"type":"event_msg",' + T + ',"type":"event_msg","payload":' + rb + "}\n",
        K,
        pointer="/type",
    )
    rej(
        "payload-type",
        "the payload `type` twice",
        ev('{"type":"request_begin","type":"request_begin"}'),
        K,
        pointer="/payload/type",
    )
    rej(
        "after-unescaping",
        '`"type"` and `"typ\\u0065"` collide',
        ev('{"type":"request_begin","typ\\u0065":"request_begin"}'),
        K,
        pointer="/payload/type",
        tags=["escape"],
    )
    rej(
        "different-values",
        "a field twice with different values",
        mm('{"type":"text","role":"user","text":"a","text":"b"}'),
        K,
        pointer="/payload/text",
    )
    rej(
        "fidelity-key",
        "the `fidelity` key itself twice (it is outside the verbatim value)",
        mm('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{},"fidelity":{}}'),
        K,
        pointer="/payload/fidelity",
        tags=["verbatim"],
    )
    rej(
        "token-counts",
        "a nested TokenCounts key twice",
        ev(
            '{"type":"token_usage","session":{"cache_read":1,"cache_write":1,"output":1,"total":1,"total":1},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        K,
        pointer="/payload/session/total",
    )
    rej(
        "tool-definition",
        "a ToolDefinition key twice",
        ev('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","name":"a"}]}'),
        K,
        pointer="/payload/tools/0/name",
    )
    rej(
        "before-unexpected-field",
        "precedence: the duplicate key wins over the unknown field it duplicates",
        ev('{"type":"request_begin","x":1,"x":1}'),
        K,
        pointer="/payload/x",
        tags=["precedence"],
    )
    rej(
        "before-lone-surrogate",
        "precedence: document order, the duplicate key comes first",
        mm('{"type":"text","type":"text","role":"user","text":"\\ud800"}'),
        K,
        pointer="/payload/type",
        tags=["precedence"],
    )
    # lone_surrogate
    L = "lone_surrogate"
    rej("high", "a lone high surrogate escape", text("x\\ud800"), L, pointer="/payload/text")
    rej("low", "a lone low surrogate escape", text("\\udc00x"), L, pointer="/payload/text")
    rej("reversed-pair", "a low surrogate before a high one", text("\\udc00\\ud800"), L, pointer="/payload/text")
    rej("high-at-end", "a high surrogate cut at the end of a string", text("abc\\ud83d"), L, pointer="/payload/text")
    rej(
        "high-then-ascii",
        "a high surrogate followed by a non-surrogate escape",
        text("\\ud800\\u0041"),
        L,
        pointer="/payload/text",
    )
    rej("upper-hex", "an upper-case lone surrogate escape", text("\\uDBFF"), L, pointer="/payload/text")
    rej(
        "in-timestamp",
        "a lone surrogate in the timestamp",
        '{"timestamp":"\\ud800","type":"event_msg","payload":' + rb + "}\n",
        L,
        pointer="/timestamp",
    )
    rej("in-origin", "a lone surrogate in an origin id", ev(rb, ',"origin":["a","\\udfff"]'), L, pointer="/origin/1")
    rej(
        "in-key",
        "a lone surrogate escaped in a key (before the unexpected-field check)",
        ev('{"type":"request_begin","\\ud800":1}'),
        L,
        tags=["precedence"],
    )
    rej(
        "in-tool-name",
        "a lone surrogate in a tool name",
        ev('{"type":"tool_list_ready","tools":[{"name":"\\ud800","description":""}]}'),
        L,
        pointer="/payload/tools/0/name",
    )
    # spec 4.1: only the fragment field of a partial may escape a lone surrogate
    rej(
        "partial-name",
        "a lone surrogate in a partial's other field (`partial_tool_call.name`)",
        mm('{"type":"partial_tool_call","role":"assistant","event_type":"delta","name":"\\ud83d","arguments":"","tool_call_id":"c"}'),
        L,
        pointer="/payload/name",
    )
    rej(
        "partial-tool-call-id",
        "a lone surrogate in `partial_tool_call_output.tool_call_id`",
        mm('{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"x","tool_call_id":"c\\udbff"}'),
        L,
        pointer="/payload/tool_call_id",
    )
    rej(
        "partial-images",
        "a lone surrogate in a partial's `images` item",
        mm('{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"","images":["\\udc00"],"tool_call_id":"c"}'),
        L,
        pointer="/payload/images/0",
    )
    rej(
        "partial-key",
        "a lone surrogate escaped in a key of a partial (before the unexpected-field check)",
        mm('{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d","\\ud83d":1}'),
        L,
        tags=["precedence"],
    )
    rej(
        "partial-fidelity",
        "a lone surrogate in a `fidelity` member of a partial: partials carry no fidelity, so it is not verbatim there (before the unexpected-field check)",
        mm('{"type":"partial_text","role":"assistant","event_type":"delta","text":"x","fidelity":{"sig":"\\ud83d"}}'),
        L,
        pointer="/payload/fidelity/sig",
        tags=["precedence"],
    )
    rej(
        "partial-other-kind-field",
        "the fragment field of another partial kind (`arguments` on a `partial_text`), before the unexpected-field check",
        mm('{"type":"partial_text","role":"assistant","event_type":"delta","text":"","arguments":"\\ud83d"}'),
        L,
        pointer="/payload/arguments",
        tags=["precedence"],
    )
    rej(
        "partial-origin",
        "a lone half in the fragment field is fine, one in the origin of the same line is not",
        "{"
        + T
        + ',"type":"model_msg","payload":{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d"},"origin":["\\ud800"]}\n',
        L,
        pointer="/origin/0",
    )
    rej(
        "complete-output",
        "a complete `tool_call_output.output` (the complete message never holds a lone half)",
        mm('{"type":"tool_call_output","role":"user","output":"abc\\ud83d","tool_call_id":"c"}'),
        L,
        pointer="/payload/output",
    )
    rej(
        "complete-arguments",
        "a complete `tool_call.arguments`",
        mm('{"type":"tool_call","role":"assistant","name":"n","arguments":"\\ude00","tool_call_id":"c"}'),
        L,
        pointer="/payload/arguments",
    )
    rej(
        "partial-under-event-envelope",
        "a partial payload type under `event_msg` is no partial: the lone surrogate wins over the unknown type",
        ev('{"type":"partial_text","role":"assistant","event_type":"delta","text":"\\ud83d"}'),
        L,
        pointer="/payload/text",
        tags=["precedence"],
    )
    rej(
        "before-missing-field",
        "precedence: a lone surrogate wins over a missing field",
        mm('{"type":"text","role":"user","tool":"\\ud800"}'),
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
        rej(
            name,
            f"{field} written {v[:24]}{'...' if len(v) > 24 else ''}",
            ev('{"type":"request_end","status":"completed","' + field + '":' + v + "}"),
            N,
            "4",
            pointer=ptr,
            tags=["number-spelling"],
        )
    rej(
        "token-count-0.0",
        "a token count written 0.0",
        ev(
            '{"type":"token_usage","session":{"cache_read":0.0,"cache_write":0,"output":0,"total":0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        N,
        pointer="/payload/session/cache_read",
    )
    rej(
        "context-1e3",
        "compaction context written 1e3",
        ev('{"type":"compaction_begin","reason":"manual","mode":"discard","context":1e3,"turns":0}'),
        N,
        pointer="/payload/context",
    )
    rej(
        "mcp-tools-2.0",
        "mcp tools written 2.0",
        ev(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed","duration_ms":1,"tools":2.0}]}'
        ),
        N,
        pointer="/payload/results/0/tools",
    )
    rej(
        "window-1e400",
        "model_context_window written 1e400",
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1e400,"system_prompt":"","agent_state":"","workspace":""}}\n',
        N,
        pointer="/payload/model_context_window",
    )
    rej(
        "duration-1e400",
        "duration_ms written 1e400",
        ev(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed","duration_ms":1e400}]}'
        ),
        N,
        pointer="/payload/results/0/duration_ms",
    )
    rej(
        "in-origin-before-wrong-type",
        "precedence: 1e400 in origin is invalid_number before wrong_type",
        ev(rb, ',"origin":[1e400]'),
        N,
        pointer="/origin/0",
        tags=["precedence"],
    )
    rej(
        "in-unknown-field",
        "precedence: 1e400 under an unknown key is invalid_number before unexpected_field",
        ev(rb, ',"x":1e400'),
        N,
        pointer="/x",
        tags=["precedence"],
    )
    # wrong_type
    W = "wrong_type"
    for name, top in [
        ("top-array", "[]"),
        ("top-string", '"x"'),
        ("top-number", "1"),
        ("top-null", "null"),
        ("top-true", "true"),
        ("top-array-of-message", "[" + good + "]"),
    ]:
        rej(name, f"the line is {top[:20]}, not an object", top + "\n", W, pointer="")
    rej("payload-array", "the payload is an array", ev("[]"), W, pointer="/payload")
    rej("payload-null", "the payload is null", ev("null"), W, pointer="/payload")
    rej("text-number", "text is a number", mm('{"type":"text","role":"user","text":1}'), W, pointer="/payload/text")
    rej(
        "timestamp-number",
        "the timestamp is a number",
        '{"timestamp":1,"type":"event_msg","payload":' + rb + "}\n",
        W,
        pointer="/timestamp",
    )
    rej(
        "envelope-type-number",
        "the envelope type is a number",
        "{" + T + ',"type":1,"payload":' + rb + "}\n",
        W,
        pointer="/type",
    )
    rej("payload-type-null", "the payload type is null", ev('{"type":null}'), W, pointer="/payload/type")
    rej(
        "fidelity-string",
        "fidelity is a string",
        mm('{"type":"text","role":"user","text":"x","fidelity":"sig"}'),
        W,
        pointer="/payload/fidelity",
        tags=["verbatim"],
    )
    rej(
        "fidelity-array",
        "fidelity is an array",
        mm('{"type":"text","role":"user","text":"x","fidelity":[]}'),
        W,
        pointer="/payload/fidelity",
        tags=["verbatim"],
    )
    rej(
        "fidelity-null",
        "fidelity is null",
        mm('{"type":"text","role":"user","text":"x","fidelity":null}'),
        W,
        pointer="/payload/fidelity",
        tags=["verbatim"],
    )
    rej(
        "parameters-array",
        "tool parameters are an array",
        ev('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","parameters":[]}]}'),
        W,
        pointer="/payload/tools/0/parameters",
        tags=["verbatim"],
    )
    rej(
        "hook-output-nested",
        "a hook output member is an object",
        ev('{"type":"hook","hook":"stop","name":"h","output":{"a":{}}}'),
        W,
        pointer="/payload/output/a",
        tags=["verbatim"],
    )
    rej(
        "hook-output-array-member",
        "a hook output member is an array",
        ev('{"type":"hook","hook":"stop","name":"h","output":{"ok":true,"a":[1]}}'),
        W,
        pointer="/payload/output/a",
        tags=["verbatim"],
    )
    rej(
        "hook-output-null-member",
        "a hook output member is null",
        ev('{"type":"hook","hook":"stop","name":"h","output":{"a":null}}'),
        W,
        pointer="/payload/output/a",
        tags=["verbatim"],
    )
    rej(
        "hook-output-string",
        "the hook output is a string",
        ev('{"type":"hook","hook":"stop","name":"h","output":"x"}'),
        W,
        pointer="/payload/output",
        tags=["verbatim"],
    )
    rej("origin-string", "origin is a string", ev(rb, ',"origin":"a"'), W, pointer="/origin")
    rej("origin-null", "origin is null (null is a value, not absence)", ev(rb, ',"origin":null'), W, pointer="/origin")
    rej(
        "stop-reason-null",
        "stop_reason is null (null is a value, not absence)",
        mm('{"type":"text","role":"user","text":"x","stop_reason":null}'),
        W,
        pointer="/payload/stop_reason",
    )
    rej(
        "attempt-null",
        "attempt is null",
        ev('{"type":"request_end","status":"completed","attempt":null}'),
        W,
        pointer="/payload/attempt",
    )
    rej("origin-item-number", "an origin id is a number", ev(rb, ',"origin":["a",1]'), W, pointer="/origin/1")
    rej(
        "stop-reason-number",
        "stop_reason is a number",
        mm('{"type":"text","role":"user","text":"x","stop_reason":0}'),
        W,
        pointer="/payload/stop_reason",
    )
    rej(
        "attempt-boolean",
        "attempt is a boolean",
        ev('{"type":"request_end","status":"completed","attempt":true}'),
        W,
        pointer="/payload/attempt",
    )
    rej(
        "attempt-string",
        "attempt is a string",
        ev('{"type":"request_end","status":"completed","attempt":"1"}'),
        W,
        pointer="/payload/attempt",
    )
    rej(
        "window-boolean",
        "model_context_window is a boolean",
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":true,"system_prompt":"","agent_state":"","workspace":""}}\n',
        W,
        pointer="/payload/model_context_window",
    )
    rej("reason-number", "abort reason is a number", ev('{"type":"abort","reason":1}'), W, pointer="/payload/reason")
    rej("tools-object", "tools is an object", ev('{"type":"tool_list_ready","tools":{}}'), W, pointer="/payload/tools")
    rej(
        "results-item-string",
        "a results item is a string",
        ev('{"type":"mcp_connect_end","status":"completed","results":["x"]}'),
        W,
        pointer="/payload/results/0",
    )
    rej(
        "images-item-number",
        "an image is a number",
        mm('{"type":"tool_call_output","role":"user","output":"","images":[1],"tool_call_id":"c"}'),
        W,
        pointer="/payload/images/0",
    )
    rej(
        "counts-array",
        "token counts are an array",
        ev('{"type":"token_usage","session":[],"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'),
        W,
        pointer="/payload/session",
    )
    # missing_field
    M = "missing_field"
    rej("timestamp", "no timestamp", '{"type":"event_msg","payload":' + rb + "}\n", M, pointer="/timestamp")
    rej("envelope-type", "no envelope type", "{" + T + ',"payload":' + rb + "}\n", M, pointer="/type")
    rej("payload", "no payload", "{" + T + ',"type":"event_msg"}\n', M, pointer="/payload")
    rej("payload-type", "no payload type", ev("{}"), M, pointer="/payload/type")
    rej("text", "a text without text", mm('{"type":"text","role":"user"}'), M, pointer="/payload/text")
    rej("role", "a text without role", mm('{"type":"text","text":"x"}'), M, pointer="/payload/role")
    rej(
        "tool-call-id",
        "a tool call without id",
        mm('{"type":"tool_call","role":"assistant","name":"n","arguments":"{}"}'),
        M,
        pointer="/payload/tool_call_id",
    )
    rej(
        "session-workspace",
        "session_meta without workspace",
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":""}}\n',
        M,
        pointer="/payload/workspace",
    )
    rej(
        "counts-total",
        "token counts without total",
        ev(
            '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        M,
        pointer="/payload/session/total",
    )
    rej(
        "server-duration",
        "an MCP result without duration_ms",
        ev(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed"}]}'
        ),
        M,
        pointer="/payload/results/0/duration_ms",
    )
    rej(
        "tool-description",
        "a tool without description",
        ev('{"type":"tool_list_ready","tools":[{"name":"a"}]}'),
        M,
        pointer="/payload/tools/0/description",
    )
    rej("hook-name", "a hook without name", ev('{"type":"hook","hook":"stop"}'), M, pointer="/payload/name")
    rej(
        "compaction-turns",
        "compaction_begin without turns",
        ev('{"type":"compaction_begin","reason":"manual","mode":"discard","context":0}'),
        M,
        pointer="/payload/turns",
    )
    # unexpected_field
    U = "unexpected_field"
    rej("envelope", "an unknown envelope key", ev(rb, ',"extra":1'), U, pointer="/extra")
    rej("payload", "an unknown payload key", ev('{"type":"request_begin","extra":true}'), U, pointer="/payload/extra")
    rej(
        "session-meta-type",
        "session_meta payloads have no `type`",
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":"","workspace":"","type":"session_meta"}}\n',
        U,
        pointer="/payload/type",
    )
    rej(
        "counts",
        "an unknown TokenCounts key",
        ev(
            '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":0,"total":0,"input":0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        U,
        pointer="/payload/session/input",
    )
    rej(
        "server",
        "an unknown McpServerResult key",
        ev(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed","duration_ms":1,"pid":7}]}'
        ),
        U,
        pointer="/payload/results/0/pid",
    )
    rej(
        "tool",
        "an unknown ToolDefinition key",
        ev('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","input_schema":{}}]}'),
        U,
        pointer="/payload/tools/0/input_schema",
    )
    rej(
        "compaction-end-retry",
        "compaction_end never carries retry_in_ms",
        ev('{"type":"compaction_end","reason":"manual","mode":"discard","status":"retryable","retry_in_ms":5}'),
        U,
        pointer="/payload/retry_in_ms",
    )
    rej(
        "thinking-sender",
        "sender is not a thinking field",
        mm('{"type":"thinking","role":"assistant","thinking":"x","sender":"user"}'),
        U,
        pointer="/payload/sender",
    )
    rej(
        "output-fidelity",
        "tool_call_output has no fidelity",
        mm('{"type":"tool_call_output","role":"user","output":"","tool_call_id":"c","fidelity":{}}'),
        U,
        pointer="/payload/fidelity",
    )
    rej(
        "capitalised-key",
        "keys are case-sensitive (`Type`)",
        ev('{"type":"request_begin","Type":"x"}'),
        U,
        pointer="/payload/Type",
    )
    # unknown_type
    Y = "unknown_type"
    rej(
        "envelope",
        "an unknown envelope type",
        "{" + T + ',"type":"model_message","payload":' + rb + "}\n",
        Y,
        pointer="/type",
    )
    rej("envelope-empty", "an empty envelope type", "{" + T + ',"type":"","payload":' + rb + "}\n", Y, pointer="/type")
    rej("payload", "an unknown payload type", ev('{"type":"request_started"}'), Y, pointer="/payload/type")
    rej("model-with-event", "model_msg with an event payload type", mm(rb), Y, pointer="/payload/type")
    rej(
        "event-with-model",
        "event_msg with a model payload type",
        ev('{"type":"text","role":"user","text":"x"}'),
        Y,
        pointer="/payload/type",
    )
    rej(
        "payload-case",
        "payload types are case-sensitive",
        mm('{"type":"Text","role":"user","text":"x"}'),
        Y,
        pointer="/payload/type",
    )
    rej(
        "partial-image",
        "a plausible but undefined partial type",
        mm('{"type":"partial_image_url","role":"user"}'),
        Y,
        pointer="/payload/type",
    )
    # invalid_value
    V = "invalid_value"
    for retired in ("failed", "timeout", "malformed", "auth"):
        rej(
            f"retired-stop-reason-{retired}",
            f"the retired stop reason {retired!r}",
            mm('{"type":"text","role":"user","text":"x","stop_reason":"' + retired + '"}'),
            V,
            pointer="/payload/stop_reason",
        )
    rej(
        "retired-source-benchmark",
        "the retired session source `benchmark`",
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":1,"system_prompt":"","agent_state":"","workspace":"","source":"benchmark"}}\n',
        V,
        pointer="/payload/source",
    )
    rej("role-system", "role `system`", mm('{"type":"text","role":"system","text":"x"}'), V, pointer="/payload/role")
    rej(
        "thinking-role-user",
        "thinking's role is always assistant",
        mm('{"type":"thinking","role":"user","thinking":"x"}'),
        V,
        pointer="/payload/role",
    )
    rej(
        "output-role-assistant",
        "tool_call_output's role is always user",
        mm('{"type":"tool_call_output","role":"assistant","output":"","tool_call_id":"c"}'),
        V,
        pointer="/payload/role",
    )
    rej(
        "attempt-0",
        "attempt 0",
        ev('{"type":"request_end","status":"completed","attempt":0}'),
        V,
        pointer="/payload/attempt",
    )
    rej(
        "attempt-negative",
        "attempt -1",
        ev('{"type":"request_end","status":"completed","attempt":-1}'),
        V,
        pointer="/payload/attempt",
    )
    rej(
        "count-2^53",
        "a token count of 2^53",
        ev(
            '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":0,"total":9007199254740992},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        V,
        pointer="/payload/session/total",
    )
    rej(
        "count-negative",
        "a negative token count",
        ev(
            '{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":-1,"total":0},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'
        ),
        V,
        pointer="/payload/session/output",
    )
    rej(
        "context-huge-integer",
        "compaction context of 10^25 (an integer beyond 2^53-1)",
        ev(
            '{"type":"compaction_begin","reason":"manual","mode":"discard","context":10000000000000000000000000,"turns":0}'
        ),
        V,
        pointer="/payload/context",
    )
    rej(
        "duration-negative",
        "a negative duration",
        ev(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"http","status":"completed","duration_ms":-1}]}'
        ),
        V,
        pointer="/payload/results/0/duration_ms",
    )
    rej(
        "retry-negative",
        "retry_in_ms -0.5",
        ev('{"type":"request_end","status":"retryable","retry_in_ms":-0.5}'),
        V,
        pointer="/payload/retry_in_ms",
    )
    rej(
        "window-negative",
        "model_context_window -1",
        "{"
        + T
        + ',"type":"session_meta","payload":{"session_id":"s","provider":"p","model_id":"m","model_context_window":-1,"system_prompt":"","agent_state":"","workspace":""}}\n',
        V,
        pointer="/payload/model_context_window",
    )
    rej("origin-empty", "an empty origin", ev(rb, ',"origin":[]'), V, pointer="/origin")
    rej(
        "abort-code-unknown",
        "an abort error code that is no `ErrorCode`",
        ev('{"type":"abort","error_code":"cancelled"}'),
        V,
        pointer="/payload/error_code",
    )
    rej(
        "sender-assistant",
        "sender `assistant`",
        mm('{"type":"text","role":"user","text":"x","sender":"assistant"}'),
        V,
        pointer="/payload/sender",
    )
    rej(
        "transport-ws",
        "transport `ws`",
        ev(
            '{"type":"mcp_connect_end","status":"completed","results":[{"server":"g","transport":"ws","status":"completed","duration_ms":1}]}'
        ),
        V,
        pointer="/payload/results/0/transport",
    )
    rej(
        "decision-maybe",
        "approval decision `maybe`",
        ev('{"type":"approval_decision","decision":"maybe","tool_call_id":"c"}'),
        V,
        pointer="/payload/decision",
    )
    rej(
        "hook-decision-block",
        "hook decision `block`",
        ev('{"type":"hook","hook":"stop","name":"h","decision":"block"}'),
        V,
        pointer="/payload/decision",
    )
    rej(
        "event-type-end",
        "stream event type `end`",
        mm('{"type":"partial_text","role":"assistant","event_type":"end","text":""}'),
        V,
        pointer="/payload/event_type",
    )
    rej(
        "error-code-unknown",
        "an unknown error code",
        ev('{"type":"request_end","status":"fatal","error_code":"E_TIMEOUT"}'),
        V,
        pointer="/payload/error_code",
    )
    rej(
        "enum-case",
        "enum values are case-sensitive",
        ev('{"type":"request_end","status":"Completed"}'),
        V,
        pointer="/payload/status",
    )


# ---------------------------------------------------------------------------
# lenient: the optional mode of spec section 5
# ---------------------------------------------------------------------------


def gen_lenient() -> None:
    T = f'"timestamp":"{TS}"'

    def ev(p: str, extra: str = "") -> str:
        return "{" + T + ',"type":"event_msg","payload":' + p + extra + "}\n"

    def keep(cid: str, desc: str, data: str) -> None:
        G.add(cid, "lenient", desc, "5", data.encode("utf-8", "surrogatepass"), mode="lenient", tags=["opaque"])

    keep(
        "unknown-payload-type",
        "a payload type from a newer version is kept as an opaque message",
        ev('{"type":"request_paused","for_ms":1.0}'),
    )
    keep(
        "unknown-envelope-type",
        "an envelope type from a newer version is kept",
        "{" + T + ',"type":"telemetry_msg","payload":{ "a" : 1 }}\n',
    )
    keep(
        "unknown-field",
        "an unknown field is kept, with the whole line's spelling",
        ev('{"type":"request_begin", "trace_id" : "\\u0041"}'),
    )
    keep(
        "retired-value",
        "a retired stop reason is kept",
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"user","text":"x","stop_reason":"failed"}}\n',
    )
    keep("duplicate-key", "a duplicate key is kept", ev('{"type":"request_begin","type":"request_begin"}'))
    keep(
        "lone-surrogate",
        "a lone surrogate outside a partial's fragment field (here a complete text) is kept",
        "{" + T + ',"type":"model_msg","payload":{"type":"text","role":"assistant","text":"\\ud83d"}}\n',
    )
    keep(
        "beyond-double",
        "a number beyond the double range is kept",
        ev('{"type":"request_end","status":"completed","retry_in_ms":1e400}'),
    )
    keep(
        "integer-fraction",
        "an integer field written 1.0 is kept",
        ev('{"type":"request_end","status":"completed","attempt":1.0}'),
    )
    keep("missing-field", "an object lacking required fields is kept", '{"timestamp":"t"}\n')
    keep("empty-object", "an empty object is kept", "{ }\n")
    G.add(
        "valid-noncanonical",
        "lenient",
        "a valid but non-canonical line is still re-encoded canonically",
        "5",
        ("{ " + T + ', "type":"event_msg","payload":{"type":"request_begin"}}\n').encode(),
        mode="lenient",
        expect="canonical",
        output=("{" + T + ',"type":"event_msg","payload":{"type":"request_begin"}}').encode(),
    )
    G.add(
        "valid-canonical",
        "lenient",
        "a valid canonical line comes back byte for byte",
        "5",
        ("{" + T + ',"type":"event_msg","payload":{"type":"abort","reason":null}}\n').encode(),
        mode="lenient",
    )

    def refuse(cid: str, desc: str, data: bytes, category: str) -> None:
        G.add(cid, "lenient", desc, "5", data, mode="lenient", expect="reject", category=category)

    refuse("invalid-json", "lenient mode still refuses what is not JSON", b'{"timestamp":"t",}\n', "invalid_json")
    refuse("invalid-utf8", "lenient mode still refuses invalid UTF-8", b'{"timestamp":"\xff"}\n', "invalid_utf8")
    refuse("trailing-data", "lenient mode still refuses trailing data", b'{"timestamp":"t"} {}\n', "trailing_data")
    refuse(
        "too-deep",
        "lenient mode still refuses nesting beyond the limit",
        b'{"a":' + b"[" * 600 + b"]" * 600 + b"}\n",
        "too_deep",
    )
    refuse("not-an-object", "lenient mode keeps objects only", b"[1,2]\n", "wrong_type")
    refuse("truncated", "lenient mode still reports a torn last line", b'{"timestamp":"t', "truncated")


# ---------------------------------------------------------------------------
# hostile: what third-party traces, network streams and fuzzers throw at a decoder (issue 7).
# Every case is tagged `hostile` (`omnimessage conformance --category hostile`); they sit in
# the group of their expectation. Huge inputs are written as compact `parts` in the manifest.
# File-level hostile inputs (a million lines, empty and binary files, 100 MB lines) are in
# conformance/hostile/.
# ---------------------------------------------------------------------------

MEGA = 10**6  # "10^6-digit numbers"
DEEP = 10**5  # "nesting 10^5 deep"

# Existing cases that belong to the hostile catalogue too (tagged `hostile` as well).
EXISTING_HOSTILE = {
    "rejection.invalid_utf8.overlong-c0af",
    "rejection.invalid_utf8.overlong-e080af",
    "rejection.invalid_utf8.overlong-4-byte",
    "rejection.invalid_utf8.encoded-surrogate",
    "rejection.invalid_utf8.truncated-sequence",
    "rejection.invalid_utf8.byte-ff",
    "rejection.invalid_json.bom",
    "rejection.invalid_json.bom-in-whitespace",
    "rejection.invalid_json.raw-nul",
    "rejection.invalid_json.whitespace-nul",
    "rejection.trailing_data.nul",
    "rejection.lone_surrogate.high",
    "rejection.lone_surrogate.low",
    "rejection.lone_surrogate.reversed-pair",
    "rejection.duplicate_key.envelope-type",
    "rejection.duplicate_key.payload-type",
    "rejection.duplicate_key.after-unescaping",
    "rejection.duplicate_key.token-counts",
    "rejection.duplicate_key.tool-definition",
    "rejection.invalid_json.nan",
    "rejection.invalid_json.infinity",
    "rejection.invalid_json.minus-infinity",
    "rejection.invalid_json.bare-minus",
    "rejection.invalid_json.leading-zero",
    "rejection.invalid_json.bare-dot",
    "rejection.too_deep.array-100000",
    "rejection.too_deep.unclosed-100000",
    "rejection.wrong_type.top-array",
    "rejection.wrong_type.top-string",
    "rejection.wrong_type.top-number",
    "rejection.wrong_type.top-null",
    "rejection.invalid_json.trailing-comma-object",
    "rejection.invalid_json.trailing-comma-array",
    "rejection.invalid_json.comment-block",
    "rejection.invalid_json.comment-line",
    "rejection.invalid_json.single-quotes",
    "rejection.invalid_json.unquoted-key",
    "verbatim.fidelity.number-1e6-digits",
    "verbatim.hook-output.number-1e6-digits",
    "verbatim.fidelity.keys-proto",
    "canonicalization.framing.crlf",
}


def gen_hostile() -> None:
    H = ["hostile"]
    T = f'"timestamp":"{TS}"'
    rb = '{"type":"request_begin"}'
    good = "{" + T + ',"type":"event_msg","payload":' + rb + "}"
    gb = good.encode()

    def ev(p: str, extra: str = "") -> str:
        return "{" + T + ',"type":"event_msg","payload":' + p + extra + "}\n"

    def mm(p: str) -> str:
        return "{" + T + ',"type":"model_msg","payload":' + p + "}\n"

    def text(t: str) -> str:
        return mm('{"type":"text","role":"user","text":"' + t + '"}')

    def fid(f: str) -> str:
        return mm('{"type":"thinking","role":"assistant","thinking":"x","fidelity":' + f + "}")

    def hrej(cid: str, desc: str, data: bytes | str, category: str, pointer: str | None = None, spec: str = "4",
             tags: Iterable[str] = ()) -> None:
        rej(cid, desc, data, category, spec, pointer, [*H, *tags])

    def huge_rej(cid: str, desc: str, parts: Parts, category: str, pointer: str | None = None,
                 tags: Iterable[str] = ()) -> None:
        G.add(f"{category}.{cid}", "rejection", desc, "4", b"", expect="reject", category=category,
              pointer=pointer, tags=[*H, "large", *tags], parts=parts)

    def head_tail(line: str, marker: str) -> tuple[str, str]:
        a, b = line.split(marker)
        return a, b

    # --- invalid UTF-8 -------------------------------------------------------------
    U = "invalid_utf8"
    tx = text("X").encode()
    for name, bad, desc in [
        ("overlong-nul", b"\xc0\x80", "an overlong NUL (C0 80, 'modified UTF-8')"),
        ("cesu8-pair", b"\xed\xa0\xbd\xed\xb8\x80", "a surrogate pair encoded as two 3-byte sequences (CESU-8)"),
        ("encoded-low-surrogate", b"\xed\xb0\x80", "a low surrogate encoded in UTF-8 (ED B0 80)"),
        ("five-byte-form", b"\xf8\x88\x80\x80\x80", "an obsolete 5-byte sequence"),
        ("latin1", b"caf\xe9", "Latin-1 text (E9 followed by a quote)"),
        ("truncated-4-byte", b"\xf0\x9f\x98", "a 4-byte sequence missing its last byte"),
    ]:
        hrej(name, f"invalid UTF-8 inside a string: {desc}", tx.replace(b'"X"', b'"' + bad + b'"'), U,
             tags=["utf8"])
    hrej("overlong-in-key", "an overlong '/' (C0 AF) inside an object key",
         ev(rb).encode().replace(b'"payload"', b'"pay\xc0\xafload"'), U, tags=["utf8"])
    hrej("truncated-before-lf", "a multi-byte sequence cut just before the line feed, after the object",
         gb + b"\xe2\x82\n", U, tags=["utf8", "precedence"])
    hrej("utf16le-with-bom", "the message encoded as UTF-16LE with its byte order mark",
         b"\xff\xfe" + good.encode("utf-16-le") + b"\n", U, tags=["utf8", "bom"])
    hrej("in-parameters", "a UTF-8-encoded surrogate inside tool parameters (UTF-8 applies to verbatim values too)",
         ev('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":{"s":"X"}}]}')
         .encode().replace(b'"X"', b'"\xed\xa0\x80"'), U, tags=["utf8", "verbatim"])

    # --- byte order marks, CR, NUL ----------------------------------------------------
    J = "invalid_json"
    hrej("bom-only", "a line holding only a byte order mark", b"\xef\xbb\xbf\n", J, spec="1.1", tags=["bom"])
    hrej("bom-twice", "two byte order marks before the object", b"\xef\xbb\xbf\xef\xbb\xbf" + gb + b"\n", J,
         spec="1.1", tags=["bom"])
    hrej("bom-inside-fidelity", "a byte order mark between tokens inside a verbatim value",
         fid('{"a":1,\ufeff"b":2}'), J, spec="3.2", tags=["bom", "verbatim"])
    hrej("bom-torn", "a byte order mark before a complete object on a last line with no line feed (it does "
         "not decode: a torn write)", b"\xef\xbb\xbf" + gb, "truncated", spec="1.4", tags=["bom"])
    hrej("cr-only-line", "a line holding only CR (an empty CRLF line)", b"\r\n", J, tags=["cr"])
    hrej("nul-only-line", "a line holding one NUL byte", b"\x00\n", J, tags=["nul"])
    hrej("nul-padding", "a line of 4096 NUL bytes (the zero-filled tail of a file a crash preallocated)",
         b"\x00" * 4096 + b"\n", J, tags=["nul"])
    hrej("nul-before-object", "a NUL byte before the object", b"\x00" + gb + b"\n", J, tags=["nul"])
    hrej("nul-in-key", "a raw NUL inside an object key", ev(rb).replace('"payload"', '"pay\x00load"'), J,
         tags=["nul"])
    hrej("nul-in-fidelity", "a raw NUL inside a string of a verbatim value", fid('{"s":"a\x00b"}'), J, spec="3.2",
         tags=["nul", "verbatim"])
    hrej("cr-between-messages", "two messages separated by a lone CR (old Mac line endings): one line, trailing "
         "data", good + "\r" + good + "\n", "trailing_data", spec="1.3", tags=["cr"])
    G.add("framing.cr-terminated-last-line", "canonicalization",
          "a last line ending with CR and no LF: CR is JSON whitespace, the line decodes", "1.3",
          gb + b"\r", expect="canonical", output=gb, tags=[*H, "cr"])
    G.add("framing.cr-cr-lf", "canonicalization", "CR CR LF: both CRs are JSON whitespace", "1.3",
          gb + b"\r\r\n", expect="canonical", output=gb, tags=[*H, "cr"])

    # --- lone and reversed surrogates ------------------------------------------------
    L = "lone_surrogate"
    hrej("high-before-pair", "a high surrogate followed by a valid pair", text("\\udbff\\ud83d\\ude00"), L,
         pointer="/payload/text")
    hrej("pair-split-by-escape", "a pair split by another escape", text("\\ud83d\\n\\ude00"), L,
         pointer="/payload/text")
    hrej("reversed-in-key", "a reversed pair escaped in a key", ev('{"type":"request_begin","\\udc00\\ud800":1}'), L)
    hrej("low-in-error-message", "a lone low surrogate in an error message",
         ev('{"type":"request_end","status":"fatal","error_code":"auth","error_message":"x\\uDC00"}'), L,
         pointer="/payload/error_message")
    hrej("fragment-lone-in-complete-text", "the complete text after a stream cut mid-pair must hold the joined pair, "
         "not a lone half", mm('{"type":"text","role":"assistant","text":"abc\\ud83d"}'), L, pointer="/payload/text")

    # --- duplicate keys at every level ----------------------------------------------
    K = "duplicate_key"
    hrej("envelope-timestamp", "the envelope timestamp twice",
         "{" + T + "," + T + ',"type":"event_msg","payload":' + rb + "}\n", K, pointer="/timestamp")
    hrej("envelope-payload", "the payload twice (a second, valid one after an invalid one)",
         "{" + T + ',"type":"event_msg","payload":{"type":"nope"},"payload":' + rb + "}\n", K, pointer="/payload")
    hrej("envelope-origin", "origin twice", ev(rb, ',"origin":["a"],"origin":["b"]'), K, pointer="/origin")
    hrej("envelope-escaped-type", '`"type"` and `"typ\\u0065"` collide in the envelope',
         "{" + T + ',"type":"event_msg","typ\\u0065":"event_msg","payload":' + rb + "}\n", K, pointer="/type",
         tags=["escape"])
    hrej("envelope-all-escaped", "a key escaped in full (`\\u0074\\u0079\\u0070\\u0065`) collides with `type`",
         "{" + T + ',"\\u0074\\u0079\\u0070\\u0065":"event_msg","type":"event_msg","payload":' + rb + "}\n", K,
         pointer="/type", tags=["escape"])
    hrej("escaped-fidelity-key", '`"fidelity"` and `"fid\\u0065lity"` collide (outside the verbatim value)',
         mm('{"type":"thinking","role":"assistant","thinking":"x","fidelity":{},"fid\\u0065lity":{}}'), K,
         pointer="/payload/fidelity", tags=["escape", "verbatim"])
    hrej("tool-parameters", "a ToolDefinition's `parameters` key twice",
         ev('{"type":"tool_list_ready","tools":[{"name":"a","description":"b","parameters":{},"parameters":{}}]}'),
         K, pointer="/payload/tools/0/parameters")
    hrej("server-result", "an McpServerResult key twice",
         ev('{"type":"mcp_connect_end","status":"completed","results":[{"server":"s","transport":"stdio",'
            '"status":"completed","duration_ms":1,"server":"t"}]}'), K, pointer="/payload/results/0/server")
    hrej("hook-output-key", "the hook `output` key twice", ev('{"type":"hook","hook":"stop","name":"h","output":{},'
                                                              '"output":{}}'), K, pointer="/payload/output")
    hrej("proto-twice", "`__proto__` twice in the envelope (duplicate before unexpected)",
         ev(rb, ',"__proto__":{},"__proto__":{}'), K, pointer="/__proto__", tags=["proto", "precedence"])
    a0, b0 = head_tail(ev('{"type":"request_begin",@}'), "@")
    huge_rej("payload-100000-members", "a payload with 100000 members all named `x` (the second one is reported)",
             [(a0, 1), ('"x":1,', DEEP - 1), ('"x":1' + b0, 1)], K, pointer="/payload/x")

    # --- numbers ---------------------------------------------------------------------
    def retry(v: str) -> str:
        return ev('{"type":"request_end","status":"completed","retry_in_ms":' + v + "}")

    for name, v in [
        ("nan-lowercase", "nan"),
        ("minus-nan", "-NaN"),
        ("minus-leading-zero", "-01"),
        ("dot-exponent", "1.e5"),
        ("exponent-sign-only", "1e+"),
        ("double-minus", "--1"),
        ("underscore", "1_000"),
        ("fraction-dot-only", "0."),
    ]:
        hrej(f"number-{name}", f"{v} is not a JSON number", retry(v), J)
    hrej("infinity-in-fidelity", "Infinity inside a verbatim value", fid('{"n":Infinity}'), J, spec="3.2",
         tags=["verbatim"])
    hrej("minus-in-hook-output", "a bare minus inside hook output",
         ev('{"type":"hook","hook":"stop","name":"h","output":{"n":-}}'), J, spec="3.2", tags=["verbatim"])
    hrej("bare-dot-in-parameters", "`1.` inside tool parameters",
         ev('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":{"maximum":1.}}]}'), J,
         spec="3.2", tags=["verbatim"])
    hrej("leading-zero-in-fidelity-array", "`01` inside an array of a verbatim value", fid('{"a":[1,01]}'), J,
         spec="3.2", tags=["verbatim"])
    hrej("nan-top-level", "a line holding only NaN", "NaN\n", J)

    # 10^6-digit numbers outside verbatim values
    NB = "invalid_number"
    a, b = head_tail(retry("@"), "@")
    huge_rej("retry-1e6-digits", "a 10^6-digit integer in a number field (beyond the double range)",
             [(a, 1), ("7", MEGA), (b, 1)], NB, pointer="/payload/retry_in_ms", tags=["number-spelling"])
    huge_rej("retry-minus-1e6-digits", "a negative 10^6-digit integer", [(a + "-", 1), ("7", MEGA), (b, 1)], NB,
             pointer="/payload/retry_in_ms", tags=["number-spelling"])
    huge_rej("retry-exponent-1e6-digits", "an exponent of 10^6 digits (beyond the double range)",
             [(a + "1e", 1), ("9", MEGA), (b, 1)], NB, pointer="/payload/retry_in_ms", tags=["number-spelling"])
    a2, b2 = head_tail(ev('{"type":"request_end","status":"completed","attempt":@}'), "@")
    huge_rej("attempt-1e6-digits", "a 10^6-digit integer in an integer field", [(a2, 1), ("3", MEGA), (b2, 1)], NB,
             pointer="/payload/attempt", tags=["number-spelling"])
    huge_rej("attempt-1e6-zeros-fraction", "1.000... (10^6 zeros) in an integer field: integral, with a fraction",
             [(a2 + "1.", 1), ("0", MEGA), (b2, 1)], NB, pointer="/payload/attempt", tags=["number-spelling"])
    a3, b3 = head_tail(ev('{"type":"token_usage","request":{"cache_read":@,"cache_write":0,"output":0,"total":0},'
                          '"session":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'), "@")
    huge_rej("tokens-1e6-digits", "a 10^6-digit token count", [(a3, 1), ("9", MEGA), (b3, 1)], NB,
             pointer="/payload/request/cache_read", tags=["number-spelling"])
    a4, b4 = head_tail(line(msg("SessionMetaPayload", minimal("SessionMetaPayload"))).decode(), '"model_context_window":')
    ctx_rest = b4.split(",", 1)[1]
    huge_rej("context-window-1e6-digits", "a 10^6-digit model_context_window (number or string: a number here)",
             [(a4 + '"model_context_window":', 1), ("1", MEGA), ("," + ctx_rest, 1)], NB,
             pointer="/payload/model_context_window", tags=["number-spelling"])

    # 10^6-digit numbers that are valid: canonical ECMAScript spelling
    def canon_retry(cid: str, desc: str, parts: Parts, out: str) -> None:
        G.add(f"number.{cid}", "canonicalization", desc, "2.5", b"", expect="canonical",
              output=retry(out).rstrip("\n").encode(), parts=parts, tags=[*H, "large", "number-spelling"])

    canon_retry("zeros-fraction-1e6", "0.000...01 with 10^6 digits (underflows to 0)",
                [(a + "0.", 1), ("0", MEGA), ("1" + b, 1)], "0")
    canon_retry("one-point-1e6-zeros", "1. followed by 10^6 zeros", [(a + "1.", 1), ("0", MEGA), (b, 1)], "1")
    canon_retry("thirds-1e6", "0.333... with 10^6 threes (correctly rounded)", [(a + "0.", 1), ("3", MEGA), (b, 1)],
                "0.3333333333333333")
    canon_retry("exponent-1e6-leading-zeros", "1e0...01: an exponent of 10^6 digits, value 10",
                [(a + "1e", 1), ("0", MEGA), ("1" + b, 1)], "10")
    canon_retry("negative-exponent-1e6-digits", "1e-999...: an exponent of 10^6 digits underflowing to 0",
                [(a + "1e-", 1), ("9", MEGA), (b, 1)], "0")

    # 10^6-digit numbers inside verbatim values: kept byte for byte
    def keep(cid: str, desc: str, parts: Parts, group: str = "verbatim", tags: Iterable[str] = ()) -> None:
        G.add(cid, group, desc, "3", b"", parts=parts, tags=[*H, "large", *tags])

    a5, b5 = head_tail(ev('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":'
                          '{"maximum":@}}]}'), "@")
    keep("parameters.number-1e6-digits", "a 10^6-digit number inside tool parameters",
         [(a5, 1), ("5", MEGA), (b5, 1)], tags=["parameters", "number-spelling"])
    a6, b6 = head_tail(fid('{"e":@}'), "@")
    keep("fidelity.exponent-1e6-digits", "a number with a 10^6-digit exponent inside fidelity (grammar only)",
         [(a6 + "1e", 1), ("9", MEGA), (b6, 1)], tags=["fidelity", "number-spelling"])
    keep("fidelity.fraction-1e6-digits", "a 10^6-digit fraction inside fidelity",
         [(a6 + "-0.", 1), ("1", MEGA), (b6, 1)], tags=["fidelity", "number-spelling"])

    # --- nesting 10^5 deep -------------------------------------------------------------
    D = "too_deep"
    a7, b7 = head_tail(fid('{"a":@}'), "@")
    huge_rej("fidelity-arrays-100000", "fidelity holding 10^5 nested arrays",
             [(a7, 1), ("[", DEEP), ("]", DEEP), (b7, 1)], D, tags=["verbatim", "depth-limit"])
    huge_rej("fidelity-objects-100000", "fidelity holding 10^5 nested objects",
             [(a7, 1), ('{"a":', DEEP), ("1", 1), ("}", DEEP), (b7, 1)], D, tags=["verbatim", "depth-limit"])
    huge_rej("fidelity-unclosed-100000", "fidelity opening 10^5 arrays that never close (the line ends with LF)",
             [(a7, 1), ("[", DEEP), ("\n", 1)], D, tags=["verbatim", "depth-limit"])
    huge_rej("fidelity-alternating-100000", "fidelity alternating arrays and objects 10^5 levels deep",
             [(a7, 1), ('[{"a":', DEEP // 2), ("1", 1), ("}]", DEEP // 2), (b7, 1)], D,
             tags=["verbatim", "depth-limit"])
    a8, b8 = head_tail(ev('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":@}]}'), "@")
    huge_rej("parameters-100000", "tool parameters nested 10^5 deep", [(a8, 1), ('{"p":', DEEP), ("{}", 1),
                                                                      ("}", DEEP), (b8, 1)], D,
             tags=["verbatim", "depth-limit"])
    a9, b9 = head_tail(ev('{"type":"hook","hook":"stop","name":"h","output":{"o":@}}'), "@")
    huge_rej("hook-output-100000", "hook output nested 10^5 deep (depth is a grammar limit: before the shape)",
             [(a9, 1), ("[", DEEP), ("]", DEEP), (b9, 1)], D, tags=["verbatim", "depth-limit", "precedence"])
    a10, b10 = head_tail(ev(rb, ',"origin":@'), "@")
    huge_rej("origin-100000", "origin nested 10^5 deep (outside verbatim values)",
             [(a10, 1), ("[", DEEP), ("]", DEEP), (b10, 1)], D, tags=["depth-limit"])
    huge_rej("unknown-field-objects-100000", "an unknown payload member nested 10^5 objects deep",
             [(a0 + '"x":', 1), ('{"x":', DEEP), ("null", 1), ("}", DEEP), (b0, 1)], D,
             tags=["depth-limit", "precedence"])

    # --- very long origin chains -------------------------------------------------------
    sid = CHILD[0]
    a11, b11 = head_tail(ev(rb, ',"origin":[@]'), "@")
    keep("origin.chain-100000", "an origin chain of 10^5 session ids", [(a11, 1), (q(sid) + ",", DEEP - 1),
                                                                        (q(sid) + b11, 1)],
         group="roundtrip", tags=["origin"])
    huge_rej("origin-100000-lone-surrogate-last", "10^5 origin ids, the last escaping a lone surrogate",
             [(a11, 1), (q(sid) + ",", DEEP), ('"\\ud800"' + b11, 1)], L, pointer=f"/origin/{DEEP}",
             tags=["origin"])
    huge_rej("origin-100000-number-last", "10^5 origin ids, the last a number",
             [(a11, 1), (q(sid) + ",", DEEP), ("7" + b11, 1)], "wrong_type", pointer=f"/origin/{DEEP}",
             tags=["origin"])

    # --- long runs of one byte ----------------------------------------------------------
    G.add("whitespace.spaces-1e6-between-tokens", "canonicalization", "10^6 spaces between two tokens", "2.1",
          b"", expect="canonical", output=gb, parts=[("{", 1), (" ", MEGA), (good[1:] + "\n", 1)],
          tags=[*H, "large", "whitespace"])
    G.add("whitespace.spaces-1e6-after-object", "canonicalization", "10^6 spaces after the object", "1.3",
          b"", expect="canonical", output=gb, parts=[(good, 1), (" ", MEGA), ("\n", 1)],
          tags=[*H, "large", "whitespace"])
    huge_rej("spaces-1e6-then-garbage", "10^6 spaces after the object, then a word",
             [(good, 1), (" ", MEGA), ("x\n", 1)], "trailing_data")
    huge_rej("backslashes-1e6", "a line of 10^6 backslashes", [("\\", MEGA), ("\n", 1)], J)
    huge_rej("commas-1e6", "a line of 10^6 commas", [(",", MEGA), ("\n", 1)], J)
    huge_rej("quotes-1e6", "a line of 10^6 double quotes (an empty string, then data)", [('"', MEGA), ("\n", 1)],
             "trailing_data")
    a12, b12 = head_tail(text("@"), "@")
    G.add("escapes.text-100000-unicode-escapes", "canonicalization", "a text of 10^5 `\\u0041` escapes", "2.4",
          b"", expect="canonical", parts=[(a12, 1), ("\\u0041", DEEP), (b12, 1)],
          output_parts=[(a12, 1), ("A", DEEP), (b12.rstrip("\n"), 1)], tags=[*H, "large", "escape"])
    a13, b13 = head_tail(fid("@"), "@")
    keep("fidelity.duplicate-keys-100000", "fidelity with the same key 10^5 times (verbatim: kept)",
         [(a13 + '{"k":0', 1), (',"k":0', DEEP - 1), ("}" + b13, 1)], tags=["fidelity", "keys-duplicate"])

    # --- not an object, not JSON ---------------------------------------------------------
    W = "wrong_type"
    hrej("top-false", "the line is `false`", "false\n", W, pointer="")
    hrej("top-negative-number", "the line is `-0`", "-0\n", W, pointer="")
    hrej("top-empty-string", 'the line is `""`', '""\n', W, pointer="")
    hrej("python-dict-repr", "a Python dict repr (single quotes, True, None)",
         "{'timestamp': 't', 'type': 'event_msg', 'ok': True, 'x': None}\n", J)
    hrej("comment-hash", "a `#` comment line", "# a comment\n", J)
    hrej("comment-after-object", "a `//` comment after the object (data after it)", good + " // c\n",
         "trailing_data", spec="1.3")
    hrej("comment-in-fidelity", "a /* */ comment inside a verbatim value", fid('{"a":1 /* c */}'), J, spec="3.2",
         tags=["verbatim"])
    hrej("trailing-comma-in-fidelity", "a trailing comma inside a verbatim value", fid('{"a":[1,2,],"b":1}'), J,
         spec="3.2", tags=["verbatim"])
    hrej("trailing-comma-in-hook-output", "a trailing comma inside hook output",
         ev('{"type":"hook","hook":"stop","name":"h","output":{"a":1,}}'), J, spec="3.2", tags=["verbatim"])
    hrej("leading-comma", "a comma before the first member", ev('{,"type":"request_begin"}'), J)
    # found by differential fuzzing: a closing bracket where a value belongs (fuzz/crashes/differential-*)
    hrej("missing-value", "a key with no value before the closing brace", '{"timestamp":"t","type":}\n', J)
    hrej("closing-bracket-as-value", "a closing bracket where a value belongs",
         ev('{"type":]"request_begin"}'), J)
    hrej("double-comma", "two commas between members", ev('{"type":"request_end",,"status":"completed"}'), J)
    hrej("single-quotes-in-fidelity", "single-quoted strings inside a verbatim value", fid("{'a':'b'}"), J,
         spec="3.2", tags=["verbatim"])
    hrej("single-quoted-key", "one single-quoted key", ev("{'type':\"request_begin\"}"), J)
    hrej("unquoted-key-in-fidelity", "an unquoted key inside a verbatim value", fid("{sig:1}"), J, spec="3.2",
         tags=["verbatim"])
    hrej("unquoted-key-in-parameters", "an unquoted key inside tool parameters",
         ev('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","parameters":{type:"object"}}]}'), J,
         spec="3.2", tags=["verbatim"])

    # --- prototype keys and values (JavaScript bindings) -----------------------------------
    P = ["proto"]
    hrej("envelope-proto", "a `__proto__` member in the envelope", ev(rb, ',"__proto__":{"type":"x"}'),
         "unexpected_field", pointer="/__proto__", tags=P)
    hrej("payload-constructor", "a `constructor` member in the payload",
         ev('{"type":"request_begin","constructor":{"prototype":{}}}'), "unexpected_field",
         pointer="/payload/constructor", tags=P)
    hrej("tool-proto", "a `__proto__` member in a ToolDefinition",
         ev('{"type":"tool_list_ready","tools":[{"name":"t","description":"d","__proto__":null}]}'),
         "unexpected_field", pointer="/payload/tools/0/__proto__", tags=P)
    hrej("token-counts-hasownproperty", "a `hasOwnProperty` member in TokenCounts",
         ev('{"type":"token_usage","request":{"cache_read":0,"cache_write":0,"output":0,"total":0,'
            '"hasOwnProperty":1},"session":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'),
         "unexpected_field", pointer="/payload/request/hasOwnProperty", tags=P)
    for name, v in [("constructor", "constructor"), ("proto", "__proto__"), ("tostring", "toString")]:
        hrej(f"envelope-type-{name}", f"envelope type {v!r}",
             "{" + T + ',"type":"' + v + '","payload":' + rb + "}\n", "unknown_type", pointer="/type", tags=P)
    for name, v in [("hasownproperty", "hasOwnProperty"), ("valueof", "valueOf"), ("proto", "__proto__")]:
        hrej(f"payload-type-{name}", f"payload type {v!r}", ev('{"type":"' + v + '"}'), "unknown_type",
             pointer="/payload/type", tags=P)
    hrej("role-constructor", "role 'constructor'", mm('{"type":"text","role":"constructor","text":"x"}'),
         "invalid_value", pointer="/payload/role", tags=P)
    hrej("status-proto", "status '__proto__'", ev('{"type":"request_end","status":"__proto__"}'), "invalid_value",
         pointer="/payload/status", tags=P)
    hrej("decision-tostring", "decision 'toString'",
         ev('{"type":"approval_decision","tool_call_id":"c","decision":"toString"}'), "invalid_value",
         pointer="/payload/decision", tags=P)
    keep("fidelity.keys-constructor-prototype", "`constructor`, `prototype` and `__proto__` keys inside fidelity",
         [(fid('{"constructor":{"prototype":{"polluted":true}},"__proto__":{"polluted":true}}'), 1)],
         tags=["fidelity", *P])
    G.add("proto-unknown-field", "lenient", "lenient keeps a `__proto__` member as an opaque message", "5",
          ev(rb, ',"__proto__":{"type":"x"}').encode(), mode="lenient", tags=[*H, "opaque", *P])
    G.add("deep-100000", "lenient", "lenient mode still refuses 10^5 nesting levels", "5", b"", mode="lenient",
          expect="reject", category="too_deep", parts=[(a7, 1), ("[", DEEP), ("]", DEEP), (b7, 1)],
          tags=[*H, "large", "depth-limit"])


def tag_existing_hostile() -> None:
    ids = {c["id"]: c for c in G.cases}
    missing = EXISTING_HOSTILE - set(ids)
    assert not missing, sorted(missing)
    for cid in EXISTING_HOSTILE:
        ids[cid]["tags"] = sorted({*ids[cid]["tags"], "hostile"})


# ---------------------------------------------------------------------------


def build() -> tuple[dict[str, bytes], bytes]:
    gen_roundtrip()
    gen_verbatim()
    gen_canonicalization()
    gen_rejection()
    gen_lenient()
    gen_hostile()
    tag_existing_hostile()
    groups = {
        "roundtrip": {
            "spec": "2",
            "description": "Canonical lines of every payload kind, optional field, enum value, origin depth, unicode edge and large value: each must re-encode to itself byte for byte.",
        },
        "verbatim": {
            "spec": "3",
            "description": "fidelity, tool parameters and hook output written every way a re-serialiser would change them: each must survive byte for byte.",
        },
        "canonicalization": {
            "spec": "2",
            "description": "Valid but non-canonical lines (key order, whitespace, escapes, number spelling) and the exact canonical bytes they re-encode to.",
        },
        "rejection": {
            "spec": "4",
            "description": "One defect per line, each rejection category several times (precedence cases tagged `precedence`): each must be refused with that category.",
        },
        "lenient": {
            "spec": "5",
            "description": "The optional lenient mode (feature `lenient`; a testee without it answers `skipped`).",
        },
        "protocol": {
            "spec": "8",
            "home": "protocol/",
            "description": "Whole streams and traces for validators (`omnimessage validate`), valid and invalid: see protocol/README.md. Not sent to codec testees.",
        },
    }
    manifest = {
        "$schema": "./manifest.schema.json",
        "suite_version": SUITE_VERSION,
        "schema_id": SCHEMA["$id"],
        "protocol_version": 1,
        "groups": groups,
        "cases": G.cases,
    }
    head = {k: v for k, v in manifest.items() if k != "cases"}
    text = json.dumps(head, indent=2, ensure_ascii=False)[:-2] + ',\n  "cases": [\n'
    text += ",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in G.cases) + "\n  ]\n}\n"
    assert json.loads(text) == manifest
    files = {name: b"".join(lines) for name, lines in G.files.items()}
    return files, text.encode("utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files; write nothing")
    args = ap.parse_args()
    files, manifest = build()
    files["manifest.json"] = manifest
    stale = []
    for name, data in sorted(files.items()):
        path = SUITE / name
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if args.check:
        for name in stale:
            print(f"stale: conformance/{name} (run conformance/tools/generate.py)")
        return 1 if stale else 0
    counts: dict[str, int] = defaultdict(int)
    for c in G.cases:
        counts[c["group"]] += 1
    print(", ".join(f"{g}: {n}" for g, n in counts.items()), f"(total {len(G.cases)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
