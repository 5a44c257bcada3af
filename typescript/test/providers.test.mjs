// Provider projections (issue 37): a context as Anthropic Messages and OpenAI Chat Completions
// request bodies, with a loss report. The expected bodies follow the reference's gateway
// (PenguinHarness packages/core/src/llm/generative-model.ts; Prism-Shadow/AgentHub
// src_ts/src/claude4_6/client.ts and kimi_k2_5/client.ts), written out by hand here.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as om from "omnimessage";
import { restore } from "omnimessage/restore";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ts = { timestamp: "2026-09-14T00:00:00.000Z" };
const ctx = (...messages) => ({ config: { system_prompt: "Be brief." }, messages: messages.map((message) => ({ message })) });
const PNG = "data:image/png;base64,iVBORw0KGgo=";

// one of every kind, with runs of one role
const MESSAGES = [
  om.userText("hi", ts),                                                                   // 0
  om.imageUrl(PNG, ts),                                                                         // 1
  om.thinking("hmm", { ...ts, fidelity: { signature: "sig+/=" } }),                            // 2
  om.thinking("plain", ts),                                                                     // 3
  om.assistantText("calling", { ...ts, fidelity: { phase: "commentary" } }),               // 4
  om.toolCall("f", '{"a":[1,2]}', "call_1#2", ts),                                              // 5
  om.toolCallOutput("out", "call_1#2", { ...ts, images: [PNG] }),                               // 6
  om.userText("next", ts),                                                                  // 7
  om.thinking("why", { ...ts, fidelity: { reasoning_field: "reasoning_content" } }),           // 8
  om.inlineThinking("AAAA", "application/octet-stream", ts),                                    // 9
];

describe("project", () => {
  test("anthropic: grouped runs, signed thinking, tool_use with parsed input and the suffix stripped", () => {
    const { body, losses } = om.project(ctx(...MESSAGES), "anthropic");
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
    assert.deepEqual(body, {
      system: "Be brief.",
      messages: [
        { role: "user", content: [{ type: "text", text: "hi" }, image] },
        { role: "assistant", content: [
          { type: "thinking", thinking: "hmm", signature: "sig+/=" },
          { type: "text", text: "calling" },
          { type: "tool_use", id: "call_1", name: "f", input: { a: [1, 2] } },
        ] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: [{ type: "text", text: "out" }, image] }, { type: "text", text: "next" }] },
      ],
    });
    assert.deepEqual(losses, [
      { message: 3, pointer: "/payload/thinking", reason: "thinking-signature-missing" },
      { message: 4, pointer: "/payload/fidelity/phase", reason: "fidelity-not-carried" },
      { message: 8, pointer: "/payload/fidelity/reasoning_field", reason: "fidelity-not-carried" },
      { message: 8, pointer: "/payload/thinking", reason: "thinking-signature-missing" },
      { message: 9, pointer: "", reason: "inline-thinking-not-supported" },
    ]);
  });

  test("anthropic: the redacted sentinel is a redacted_thinking block", () => {
    const { body } = om.project(ctx(om.thinking(om.REDACTED_THINKING, { ...ts, fidelity: { signature: "opaque" } })), "anthropic");
    assert.deepEqual(body.messages, [{ role: "assistant", content: [{ type: "redacted_thinking", data: "opaque" }] }]);
  });

  test("openai-chat: system first, tool messages in place, reasoning only where fidelity names its field", () => {
    const { body, losses } = om.project(ctx(...MESSAGES), "openai-chat");
    assert.deepEqual(body, {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "hi" }, { type: "image_url", image_url: { url: PNG } }] },
        { role: "assistant", content: [{ type: "text", text: "calling" }], tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: '{"a":[1,2]}' } }] },
        { role: "tool", tool_call_id: "call_1", content: "out" },
        { role: "user", content: [{ type: "image_url", image_url: { url: PNG } }, { type: "text", text: "next" }] },
        { role: "assistant", reasoning_content: "why" },
      ],
    });
    assert.deepEqual(losses, [
      { message: 2, pointer: "/payload/fidelity/signature", reason: "fidelity-not-carried" },
      { message: 2, pointer: "/payload/thinking", reason: "thinking-not-supported" },
      { message: 3, pointer: "/payload/thinking", reason: "thinking-not-supported" },
      { message: 4, pointer: "/payload/fidelity/phase", reason: "fidelity-not-carried" },
      { message: 9, pointer: "", reason: "inline-thinking-not-supported" },
    ]);
  });

  test("openai-responses: reasoning items with encrypted content, phases, function calls in context order", () => {
    const reasoning = om.thinking("", { ...ts, fidelity: { id: "rs_1", encrypted_content: "gAAA==" } });
    const final = om.assistantText("done", { ...ts, fidelity: { phase: "final_answer", extra: 1 } });
    const { body, losses } = om.project(ctx(...MESSAGES.slice(0, 8), reasoning, final), "openai-responses");
    const img = { type: "input_image", image_url: PNG, detail: "auto" };
    assert.deepEqual(body, {
      instructions: "Be brief.",
      input: [
        { role: "user", content: [{ type: "input_text", text: "hi" }, img] },
        { role: "assistant", content: "calling", phase: "commentary" },
        { type: "function_call", call_id: "call_1", name: "f", arguments: '{"a":[1,2]}' },
        { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "out" }, img] },
        { role: "user", content: [{ type: "input_text", text: "next" }] },
        { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAA==" },
        { role: "assistant", content: "done", phase: "final_answer" },
      ],
    });
    assert.deepEqual(losses, [
      { message: 2, pointer: "/payload/fidelity/signature", reason: "fidelity-not-carried" },
      { message: 2, pointer: "/payload/thinking", reason: "reasoning-id-missing" },
      { message: 3, pointer: "/payload/thinking", reason: "reasoning-id-missing" },
      { message: 9, pointer: "/payload/fidelity/extra", reason: "fidelity-not-carried" },
    ]);
  });

  test("gemini: user and model contents, thought signatures, function responses named by the stripped id", () => {
    const { body, losses } = om.project(ctx(...MESSAGES), "gemini");
    const blob = { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } };
    assert.deepEqual(body, {
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "hi" }, blob] },
        { role: "model", parts: [
          { text: "hmm", thought: true, thoughtSignature: "sig+/=" },
          { text: "plain", thought: true },
          { text: "calling" },
          { functionCall: { name: "f", args: { a: [1, 2] } } },
        ] },
        { role: "user", parts: [{ functionResponse: { name: "call_1", response: { result: "out" }, parts: [blob] } }, { text: "next" }] },
        { role: "model", parts: [{ text: "why", thought: true }] },
      ],
    });
    assert.deepEqual(losses, [
      { message: 4, pointer: "/payload/fidelity/phase", reason: "fidelity-not-carried" },
      { message: 8, pointer: "/payload/fidelity/reasoning_field", reason: "fidelity-not-carried" },
      { message: 9, pointer: "", reason: "inline-thinking-not-supported" },
    ]);
  });

  test("an opaque message (a newer protocol version) is a loss, never dropped silently", () => {
    const opaque = om.decode('{"timestamp":"t","type":"model_msg","payload":{"type":"hologram","role":"user"}}', { lenient: true });
    for (const p of om.PROVIDERS) assert.deepEqual(om.project(ctx(opaque), p).losses, [{ message: 0, pointer: "", reason: "opaque-message" }]);
  });

  test("a signature from a trace reaches the body byte for byte", () => {
    const root = new URL("../../conformance/producers/newest-model-switch", import.meta.url).pathname;
    const restored = restore(root, "session-2026-10-12-11-30-02-9c41d7e0");
    const { body, losses } = om.project(restored, "anthropic");
    assert.deepEqual(losses, []);
    assert.deepEqual(body.messages.map((m) => m.role), ["user", "assistant"]);
    assert.equal(body.system, restored.config.system_prompt);
  });
});

describe("omnimessage-ts restore --to", () => {
  const BIN = new URL("../bin/omnimessage.mjs", import.meta.url).pathname;
  const run = (...args) => spawnSync(process.execPath, [BIN, "restore", ...args], { encoding: "utf8" });

  test("prints the body on one line and each loss on stderr", () => {
    const root = mkdtempSync(join(tmpdir(), "om-project-"));
    const src = new URL("../../conformance/producers/tools-approvals.trace.jsonl", import.meta.url).pathname;
    const sid = JSON.parse(readFileSync(src, "utf8").split("\n", 1)[0]).payload.session_id;
    mkdirSync(join(root, "2026-09-14"));
    copyFileSync(src, join(root, "2026-09-14", `${sid}_001.jsonl`));
    for (const p of om.PROVIDERS) {
      const r = run(root, sid, "--to", p);
      const { body, losses } = om.project(restore(root, sid), p);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, `${JSON.stringify(body)}\n`);
      assert.equal(r.stderr, losses.map((l) => `loss: message ${l.message} ${l.pointer}: ${l.reason}\n`).join(""));
      assert.equal(losses.length === 0, p === "openai-responses", p); // a GPT-5 trace: only Responses carries all of it
    }
  });

  test("a loss pointer quoting input is one harmless, clipped line", () => {
    const root = mkdtempSync(join(tmpdir(), "om-project-"));
    const sid = "session-2026-09-14-00-00-00-00000000";
    const meta = om.sessionMeta({ sessionId: sid, provider: "p", modelId: "m", modelContextWindow: 1, systemPrompt: "", agentState: "/a", workspace: "/w", ...ts });
    const evil = `\u001b]0;x\u0007${"k".repeat(5000)}`;
    const lines = [meta, om.userText("hi", ts), om.requestBegin(ts), om.assistantText("a", { ...ts, fidelity: { [evil]: 1 } }), om.requestEnd("completed", ts)];
    mkdirSync(join(root, "2026-09-14"));
    writeFileSync(join(root, "2026-09-14", `${sid}_001.jsonl`), lines.map((m) => `${om.encode(m)}\n`).join(""));
    const r = run(root, sid, "--to", "anthropic");
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.split("\n").length, 2);
    assert.ok(!/[\u0000-\u0009\u000b-\u001f]/.test(r.stderr) && r.stderr.length < 400, r.stderr.slice(0, 300));
    assert.match(r.stderr, /^loss: message 1 \/payload\/fidelity\/\\x1b\]0;x\\x07k+\.\.\.\(\d+ characters\)\.\.\.k+: fidelity-not-carried\n$/);
  });

  test("an unknown provider, or --to without one, is a usage error", () => {
    for (const args of [["r", "s", "--to", "gemini-9"], ["r", "s", "--to"]]) {
      const r = run(...args);
      assert.equal(r.status, 2);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /restore: error: argument --to: /);
    }
  });
});
