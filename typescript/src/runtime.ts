/**
 * The package's entry for generated code, `omnimessage/runtime` (package.json `exports`): what
 * the `runtime.ts` that `omnimessage generate --target typescript` writes links to. Not meant for
 * direct use; its contract with generated code is `register` and the helpers it hands back.
 *
 * `register` is the one check between generated code and this runtime: generated code calls it
 * when it loads (the package's own `src/generated/` included) and gets the builders' helpers back,
 * or an {@link IncompatibleSchemaError} that names both sides and what to do. Compatible means:
 * - the schema: the same `urn:omnimessage:schema:` major version, and a minor.patch no newer than
 *   this runtime's (the runtime decodes everything the generated types can describe);
 * - the generator: a version this runtime's satisfies as a caret range (`^0.1.0`: 0.1.x from
 *   0.1.0 on; `^1.2.0`: 1.x from 1.2.0 on), so every helper the generated code calls exists;
 * - the protocol version (docs/bindings.md, "Versions"): one this runtime's schema lists
 *   (`PROTOCOL_VERSIONS`, `x-omnimessage-versions`), and the one its schema id states
 *   (`...:protocol-V` for an older version, `omnimessage generate --protocol V`); any other is
 *   refused, naming the versions this runtime knows. Code that hands over its tables (`tables`,
 *   what this release's generator writes) gets the codec bound to them: its own version, decoded
 *   strictly and written back byte for byte.
 *
 * @module
 */

import { defined, nonEmpty, stamp, verbatim } from "./builder-support.js";
import type { CodecTables } from "./codec-tables.js";
import { bindCodec, type Codec } from "./codec.js";
import { GENERATOR_VERSION, PROTOCOL_VERSION, PROTOCOL_VERSIONS, SCHEMA_ID } from "./generated/schema.js";

export type { JsonObjectInput, Stamp } from "./builder-support.js";
export type { CodecTables } from "./codec-tables.js";
export type { Codec, DecodeOptions, OpaqueMessage } from "./codec.js";

/** What generated code says about itself when it registers (its `schema.ts` constants). */
export interface GeneratedCode {
  /** The `$id` of the schema it was generated from (`SCHEMA_ID`). */
  readonly schemaId: string;
  /** The version of the generator that wrote it (`GENERATOR_VERSION`). */
  readonly generatorVersion: string;
  /** The protocol version it speaks (`PROTOCOL_VERSION`); absent: the one its schema id states. */
  readonly protocolVersion?: string;
}

/** Generated code that hands its decoder and encoder parts over, to get the codec bound to them. */
export interface GeneratedCodec<M> extends GeneratedCode {
  readonly tables: CodecTables<M>;
}

/** The helpers generated builders call, handed over by {@link register}. */
export interface Runtime {
  readonly defined: typeof defined;
  readonly nonEmpty: typeof nonEmpty;
  readonly stamp: typeof stamp;
  readonly verbatim: typeof verbatim;
}

/** Generated code this runtime does not implement: thrown by {@link register}, naming both sides. */
export class IncompatibleSchemaError extends Error {
  override readonly name = "IncompatibleSchemaError";
  constructor(
    message: string,
    /** What the generated code said about itself. */
    readonly generated: GeneratedCode,
  ) {
    super(message);
  }
}

const SCHEMA_PREFIX = "urn:omnimessage:schema:";
/** A schema id of one protocol version (`omnimessage schema --protocol V`): the id, `:protocol-`, the version. */
const PROTOCOL_SUFFIX = /^(.{1,200}):protocol-([A-Za-z0-9._-]{1,40})$/;
const HELPERS: Runtime = Object.freeze({ defined, nonEmpty, stamp, verbatim });

function semver(v: unknown): [number, number, number] | null {
  const m = typeof v === "string" ? /^(\d{1,9})\.(\d{1,9})\.(\d{1,9})$/.exec(v) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function newer(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** A value quoted in a message: at most 80 characters of JSON (it comes from generated files). */
function quote(v: unknown): string {
  const s = JSON.stringify(typeof v === "string" ? v : String(v));
  return s.length > 80 ? s.slice(0, 79) + '…"' : s;
}

/** Why `code` does not fit this runtime, or null when it does. */
export function incompatibility(code: GeneratedCode): string | null {
  const ours = semver(SCHEMA_ID.slice(SCHEMA_PREFIX.length))!;
  const id = code?.schemaId;
  const pinned = typeof id === "string" ? PROTOCOL_SUFFIX.exec(id) : null;
  const stated = pinned?.[2] ?? PROTOCOL_VERSION;
  const version = code?.protocolVersion ?? stated;
  if (version !== stated) return `it states protocol ${quote(version)}, and its schema id protocol ${quote(stated)}`;
  const tables = (code as Partial<GeneratedCodec<unknown>>).tables;
  if (tables !== undefined && (tables?.protocolVersion ?? stated) !== version) {
    return `its codec tables are of protocol ${quote(tables?.protocolVersion)}, and it states protocol ${quote(version)}`;
  }
  if (!PROTOCOL_VERSIONS.includes(version)) {
    return `this runtime knows no protocol ${quote(version)} (it knows ${PROTOCOL_VERSIONS.join(", ")})`;
  }
  if (version !== PROTOCOL_VERSION && tables === undefined) {
    return (
      `it was generated for protocol ${quote(version)} without its codec tables, and this package's own codec ` +
      `decodes protocol ${PROTOCOL_VERSION} (regenerate it with this release to get the codec of ${quote(version)})`
    );
  }
  const bare = pinned !== null ? pinned[1] : id;
  const theirs =
    typeof bare === "string" && bare.startsWith(SCHEMA_PREFIX) ? semver(bare.slice(SCHEMA_PREFIX.length)) : null;
  if (theirs === null) return `its schema id ${quote(id)} is not ${SCHEMA_PREFIX}MAJOR.MINOR.PATCH`;
  if (theirs[0] !== ours[0]) return `schema major versions differ (${theirs[0]} against this runtime's ${ours[0]})`;
  if (newer(theirs, ours)) return `its schema ${id} is newer than this runtime's ${SCHEMA_ID}`;
  const gen = semver(code.generatorVersion);
  const run = semver(GENERATOR_VERSION)!;
  if (gen === null) return `its generator version ${quote(code.generatorVersion)} is not MAJOR.MINOR.PATCH`;
  const sameLine = gen[0] === run[0] && (gen[0] !== 0 || gen[1] === run[1]);
  if (!sameLine || newer(gen, run)) return `generator ${code.generatorVersion} needs an omnimessage runtime ^${code.generatorVersion}`;
  return null;
}

/**
 * Register generated code with this runtime: the builders' helpers when it fits, otherwise an
 * {@link IncompatibleSchemaError} saying why and how to fix it (regenerate with this runtime's
 * version, or install the runtime the code was generated for).
 */
export function register<M>(code: GeneratedCodec<M>): Runtime & { readonly codec: Codec<M> };
export function register(code: GeneratedCode): Runtime;
export function register<M>(code: GeneratedCode | GeneratedCodec<M>): Runtime | (Runtime & { readonly codec: Codec<M> }) {
  const why = incompatibility(code);
  if (why !== null) {
    const v = code?.protocolVersion;
    const flag = typeof v === "string" && v !== PROTOCOL_VERSION && PROTOCOL_VERSIONS.includes(v) ? ` --protocol ${v}` : "";
    throw new IncompatibleSchemaError(
      `omnimessage: generated code (schema ${quote(code?.schemaId)}, generator ${quote(code?.generatorVersion)}) ` +
        `does not fit this runtime (omnimessage ${GENERATOR_VERSION}, schema ${SCHEMA_ID}): ${why}. ` +
        `Regenerate it with omnimessage ${GENERATOR_VERSION} (omnimessage generate --target typescript${flag} --out DIR), ` +
        `or install the omnimessage npm package it was generated for.`,
      code,
    );
  }
  const tables = (code as Partial<GeneratedCodec<M>>).tables;
  return tables === undefined ? HELPERS : Object.freeze({ ...HELPERS, codec: bindCodec(tables) });
}
