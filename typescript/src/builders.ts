/**
 * Builders: messages as the reference producer builds them (the Python binding's builders, in
 * camelCase). The builders are generated from the schema's `x-omnimessage-builders`
 * (`generated/builders.ts`): complete model messages carry `stop_reason: "completed"` unless told
 * otherwise, every other optional key is left out unless given, and a verbatim value given
 * empty (`{}`) is left out. Timestamps default to now, in `Date.toISOString()` form. Objects are
 * built in canonical key order, so even `JSON.stringify` of a built message writes the keys in
 * schema order. Written here by hand: the envelope wrappers, `withOrigin` and the option types.
 *
 * @module
 */

import type * as t from "./generated/types.js";
import { stamp, type JsonObjectInput, type Stamp } from "./builder-support.js";

export * from "./generated/builders.js";
export { now, rawJson, type JsonObjectInput, type Stamp, type TimestampInput } from "./builder-support.js";

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

/** Options of complete model messages. */
export interface CompleteOptions extends Stamp {
  /** How the record ended (default `completed`). */
  stopReason?: t.StopReason;
}

/** Options of complete model messages that may carry `fidelity`. */
export interface FidelityOptions extends CompleteOptions {
  /** Opaque provider data, kept verbatim; an empty value (`{}`) is left out. */
  fidelity?: JsonObjectInput;
}

/** Options of streaming fragments (`stop_reason` only when given). */
export interface PartialOptions extends Stamp {
  stopReason?: t.StopReason;
}

/** Options of events reporting a failure. */
export interface ErrorOptions extends Stamp {
  errorCode?: t.ErrorCode;
  errorMessage?: string;
}
