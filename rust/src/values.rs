//! The value types the schema needs beyond `String`, `u64`, `f64` and `Vec`: verbatim JSON kept as
//! its source bytes, fragment strings that may hold a lone UTF-16 surrogate, and `number | string`.

use std::fmt;

use crate::error::{Category, DecodeError};
use crate::grammar;

/// An open JSON value the protocol does not own (`fidelity`, tool `parameters`, hook `output`),
/// kept as its exact source bytes, from its `{` to its `}` (schema/README.md section 3).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Verbatim(String);

impl Verbatim {
    /// Wraps JSON text that must be one object (whitespace around it is dropped).
    pub fn from_json(text: &str) -> Result<Verbatim, DecodeError> {
        let (_, start) = grammar::check(text.as_bytes())?;
        if text.as_bytes().get(start) != Some(&b'{') {
            return Err(DecodeError::new(
                Category::WrongType,
                crate::pointer::Pointer::root(),
                Some(start),
                "a verbatim value is a JSON object",
            ));
        }
        let trimmed = text.trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\n'));
        let value = Verbatim(trimmed.to_owned());
        // A message is one line (schema/README.md section 1.5): kept byte for byte, a raw LF or
        // CR would split the record. An empty object is left out by builders, so it may hold one.
        if let Some(at) = trimmed.bytes().position(|b| b == b'\n' || b == b'\r') {
            if !value.is_empty() {
                let offset = text.len() - text.trim_start_matches([' ', '\t', '\r', '\n']).len();
                return Err(DecodeError::line_level(
                    Category::LineBreak,
                    Some(offset + at),
                    "a verbatim value holds a raw line feed or carriage return: a message is one line",
                ));
            }
        }
        Ok(value)
    }

    pub(crate) fn from_span(span: &str) -> Verbatim {
        Verbatim(span.to_owned())
    }

    /// The exact bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// An object with no members, in any spelling (`{}`, `{ }`): builders leave such a value out.
    pub fn is_empty(&self) -> bool {
        self.0
            .bytes()
            .all(|c| matches!(c, b'{' | b'}' | b' ' | b'\t' | b'\r' | b'\n'))
    }
}

impl fmt::Debug for Verbatim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Verbatim({})", self.0)
    }
}

/// A streaming fragment (the fragment field of a `partial_*` payload): a string cut at an
/// arbitrary UTF-16 offset, so it may begin or end with half of a surrogate pair. Held as
/// WTF-8; joining two fragments pairs the halves up again (schema/README.md section 4.1).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Fragment(Vec<u8>);

impl Fragment {
    pub(crate) fn from_wtf8(bytes: Vec<u8>) -> Fragment {
        Fragment(bytes)
    }

    /// The WTF-8 bytes (UTF-8 unless a lone surrogate is held).
    pub fn as_wtf8(&self) -> &[u8] {
        &self.0
    }

    /// The text, when it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// The text, a lone surrogate shown as U+FFFD.
    pub fn to_string_lossy(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Appends `other` as UTF-16 code units are joined: a high surrogate ending this fragment
    /// and a low one starting `other` become one character.
    pub fn push(&mut self, other: &Fragment) {
        let n = self.0.len();
        let tail = self.0.get(n.saturating_sub(3)..).unwrap_or(&[]);
        let head = other.0.get(..3).unwrap_or(&[]);
        if tail.len() == 3
            && head.len() == 3
            && tail[0] == 0xED
            && (0xA0..0xB0).contains(&tail[1])
            && head[0] == 0xED
            && head[1] >= 0xB0
        {
            let high = 0xD000 | (u32::from(tail[1] & 0x3F) << 6) | u32::from(tail[2] & 0x3F);
            let low = 0xD000 | (u32::from(head[1] & 0x3F) << 6) | u32::from(head[2] & 0x3F);
            self.0.truncate(n - 3);
            crate::strings::push_wtf8(&mut self.0, 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
            self.0.extend_from_slice(&other.0[3..]);
        } else {
            self.0.extend_from_slice(&other.0);
        }
    }
}

impl From<&str> for Fragment {
    fn from(s: &str) -> Fragment {
        Fragment(s.as_bytes().to_vec())
    }
}

impl From<String> for Fragment {
    fn from(s: String) -> Fragment {
        Fragment(s.into_bytes())
    }
}

impl fmt::Debug for Fragment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fragment({:?})", self.to_string_lossy())
    }
}

/// A value that is a number or a string (`model_context_window`).
#[derive(Clone, Debug, PartialEq)]
pub enum NumberOrString {
    Number(f64),
    String(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_join_as_utf16() {
        let mut a = Fragment::from_wtf8(b"abc\xed\xa0\xbd".to_vec());
        a.push(&Fragment::from_wtf8(b"\xed\xb8\x80def".to_vec()));
        assert_eq!(a.as_str(), Some("abc😀def"));
    }

    #[test]
    fn empty_verbatim_in_any_spelling() {
        assert!(Verbatim::from_json(" { \n } ").unwrap().is_empty());
        assert!(!Verbatim::from_json("{\"a\":1}").unwrap().is_empty());
        assert!(Verbatim::from_json("[]").is_err());
    }
}
