//! Levels 1 and 2 of the precedence (schema/README.md section 4): the line is well-formed
//! UTF-8, then one RFC 8259 value with nothing after it but whitespace, at most `MAX_DEPTH`
//! containers deep. One pass, no heap allocation (the stack of open containers is `MAX_DEPTH`
//! bytes on the frame); the refusals' pointer is `""` and the offset says where.

use crate::error::{Category, DecodeError};
use crate::generated::tables::MAX_DEPTH;

pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    i
}

#[cold]
pub(crate) fn json(at: usize, detail: &str) -> DecodeError {
    DecodeError::line_level(Category::InvalidJson, Some(at), detail)
}

/// Checks the line; returns it as text and the offset of its value's first byte.
pub fn check(b: &[u8]) -> Result<(&str, usize), DecodeError> {
    let text = match std::str::from_utf8(b) {
        Ok(text) => text,
        Err(e) => {
            return Err(DecodeError::line_level(
                Category::InvalidUtf8,
                Some(e.valid_up_to()),
                "invalid UTF-8",
            ))
        }
    };
    if b.starts_with(b"\xef\xbb\xbf") {
        return Err(json(0, "byte order mark (U+FEFF) before the message"));
    }
    let start = skip_ws(b, 0);
    if start == b.len() {
        return Err(json(start, "empty line: no JSON value"));
    }
    let end = value_end(b, start, 0)?;
    let j = skip_ws(b, end);
    if j != b.len() {
        return Err(DecodeError::line_level(
            Category::TrailingData,
            Some(j),
            "data after the message object",
        ));
    }
    Ok((text, start))
}

/// The end of the grammar-valid value at `i` (its first byte), which sits inside `depth` open
/// containers: the grammar of one value, its first defect refused.
pub(crate) fn value_end(b: &[u8], mut i: usize, depth: usize) -> Result<usize, DecodeError> {
    // the open containers, on the stack frame: no heap allocation per line
    let mut stack = [0u8; MAX_DEPTH];
    let mut open = 0usize;
    'value: loop {
        // a value at i
        match b.get(i) {
            Some(&c @ (b'{' | b'[')) => {
                if depth + open + 1 > MAX_DEPTH {
                    return Err(too_deep(i));
                }
                let close = if c == b'{' { b'}' } else { b']' };
                let j = skip_ws(b, i + 1);
                if b.get(j) == Some(&close) {
                    i = j + 1;
                } else {
                    stack[open] = c;
                    open += 1;
                    i = j;
                    if c == b'{' {
                        i = member_key(b, i)?;
                    }
                    continue 'value;
                }
            }
            Some(b'"') => i = string_end(b, i)?,
            Some(&c) if c == b'-' || c.is_ascii_digit() => i = number_end(b, i)?,
            _ => i = literal_end(b, i)?,
        }
        // after a value: close containers or go to the next member or item
        loop {
            let Some(&top) = open.checked_sub(1).and_then(|d| stack.get(d)) else {
                return Ok(i);
            };
            i = skip_ws(b, i);
            let close = if top == b'{' { b'}' } else { b']' };
            match b.get(i) {
                Some(b',') => {
                    i = skip_ws(b, i + 1);
                    if top == b'{' {
                        i = member_key(b, i)?;
                    } else if b.get(i) == Some(&b']') {
                        return Err(json(i, "trailing comma in array"));
                    }
                    continue 'value;
                }
                Some(&c) if c == close => {
                    i += 1;
                    open -= 1;
                }
                _ => {
                    return Err(json(
                        i,
                        if top == b'{' {
                            "',' or '}' expected in object"
                        } else {
                            "',' or ']' expected in array"
                        },
                    ))
                }
            }
        }
    }
}

/// The refusal of a container opened at `at` beyond `MAX_DEPTH`.
#[cold]
pub(crate) fn too_deep(at: usize) -> DecodeError {
    DecodeError::line_level(
        Category::TooDeep,
        Some(at),
        format!("nesting deeper than {MAX_DEPTH} levels"),
    )
}

/// A key at `i` (after `{` or `,` and whitespace), its `:` and the whitespace after it.
pub(crate) fn member_key(b: &[u8], i: usize) -> Result<usize, DecodeError> {
    match b.get(i) {
        Some(b'"') => {}
        Some(b'}') => return Err(json(i, "trailing comma in object")),
        _ => return Err(json(i, "object key expected (a double-quoted string)")),
    }
    let j = skip_ws(b, string_end(b, i)?);
    if b.get(j) != Some(&b':') {
        return Err(json(j, "':' expected after object key"));
    }
    Ok(skip_ws(b, j + 1))
}

/// The end of the string starting at `i` (its `"`).
pub(crate) fn string_end(b: &[u8], i: usize) -> Result<usize, DecodeError> {
    let mut j = i + 1;
    while j < b.len() {
        j = crate::string_stops::find_string_stop(b, j);
        let Some(&c) = b.get(j) else { break };
        if c == b'"' {
            return Ok(j + 1);
        }
        if c == b'\\' {
            match b.get(j + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => j += 2,
                Some(b'u') => {
                    let hex = b.get(j + 2..j + 6);
                    if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                        return Err(json(j, "invalid \\u escape (four hex digits expected)"));
                    }
                    j += 6;
                }
                _ => return Err(json(j, "invalid escape")),
            }
            continue;
        }
        if c < 0x20 {
            return Err(json(j, "raw control character inside a string"));
        }
        j += 1;
    }
    Err(json(i, "unterminated string"))
}

/// The end of the RFC 8259 number at `i`: the number token runs to the first character that is
/// none of the ASCII digits, `.`, `e`, `E`, `+`, `-` or an ASCII letter (section 1.3; a non-ASCII
/// character ends it), and must be one RFC 8259 number.
pub(crate) fn number_end(b: &[u8], i: usize) -> Result<usize, DecodeError> {
    let end = rfc_number_end(b, i).ok_or_else(|| json(i, "invalid number"))?;
    match b.get(end) {
        Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'.' | b'+' | b'-') => Err(json(i, "invalid number")),
        _ => Ok(end),
    }
}

/// The end of `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` at `i`, or None.
pub(crate) fn rfc_number_end(b: &[u8], i: usize) -> Option<usize> {
    let digits = |mut j: usize| {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut j = i;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    match b.get(j) {
        Some(b'0') => j += 1,
        Some(c) if c.is_ascii_digit() => j = digits(j),
        _ => return None,
    }
    if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
        j = digits(j + 1);
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if b.get(k).is_some_and(u8::is_ascii_digit) {
            j = digits(k);
        }
    }
    Some(j)
}

fn literal_end(b: &[u8], i: usize) -> Result<usize, DecodeError> {
    let rest = &b[i.min(b.len())..];
    for word in [&b"true"[..], b"false", b"null"] {
        if rest.starts_with(word) {
            return Ok(i + word.len());
        }
    }
    Err(json(
        i,
        if rest.is_empty() {
            "unexpected end of line"
        } else {
            "a JSON value expected"
        },
    ))
}
