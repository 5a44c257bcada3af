/**
 * `omnimessage/consume`: read an OmniMessage SSE stream ({@link subscribe}) and keep the live state
 * a UI draws ({@link RenderModel}). Node.js 20+ and browsers: `fetch` streaming, no dependency, no
 * Node.js module. docs/consuming.md walks through both.
 *
 * @module
 */

export { ConsumeConnectionError, ConsumeDecodeError, ConsumeResponseError, subscribe, type ConsumeEvent, type ReconnectOptions, type ReconnectReason, type SubscribeOptions } from "./subscribe.js";
export { DEFAULT_MAX_EVENT_BYTES, LINE_OVERHEAD_BYTES, SseLimitError, SseParser, type SseMessage, type SseParserOptions, type SseRecord } from "./sse-parser.js";
export { RenderLimitError, RenderModel, utf8Length, type Card, type CardItem, type CardSnapshot, type LiveSegment, type RenderModelOptions } from "./render-model.js";
