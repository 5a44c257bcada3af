/**
 * OmniMessage for TypeScript: generated types and validation, a byte-exact strict codec
 * (verbatim values kept as their exact text), builders, guards and a stream aggregator.
 *
 * @module
 */

export * from "./generated/index.js";
export { CATEGORIES, LEXICAL_CATEGORIES, DecodeError } from "./errors.js";
export { RawJson } from "./raw.js";
export { OpaqueMessage, canonicalize, decode, encode, type DecodeOptions } from "./codec.js";
export * from "./builders.js";
export * from "./guards.js";
export { Aggregator, Segment, segmentKey, type SegmentKey } from "./aggregate.js";
export { LineSplitter, iterMessages, iterMessagesSync, readLine, type Line, type RawLine, type ReadOptions } from "./reader.js";
