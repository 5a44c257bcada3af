/**
 * The decoder's slow path: the strict scanner (`scan.ts`) builds a position-aware tree, a lexical
 * pass refuses what JSON Schema cannot see (outside verbatim values only), then the generated
 * strict validators (`check.ts`) check the schema. Errors carry the Python binding's category,
 * JSON pointer, byte offset and detail.
 *
 * @module
 */

import type { CodecTables } from "./codec-tables.js";
import { ARR, LIT, NUM, OBJ, STR, escapePointerToken, member, pyRepr, type Problem as CheckProblem } from "./generated/check.js";
import type { RejectionCategory, VerbatimShape } from "./generated/schema.js";
import { DecodeError } from "./errors.js";
import { OpaqueMessage } from "./opaque.js";
import { trustedRawJson } from "./raw.js";
import { Node, RAW, ScanError, expand, scan } from "./scan.js";
import { byteOffset } from "./utf8.js";

export function decodeSlow<M>(t: CodecTables<M>, text: string, lenient: boolean): M | OpaqueMessage {
  let root: Node;
  try {
    root = scan(text);
  } catch (e) {
    if (e instanceof ScanError) throw new DecodeError(e.category, e.detail, "", byteOffset(text, e.pos));
    throw e;
  }
  if (root.kind !== OBJ) throw new DecodeError("wrong_type", "a message is a JSON object", "", 0);
  const verbatim = verbatimTable(t, root);
  const problem = new Lexical(text, verbatim, fragmentField(t, root)).walk(root, "", null) ?? t.checkMessage(root);
  if (problem !== null) {
    const err = new DecodeError(problem.category, problem.detail, problem.pointer, byteOffset(text, problem.at));
    // The opaque message is the object, from its `{` to its `}`: the JSON whitespace around it
    // (a CR before the LF included) is not part of it (schema/README.md section 5).
    if (lenient) return new OpaqueMessage(text.slice(root.start, root.end), err);
    throw err;
  }
  return build(root, text, verbatim, null, true) as M;
}

/** A problem of the lexical pass (any category) or of the generated checkers. */
interface Problem extends Omit<CheckProblem, "category"> {
  readonly category: RejectionCategory;
}

type VerbatimTable = ReadonlyMap<string, VerbatimShape> | null;

/** Where verbatim values sit in this message, by its envelope and payload `type`. */
function verbatimTable<M>(t: CodecTables<M>, root: Node): VerbatimTable {
  const env = member(root, "type");
  const payload = member(root, "payload");
  const ptype = payload === null ? null : member(payload, "type");
  const envTag = env !== null && env.kind === STR ? (env.value as string) : null;
  const pTag = ptype !== null && ptype.kind === STR ? (ptype.value as string) : "";
  if (envTag === null) return null;
  return t.verbatimLocations.get(envTag)?.get(pTag) ?? null;
}

/**
 * The fragment field of this message's payload when it is a streaming partial (`text`,
 * `thinking`, `arguments`, `output`), else null: the one string that may escape lone surrogates
 * (the reference producer cuts fragments at any UTF-16 offset, so a pair can be split between
 * two deltas; joined, the halves pair up again).
 */
function fragmentField<M>(t: CodecTables<M>, root: Node): string | null {
  const env = member(root, "type");
  const payload = member(root, "payload");
  const ptype = payload === null ? null : member(payload, "type");
  if (env === null || env.kind !== STR || ptype === null || ptype.kind !== STR) return null;
  const pTag = ptype.value as string;
  if (t.payloadStructs.get(env.value as string)?.has(pTag) !== true || !Object.hasOwn(t.fragmentOf, pTag)) return null;
  return t.fragmentOf[pTag]![1];
}

/** The shape of the verbatim value at `rel` (a path from the payload), if one sits there. */
function verbatimAt(table: VerbatimTable, rel: readonly string[] | null): VerbatimShape | undefined {
  if (table === null || rel === null || rel.length === 0) return undefined;
  let key = "";
  for (let i = 0; i < rel.length; i++) {
    const seg = rel[i] as string;
    if (seg.includes("/")) return undefined;
    key += (i ? "/" : "") + (/^[0-9]+$/.test(seg) ? "*" : seg);
  }
  return table.get(key);
}

/**
 * What JSON Schema cannot see, outside verbatim values, in document order: lone surrogate
 * escapes (except in a partial's fragment field), duplicate keys, numbers beyond the double
 * range; and the shape of verbatim values.
 */
class Lexical {
  constructor(
    readonly text: string,
    readonly verbatim: VerbatimTable,
    /** The payload's fragment field, where lone surrogate escapes are allowed (see {@link fragmentField}). */
    readonly fragment: string | null,
  ) {}

  walk(node: Node, pointer: string, rel: string[] | null): Problem | null {
    const shape = verbatimAt(this.verbatim, rel);
    if (shape !== undefined) return verbatimShape(node, pointer, shape);
    // An object at a place where another payload keeps a verbatim value: build it now (it sits
    // below the root, the payload and `rel`).
    if (node.kind === RAW) expand(this.text, node, (rel as string[]).length + 2);
    switch (node.kind) {
      case OBJ: {
        const keys = node.keys as string[];
        const seen = new Set<string>();
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as string;
          const ptr = pointer + "/" + escapePointerToken(key);
          const at = (node.keyStarts as number[])[i] as number;
          if (node.keyLone !== null && node.keyLone[i] === true) return problem("lone_surrogate", "object key escapes a lone surrogate", ptr, at);
          if (seen.has(key)) return problem("duplicate_key", `duplicate key ${pyRepr(key)}`, ptr, at);
          seen.add(key);
          const crel = rel === null ? (pointer === "" && key === "payload" ? [] : null) : [...rel, key];
          const r = this.walk((node.items as Node[])[i] as Node, ptr, crel);
          if (r !== null) return r;
        }
        return null;
      }
      case ARR: {
        const items = node.items as Node[];
        // A string that escapes no lone surrogate, or a literal, has nothing to refuse unless a
        // verbatim value sits at the items' place: skip it without a pointer or a path (a line
        // of a million short strings would allocate both a million times).
        const plainOk = verbatimAt(this.verbatim, rel === null ? null : [...rel, "0"]) === undefined;
        for (let i = 0; i < items.length; i++) {
          const c = items[i] as Node;
          if (plainOk && ((c.kind === STR && !c.lone) || c.kind === LIT)) continue;
          const r = this.walk(c, pointer + "/" + i, rel === null ? null : [...rel, String(i)]);
          if (r !== null) return r;
        }
        return null;
      }
      case STR:
        if (!node.lone || (this.fragment !== null && rel !== null && rel.length === 1 && rel[0] === this.fragment)) return null;
        return problem("lone_surrogate", "string escapes a lone surrogate", pointer, node.start);
      case NUM: {
        const s = node.value as string;
        if (Number.isFinite(Number(s))) return null;
        const shown = s.length > 40 ? s.slice(0, 40) + "..." : s;
        return problem("invalid_number", `${shown} is beyond the IEEE 754 double range`, pointer, node.start);
      }
      default:
        return null;
    }
  }
}

function problem(category: Problem["category"], detail: string, pointer: string, at: number): Problem {
  return { category, detail, pointer, at };
}

function verbatimShape(node: Node, pointer: string, shape: VerbatimShape): Problem | null {
  if (node.kind !== OBJ && node.kind !== RAW) return problem("wrong_type", "a verbatim value here must be a JSON object", pointer, node.start);
  if (shape === "scalar_map" && node.kind === RAW) {
    // The scanner noted the first member whose value is not a scalar.
    if (node.keys === null) return null;
    const ptr = pointer + "/" + escapePointerToken(node.keys[0] as string);
    return problem("wrong_type", "values here must be strings, numbers or booleans", ptr, (node.keyStarts as number[])[0] as number);
  }
  if (shape === "scalar_map") {
    const items = node.items as Node[];
    for (let i = 0; i < items.length; i++) {
      const c = items[i] as Node;
      if (c.kind !== STR && c.kind !== NUM && !(c.kind === LIT && c.value !== null)) {
        const ptr = pointer + "/" + escapePointerToken((node.keys as string[])[i] as string);
        return problem("wrong_type", "values here must be strings, numbers or booleans", ptr, c.start);
      }
    }
  }
  return null;
}

/** The message value of a checked tree: verbatim values as RawJson, numbers as numbers. */
function build(node: Node, text: string, verbatim: VerbatimTable, rel: string[] | null, root = false): unknown {
  if (verbatimAt(verbatim, rel) !== undefined) return trustedRawJson(text.slice(node.start, node.end));
  switch (node.kind) {
    case OBJ: {
      // Keys are the schema's (checked), so plain assignment cannot reach a prototype.
      const out: Record<string, unknown> = {};
      const keys = node.keys as string[];
      const items = node.items as Node[];
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const crel = rel === null ? (root && key === "payload" ? [] : null) : [...rel, key];
        out[key] = build(items[i] as Node, text, verbatim, crel);
      }
      return out;
    }
    case ARR: {
      // Strings and literals are their values (a verbatim place holding one was refused).
      const items = node.items as Node[];
      const out = new Array<unknown>(items.length);
      for (let i = 0; i < items.length; i++) {
        const c = items[i] as Node;
        out[i] = c.kind === STR || c.kind === LIT ? c.value : build(c, text, verbatim, rel === null ? null : [...rel, String(i)]);
      }
      return out;
    }
    case NUM: {
      const n = Number(node.value as string);
      return n === 0 ? 0 : n;
    }
    default:
      return node.value;
  }
}
