/**
 * `omnimessage/produce`: one session's stream, trace and SSE channel from the same messages
 * (Node.js only: it writes files and serves HTTP). docs/producing.md walks through a producer.
 *
 * @module
 */

export { Session, StreamDisciplineError, type SessionOptions } from "./session.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_EVENTS, HEARTBEAT_MS, MAX_SEQ, SseChannel, frame, parseSeq, type SseChannelOptions, type SseEvent, type SseListener } from "./sse.js";
export { Backlog, WRITE_CHUNK, requestPath, sseHandler, type SseHandlerOptions } from "./sse-http.js";
export { TraceRefused, TraceWriter, latestTraceFile, traceRefusal, type TraceWriterOptions } from "./trace-writer.js";
export { SESSION_ID_PATTERN, TRACE_FILE_PATTERN, localDate, newSessionId, sessionDate, traceFileName, tracePath } from "./ids.js";
