/**
 * Where a line first differs from its canonical bytes, for `canonicalize --check`: exactly the text
 * of the Python binding's `omnimessage.text.bytes_diff.canonical_diff` (python/tests/test_hostile_output.py
 * compares the two command lines' output).
 *
 * @module
 */

/** Printable ASCII as is (backslash doubled), every other byte as `\xNN`: as Python's `escape_bytes`. */
export function escapeBytes(data: Uint8Array): string {
  let out = "";
  for (const b of data) {
    if (b === 0x5c) out += "\\\\";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return out;
}

/** Where `a` and `b` first differ, in context, with a caret under the byte; `labels` name the sides. */
export function firstDifference(a: Uint8Array, b: Uint8Array, labels: [string, string], context = 24): string {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return "identical";
  const lo = Math.max(0, i - context);
  const lead = lo ? "..." : "";
  const prefix = escapeBytes(a.subarray(lo, i));
  const [la, lb] = labels;
  const width = Math.max(la.length, lb.length) + 1;
  const seg = (d: Uint8Array): string => lead + escapeBytes(d.subarray(lo, i + context)) + (d.length > i + context ? "..." : "");
  let what: string;
  if (i === b.length) what = `${lb} ends early: ${b.length} bytes, ${la} ${a.length}`;
  else if (i === a.length) what = `${lb} has ${b.length - a.length} extra bytes after the ${la} ${a.length}`;
  else what = `${la} ${a.length} bytes, ${lb} ${b.length}`;
  return [
    `first difference at byte ${i} (${what})`,
    `  ${(la + ":").padEnd(width)} ${seg(a)}`,
    `  ${(lb + ":").padEnd(width)} ${seg(b)}`,
    `  ${" ".repeat(width)} ${" ".repeat(lead.length + prefix.length)}^`,
  ].join("\n");
}

/** A file's line against its canonical bytes, indented under its `not canonical` line. */
export function canonicalDiff(raw: Uint8Array, canonical: Uint8Array): string {
  return firstDifference(raw, canonical, ["file", "canonical"])
    .split("\n")
    .map((l) => "  " + l)
    .join("\n");
}
