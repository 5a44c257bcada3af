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
        ("raw 0x1F: block scanner (SWAR mask)", "strings.rs", "w.wrapping_sub(LO * 0x20)", "w.wrapping_sub(LO * 0x1F)"),
        ("raw 0x1F: block scanner (byte test)", "strings.rs", "(c == b'\"') | (c == b'\\\\') | (c < 0x20)",
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

EXPLAINED: dict[str, str] = {}
