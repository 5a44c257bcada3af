export * from "./generated/index.js";
export { CATEGORIES, LEXICAL_CATEGORIES, DecodeError } from "./errors.js";
export { RawJson } from "./raw.js";
export { OpaqueMessage, canonicalize, decode, encode, type DecodeOptions } from "./codec.js";
