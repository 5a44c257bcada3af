//! The little JSON the testee protocol needs: reading a request's flat object of strings and
//! integers (with the crate's strict grammar check first) and writing answers.

use std::collections::HashMap;

/// A request member: a string or an integer (other values are kept as their text).
#[derive(Debug, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Other,
}

/// The members of a flat JSON object; None when the line is not one.
pub fn parse_object(line: &[u8]) -> Option<HashMap<String, Value>> {
    let text = std::str::from_utf8(line).ok()?.trim();
    let b = text.as_bytes();
    let mut i = skip(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = skip(b, i + 1);
    let mut out = HashMap::new();
    if b.get(i) == Some(&b'}') {
        return Some(out);
    }
    loop {
        let (key, j) = string(b, i)?;
        i = skip(b, j);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip(b, i + 1);
        let value = if b.get(i) == Some(&b'"') {
            let (s, j) = string(b, i)?;
            i = j;
            Value::Str(s)
        } else {
            let start = i;
            while i < b.len() && !matches!(b[i], b',' | b'}' | b' ' | b'\t' | b'\r' | b'\n') {
                i += 1;
            }
            text[start..i].parse().map(Value::Int).unwrap_or(Value::Other)
        };
        out.insert(key, value);
        i = skip(b, i);
        match b.get(i) {
            Some(b',') => i = skip(b, i + 1),
            Some(b'}') => return Some(out),
            _ => return None,
        }
    }
}

fn skip(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
        i += 1;
    }
    i
}

/// A string at `i` (simple escapes and \u of the BMP; enough for ids, modes and base64).
fn string(b: &[u8], i: usize) -> Option<(String, usize)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut out = Vec::new();
    let mut j = i + 1;
    loop {
        match *b.get(j)? {
            b'"' => return Some((String::from_utf8(out).ok()?, j + 1)),
            b'\\' => {
                let c = *b.get(j + 1)?;
                j += 2;
                match c {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'u' => {
                        let hex = std::str::from_utf8(b.get(j..j + 4)?).ok()?;
                        let cp = u32::from_str_radix(hex, 16).ok()?;
                        out.extend_from_slice(char::from_u32(cp).unwrap_or('\u{fffd}').to_string().as_bytes());
                        j += 4;
                    }
                    other => out.push(other),
                }
            }
            c => {
                out.push(c);
                j += 1;
            }
        }
    }
}

/// Appends `s` as a JSON string, escaping everything but printable ASCII (`\u` escapes).
pub fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for u in s.encode_utf16() {
        match u {
            0x22 => out.push_str("\\\""),
            0x5C => out.push_str("\\\\"),
            0x20..=0x7E => out.push(u as u8 as char),
            _ => out.push_str(&format!("\\u{u:04x}")),
        }
    }
    out.push('"');
}
