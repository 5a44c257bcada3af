"""Realistic values: every payload with all its fields (`FULL`), and its minimal and full forms."""

from __future__ import annotations

from typing import Any

from .canonical_json import Raw
from .schema_facts import CHILD, DEFS, SID, obj, required

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
    "RequestBeginPayload": dict(
        prefix_hash="5d41402abc4b2a76b9719d911017c592",
        prefix_head_hash="7d793037a0760186574b0282f2f435e7",
        prefix_records=4,
        prefix_chars=1873,
        prefix_extends_prev=True,
        prefix_thinking_level="high",
    ),
    "RequestEndPayload": dict(
        status="retryable",
        error_code="timeout",
        error_message="request timed out after 60s",
        attempt=1,
        retry_in_ms=2000,
    ),
    "ApprovalDecisionPayload": dict(decision="allow", tool_call_id="call_01"),
    "TokenUsagePayload": dict(
        session=counts(1200, 300, 95, 1650),
        request=counts(600, 0, 40, 700),
        reported_cost=obj("ReportedCost", amount=Raw("0.0215"), currency="USD"),
    ),
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



def full(defname: str, **over: Any) -> dict[str, Any]:
    return obj(defname, **{**FULL[defname], **over})


def minimal(defname: str) -> dict[str, Any]:
    return obj(defname, **{k: v for k, v in FULL[defname].items() if k in required(defname)})

