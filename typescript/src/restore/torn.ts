/**
 * What a crash can leave in a trace: is a line a proper prefix of a record? (The Python binding's
 * `omnimessage.validate.engine.torn.is_record_prefix`, decided alike.)
 *
 * The reference trace writer heals a torn last line by prefixing its next record with a line feed
 * (PenguinHarness `packages/core/src/trace/writer.ts`), so the torn bytes become a line of their
 * own in mid-file. Only a proper prefix of a JSON object counts as torn: bytes that go wrong
 * before they run out (two records spliced together, a stray character) are another defect.
 *
 * A pushdown recogniser over the bytes: linear in the line, a stack as deep as the line nests.
 *
 * @module
 */

import { utf8Error } from "#internal";

const enum Want {
  Value,
  ValueOrClose,
  Key,
  KeyOrClose,
  Colon,
  AfterValue,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LITERALS: Readonly<Record<number, readonly number[]>> = {
  0x74: [0x74, 0x72, 0x75, 0x65], // true
  0x66: [0x66, 0x61, 0x6c, 0x73, 0x65], // false
  0x6e: [0x6e, 0x75, 0x6c, 0x6c], // null
};

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isHex = (c: number | undefined): boolean =>
  c !== undefined && (isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));

/** The length of the well-formed UTF-8 part of `raw`; -1 when it is ill-formed before its end. */
function utf8PrefixLength(raw: Uint8Array): number {
  const err = utf8Error(raw);
  if (err === null) return raw.length;
  return err.reason === "unexpected end of data" ? err.index : -1;
}

function skipWs(raw: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = raw[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) break;
    i++;
  }
  return i;
}

/** Where a string body starting at `i` stops: at its closing quote, at `n`, or at a byte that
 * cannot go on (a control character, or a backslash not starting a complete escape). */
function stringBodyEnd(raw: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = raw[i] as number;
    if (c === QUOTE || c < 0x20) return i;
    if (c !== BACKSLASH) {
      i++;
      continue;
    }
    const e = raw[i + 1];
    if (i + 1 < n && (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) {
      i += 2;
    } else if (i + 5 < n && e === 0x75 && isHex(raw[i + 2]) && isHex(raw[i + 3]) && isHex(raw[i + 4]) && isHex(raw[i + 5])) {
      i += 6;
    } else return i;
  }
  return i;
}

/** A backslash at `j` starting an escape the end of the bytes cut short (`\`, `\u`, `\u0`...). */
function isEscapePrefix(raw: Uint8Array, j: number, n: number): boolean {
  if (raw[j] !== BACKSLASH) return false;
  if (j + 1 === n) return true;
  if (raw[j + 1] !== 0x75 || n - (j + 2) > 3) return false;
  for (let k = j + 2; k < n; k++) if (!isHex(raw[k])) return false;
  return true;
}

function digitsEnd(raw: Uint8Array, i: number, n: number): number {
  while (i < n && isDigit(raw[i])) i++;
  return i;
}

/**
 * A number at `i`: "prefix" when the bytes end inside a number that may go on, else the end of a
 * complete number, or -1 when it is malformed.
 */
function scanNumber(raw: Uint8Array, i: number, n: number): number | "prefix" {
  if (raw[i] === 0x2d) i++;
  if (i === n) return "prefix";
  if (raw[i] === 0x30) i++;
  else if (isDigit(raw[i])) i = digitsEnd(raw, i, n);
  else return -1;
  if (i === n) return "prefix";
  if (raw[i] === 0x2e) {
    i++;
    if (i === n) return "prefix";
    if (!isDigit(raw[i])) return -1;
    i = digitsEnd(raw, i, n);
    if (i === n) return "prefix";
  }
  if (raw[i] === 0x65 || raw[i] === 0x45) {
    i++;
    if (i === n) return "prefix";
    if (raw[i] === 0x2b || raw[i] === 0x2d) i++;
    if (i === n) return "prefix";
    if (!isDigit(raw[i])) return -1;
    i = digitsEnd(raw, i, n);
    if (i === n) return "prefix";
  }
  return i;
}

/**
 * True when `raw` is a proper, non-empty prefix of a JSON object text: what a write cut short
 * leaves. A complete JSON text, or bytes that break the grammar before they end, are not.
 */
export function isRecordPrefix(raw: Uint8Array): boolean {
  const n = utf8PrefixLength(raw);
  if (n <= 0 || raw[0] !== 0x7b) return false;
  const cut = n < raw.length; // a multi-byte character cut at the end: only possible inside a string
  const stack: number[] = [0x7b];
  let state: Want = Want.KeyOrClose;
  let i = 1;
  for (;;) {
    i = skipWs(raw, i, n);
    if (i === n) return !cut; // the bytes ran out inside the object: a proper prefix
    const c = raw[i] as number;
    if (state === Want.AfterValue) {
      const top = stack[stack.length - 1];
      if (c === 0x2c) {
        state = top === 0x7b ? Want.Key : Want.Value;
        i++;
      } else if ((c === 0x7d && top === 0x7b) || (c === 0x5d && top === 0x5b)) {
        stack.pop();
        i++;
        if (stack.length === 0) return false; // the object is complete: not a torn record
      } else return false;
    } else if (state === Want.Colon) {
      if (c !== 0x3a) return false;
      state = Want.Value;
      i++;
    } else if (c === QUOTE) {
      const j = stringBodyEnd(raw, i + 1, n);
      if (j === n) return true; // inside the string (a cut character included)
      if (raw[j] === QUOTE) {
        i = j + 1;
        state = state === Want.Key || state === Want.KeyOrClose ? Want.Colon : Want.AfterValue;
      } else return !cut && isEscapePrefix(raw, j, n);
    } else if (state === Want.Key || state === Want.KeyOrClose) {
      if (c !== 0x7d || state !== Want.KeyOrClose) return false;
      stack.pop();
      i++;
      if (stack.length === 0) return false;
      state = Want.AfterValue;
    } else if (c === 0x5d && state === Want.ValueOrClose) {
      stack.pop();
      i++;
      state = Want.AfterValue;
    } else if (c === 0x7b || c === 0x5b) {
      stack.push(c);
      i++;
      state = c === 0x7b ? Want.KeyOrClose : Want.ValueOrClose;
    } else if (c === 0x2d || isDigit(c)) {
      const end = scanNumber(raw, i, n);
      if (end === "prefix") return !cut; // the number may go on
      if (end < 0) return false;
      i = end;
      state = Want.AfterValue;
    } else if (LITERALS[c] !== undefined) {
      const lit = LITERALS[c] as readonly number[];
      let k = 0;
      while (k < lit.length && i + k < n && raw[i + k] === lit[k]) k++;
      if (k === lit.length) {
        i += k;
        state = Want.AfterValue;
      } else return !cut && i + k === n;
    } else return false;
  }
}
