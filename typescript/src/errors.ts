/**
 * The one error a decode throws, with the stable rejection categories of the wire contract.
 *
 * @module
 */

import { REJECTION_CATEGORIES, type RejectionCategory } from "./generated/schema.js";

/** Every rejection category, in the order the schema lists them. */
export const CATEGORIES: readonly RejectionCategory[] = Object.freeze(
  Object.keys(REJECTION_CATEGORIES) as RejectionCategory[],
);

/** Categories JSON Schema cannot see (it only sees parsed values). */
export const LEXICAL_CATEGORIES: ReadonlySet<RejectionCategory> = new Set(
  CATEGORIES.filter((c) => REJECTION_CATEGORIES[c].lexical),
);

/**
 * A line was refused. The message reads `category (at POINTER, byte N): detail`, as the
 * Python binding's `DecodeError` prints.
 */
export class DecodeError extends Error {
  /** The stable rejection category. */
  readonly category: RejectionCategory;
  /** What is wrong, for people. */
  readonly detail: string;
  /** JSON pointer (RFC 6901) to the offending value (of the key, for missing and unexpected keys); `""` for the whole line. */
  readonly pointer: string;
  /** Byte offset in the line (UTF-8) where the problem was found, or null when unknown. */
  readonly offset: number | null;
  /** 1-based line number, set by readers (the CLI). */
  line: number | null;

  constructor(category: RejectionCategory, detail: string, pointer = "", offset: number | null = null, line: number | null = null) {
    if (!Object.prototype.hasOwnProperty.call(REJECTION_CATEGORIES, category)) {
      throw new TypeError(`unknown rejection category ${JSON.stringify(category)}`);
    }
    const where: string[] = [];
    if (pointer) where.push(`at ${pointer}`);
    if (offset !== null) where.push(`byte ${offset}`);
    super(`${category}${where.length ? ` (${where.join(", ")})` : ""}: ${detail}`);
    this.name = "DecodeError";
    this.category = category;
    this.detail = detail;
    this.pointer = pointer;
    this.offset = offset;
    this.line = line;
  }

  /** Is the category invisible to JSON Schema? */
  get lexical(): boolean {
    return REJECTION_CATEGORIES[this.category].lexical;
  }

  toJSON(): { category: RejectionCategory; pointer: string; detail: string; offset?: number; line?: number } {
    const out: { category: RejectionCategory; pointer: string; detail: string; offset?: number; line?: number } = {
      category: this.category,
      pointer: this.pointer,
      detail: this.detail,
    };
    if (this.offset !== null) out.offset = this.offset;
    if (this.line !== null) out.line = this.line;
    return out;
  }
}
