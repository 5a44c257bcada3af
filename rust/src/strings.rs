//! JSON strings: unescaping (into WTF-8, so that a lone surrogate escape survives as the code
//! unit it names) and escaping exactly as `JSON.stringify` escapes (schema/README.md 2.4).
//! Both copy runs of plain bytes at once: nothing is done per character that needs no escape.

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

#[inline]
fn word(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(w)
}

/// The position of the first `"`, `\` or control character at or after `i` (or the end):
/// eight bytes at a time.
#[inline]
pub(crate) fn find_string_stop(b: &[u8], mut i: usize) -> usize {
    while i + 8 <= b.len() {
        let w = word(b, i);
        let m = eq_mask(w, b'"') | eq_mask(w, b'\\') | control_mask(w);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && ESCAPE[b[i] as usize] == 0 {
        i += 1;
    }
    i
}

/// The position of the first `"` or `\` at or after `i` (or the end), eight bytes at a time.
#[inline]
pub(crate) fn find_quote_or_backslash(b: &[u8], mut i: usize) -> usize {
    while i + 8 <= b.len() {
        let w = word(b, i);
        let m = eq_mask(w, b'"') | eq_mask(w, b'\\');
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() {
        let c = b[i];
        if c == b'"' || c == b'\\' {
            return i;
        }
        i += 1;
    }
    i
}

fn hex4(h: &[u8]) -> u32 {
    h.iter().fold(0u32, |acc, &c| {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => 0,
        };
        acc * 16 + u32::from(d)
    })
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

/// Unescapes the body of a grammar-valid string (between its quotes) into `out` (WTF-8);
/// returns whether it escapes a lone surrogate.
pub(crate) fn unescape(body: &[u8], out: &mut Vec<u8>) -> bool {
    let mut lone = false;
    let mut i = 0;
    while i < body.len() {
        let j = find_quote_or_backslash(body, i);
        out.extend_from_slice(&body[i..j]);
        if j >= body.len() {
            break;
        }
        let esc = body.get(j + 1).copied().unwrap_or(b'\\');
        i = j + 2;
        let c = match esc {
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let cp = hex4(body.get(j + 2..j + 6).unwrap_or(b"0000"));
                i = j + 6;
                if (0xD800..0xDC00).contains(&cp) {
                    let next = body.get(i..i + 6);
                    if let Some(n) = next.filter(|n| n[0] == b'\\' && n[1] == b'u') {
                        let low = hex4(&n[2..]);
                        if (0xDC00..0xE000).contains(&low) {
                            push_wtf8(out, 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
                            i += 6;
                            continue;
                        }
                    }
                    lone = true;
                } else if (0xDC00..0xE000).contains(&cp) {
                    lone = true;
                }
                push_wtf8(out, cp);
                continue;
            }
            other => other, // `"`, `\`, `/`
        };
        out.push(c);
    }
    lone
}

/// The first byte at or after `i` that needs an escape, or 0xED (which may start a WTF-8 surrogate).
#[inline]
fn find_string_stop_or_ed(b: &[u8], mut i: usize) -> usize {
    while i + 8 <= b.len() {
        let w = word(b, i);
        let m = eq_mask(w, b'"') | eq_mask(w, b'\\') | control_mask(w) | eq_mask(w, 0xED);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i.min(b.len())
}

/// Unescapes the body of a grammar-valid string (text between its quotes) into `out`, copying the
/// runs between escapes as text (already valid: nothing is validated twice); false when it
/// escapes a lone surrogate, which a `String` cannot hold.
pub(crate) fn unescape_str(body: &str, out: &mut String) -> bool {
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let j = find_quote_or_backslash(b, i);
        out.push_str(body.get(i..j).unwrap_or(""));
        if j >= b.len() {
            break;
        }
        i = j + 2;
        match b.get(j + 1).copied().unwrap_or(b'\\') {
            b'b' => out.push('\u{8}'),
            b'f' => out.push('\u{c}'),
            b'n' => out.push('\n'),
            b'r' => out.push('\r'),
            b't' => out.push('\t'),
            b'u' => {
                let cp = hex4(b.get(j + 2..j + 6).unwrap_or(b"0000"));
                i = j + 6;
                let c = if (0xD800..0xDC00).contains(&cp) {
                    let low = b
                        .get(i..i + 6)
                        .filter(|n| n[0] == b'\\' && n[1] == b'u')
                        .map(|n| hex4(&n[2..]));
                    match low {
                        Some(low) if (0xDC00..0xE000).contains(&low) => {
                            i += 6;
                            char::from_u32(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00))
                        }
                        _ => None,
                    }
                } else {
                    char::from_u32(cp)
                };
                match c {
                    Some(c) => out.push(c),
                    None => return false,
                }
            }
            other => out.push(other as char), // `"`, `\`, `/`
        }
    }
    true
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

    #[test]
    fn unescapes_pairs_and_lone_halves() {
        let mut out = Vec::new();
        assert!(!unescape(br"\ud83d\ude00\u00e9\/", &mut out));
        assert_eq!(out, "😀é/".as_bytes());
        out.clear();
        assert!(unescape(br"\udc00\ud800", &mut out));
        assert_eq!(out, b"\xed\xb0\x80\xed\xa0\x80");
    }
}
