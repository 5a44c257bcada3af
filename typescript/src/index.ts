/**
 * OmniMessage for TypeScript: generated types and validation, a byte-exact strict codec
 * (verbatim values kept as their exact text), builders, guards and a stream aggregator.
 *
 * This module is the package's public surface (the entry `.` of `exports`; `./runtime` is what
 * generated code links to, `src/runtime.ts`); docs/bindings.md ("The public API") lists it. What
 * is not exported here (the decoder's node checkers and their helpers in `generated/check.ts`,
 * the scanner, `readLine`, the codec's own tables) is internal and may change in any release; the
 * command line reaches `readLine` through the package-private import `#internal` (src/internal.ts).
 *
 * @module
 */

// Generated from the schema: every type and enum (with its frozen `*_VALUES` array), the schema's
// facts, the fast validators and the canonical encoders. Not the decoder's node checkers, nor the
// codec's and the aggregator's own tables (`PAYLOAD_STRUCTS`, `FRAGMENT_OF`, `ASSEMBLY`).
export * from "./generated/types.js";
export {
  DEFAULT_MAX_LINE_BYTES, FIELD_ORDER, GENERATOR_VERSION, MAX_DEPTH, MAX_SAFE_INTEGER, MIN_SUPPORTED_LINE_BYTES, NUMBER_LOCATIONS,
  PROTOCOL_VERSION, PROTOCOL_VERSIONS, REJECTION_CATEGORIES, SCHEMA_ID, VERBATIM_LOCATIONS, type RejectionCategory, type VerbatimShape,
} from "./generated/schema.js";
export * from "./generated/validate.js";
export * from "./generated/encode.js";
export { CATEGORIES, LEXICAL_CATEGORIES, DecodeError } from "./errors.js";
export { RawJson } from "./raw.js";
export { OpaqueMessage, canonicalize, decode, encode, type DecodeOptions } from "./codec.js";
export * from "./builders.js";
export * from "./guards.js";
export { Aggregator, Segment, segmentKey, type SegmentKey } from "./aggregate.js";
export { IncompatibleSchemaError, type GeneratedCode } from "./runtime.js";
export { LineSplitter, iterMessages, iterMessagesSync, type Line, type RawLine, type ReadOptions } from "./reader.js";
export {
  fromStream, MAX_STREAM_BYTES, PROVIDERS, project, projectAnthropic, projectGemini, projectOpenAIChat, projectOpenAIResponses, REDACTED_THINKING, StreamError,
  type AnthropicBlock, type AnthropicBody, type AnthropicMessage, type ChatAssistantMessage, type ChatMessage, type GeminiBody,
  type GeminiContent, type GeminiPart, type Loss, type OpenAIChatBody, type OpenAIResponsesBody, type Projection,
  type AnthropicStreamEvent, type AnthropicUsage, type FromStreamOptions, type GeminiChunk, type GeminiStreamPart,
  type OpenAIChatChunk, type OpenAIResponsesEvent, type ProjectionInput, type ProviderStreamEvents, type Provider, type ProviderBodies, type ResponsesItem,
} from "./providers/index.js";
