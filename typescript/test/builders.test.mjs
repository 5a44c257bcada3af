import { test, describe } from "node:test";
import assert from "node:assert/strict";
import * as om from "../dist/index.js";

const TS = "2026-07-18T03:10:22.531Z";
const at = { timestamp: TS };
const env = (type, payload, extra = "") => `{"timestamp":"${TS}","type":"${type}","payload":${payload}${extra}}`;

/** Every builder's message is valid, decodes from its own encoding, and encodes canonically. */
function check(msg, expected) {
  assert.ok(om.isValidMessage(msg), JSON.stringify(msg));
  const text = om.encode(msg);
  assert.equal(text, expected);
  assert.equal(om.encode(om.decode(text)), text);
  // JSON.stringify writes the same keys in the same order: builders build in schema order.
  if (!JSON.stringify(msg).includes("fidelity") && !JSON.stringify(msg).includes('"output":{') && !JSON.stringify(msg).includes("parameters")) {
    assert.equal(JSON.stringify(msg), text);
  }
}

describe("builders", () => {
  test("timestamps: Date.toISOString() form, or as given", () => {
    assert.match(om.userText("hi").timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(om.userText("hi", { timestamp: new Date(Date.UTC(2026, 6, 18, 3, 10, 22, 531)) }).timestamp, TS);
    assert.match(om.now(), /Z$/);
  });

  test("complete model messages", () => {
    check(om.userText("hi", at), env("model_msg", '{"type":"text","role":"user","text":"hi","stop_reason":"completed"}'));
    check(om.userText("hi", { ...at, sender: "harness" }), env("model_msg", '{"type":"text","role":"user","text":"hi","stop_reason":"completed","sender":"harness"}'));
    check(
      om.assistantText("ok", { ...at, fidelity: '{"sig" : 1.0}' }),
      env("model_msg", '{"type":"text","role":"assistant","text":"ok","stop_reason":"completed","fidelity":{"sig" : 1.0}}'),
    );
    check(om.assistantText("ok", { ...at, fidelity: {} }), env("model_msg", '{"type":"text","role":"assistant","text":"ok","stop_reason":"completed"}'));
    check(
      om.thinking("hmm", { ...at, stopReason: "aborted", fidelity: { signature: "EqQB" } }),
      env("model_msg", '{"type":"thinking","role":"assistant","thinking":"hmm","stop_reason":"aborted","fidelity":{"signature":"EqQB"}}'),
    );
    check(om.inlineThinking("ZW5j", "application/octet-stream", at), env("model_msg", '{"type":"inline_thinking","role":"assistant","data":"ZW5j","mime_type":"application/octet-stream","stop_reason":"completed"}'));
    check(
      om.toolCall("ls", '{"path":"."}', "call_1", { ...at, fidelity: new om.RawJson('{"a":1}') }),
      env("model_msg", '{"type":"tool_call","role":"assistant","name":"ls","arguments":"{\\"path\\":\\".\\"}","tool_call_id":"call_1","stop_reason":"completed","fidelity":{"a":1}}'),
    );
    check(om.toolCallOutput("a\nb", "call_1", { ...at, images: [] }), env("model_msg", '{"type":"tool_call_output","role":"user","output":"a\\nb","tool_call_id":"call_1","stop_reason":"completed"}'));
    check(
      om.toolCallOutput("x", "c", { ...at, images: ["data:image/png;base64,AA=="], stopReason: "fatal" }),
      env("model_msg", '{"type":"tool_call_output","role":"user","output":"x","images":["data:image/png;base64,AA=="],"tool_call_id":"c","stop_reason":"fatal"}'),
    );
    check(om.imageUrl("https://e.com/a.png", at), env("model_msg", '{"type":"image_url","role":"user","image_url":"https://e.com/a.png","stop_reason":"completed"}'));
    check(om.inlineData("AA==", "image/png", { ...at, role: "assistant" }), env("model_msg", '{"type":"inline_data","role":"assistant","data":"AA==","mime_type":"image/png","stop_reason":"completed"}'));
  });

  test("streaming fragments: stop_reason only when given", () => {
    check(om.partialText("delta", "He", at), env("model_msg", '{"type":"partial_text","role":"assistant","event_type":"delta","text":"He"}'));
    check(om.partialThinking("stop", "", { ...at, stopReason: "completed" }), env("model_msg", '{"type":"partial_thinking","role":"assistant","event_type":"stop","thinking":"","stop_reason":"completed"}'));
    check(om.partialToolCall("start", "ls", "{", "c", at), env("model_msg", '{"type":"partial_tool_call","role":"assistant","event_type":"start","name":"ls","arguments":"{","tool_call_id":"c"}'));
    check(
      om.partialToolCallOutput("delta", "o", "c", { ...at, images: ["i"] }),
      env("model_msg", '{"type":"partial_tool_call_output","role":"user","event_type":"delta","output":"o","images":["i"],"tool_call_id":"c"}'),
    );
  });

  test("session_meta and events", () => {
    check(
      om.sessionMeta({ ...at, sessionId: "s", provider: "p", modelId: "m", modelContextWindow: 200000, systemPrompt: "sys", agentState: "/a", workspace: "/w", source: "cli" }),
      env("session_meta", '{"session_id":"s","provider":"p","model_id":"m","model_context_window":200000,"system_prompt":"sys","agent_state":"/a","workspace":"/w","source":"cli"}'),
    );
    check(om.requestBegin(at), env("event_msg", '{"type":"request_begin"}'));
    check(
      om.requestEnd("retryable", { ...at, errorCode: "timeout", errorMessage: "slow", attempt: 1, retryInMs: 2000 }),
      env("event_msg", '{"type":"request_end","status":"retryable","error_code":"timeout","error_message":"slow","attempt":1,"retry_in_ms":2000}'),
    );
    check(om.approvalDecision("deny", "c", at), env("event_msg", '{"type":"approval_decision","decision":"deny","tool_call_id":"c"}'));
    check(
      om.tokenUsage(om.tokenCounts({ cacheRead: 1, total: 2 }), om.tokenCounts(), at),
      env("event_msg", '{"type":"token_usage","session":{"cache_read":1,"cache_write":0,"output":0,"total":2},"request":{"cache_read":0,"cache_write":0,"output":0,"total":0}}'),
    );
    check(om.compactionBegin("context", "summarize", 180000, 42, at), env("event_msg", '{"type":"compaction_begin","reason":"context","mode":"summarize","context":180000,"turns":42}'));
    check(om.compactionEnd("manual", "discard", "completed", { ...at, attempt: 1 }), env("event_msg", '{"type":"compaction_end","reason":"manual","mode":"discard","status":"completed","attempt":1}'));
    check(om.abort("user_abort", at), env("event_msg", '{"type":"abort","error_code":"user_abort"}'));
    check(om.abort(undefined, { ...at, reason: null }), env("event_msg", '{"type":"abort","reason":null}'));
    check(om.abort(undefined, at), env("event_msg", '{"type":"abort"}'));
    check(om.subagent("session-2", at), env("event_msg", '{"type":"subagent","session_id":"session-2"}'));
    check(
      om.hook("pre_tool_use", "guard", { ...at, decision: "allow", reason: "r", output: { checked: true } }),
      env("event_msg", '{"type":"hook","hook":"pre_tool_use","name":"guard","decision":"allow","reason":"r","output":{"checked":true}}'),
    );
    check(
      om.toolListReady([om.toolDefinition("ls", "List.", '{ "type": "object" }'), om.toolDefinition("x", "y")], at),
      env("event_msg", '{"type":"tool_list_ready","tools":[{"name":"ls","description":"List.","parameters":{ "type": "object" }},{"name":"x","description":"y"}]}'),
    );
    check(om.mcpConnectBegin(["github"], at), env("event_msg", '{"type":"mcp_connect_begin","servers":["github"]}'));
    check(
      om.mcpConnectEnd("completed", [{ server: "github", transport: "http", status: "completed", duration_ms: 412, tools: 23 }], at),
      env("event_msg", '{"type":"mcp_connect_end","status":"completed","results":[{"server":"github","transport":"http","status":"completed","duration_ms":412,"tools":23}]}'),
    );
  });

  test("withOrigin prepends a hop and leaves the message alone", () => {
    const msg = om.requestBegin(at);
    const once = om.withOrigin(msg, "child");
    const twice = om.withOrigin(once, "grandparent-side");
    assert.equal(msg.origin, undefined);
    assert.deepEqual(once.origin, ["child"]);
    assert.deepEqual(twice.origin, ["grandparent-side", "child"]);
    check(twice, env("event_msg", '{"type":"request_begin"}', ',"origin":["grandparent-side","child"]'));
  });

  test("one rule for empty verbatim values (schema/README.md): left out, in any form, in every field", () => {
    for (const empty of [{}, "{}", " { } ", new om.RawJson("{\n}")]) {
      check(om.assistantText("ok", { ...at, fidelity: empty }), env("model_msg", '{"type":"text","role":"assistant","text":"ok","stop_reason":"completed"}'));
      check(om.hook("stop", "h", { ...at, output: empty }), env("event_msg", '{"type":"hook","hook":"stop","name":"h"}'));
      check(om.toolListReady([om.toolDefinition("x", "y", empty)], at), env("event_msg", '{"type":"tool_list_ready","tools":[{"name":"x","description":"y"}]}'));
    }
  });

  test("rawJson: JSON text checked, whitespace around it trimmed; plain objects stringified", () => {
    assert.equal(om.rawJson(' {"a" : 1} \n').text, '{"a" : 1}');
    assert.throws(() => om.rawJson("[1]"), TypeError);
    assert.equal(om.rawJson({ b: [1.5] }).text, '{"b":[1.5]}');
  });
});

describe("guards", () => {
  const text = om.userText("hi", at);
  const part = om.partialText("delta", "h", at);
  const ev = om.requestBegin(at);
  const meta = om.sessionMeta({ ...at, sessionId: "s", provider: "p", modelId: "m", modelContextWindow: "1M", systemPrompt: "", agentState: "", workspace: "" });
  const opaque = om.decode('{"timestamp":"t","type":"future_msg","payload":{}}', { lenient: true });
  test("discriminate every kind", () => {
    const row = (m) => [om.isModelMessage(m), om.isCompleteModelMessage(m), om.isPartialMessage(m), om.isEventMessage(m), om.isSessionMeta(m)];
    assert.deepEqual(row(text), [true, true, false, false, false]);
    assert.deepEqual(row(part), [true, false, true, false, false]);
    assert.deepEqual(row(ev), [false, false, false, true, false]);
    assert.deepEqual(row(meta), [false, false, false, false, true]);
    assert.deepEqual(row(opaque), [false, false, false, false, false]);
    assert.ok(om.isPartialPayload(part.payload) && !om.isPartialPayload(text.payload) && !om.isPartialPayload(null));
    assert.ok(om.isCompletePayload(text.payload) && !om.isCompletePayload(ev.payload));
  });
});
