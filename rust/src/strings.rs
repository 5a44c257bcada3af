//! Reading a JSON string token in one pass: checked as the grammar checks it, unescaped into text
//! or into WTF-8, so that a lone surrogate escape survives as the code unit it names. Runs of plain
//! bytes are copied at once (`string_stops`); writing strings back is `escape`.

use crate::error::DecodeError;
use crate::grammar::json;
use crate::string_stops::find_string_stop;

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

#[cfg(test)]
mod tests {
    use super::*;

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
