/**
 * Runtime discrimination of messages and payloads (type guards), generated from the schema's
 * `x-omnimessage-guard` (`generated/guards.ts`; the same guards in Python).
 *
 * @module
 */

export * from "./generated/guards.js";
