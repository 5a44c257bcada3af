//! Writing a JSON string exactly as `JSON.stringify` escapes it (schema/README.md 2.4), a lone
//! surrogate (WTF-8) as `\udxxx`. Runs of plain bytes are copied at once (`string_stops`).

use crate::string_stops::find_string_stop_or_ed;

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
}
