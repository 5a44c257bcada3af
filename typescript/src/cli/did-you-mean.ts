/**
 * The hint after an unrecognised option (`; --nope: did you mean --to?`): the same words the Python
 * command line writes, chosen as Python's `difflib.get_close_matches(word, options, n=1, cutoff=0.6)`
 * chooses them (`SequenceMatcher` with the option as its first sequence and the word as its second,
 * the "popular" characters of a word of 200 or more left out of the search, as difflib's autojunk
 * does), so both bindings print the same line. Strings are compared by code point, as Python's are.
 *
 * @module
 */

type Seq = readonly string[];

/** Where each character of `b` occurs, less the characters a long `b` repeats too often
 * (`SequenceMatcher.__chain_b`: at 200 or more, a character seen more than `n // 100 + 1` times). */
function positions(b: Seq): Map<string, number[]> {
  const b2j = new Map<string, number[]>();
  b.forEach((c, j) => {
    const at = b2j.get(c);
    if (at === undefined) b2j.set(c, [j]);
    else at.push(j);
  });
  if (b.length >= 200) {
    const most = Math.floor(b.length / 100) + 1;
    for (const [c, at] of b2j) if (at.length > most) b2j.delete(c);
  }
  return b2j;
}

/** `find_longest_match`: the first longest block of `a[alo:ahi]` and `b[blo:bhi]` through `b2j`,
 * then grown over equal neighbours (the popular characters the search left out). */
function longest(a: Seq, b: Seq, b2j: Map<string, number[]>, alo: number, ahi: number, blo: number, bhi: number): [number, number, number] {
  let [besti, bestj, best] = [alo, blo, 0];
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i] as string) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > best) [besti, bestj, best] = [i - k + 1, j - k + 1, k];
    }
    j2len = next;
  }
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) [besti, bestj, best] = [besti - 1, bestj - 1, best + 1];
  while (besti + best < ahi && bestj + best < bhi && a[besti + best] === b[bestj + best]) best++;
  return [besti, bestj, best];
}

/** `SequenceMatcher(None, a, b).ratio()`: twice what the matching blocks cover over both lengths. */
export function ratio(a: string, b: string): number {
  const [sa, sb] = [Array.from(a), Array.from(b)];
  const total = sa.length + sb.length;
  if (total === 0) return 1;
  const b2j = positions(sb);
  let matched = 0;
  const queue: [number, number, number, number][] = [[0, sa.length, 0, sb.length]];
  for (let q = queue.pop(); q !== undefined; q = queue.pop()) {
    const [alo, ahi, blo, bhi] = q;
    const [i, j, k] = longest(sa, sb, b2j, alo, ahi, blo, bhi);
    if (k === 0) continue;
    matched += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return (2 * matched) / total;
}

/** What Python's `str.split()` splits on. */
const WHITESPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/** `; NAME: did you mean --OPTION?` for each word of the unrecognised arguments (split as Python
 * splits the message, on whitespace) that looks like a misspelt long option; empty when none does.
 * A word is cut at its first `=`, as a parser reads `--name=value`. */
export function didYouMean(unknown: readonly string[], options: readonly string[]): string {
  const longs = options.filter((o) => o.startsWith("--"));
  const hints: string[] = [];
  for (const w of unknown.join(" ").split(WHITESPACE)) {
    const name = w.split("=", 1)[0] as string;
    if (!name.startsWith("--")) continue;
    // the highest score wins, a tie the greater option (difflib keeps the largest (score, option))
    let close: [number, string] | null = null;
    for (const o of longs) {
      const s = ratio(o, name);
      if (s >= 0.6 && (close === null || s > close[0] || (s === close[0] && o > close[1]))) close = [s, o];
    }
    if (close !== null) hints.push(`${name}: did you mean ${close[1]}?`);
  }
  return hints.length ? `; ${hints.join("; ")}` : "";
}
