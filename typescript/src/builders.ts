/**
 * Builders: messages as the reference producer builds them (the Python binding's builders,
 * in camelCase). Complete model messages carry `stop_reason: "completed"` unless told
 * otherwise; every other optional key is left out unless given. Timestamps default to now, in
 * `Date.toISOString()` form (`2026-07-18T03:10:22.531Z`). Objects are built in canonical key
 * order, so even `JSON.stringify` of a built message writes the keys in schema order.
 *
 * @module
 */

import type * as t from "./generated/types.js";
import { RawJson } from "./raw.js";

/** A verbatim value as builders take it: a RawJson (kept as is), JSON text, or a plain object. */
export type JsonObjectInput = t.VerbatimJson | string | { readonly [key: string]: unknown };

/** When a message was produced: an ISO string as written, or a Date. */
export type TimestampInput = string | Date;

/** The options every builder takes. */
export interface Stamp {
  timestamp?: TimestampInput;
}

/** The current time as `Date.toISOString()` writes it (UTC, milliseconds, `Z`). */
export function now(): string {
  return new Date().toISOString();
}

function stamp(ts: TimestampInput | undefined): string {
  if (ts === undefined) return now();
  return typeof ts === "string" ? ts : ts.toISOString();
}

/**
 * A verbatim JSON object: a RawJson or any `VerbatimJson` as is, JSON text (checked, kept byte
 * for byte, surrounding whitespace trimmed), or a plain object (written as `JSON.stringify`
 * writes it).
 */
export function rawJson(value: JsonObjectInput): t.VerbatimJson<{ [key: string]: unknown }> {
  if (typeof value === "string") return new RawJson(value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, ""));
  if (typeof value === "object" && value !== null && typeof (value as t.VerbatimJson).text === "string" && typeof (value as t.VerbatimJson).parse === "function") {
    return value as t.VerbatimJson<{ [key: string]: unknown }>;
  }
  return RawJson.from(value as { [key: string]: unknown });
}

/** A verbatim value, or undefined when absent or an empty plain object (the reference builders omit it then). */
function verbatim(value: JsonObjectInput | undefined): t.Fidelity | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "object" && value !== null && !("text" in value && "parse" in value) && Object.keys(value).length === 0) return undefined;
  return rawJson(value);
}

/** Copy `fields` without the keys whose value is undefined (absent stays absent). */
function defined<T extends object>(fields: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** Wrap a model payload in its envelope. */
export function model<P extends t.ModelPayload>(payload: P, opts: Stamp = {}): t.ModelMessage<P> {
  return { timestamp: stamp(opts.timestamp), type: "model_msg", payload };
}

/** Wrap an event payload in its envelope. */
export function event<P extends t.EventPayload>(payload: P, opts: Stamp = {}): t.EventMessage<P> {
  return { timestamp: stamp(opts.timestamp), type: "event_msg", payload };
}

/** The message forwarded one hop up: `sessionId` prepended to its `origin` chain (a new object). */
export function withOrigin<M extends t.OmniMessage>(msg: M, sessionId: t.SessionId): M {
  return { ...msg, origin: [sessionId, ...(msg.origin ?? [])] };
}

// --- session_meta ----------------------------------------------------------------

/** The fields of {@link sessionMeta}. */
export interface SessionMetaInput extends Stamp {
  sessionId: t.SessionId;
  provider: string;
  modelId: string;
  modelContextWindow: number | string;
  systemPrompt: string;
  agentState: string;
  workspace: string;
  source?: t.SessionSource;
}

/** The configuration record that opens every trace file. */
export function sessionMeta(input: SessionMetaInput): t.SessionMetaMessage {
  const payload: t.SessionMetaPayload = defined({
    session_id: input.sessionId,
    provider: input.provider,
    model_id: input.modelId,
    model_context_window: input.modelContextWindow,
    system_prompt: input.systemPrompt,
    agent_state: input.agentState,
    workspace: input.workspace,
    source: input.source,
  });
  return { timestamp: stamp(input.timestamp), type: "session_meta", payload };
}

// --- complete model messages -------------------------------------------------------

/** Options of complete model messages. */
export interface CompleteOptions extends Stamp {
  /** How the record ended (default `completed`). */
  stopReason?: t.StopReason;
}

/** Options of complete model messages that may carry `fidelity`. */
export interface FidelityOptions extends CompleteOptions {
  /** Opaque provider data, kept verbatim; an empty plain object is left out. */
  fidelity?: JsonObjectInput;
}

/** User input; `sender` names who wrote it when it was not the human. */
export function userText(text: string, opts: Stamp & { sender?: t.Sender } = {}): t.ModelMessage<t.TextPayload> {
  return model(defined<t.TextPayload>({ type: "text", role: "user", text, stop_reason: "completed", sender: opts.sender }), opts);
}

/** Assistant text. */
export function assistantText(text: string, opts: FidelityOptions = {}): t.ModelMessage<t.TextPayload> {
  return model(
    defined<t.TextPayload>({ type: "text", role: "assistant", text, stop_reason: opts.stopReason ?? "completed", fidelity: verbatim(opts.fidelity) }),
    opts,
  );
}

/** A thinking block. */
export function thinking(text: string, opts: FidelityOptions = {}): t.ModelMessage<t.ThinkingPayload> {
  return model(
    defined<t.ThinkingPayload>({ type: "thinking", role: "assistant", thinking: text, stop_reason: opts.stopReason ?? "completed", fidelity: verbatim(opts.fidelity) }),
    opts,
  );
}

/** A thinking block the provider returned as opaque bytes (`data`: base64). */
export function inlineThinking(data: string, mimeType: string, opts: FidelityOptions = {}): t.ModelMessage<t.InlineThinkingPayload> {
  return model(
    defined<t.InlineThinkingPayload>({
      type: "inline_thinking",
      role: "assistant",
      data,
      mime_type: mimeType,
      stop_reason: opts.stopReason ?? "completed",
      fidelity: verbatim(opts.fidelity),
    }),
    opts,
  );
}

/** A tool call; `args` is the JSON text the model wrote, kept as a string. */
export function toolCall(name: string, args: string, toolCallId: string, opts: FidelityOptions = {}): t.ModelMessage<t.ToolCallPayload> {
  return model(
    defined<t.ToolCallPayload>({
      type: "tool_call",
      role: "assistant",
      name,
      arguments: args,
      tool_call_id: toolCallId,
      stop_reason: opts.stopReason ?? "completed",
      fidelity: verbatim(opts.fidelity),
    }),
    opts,
  );
}

/** A tool's result; `images` (data URLs) is left out when empty. */
export function toolCallOutput(
  output: string,
  toolCallId: string,
  opts: CompleteOptions & { images?: readonly string[] } = {},
): t.ModelMessage<t.ToolCallOutputPayload> {
  return model(
    defined<t.ToolCallOutputPayload>({
      type: "tool_call_output",
      role: "user",
      output,
      images: opts.images && opts.images.length ? [...opts.images] : undefined,
      tool_call_id: toolCallId,
      stop_reason: opts.stopReason ?? "completed",
    }),
    opts,
  );
}

/** An image given to the model by URL (a web URL or a `data:` URL). */
export function imageUrl(url: string, opts: CompleteOptions = {}): t.ModelMessage<t.ImageUrlPayload> {
  return model({ type: "image_url", role: "user", image_url: url, stop_reason: opts.stopReason ?? "completed" }, opts);
}

/** Binary content carried inline (`data`: base64); the user's unless `role` says otherwise. */
export function inlineData(data: string, mimeType: string, opts: FidelityOptions & { role?: t.Role } = {}): t.ModelMessage<t.InlineDataPayload> {
  return model(
    defined<t.InlineDataPayload>({
      type: "inline_data",
      role: opts.role ?? "user",
      data,
      mime_type: mimeType,
      stop_reason: opts.stopReason ?? "completed",
      fidelity: verbatim(opts.fidelity),
    }),
    opts,
  );
}

// --- streaming fragments --------------------------------------------------------------

/** Options of streaming fragments (`stop_reason` only when given). */
export interface PartialOptions extends Stamp {
  stopReason?: t.StopReason;
}

/** A fragment of assistant text. */
export function partialText(eventType: t.StreamEventType, text: string, opts: PartialOptions = {}): t.ModelMessage<t.PartialTextPayload> {
  return model(defined<t.PartialTextPayload>({ type: "partial_text", role: "assistant", event_type: eventType, text, stop_reason: opts.stopReason }), opts);
}

/** A fragment of a thinking block. */
export function partialThinking(eventType: t.StreamEventType, text: string, opts: PartialOptions = {}): t.ModelMessage<t.PartialThinkingPayload> {
  return model(
    defined<t.PartialThinkingPayload>({ type: "partial_thinking", role: "assistant", event_type: eventType, thinking: text, stop_reason: opts.stopReason }),
    opts,
  );
}

/** A fragment of a tool call (`args`: this piece of the arguments JSON text). */
export function partialToolCall(
  eventType: t.StreamEventType,
  name: string,
  args: string,
  toolCallId: string,
  opts: PartialOptions = {},
): t.ModelMessage<t.PartialToolCallPayload> {
  return model(
    defined<t.PartialToolCallPayload>({
      type: "partial_tool_call",
      role: "assistant",
      event_type: eventType,
      name,
      arguments: args,
      tool_call_id: toolCallId,
      stop_reason: opts.stopReason,
    }),
    opts,
  );
}

/** A fragment of a tool's output; `images` (the whole set, not incremental) is left out when empty. */
export function partialToolCallOutput(
  eventType: t.StreamEventType,
  output: string,
  toolCallId: string,
  opts: PartialOptions & { images?: readonly string[] } = {},
): t.ModelMessage<t.PartialToolCallOutputPayload> {
  return model(
    defined<t.PartialToolCallOutputPayload>({
      type: "partial_tool_call_output",
      role: "user",
      event_type: eventType,
      output,
      images: opts.images && opts.images.length ? [...opts.images] : undefined,
      tool_call_id: toolCallId,
      stop_reason: opts.stopReason,
    }),
    opts,
  );
}

// --- events ----------------------------------------------------------------------------

/** The session's tool definitions as sent to the model. */
export function toolListReady(tools: readonly t.ToolDefinition[], opts: Stamp = {}): t.EventMessage<t.ToolListReadyPayload> {
  return event({ type: "tool_list_ready", tools: [...tools] }, opts);
}

/** A tool definition; `parameters` (a JSON Schema object) is kept verbatim. */
export function toolDefinition(name: string, description: string, parameters?: JsonObjectInput): t.ToolDefinition {
  return defined<t.ToolDefinition>({ name, description, parameters: parameters === undefined ? undefined : rawJson(parameters) });
}

/** The MCP connect phase begins. */
export function mcpConnectBegin(servers: readonly string[], opts: Stamp = {}): t.EventMessage<t.McpConnectBeginPayload> {
  return event({ type: "mcp_connect_begin", servers: [...servers] }, opts);
}

/** Options of events reporting a failure. */
export interface ErrorOptions extends Stamp {
  errorCode?: t.ErrorCode;
  errorMessage?: string;
}

/** The MCP connect phase ended. */
export function mcpConnectEnd(
  status: t.StopReason,
  results: readonly t.McpServerResult[],
  opts: ErrorOptions = {},
): t.EventMessage<t.McpConnectEndPayload> {
  return event(
    defined<t.McpConnectEndPayload>({ type: "mcp_connect_end", status, results: [...results], error_code: opts.errorCode, error_message: opts.errorMessage }),
    opts,
  );
}

/** A model request begins. */
export function requestBegin(opts: Stamp = {}): t.EventMessage<t.RequestBeginPayload> {
  return event({ type: "request_begin" }, opts);
}

/** A model request ended (`retryInMs` only when the engine will retry). */
export function requestEnd(
  status: t.StopReason,
  opts: ErrorOptions & { attempt?: number; retryInMs?: number } = {},
): t.EventMessage<t.RequestEndPayload> {
  return event(
    defined<t.RequestEndPayload>({
      type: "request_end",
      status,
      error_code: opts.errorCode,
      error_message: opts.errorMessage,
      attempt: opts.attempt,
      retry_in_ms: opts.retryInMs,
    }),
    opts,
  );
}

/** The approval decision for a tool call. */
export function approvalDecision(decision: t.ApprovalDecision, toolCallId: string, opts: Stamp = {}): t.EventMessage<t.ApprovalDecisionPayload> {
  return event({ type: "approval_decision", decision, tool_call_id: toolCallId }, opts);
}

/** Token counts (each 0 unless given). */
export function tokenCounts(counts: { cacheRead?: number; cacheWrite?: number; output?: number; total?: number } = {}): t.TokenCounts {
  return { cache_read: counts.cacheRead ?? 0, cache_write: counts.cacheWrite ?? 0, output: counts.output ?? 0, total: counts.total ?? 0 };
}

/** Token usage of the session and of the latest request. */
export function tokenUsage(session: t.TokenCounts, request: t.TokenCounts, opts: Stamp = {}): t.EventMessage<t.TokenUsagePayload> {
  return event({ type: "token_usage", session, request }, opts);
}

/** A context compaction begins. */
export function compactionBegin(
  reason: t.CompactionReason,
  mode: t.CompactionMode,
  context: number,
  turns: number,
  opts: Stamp = {},
): t.EventMessage<t.CompactionBeginPayload> {
  return event({ type: "compaction_begin", reason, mode, context, turns }, opts);
}

/** A context compaction ended. */
export function compactionEnd(
  reason: t.CompactionReason,
  mode: t.CompactionMode,
  status: t.StopReason,
  opts: ErrorOptions & { attempt?: number } = {},
): t.EventMessage<t.CompactionEndPayload> {
  return event(
    defined<t.CompactionEndPayload>({
      type: "compaction_end",
      reason,
      mode,
      status,
      attempt: opts.attempt,
      error_code: opts.errorCode,
      error_message: opts.errorMessage,
    }),
    opts,
  );
}

/**
 * The user interrupted the run. `reason: null` writes the legacy `"reason":null` (present and
 * null, distinct from absent).
 */
export function abort(
  errorCode?: t.AbortErrorCode,
  opts: Stamp & { errorMessage?: string; reason?: string | null } = {},
): t.EventMessage<t.AbortPayload> {
  const payload: t.AbortPayload = defined<t.AbortPayload>({ type: "abort", error_code: errorCode, error_message: opts.errorMessage });
  if (opts.reason !== undefined) payload.reason = opts.reason;
  return event(payload, opts);
}

/** A pointer to a direct child session. */
export function subagent(sessionId: t.SessionId, opts: Stamp = {}): t.EventMessage<t.SubagentPayload> {
  return event({ type: "subagent", session_id: sessionId }, opts);
}

/** A hook's answer; `output` (string/number/boolean members) is kept verbatim. */
export function hook(
  hookPoint: t.HookPoint,
  name: string,
  opts: Stamp & { decision?: t.HookDecision; reason?: string; output?: JsonObjectInput } = {},
): t.EventMessage<t.HookPayload> {
  return event(
    defined<t.HookPayload>({
      type: "hook",
      hook: hookPoint,
      name,
      decision: opts.decision,
      reason: opts.reason,
      output: opts.output === undefined ? undefined : (rawJson(opts.output) as t.HookPayload["output"]),
    }),
    opts,
  );
}
