# ruff: noqa: E501  (one mutant per line: long literals)
"""The mutant families of issue 38 written again (the ones an outsider's run left alive), and the
explanation of every survivor of the last run (docs/mutants.md prints them).

FAMILIES[lang]: (family, file, a unique piece of one line, what it becomes).
"""

from __future__ import annotations

FAMILIES: dict[str, list[tuple[str, str, str, str]]] = {
    "c": [
        ("utf8: overlong two-byte forms (C0, C1 leads)", "verify.c", "b >= 0xC2 && b <= 0xDF", "b >= 0xC0 && b <= 0xDF"),
        ("utf8: overlong three-byte forms", "verify.c", "b == 0xE0 ? 0xA0 : 0x80", "b == 0xE0 ? 0x80 : 0x80"),
        ("utf8: overlong four-byte forms", "verify.c", "b == 0xF0 ? 0x90 : 0x80", "b == 0xF0 ? 0x80 : 0x80"),
        ("utf8: surrogates (ED A0..BF)", "verify.c", "b == 0xED ? 0x9F : 0xBF", "b == 0xED ? 0xBF : 0xBF"),
        ("utf8: above U+10FFFF (F4 90..BF)", "verify.c", "b == 0xF4 ? 0x8F : 0xBF", "b == 0xF4 ? 0xBF : 0xBF"),
        ("utf8: lead bytes F5..F7", "verify.c", "b >= 0xF0 && b <= 0xF4", "b >= 0xF0 && b <= 0xF7"),
        ("utf8: second byte unchecked", "verify.c", "left < 2 || (p[1] & 0xC0) != 0x80", "left < 2"),
        ("utf8: third byte unchecked", "verify.c", "left < 3 || p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80)",
         "left < 3 || p[1] < lo || p[1] > hi)"),
        ("utf8: fourth byte unchecked", "verify.c", " || (p[3] & 0xC0) != 0x80", ""),
        ("non-canonical: \\u0020 taken for canonical", "verify.c", "(v >= 0x20 || v == 0x08", "(v > 0x20 || v == 0x08"),
        ("non-canonical: \\u0008 taken for canonical", "verify.c", "v >= 0x20 || v == 0x08 || v == 0x09", "v >= 0x20 || v == 0x09"),
        ("non-canonical: 17 significant digits taken for shortest", "verify.c", "significant > 15", "significant > 17"),
        ("non-canonical: a 17-digit integer taken for exact", "verify.c", "int_len > 16 ||", "int_len > 17 ||"),
    ],
    "rust": [
        ("raw 0x1F: block scanner (SWAR mask)", "string_stops.rs", "w.wrapping_sub(LO * 0x20)", "w.wrapping_sub(LO * 0x1F)"),
        ("raw 0x1F: block scanner (byte test)", "string_stops.rs", "(c == b'\"') | (c == b'\\\\') | (c < 0x20)",
         "(c == b'\"') | (c == b'\\\\') | (c < 0x1F)"),
        ("raw 0x1F: grammar check", "grammar.rs", "if c < 0x20 {", "if c < 0x1F {"),
        ("number overflow: long integers not checked for the double range", "number.rs", "spelling.len() > 300",
         "spelling.len() > 400"),
    ],
    "ts": [
        ("raw 0x1F accepted by the one-pass string scan", "canonical.js", "\\u0000-\\u001f", "\\u0000-\\u001e"),
        ("trailing data accepted", "canonical.js", "if (r.pos !== end)", "if (r.pos > end)"),
        ("\\u0008 taken for a canonical escape", "verifier.js", "c !== 8 && ", ""),
    ],
}

_CONTRACT = "Equivalent under the verifier's contract (verify.h): msgspec's typed decoder runs first and "
_SLOWER = ("Changes speed only: a canonical line is refused by the Verifier (the plain path's encode-and-compare), "
           "and the slow path gives the same answer; ")
_NEVER_LAST = "Equivalent: a value is never the last byte of a line (a `}` follows it), so "

EXPLAINED: dict[str, str] = {
    # C
    "c:verify.c:126: < -> <= @16": _NEVER_LAST + "`left` is never exactly 4 where a well-formed four-byte "
                                   "sequence stands (the closing quote and braces follow).",
    "c:verify.c:128:1->2@15": "Equivalent: the callers test the result for zero only.",
    "c:verify.c:174:||->&&@82": _CONTRACT + "refuses every lone surrogate escape, verbatim values included "
                                "(`\\ud800xudc00`, which this mutant reads as a pair, is in the catalogue: msgspec "
                                "refuses it, so the verifier is never asked).",
    "c:verify.c:197: < -> <= @9": _NEVER_LAST + "the cursor never reaches the end inside a number.",
    "c:verify.c:225:0->1@37": "Equivalent: `return 1` without moving the cursor; the caller then meets a digit "
                              "where `,` or `}` must be and answers 0.",
    "c:verify.c:232:0->1@28": "Equivalent: as above (`-0`: `return 1` without moving the cursor, the caller "
                              "answers 0).",
    "c:verify.c:244:8->9@22": "Undefined behaviour that changes no answer here: `memcpy` of 9 bytes into an "
                              "8-byte word (a one-byte stack overflow in `same`). Only a sanitizer sees it: "
                              "`make fuzz` builds verify.c with AddressSanitizer (fuzz/native/run.sh); the "
                              "catalogue runs unsanitized builds.",
    "c:verify.c:262: < -> <= @31": _NEVER_LAST + "a literal (`true`, `null`) never ends the buffer.",
    "c:verify.c:277:0->1@20": _CONTRACT + "refuses a number with a leading zero (`01`) anywhere, verbatim values "
                              "included (the catalogue has `01` in fidelity).",
    "c:verify.c:470:0->1@12": "Equivalent: only the one-byte input `\\n` is treated differently, and it is no "
                              "object either way.",
    "c:verify.c:64:0x1F->0x1E@47": _CONTRACT + "refuses a raw control character in any string; this SSE2 "
                                   "compare is the one for strings outside verbatim values (inside them the "
                                   "signed compare flags 0x1F).",
    # Rust
    "rust:grammar.rs:170: < -> <= @12": "Equivalent: `find_string_stop` stops only at `\"`, `\\` and bytes "
                                        "below 0x20, so the byte tested here is never a space.",
    "rust:number.rs:57:24->23@27": "Equivalent: the shortest spelling of a double has at most 17 digits, so "
                                   "a 23-digit buffer is as good as a 24-digit one.",
    "rust:strings.rs:110:0x80->0x7F@56": "A gap, closed: the catalogue of the recorded run had no streaming "
                                         "fragment, the one field Rust unescapes into WTF-8 (`push_wtf8`). With the "
                                         "`fragment` template added, `run.py --lang rust --count 20 --only` kills it "
                                         "(`\\u00e9` in a partial_text fragment comes out wrong).",
    "rust:strings.rs:258:0xDC00->0xDBFF@16": "A gap, closed: the catalogue had no pair with the last high "
                                             "surrogate. With `\\udbff\\udfff` added, the `--only` rerun kills "
                                             "it (refused as `lone_surrogate`).",
    # TypeScript
    "ts:canonical.js:166:43->42@22": "Changes speed only: an exponent with `+` (`1e+21`) is no longer read in one "
                                     "pass; the general path answers.",
    "ts:canonical.js:70:0->1@16": "Equivalent: the closing quote of a tag is never at index 0.",
    "ts:canonical.js:93:34->35@19": "Changes speed only: no string is sliced in one pass any more, so the "
                                    "one-pass reader gives up on every line; the general path answers.",
    "ts:object-end.js:15:123->122@33": "Changes speed only: no verbatim object is found in one pass, the reader "
                                       "gives up; the general path answers.",
    "ts:object-end.js:19:1->0@18": "Changes speed only: the span starts one level too deep, so it never closes "
                                   "(or a scalar map fails its shape test) and the reader gives up.",
    "ts:object-end.js:27:1->2@28": "Equivalent: the caller only tests `end < 0`.",
    "ts:object-end.js:28:1->2@28": "Changes speed only on the catalogue and the suite: the escaped-quote test "
                                   "miscounts, so the span ends elsewhere; the span must then pass `JSON.parse` "
                                   "and be followed by the schema's next literal, or the reader gives up.",
    "ts:object-end.js:35:1->0@20": "As the mutant above: the scan resumes on the closing quote, the quotes "
                                   "pair up wrongly, and the reader gives up.",
    "ts:object-end.js:50:1->2@24": "Equivalent: the caller only tests `end < 0`.",
    "ts:verifier.js:18:3->4@55": _SLOWER + "`\\u001f` and the other `\\u001x` escapes are no longer taken "
                                 "for canonical.",
    "ts:verifier.js:22:&&->||@17": _SLOWER + "no `\\u` escape is taken for canonical.",
    "ts:verifier.js:24: >= -> > @16": "Equivalent: both checks run after `JSON.parse` accepted the line, so the "
                                      "character after `\\u00` is a hex digit; this only refuses `a`, which "
                                      "sends the line to the general path (speed only).",
    "ts:verifier.js:24:97->96@50": "Equivalent: a backtick is never a hex digit of a line `JSON.parse` accepted.",
    "ts:verifier.js:44:1->0@17": "Equivalent: the cached backslash position is recomputed whenever it lies "
                                 "before the scan position, which 0 always does after the first string.",
    "ts:verifier.js:89:1->0@31": _SLOWER + "the position after a string is off by one, so the next piece does "
                                 "not match.",
    "ts:verifier.js:94:||->&&@37": _SLOWER + "`\\\\`, `\\b`, ... are no longer taken for canonical escapes.",
    "ts:verifier.js:95:2->1@24": _SLOWER + "the scan resumes on the escaped character, which can only find "
                                 "escapes where there are none (never miss one).",
    "ts:object-end.js:31: === -> !== @35": "As the mutant above: a closing quote taken for an escaped one, a "
                                           "wrong span, and the reader gives up.",
    "ts:canonical.js:137:45->46@26": "Changes speed only: a `-` no longer starts a number in the one-pass "
                                     "reader, which gives up on negative numbers; the general path answers.",
    "ts:canonical.js:151:101->100@30": "Changes speed only: a number with a lower-case exponent is no longer "
                                       "read in one pass (the token stops before the `e`, the next literal "
                                       "fails, the reader gives up); the general path answers.",
    "ts:canonical.js:104:||->&&@66": "Changes speed only: the one-pass reader no longer takes `\\f` as a "
                                     "canonical escape and gives up, and the general path gives the same "
                                     "answer. This oracle judges answers, not which path gave them "
                                     "(typescript/test/canonical.test.mjs checks one-pass reading).",
}
