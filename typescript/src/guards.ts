/**
 * Runtime discrimination of messages and payloads (type guards).
 *
 * @module
 */

import { COMPLETE_MODEL_PAYLOAD_TYPES, PARTIAL_MODEL_PAYLOAD_TYPES } from "./generated/types.js";
import type {
  CompleteModelPayload,
  EventMessage,
  ModelMessage,
  OmniMessage,
  PartialModelPayload,
  SessionMetaMessage,
} from "./generated/types.js";
import type { OpaqueMessage } from "./codec.js";

const PARTIAL: ReadonlySet<unknown> = new Set(PARTIAL_MODEL_PAYLOAD_TYPES);
const COMPLETE: ReadonlySet<unknown> = new Set(COMPLETE_MODEL_PAYLOAD_TYPES);

type Any = OmniMessage | OpaqueMessage;

function typeOf(v: unknown): unknown {
  return typeof v === "object" && v !== null ? (v as { type?: unknown }).type : undefined;
}

/** A streaming fragment payload (`partial_*`): live streams only, never stored. */
export function isPartialPayload(payload: unknown): payload is PartialModelPayload {
  return PARTIAL.has(typeOf(payload));
}

/** One of the seven complete model payloads: what traces store and models see. */
export function isCompletePayload(payload: unknown): payload is CompleteModelPayload {
  return COMPLETE.has(typeOf(payload));
}

/** A `model_msg`: complete content or a streaming fragment. */
export function isModelMessage(msg: Any): msg is ModelMessage {
  return typeOf(msg) === "model_msg";
}

/** A `model_msg` carrying a streaming fragment. */
export function isPartialMessage(msg: Any): msg is ModelMessage<PartialModelPayload> {
  return isModelMessage(msg) && isPartialPayload(msg.payload);
}

/** A complete `model_msg`: what traces store and models see. */
export function isCompleteModelMessage(msg: Any): msg is ModelMessage<CompleteModelPayload> {
  return isModelMessage(msg) && isCompletePayload(msg.payload);
}

/** An `event_msg`. */
export function isEventMessage(msg: Any): msg is EventMessage {
  return typeOf(msg) === "event_msg";
}

/** A `session_meta` record. */
export function isSessionMeta(msg: Any): msg is SessionMetaMessage {
  return typeOf(msg) === "session_meta";
}
