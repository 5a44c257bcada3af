//! JSON strings: reading a string token in one pass (checked as the grammar checks it, unescaped
//! into text or into WTF-8, so that a lone surrogate escape survives as the code unit it names)
//! and escaping exactly as `JSON.stringify` escapes (schema/README.md 2.4). Both copy runs of
//! plain bytes at once: nothing is done per character that needs no escape.

use crate::error::DecodeError;
use crate::grammar::json;

/// Bytes that `JSON.stringify` escapes: 1 for `"`, `\` and C0 controls.
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = 1;
        i += 1;
    }
    t[b'"' as usize] = 1;
    t[b'\\' as usize] = 1;
    t
};

const HEX: &[u8; 16] = b"0123456789abcdef";

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// The bytes of `w` equal to `c` (high bit of each such byte set; the lowest set bit is exact).
#[inline]
fn eq_mask(w: u64, c: u8) -> u64 {
    let x = w ^ (LO * u64::from(c));
    x.wrapping_sub(LO) & !x & HI
}

/// The bytes of `w` below 0x20 (the lowest set bit is exact).
#[inline]
fn control_mask(w: u64) -> u64 {
    w.wrapping_sub(LO * 0x20) & !w & HI
}

/// The eight bytes at `i`, if there are eight.
#[inline]
fn word(b: &[u8], i: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(i..i + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// A byte that stops the scan of a string body: `"`, `\` or a control character.
#[inline]
fn stops(c: u8) -> bool {
    (c == b'"') | (c == b'\\') | (c < 0x20)
}

/// The stops among the eight bytes of `w` (the lowest set bit is exact).
#[inline]
fn stop_mask(w: u64) -> u64 {
    eq_mask(w, b'"') | eq_mask(w, b'\\') | control_mask(w)
}

/// The position of the first `"`, `\` or control character at or after `i` (or the end). Most
/// strings are short (keys, names, codes) and most bytes are in long ones (texts, code, data):
/// the first eight bytes are tested at once (SWAR), then 32 bytes at a time, in straight-line
/// code that the compiler turns into vector compares (the stops as 0/1 bytes, read back as four
/// words: the first non-zero one has the exact byte); the last few bytes of the line eight or
/// one at a time.
#[inline(always)]
pub(crate) fn find_string_stop(b: &[u8], mut i: usize) -> usize {
    if let Some(w) = word(b, i) {
        let m = stop_mask(w);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(chunk) = b.get(i..i + 32) {
        let mut stop = [0u8; 32];
        for (s, &c) in stop.iter_mut().zip(chunk) {
            *s = u8::from(stops(c));
        }
        let w = |k: usize| word(&stop, k).unwrap_or(0);
        let (w0, w1, w2, w3) = (w(0), w(8), w(16), w(24));
        if w0 | w1 | w2 | w3 != 0 {
            let (m, at) = match (w0, w1, w2) {
                (0, 0, 0) => (w3, 24),
                (0, 0, _) => (w2, 16),
                (0, _, _) => (w1, 8),
                _ => (w0, 0),
            };
            return i + at + (m.trailing_zeros() / 8) as usize;
        }
        i += 32;
    }
    while let Some(w) = word(b, i) {
        let m = stop_mask(w);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && !stops(b[i]) {
        i += 1;
    }
    i
}

/// Pushes code point `cp` (a surrogate included: WTF-8) as UTF-8.
pub(crate) fn push_wtf8(out: &mut Vec<u8>, cp: u32) {
    if cp < 0x80 {
        out.push(cp as u8);
    } else if cp < 0x800 {
        out.extend_from_slice(&[0xC0 | (cp >> 6) as u8, 0x80 | (cp & 0x3F) as u8]);
    } else if cp < 0x10000 {
        out.extend_from_slice(&[
            0xE0 | (cp >> 12) as u8,
            0x80 | ((cp >> 6) & 0x3F) as u8,
            0x80 | (cp & 0x3F) as u8,
        ]);
    } else {
        out.extend_from_slice(&[
            0xF0 | (cp >> 18) as u8,
            0x80 | ((cp >> 12) & 0x3F) as u8,
            0x80 | ((cp >> 6) & 0x3F) as u8,
            0x80 | (cp & 0x3F) as u8,
        ]);
    }
}

/// Where the unescaped text of a string goes: a `String` (a lone surrogate as U+FFFD) or WTF-8 bytes.
pub(crate) trait Sink: Sized {
    fn with_capacity(n: usize) -> Self;
    fn run(&mut self, text: &str);
    /// A code point, or a lone surrogate code unit (0xD800..0xDFFF).
    fn unit(&mut self, cp: u32);
}

impl Sink for String {
    fn with_capacity(n: usize) -> Self {
        String::with_capacity(n)
    }
    fn run(&mut self, text: &str) {
        self.push_str(text);
    }
    fn unit(&mut self, cp: u32) {
        self.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
    }
}

impl Sink for Vec<u8> {
    fn with_capacity(n: usize) -> Self {
        Vec::with_capacity(n)
    }
    fn run(&mut self, text: &str) {
        self.extend_from_slice(text.as_bytes());
    }
    fn unit(&mut self, cp: u32) {
        push_wtf8(self, cp);
    }
}

/// A string token, read by [`scan`].
pub(crate) struct Scanned<S> {
    /// The offset just after its closing `"`.
    pub end: usize,
    /// The unescaped text; None when the string has no escape (its text is its body).
    pub unescaped: Option<S>,
    /// It escapes a lone surrogate.
    pub lone: bool,
}

/// What a two-byte escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`) stands for, by its
/// second byte; 0 for any other byte.
static UNESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t[b'b' as usize] = 0x08;
    t[b'f' as usize] = 0x0C;
    t[b'n' as usize] = b'\n';
    t[b'r' as usize] = b'\r';
    t[b't' as usize] = b'\t';
    t
};

/// Reads the string token whose `"` is at `i` in one pass, checked as the grammar checks it (a raw
/// control character, a bad escape or a missing `"` is refused): the body is scanned many bytes
/// at a time to its first escape; only a string that has one is copied, run by run, into a `S`.
pub(crate) fn scan<S: Sink>(text: &str, i: usize) -> Result<Scanned<S>, DecodeError> {
    let b = text.as_bytes();
    let mut start = i + 1;
    let mut j = find_string_stop(b, start);
    match b.get(j) {
        Some(b'"') => {
            return Ok(Scanned {
                end: j + 1,
                unescaped: None,
                lone: false,
            })
        }
        Some(b'\\') => {}
        _ => return Err(stop_error(b, i, j)),
    }
    let mut out = S::with_capacity(2 * (j - start) + 16);
    let mut lone = false;
    loop {
        // an escape at j, after a run from `start`; the runs start and end at ASCII bytes, so
        // they are text
        out.run(text.get(start..j).unwrap_or(""));
        let second = b.get(j + 1).copied().unwrap_or(0);
        let unescaped = UNESCAPE[usize::from(second)];
        if unescaped != 0 {
            out.unit(u32::from(unescaped));
            start = j + 2;
        } else if second == b'u' {
            let (cp, next) =
                unicode_escape(b, j).ok_or_else(|| json(j, "invalid \\u escape (four hex digits expected)"))?;
            lone |= (0xD800..0xE000).contains(&cp);
            out.unit(cp);
            start = next;
        } else {
            return Err(json(j, "invalid escape"));
        }
        j = find_string_stop(b, start);
        match b.get(j) {
            Some(b'"') => {
                out.run(text.get(start..j).unwrap_or(""));
                return Ok(Scanned {
                    end: j + 1,
                    unescaped: Some(out),
                    lone,
                });
            }
            Some(b'\\') => {}
            _ => return Err(stop_error(b, i, j)),
        }
    }
}

/// Why a string opened at `i` stops at `j`, which is no `"` or `\`.
#[cold]
fn stop_error(b: &[u8], i: usize, j: usize) -> DecodeError {
    if j < b.len() {
        json(j, "raw control character inside a string")
    } else {
        json(i, "unterminated string")
    }
}

fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let h = b.get(at..at + 4)?;
    h.iter()
        .try_fold(0u32, |acc, &c| Some(acc * 16 + (c as char).to_digit(16)?))
}

/// The `\u` escape at `j` (its `\`): the code point it stands for (a surrogate pair joined; a
/// lone surrogate as its code unit) and the offset after it; None without four hex digits.
fn unicode_escape(b: &[u8], j: usize) -> Option<(u32, usize)> {
    let cp = hex4(b, j + 2)?;
    if (0xD800..0xDC00).contains(&cp) && b.get(j + 6) == Some(&b'\\') && b.get(j + 7) == Some(&b'u') {
        if let Some(low @ 0xDC00..=0xDFFF) = hex4(b, j + 8) {
            return Some((0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00), j + 12));
        }
    }
    Some((cp, j + 6))
}

/// The first byte at or after `i` that needs an escape, or 0xED (which may start a WTF-8 surrogate).
#[inline]
fn find_string_stop_or_ed(b: &[u8], mut i: usize) -> usize {
    while let Some(w) = word(b, i) {
        let m = stop_mask(w) | eq_mask(w, 0xED);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i.min(b.len())
}

/// Writes `s` as a JSON string, escaped as `JSON.stringify` escapes it.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    write_wtf8(out, s.as_bytes());
}

/// Writes WTF-8 bytes as a JSON string; a lone surrogate becomes `\udxxx` (ES2019).
pub(crate) fn write_wtf8(out: &mut Vec<u8>, b: &[u8]) {
    out.reserve(b.len() + 2);
    out.push(b'"');
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if ESCAPE[c as usize] == 0 && !(c == 0xED && b.get(i + 1).is_some_and(|&n| n >= 0xA0)) {
            i += 1;
            if c < 0x80 {
                i = find_string_stop_or_ed(b, i);
            }
            continue;
        }
        out.extend_from_slice(&b[start..i]);
        if c == 0xED {
            // a surrogate code unit in WTF-8: ED A0..BF xx
            let cp =
                0xD000 | (u32::from(b[i + 1] & 0x3F) << 6) | u32::from(b.get(i + 2).copied().unwrap_or(0x80) & 0x3F);
            out.extend_from_slice(b"\\u");
            for shift in [12, 8, 4, 0] {
                out.push(HEX[((cp >> shift) & 0xF) as usize]);
            }
            i += 3;
        } else {
            match c {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x0C => out.extend_from_slice(b"\\f"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                _ => out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(c >> 4) as usize], HEX[(c & 0xF) as usize]]),
            }
            i += 1;
        }
        start = i;
    }
    out.extend_from_slice(&b[start.min(b.len())..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(s: &[u8]) -> String {
        let mut out = Vec::new();
        write_wtf8(&mut out, s);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn escapes_like_json_stringify() {
        assert_eq!(esc(b"a\"b\\c\n\x01\x1f/\x7f"), "\"a\\\"b\\\\c\\n\\u0001\\u001f/\x7f\"");
        assert_eq!(esc("\u{2028}é😀".as_bytes()), "\"\u{2028}é😀\"");
        assert_eq!(esc(b"x\xed\xa0\xbd"), "\"x\\ud83d\"");
    }

    fn wtf8(token: &str) -> (Vec<u8>, bool) {
        let s = scan::<Vec<u8>>(token, 0).unwrap();
        assert_eq!(s.end, token.len());
        (
            s.unescaped
                .unwrap_or_else(|| token.as_bytes()[1..token.len() - 1].to_vec()),
            s.lone,
        )
    }

    #[test]
    fn unescapes_pairs_and_lone_halves() {
        assert_eq!(wtf8(r#""\ud83d\ude00\u00e9\/""#), ("😀é/".as_bytes().to_vec(), false));
        assert_eq!(wtf8(r#""\udc00\ud800""#), (b"\xed\xb0\x80\xed\xa0\x80".to_vec(), true));
        assert_eq!(wtf8(r#""a\ud83d\u0041""#), (b"a\xed\xa0\xbdA".to_vec(), true));
        assert_eq!(wtf8(r#""plain é""#), ("plain é".as_bytes().to_vec(), false));
        let s = scan::<String>(r#""x\n\"\\\u00e9\ud800y" tail"#, 0).unwrap();
        assert_eq!(
            (s.end, s.unescaped.as_deref(), s.lone),
            (22, Some("x\n\"\\é\u{FFFD}y"), true)
        );
    }

    #[test]
    fn refuses_what_the_grammar_refuses() {
        for token in [
            r#""a"#,
            "\"a\u{1}\"",
            r#""\x""#,
            r#""\u12g4""#,
            r#""\u12""#,
            r#""a\"#,
            r#""\ud800\u12G4""#,
        ] {
            let err = scan::<String>(token, 0).err();
            assert_eq!(
                err.map(|e| e.category),
                Some(crate::error::Category::InvalidJson),
                "{token:?}"
            );
            assert!(crate::grammar::string_end(token.as_bytes(), 0).is_err(), "{token:?}");
        }
    }
}
