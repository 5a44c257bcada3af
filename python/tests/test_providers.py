"""`omnimessage.providers.project` and `omnimessage restore --to`: a context as a provider's request.

Every expected body below is worked out by hand from the reference's gateway: PenguinHarness
`packages/core/src/llm/generative-model.ts` (`groupHistoryToUniMessages`, `payloadToContentItem`,
`parseToolArguments`; `tool-call-ids.ts` `stripToolCallIdSuffix`) and AgentHub's clients
(`ant_messages/client.py`, `openai_chat/client.ts`, `openai_responses/client.py`,
`gemini3_8/client.py`, each `transform_uni_message_to_model_input`), with the reason next to it.
The strings (prompts, texts, signatures) are read from the trace; the structure is the reference's.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from test_restore import PRODUCERS, doc_block, file_root

import omnimessage as om
from omnimessage.providers import Loss, project

SWITCH = ("newest-model-switch", "session-2026-10-12-11-30-02-9c41d7e0")


def payloads(ctx: om.Restored) -> list[dict[str, Any]]:
    return [json.loads(m.raw)["payload"] for m in ctx.messages]


def restored(tmp_path: Path, name: str) -> om.Restored:
    root, sid = file_root(tmp_path, name)
    return om.restore(root, sid)


# -- plain-turn: user text, then thinking (a Claude signature) and text ----------------------------

def test_plain_turn_anthropic(tmp_path: Path) -> None:
    ctx = restored(tmp_path, "plain-turn")
    user, think, answer = payloads(ctx)
    p = project(ctx, "anthropic")
    assert p.body == {
        "system": ctx.config.system_prompt,  # `system` whenever the config has a system prompt
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": user["text"]}]},
            # one assistant message for the run; the thinking block carries fidelity.signature
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": think["thinking"], "signature": think["fidelity"]["signature"]},
                {"type": "text", "text": answer["text"]}]},
        ]}
    assert p.losses == ()  # everything has its place


def test_plain_turn_openai_chat(tmp_path: Path) -> None:
    ctx = restored(tmp_path, "plain-turn")
    user, think, answer = payloads(ctx)
    p = project(ctx, "openai-chat")
    assert p.body == {"messages": [
        {"role": "system", "content": ctx.config.system_prompt},
        {"role": "user", "content": [{"type": "text", "text": user["text"]}]},
        # no reasoning_field in the fidelity: both spellings (vLLM and OpenRouter compatibility)
        {"role": "assistant", "content": [{"type": "text", "text": answer["text"]}],
         "reasoning_content": think["thinking"], "reasoning": think["thinking"]},
    ]}
    assert p.losses == (Loss(1, "/payload/fidelity/signature", "fidelity-not-carried"),)


def test_plain_turn_gemini(tmp_path: Path) -> None:
    ctx = restored(tmp_path, "plain-turn")
    user, think, answer = payloads(ctx)
    p = project(ctx, "gemini")
    assert p.body == {
        "contents": [
            {"role": "user", "parts": [{"text": user["text"]}]},
            {"role": "model", "parts": [
                {"text": think["thinking"], "thought": True, "thoughtSignature": think["fidelity"]["signature"]},
                {"text": answer["text"]}]},
        ],
        "systemInstruction": {"parts": [{"text": ctx.config.system_prompt}]}}
    assert p.losses == ()


# -- tools-approvals: encrypted reasoning, phases, four calls, four outputs ------------------------

# OpenAI's encrypted reasoning (1) has no place outside the Responses API, the text phases (2, 11)
# none outside it either
ENCRYPTED = (Loss(1, "/payload/fidelity/id", "fidelity-not-carried"),
             Loss(1, "/payload/fidelity/encrypted_content", "fidelity-not-carried"))
PHASES = (Loss(2, "/payload/fidelity/phase", "fidelity-not-carried"),
          Loss(11, "/payload/fidelity/phase", "fidelity-not-carried"))

def test_tools_anthropic(tmp_path: Path) -> None:
    ctx = restored(tmp_path, "tools-approvals")
    P = payloads(ctx)
    p = project(ctx, "anthropic")
    calls = [{"type": "tool_use", "id": c["tool_call_id"], "name": c["name"], "input": json.loads(c["arguments"])}
             for c in P[3:7]]
    results = [{"type": "tool_result", "content": [{"type": "text", "text": o["output"]}],
                "tool_use_id": o["tool_call_id"]} for o in P[7:11]]
    assert p.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": P[0]["text"]}]},
        # the unsigned (OpenAI-encrypted) thinking has no place: the official API refuses it
        {"role": "assistant", "content": [{"type": "text", "text": P[2]["text"]}, *calls]},
        {"role": "user", "content": results},  # the outputs in trace order, one user message
        {"role": "assistant", "content": [{"type": "text", "text": P[11]["text"]}]},
    ]
    assert p.losses == (Loss(1, "/payload/thinking", "thinking-unsigned"), *ENCRYPTED, *PHASES)


def test_tools_openai_chat(tmp_path: Path) -> None:
    ctx = restored(tmp_path, "tools-approvals")
    P = payloads(ctx)
    p = project(ctx, "openai-chat")
    assert p.body["messages"] == [
        {"role": "system", "content": ctx.config.system_prompt},
        {"role": "user", "content": [{"type": "text", "text": P[0]["text"]}]},
        # the empty thinking adds no reasoning field; the arguments are JSON.stringify of the parsed object
        {"role": "assistant", "content": [{"type": "text", "text": P[2]["text"]}],
         "tool_calls": [{"id": c["tool_call_id"], "type": "function",
                         "function": {"name": c["name"], "arguments": c["arguments"]}} for c in P[3:7]]},
        # each output is a `tool` message of its own; the group's own message is empty and left out
        *({"role": "tool", "tool_call_id": o["tool_call_id"], "content": [{"type": "text", "text": o["output"]}]}
          for o in P[7:11]),
        {"role": "assistant", "content": [{"type": "text", "text": P[11]["text"]}]},
    ]
    # no text: no reasoning field carries the thinking
    assert p.losses == (*ENCRYPTED, Loss(1, "/payload/thinking", "thinking-empty"), *PHASES)


def test_tools_openai_responses(tmp_path: Path) -> None:
    ctx = restored(tmp_path, "tools-approvals")
    P = payloads(ctx)
    p = project(ctx, "openai-responses")
    assert p.body == {"instructions": ctx.config.system_prompt, "input": [
        {"role": "user", "content": [{"type": "input_text", "text": P[0]["text"]}]},
        # encrypted reasoning: its id (the SDK's type requires one), an empty summary, the encrypted content
        {"type": "reasoning", "id": P[1]["fidelity"]["id"], "summary": [],
         "encrypted_content": P[1]["fidelity"]["encrypted_content"]},
        # an assistant text: a message of its own (the text as the content string), labelled with its phase
        {"role": "assistant", "content": P[2]["text"], "phase": "commentary"},
        *({"type": "function_call", "call_id": c["tool_call_id"], "name": c["name"], "arguments": c["arguments"]}
          for c in P[3:7]),
        *({"type": "function_call_output", "call_id": o["tool_call_id"],
           "output": [{"type": "input_text", "text": o["output"]}]} for o in P[7:11]),
        {"role": "assistant", "content": P[11]["text"], "phase": "final_answer"},
    ]}
    assert p.losses == ()


def test_tools_gemini(tmp_path: Path) -> None:
    ctx = restored(tmp_path, "tools-approvals")
    P = payloads(ctx)
    p = project(ctx, "gemini")
    assert p.body["contents"] == [
        {"role": "user", "parts": [{"text": P[0]["text"]}]},
        {"role": "model", "parts": [
            {"text": P[2]["text"]},
            # a real id (not the function's name) is sent as the call's id
            *({"functionCall": {"id": c["tool_call_id"], "name": c["name"], "args": json.loads(c["arguments"])}}
              for c in P[3:7])]},
        # a response is named after its call, found by id
        {"role": "user", "parts": [
            {"functionResponse": {"id": o["tool_call_id"], "name": {c["tool_call_id"]: c["name"] for c in P[3:7]}[
                o["tool_call_id"]], "response": {"result": o["output"]}}} for o in P[7:11]]},
        {"role": "model", "parts": [{"text": P[11]["text"]}]},
    ]
    # an empty thought with no signature says nothing: not sent
    assert p.losses == (*ENCRYPTED, Loss(1, "/payload/thinking", "thinking-empty"), *PHASES)


# -- what the corpus lacks: images, inline data, redacted thinking, suffixed ids, bad arguments ----

TS = "2026-09-14T03:00:00.000Z"
PNG = "data:image/png;base64,iVBORw0KGgo="


def synthetic() -> list[bytes]:
    msgs = [
        om.user_text("look", timestamp=TS),
        om.image_url(PNG, timestamp=TS),
        om.image_url("https://example.invalid/a.jpg", timestamp=TS),
        om.thinking("_REDACTED_THINKING", fidelity={"signature": "UkVE"}, timestamp=TS),
        om.thinking("a", fidelity={"reasoning_field": "reasoning"}, timestamp=TS),
        om.thinking("b", fidelity={"reasoning_field": "reasoning"}, timestamp=TS),
        om.tool_call("read", '{"path": "x"}', "read#2", fidelity={"signature": "UzE="}, timestamp=TS),
        om.inline_data("AAAA", "image/png", role="assistant", timestamp=TS),
        om.tool_call_output("ok", "read#2", images=[PNG, "https://example.invalid/b.png"], timestamp=TS),
    ]
    return [om.encode(m) for m in msgs]


def test_synthetic_anthropic() -> None:
    p = project(synthetic(), "anthropic")
    assert "system" not in p.body  # no system prompt given
    assert p.body["messages"] == [
        {"role": "user", "content": [
            {"type": "text", "text": "look"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            {"type": "image", "source": {"type": "url", "url": "https://example.invalid/a.jpg"}}]},
        # the redacted sentinel: a redacted_thinking block with its data
        {"role": "assistant", "content": [
            {"type": "redacted_thinking", "data": "UkVE"},
            {"type": "tool_use", "id": "read", "name": "read", "input": {"path": "x"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "read", "content": [
            {"type": "text", "text": "ok"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            {"type": "image", "source": {"type": "url", "url": "https://example.invalid/b.png"}}]}]},
    ]
    assert p.losses == (
        Loss(4, "/payload/thinking", "thinking-unsigned"),
        Loss(4, "/payload/fidelity/reasoning_field", "fidelity-not-carried"),
        Loss(5, "/payload/thinking", "thinking-unsigned"),
        Loss(5, "/payload/fidelity/reasoning_field", "fidelity-not-carried"),
        Loss(6, "/payload/fidelity/signature", "fidelity-not-carried"),
        Loss(6, "/payload/tool_call_id", "tool-call-id-suffix-stripped"),
        Loss(6, "/payload/arguments", "arguments-respelled"),
        Loss(7, "/payload/type", "inline-data-not-supported"),
        Loss(8, "/payload/tool_call_id", "tool-call-id-suffix-stripped"),
    )


def test_synthetic_openai_chat() -> None:
    p = project(synthetic(), "openai-chat", system="")
    assert p.body["messages"] == [  # an empty system prompt sends no system message
        {"role": "user", "content": [
            {"type": "text", "text": "look"},
            {"type": "image_url", "image_url": {"url": PNG}},
            {"type": "image_url", "image_url": {"url": "https://example.invalid/a.jpg"}}]},
        # the thinking texts joined; not all say `reasoning`, so both spellings
        {"role": "assistant", "tool_calls": [
            {"id": "read", "type": "function", "function": {"name": "read", "arguments": '{"path":"x"}'}}],
         "reasoning_content": "_REDACTED_THINKINGab", "reasoning": "_REDACTED_THINKINGab"},
        {"role": "tool", "tool_call_id": "read", "content": [{"type": "text", "text": "ok"}]},
        # the output's images go to the run's own message (a tool message holds text only)
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": PNG}},
                                     {"type": "image_url", "image_url": {"url": "https://example.invalid/b.png"}}]},
    ]
    assert [(x.message, x.reason) for x in p.losses] == [
        (3, "fidelity-not-carried"), (4, "thinking-merged"), (5, "thinking-merged"), (6, "fidelity-not-carried"),
        (6, "tool-call-id-suffix-stripped"), (6, "arguments-respelled"), (7, "inline-data-not-supported"),
        (8, "tool-call-id-suffix-stripped")]


def test_synthetic_gemini() -> None:
    p = project(synthetic(), "gemini")
    assert p.body["contents"] == [
        {"role": "user", "parts": [{"text": "look"}, {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}]},
        {"role": "model", "parts": [
            {"text": "_REDACTED_THINKING", "thought": True, "thoughtSignature": "UkVE"},
            {"text": "a", "thought": True}, {"text": "b", "thought": True},
            # the id is the name once the suffix is gone: sent without an id, as older histories are
            {"functionCall": {"name": "read", "args": {"path": "x"}}, "thoughtSignature": "UzE="},
            {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "read", "response": {"result": "ok"}, "parts": [
            {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}]}}]},
    ]
    assert (2, "/payload/image_url", "image-url-not-inlined") in [(x.message, x.pointer, x.reason) for x in p.losses]
    assert (8, "/payload/images/1", "image-url-not-inlined") in [(x.message, x.pointer, x.reason) for x in p.losses]


def test_gemini_splits_function_responses_from_other_parts() -> None:
    msgs = [om.tool_call("f", "{}", "c1", timestamp=TS), om.tool_call_output("r", "c1", timestamp=TS),
            om.user_text("next", timestamp=TS)]
    p = project([om.encode(m) for m in msgs], "gemini")
    assert [c["role"] for c in p.body["contents"]] == ["model", "user", "user"]
    assert p.body["contents"][2] == {"role": "user", "parts": [{"text": "next"}]}


def test_synthetic_openai_responses() -> None:
    p = project(synthetic(), "openai-responses")
    assert "instructions" not in p.body
    assert p.body["input"] == [
        {"role": "user", "content": [
            {"type": "input_text", "text": "look"},
            {"type": "input_image", "image_url": PNG, "detail": "auto"},
            {"type": "input_image", "image_url": "https://example.invalid/a.jpg", "detail": "auto"}]},
        # no thinking message has a reasoning id: none is sent
        {"type": "function_call", "call_id": "read", "name": "read", "arguments": '{"path":"x"}'},
        {"type": "function_call_output", "call_id": "read", "output": [
            {"type": "input_text", "text": "ok"}, {"type": "input_image", "image_url": PNG},
            {"type": "input_image", "image_url": "https://example.invalid/b.png"}]},
    ]
    assert [(x.message, x.reason) for x in p.losses] == [
        (3, "reasoning-without-id"), (3, "fidelity-not-carried"), (4, "reasoning-without-id"),
        (4, "fidelity-not-carried"), (5, "reasoning-without-id"), (5, "fidelity-not-carried"),
        (6, "fidelity-not-carried"), (6, "tool-call-id-suffix-stripped"), (6, "arguments-respelled"),
        (7, "inline-data-not-supported"), (8, "tool-call-id-suffix-stripped")]


def test_responses_assistant_texts_keep_their_phase() -> None:
    msgs = [om.user_text("q", timestamp=TS),
            om.assistant_text("a", fidelity={"phase": "commentary"}, timestamp=TS),
            om.assistant_text("b", fidelity={"phase": "final_answer"}, timestamp=TS),
            om.assistant_text("c", fidelity={"phase": "later"}, timestamp=TS)]
    p = project([om.encode(m) for m in msgs], "openai-responses")
    assert p.body["input"][1:] == [
        {"role": "assistant", "content": "a", "phase": "commentary"},
        {"role": "assistant", "content": "b", "phase": "final_answer"},
        {"role": "assistant", "content": "c"}]
    assert p.losses == (Loss(3, "/payload/fidelity/phase", "fidelity-not-carried"),)  # a phase the API does not know


def test_gemini_signature_must_be_base64() -> None:
    p = project([om.encode(om.thinking("t", fidelity={"signature": "not base64!"}, timestamp=TS))], "gemini")
    assert p.body["contents"] == [{"role": "model", "parts": [{"text": "t", "thought": True}]}]
    assert p.losses == (Loss(0, "/payload/fidelity/signature", "signature-not-base64"),)


def test_bad_arguments_and_foreign_lines_are_losses() -> None:
    lines = [om.encode(om.tool_call("f", "not json", "c", timestamp=TS)),
             om.encode(om.tool_call("f", "[1]", "d", timestamp=TS)),
             om.encode(om.request_begin(timestamp=TS)), b"{oops"]
    p = project(lines, "anthropic")
    assert [c["input"] for c in p.body["messages"][0]["content"]] == [{}, {}]
    assert p.losses == (Loss(0, "/payload/arguments", "arguments-not-json"),
                        Loss(1, "/payload/arguments", "arguments-not-object"),
                        Loss(2, "/type", "not-a-model-message"), Loss(3, "", "not-json"))


def test_unknown_provider() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        project([], "cohere")


def test_pointer_escapes_keys() -> None:
    p = project([om.encode(om.assistant_text("x", fidelity={"a/b~c": 1}, timestamp=TS))], "anthropic")
    assert p.losses == (Loss(0, "/payload/fidelity/a~1b~0c", "fidelity-not-carried"),)


# -- command line -----------------------------------------------------------------------------------

def run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "omnimessage", "restore", *args], capture_output=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("provider", ["anthropic", "openai-chat", "openai-responses", "gemini"])
def test_cli_to_prints_the_body_and_losses(tmp_path: Path, provider: str) -> None:
    root, sid = file_root(tmp_path, "tools-approvals")
    r = run(str(root), sid, "--to", provider)
    assert r.returncode == 0, r.stderr
    p = project(om.restore(root, sid), provider)
    assert r.stdout == (json.dumps(p.body, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    assert r.stderr.decode().splitlines() == [f"loss: message {x.message} {x.pointer}: {x.reason}" for x in p.losses]


def test_cli_to_bad_provider_exits_2() -> None:
    r = run(str(PRODUCERS / SWITCH[0]), SWITCH[1], "--to", "cohere")
    assert r.returncode == 2 and r.stdout == b""


def test_cli_loss_pointer_is_sanitised(tmp_path: Path) -> None:
    from test_restore import SID, meta_line, write_root
    evil = om.encode(om.assistant_text("x", fidelity={"\x1b]0;x\x07": 1}, timestamp=TS))
    root = write_root(tmp_path, meta_line(SID), om.encode(om.user_text("q", timestamp=TS)),
                      om.encode(om.request_begin(timestamp=TS)), evil,
                      om.encode(om.request_end("completed", timestamp=TS)))
    r = run(str(root), SID, "--to", "anthropic")
    assert r.returncode == 0, r.stderr
    assert b"\x1b" not in r.stderr and b"\x07" not in r.stderr
    assert re.fullmatch(rb"loss: message 1 /payload/fidelity/\S+: fidelity-not-carried\n", r.stderr), r.stderr


# -- docs/model.md, section Providers -----------------------------------------------------------------

def test_docs_python_block_prints_what_the_page_says() -> None:
    r = subprocess.run([sys.executable, "-c", doc_block("python", "Providers")], cwd=ROOT, capture_output=True,
                       text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout == doc_block("text", "Providers")


def test_docs_sh_block_prints_the_body() -> None:
    exe = str(Path(sys.executable).parent)
    r = subprocess.run(["sh", "-c", doc_block("sh", "Providers")], cwd=ROOT, capture_output=True, timeout=120,
                       check=False, env={"PATH": f"{exe}:/usr/bin:/bin"})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    body = project(om.restore(PRODUCERS / SWITCH[0], SWITCH[1]), "gemini").body
    assert r.stdout == (json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    assert b"\n" not in r.stdout[:-1]  # one line


def test_system_prompt_can_be_replaced() -> None:
    ctx = om.restore(PRODUCERS / SWITCH[0], SWITCH[1])
    assert project(ctx, "anthropic").body["system"] == ctx.config.system_prompt
    assert project(ctx, "anthropic", system="Be terse.").body["system"] == "Be terse."
    assert project(ctx, "openai-responses", system="Be terse.").body["instructions"] == "Be terse."
