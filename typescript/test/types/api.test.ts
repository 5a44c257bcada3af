// Type-level tests of the public API (checked by `npm run typecheck`, never run): narrowing,
// exhaustiveness, builders' precise return types, and what the types refuse.
import {
  RawJson,
  assistantText,
  decode,
  isCompleteModelMessage,
  isEventMessage,
  isPartialPayload,
  toolCall,
  userText,
  withOrigin,
  type CompleteModelPayload,
  type EventMessage,
  type ModelMessage,
  type OmniMessage,
  type PartialModelPayload,
  type StopReason,
  type TextPayload,
  STOP_REASON_VALUES,
  EVENT_PAYLOAD_TYPES,
} from "../../src/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(_: T): void {}

declare const msg: OmniMessage;

// Narrowing on the envelope type, then on the payload type.
if (msg.type === "model_msg") {
  if (msg.payload.type === "text") {
    const text: string = msg.payload.text;
    expectType<Equal<typeof msg.payload.role, "user" | "assistant">>(true);
    void text;
  }
  if (msg.payload.type === "thinking") {
    expectType<Equal<typeof msg.payload.role, "assistant">>(true);
  }
}

// An exhaustive switch compiles with a `never` check...
function describe(m: OmniMessage): string {
  switch (m.type) {
    case "session_meta":
      return m.payload.model_id;
    case "model_msg":
      return m.payload.type;
    case "event_msg": {
      const p = m.payload;
      switch (p.type) {
        case "tool_list_ready":
        case "mcp_connect_begin":
        case "mcp_connect_end":
        case "request_begin":
        case "request_end":
        case "approval_decision":
        case "token_usage":
        case "compaction_begin":
        case "compaction_end":
        case "abort":
        case "subagent":
        case "hook":
          return p.type;
        default: {
          const never: never = p;
          return never;
        }
      }
    }
    default: {
      const never: never = m;
      return never;
    }
  }
}
void describe;

// ...and a missing case does not.
function incomplete(p: CompleteModelPayload): string {
  switch (p.type) {
    case "text":
    case "thinking":
    case "inline_thinking":
    case "tool_call":
    case "tool_call_output":
    case "image_url":
      return p.type;
    default: {
      // @ts-expect-error inline_data is not handled
      const never: never = p;
      return never;
    }
  }
}
void incomplete;

// Guards narrow.
if (isCompleteModelMessage(msg)) expectType<Equal<typeof msg, ModelMessage<CompleteModelPayload>>>(true);
if (isEventMessage(msg)) expectType<Equal<typeof msg, EventMessage>>(true);
declare const payload: unknown;
if (isPartialPayload(payload)) expectType<Equal<typeof payload, PartialModelPayload>>(true);

// Builders return precise types; withOrigin keeps them.
expectType<Equal<ReturnType<typeof userText>, ModelMessage<TextPayload>>>(true);
const forwarded = withOrigin(assistantText("hi"), "session-1");
expectType<Equal<typeof forwarded, ModelMessage<TextPayload>>>(true);
toolCall("ls", "{}", "call_1", { fidelity: { signature: "x" } });

// decode: strict gives OmniMessage; lenient may give an OpaqueMessage.
const strict: OmniMessage = decode("{}");
void strict;
// @ts-expect-error a lenient decode may be opaque
const lenient: OmniMessage = decode("{}", { lenient: true });
void lenient;

// Enums: named unions with frozen value arrays.
const sr: readonly StopReason[] = STOP_REASON_VALUES;
void sr;
// @ts-expect-error retired value
const retired: StopReason = "failed";
void retired;
const events: readonly string[] = EVENT_PAYLOAD_TYPES;
void events;

const ts = "2026-07-18T03:10:22.531Z";
const ok: OmniMessage = { timestamp: ts, type: "model_msg", payload: { type: "text", role: "user", text: "hi", fidelity: new RawJson('{"a":1}') } };
void ok;
// @ts-expect-error unknown payload type
const bad1: OmniMessage = { timestamp: ts, type: "model_msg", payload: { type: "texts", role: "user", text: "hi" } };
// @ts-expect-error an event payload in a model message
const bad2: OmniMessage = { timestamp: ts, type: "model_msg", payload: { type: "request_begin" } };
// @ts-expect-error missing text
const bad3: OmniMessage = { timestamp: ts, type: "model_msg", payload: { type: "text", role: "user" } };
// @ts-expect-error a closed object takes no other key
const bad4: OmniMessage = { timestamp: ts, type: "model_msg", payload: { type: "text", role: "user", text: "hi", extra: 1 } };
// @ts-expect-error fidelity is a VerbatimJson, not a plain object
const bad5: OmniMessage = { timestamp: ts, type: "model_msg", payload: { type: "text", role: "user", text: "hi", fidelity: { a: 1 } } };
// @ts-expect-error origin is never empty
const bad6: OmniMessage = { timestamp: ts, type: "event_msg", payload: { type: "request_begin" }, origin: [] };
// @ts-expect-error thinking is the assistant's
const bad7: OmniMessage = { timestamp: ts, type: "model_msg", payload: { type: "thinking", role: "user", thinking: "x" } };
// @ts-expect-error session_meta payloads have no type
const bad8: OmniMessage = { timestamp: ts, type: "session_meta", payload: { type: "x", session_id: "s", provider: "p", model_id: "m", model_context_window: 1, system_prompt: "", agent_state: "", workspace: "" } };
void [bad1, bad2, bad3, bad4, bad5, bad6, bad7, bad8];

// abort.reason: null is a value.
const nullReason: OmniMessage = { timestamp: ts, type: "event_msg", payload: { type: "abort", reason: null } };
void nullReason;
