/**
 * What the codec reads from generated code: the parts of one protocol version's `src/generated/`
 * (or of a user's `omnimessage generate --target typescript [--protocol V]` output) that differ
 * between versions. The package's own `decode`/`encode` read its own (the newest version's);
 * `register` binds the codec to the tables a generated folder hands over (`codec.ts`, `bindCodec`).
 *
 * @module
 */

import type { JsonNode, Problem } from "./generated/check.js";
import type { Writer } from "./generated/encode.js";
import type { Reader } from "./generated/read.js";
import type { VerbatimShape } from "./generated/schema.js";

/** One protocol version's generated decoder and encoder parts, for messages of type `M`. */
export interface CodecTables<M> {
  /** `PROTOCOL_VERSION` of `schema.ts`; absent (a schema without versions): the runtime's own. */
  readonly protocolVersion?: string;
  /** `read.ts`: the one-pass reader of a canonical line. */
  readonly readMessage: (r: Reader) => M;
  /** `check.ts`: the strict checker of a scanned line. */
  readonly checkMessage: (root: JsonNode) => Problem | null;
  /** `validate.ts`: the fast validator of a parsed line. */
  readonly isValidMessage: (value: unknown, vb: (value: unknown, shape: VerbatimShape) => boolean) => value is M;
  /** `encode.ts`: the canonical writer (against a verifier or a replay) and encoder. */
  readonly writeMessage: (w: Writer, msg: M) => void;
  readonly encodeMessage: (msg: M) => string;
  /** `schema.ts`: `VERBATIM_LOCATIONS`, `PAYLOAD_STRUCTS`, `FRAGMENT_OF`. */
  readonly verbatimLocations: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, VerbatimShape>>>;
  readonly payloadStructs: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly fragmentOf: Readonly<Record<string, readonly [string, string]>>;
}
