/**
 * UTF-8: strict decoding, and the byte offsets errors report.
 *
 * @module
 */

// Declared here rather than through a lib: the package needs nothing but the ES library.
declare const TextDecoder: new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => {
  decode(input: Uint8Array): string;
};

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of well-formed UTF-8 `bytes` (a BOM is kept as U+FEFF), or null if they are not well-formed. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Where the first ill-formed sequence starts, and why (Python's reasons: `invalid start byte`,
 * `invalid continuation byte`, `unexpected end of data`); null if `bytes` are well-formed.
 */
export function utf8Error(bytes: Uint8Array): { index: number; reason: string } | null {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return { index: i, reason: "invalid start byte" };
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return { index: i, reason: "unexpected end of data" };
      const c = bytes[i + k] as number;
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return { index: i, reason: "invalid continuation byte" };
    }
    i += need + 1;
  }
  return null;
}

/** The index of the first lone surrogate in `text`, or -1. */
export function loneSurrogateIndex(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return i;
    } else if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/** The UTF-8 byte offset of code unit `index` of `text` (surrogates count 3 bytes each unless paired). */
export function byteOffset(text: string, index: number): number {
  let bytes = 0;
  const end = Math.min(index, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
