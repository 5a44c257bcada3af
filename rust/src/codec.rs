//! `decode`, `decode_lenient`, `encode`: the levels of schema/README.md section 4 in order.
//! (1) UTF-8, then the typed decoder reads the line into the generated types in one pass that
//! checks (2) the grammar of everything it reads (`de.rs`), so a line it accepts passes every
//! level. Only when it refuses are the levels asked in order: the grammar check (`grammar.rs`),
//! then the level-3 walk (`walk.rs`: a duplicate key, lone surrogate or out-of-range number),
//! then the typed decoder's own refusal (level 4).

use crate::de::{De, Decode};
use crate::error::{Category, DecodeError};
use crate::generated::Message;
use crate::grammar::{self, is_ws};
use crate::pointer::Path;
use crate::ser::Encode;

/// A well-formed JSON object that strict decoding refuses, kept as the bytes of its object (from
/// `{` to `}`, schema/README.md section 5), with the refusal strict decoding gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Opaque {
    pub raw: Vec<u8>,
    pub error: DecodeError,
}

/// What lenient decoding gives.
#[derive(Clone, Debug, PartialEq)]
pub enum Decoded {
    Message(Message),
    Opaque(Opaque),
}

impl Decoded {
    /// The canonical bytes (an opaque message: its own bytes).
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Decoded::Message(m) => encode(m),
            Decoded::Opaque(o) => o.raw.clone(),
        }
    }
}

/// Decodes one line (one trailing LF allowed) strictly into a value of a generated type.
pub fn decode_as<T: Decode>(line: &[u8]) -> Result<T, DecodeError> {
    let text = std::str::from_utf8(line)
        .map_err(|e| DecodeError::line_level(Category::InvalidUtf8, Some(e.valid_up_to()), "invalid UTF-8"))?;
    if let Some(at) = line_break_at(line) {
        let name = if line[at] == b'\n' {
            "line feed (LF)"
        } else {
            "carriage return (CR)"
        };
        return Err(DecodeError::line_level(
            Category::LineBreak,
            Some(at),
            format!("raw {name} inside the message"),
        ));
    }
    // one pass: the typed decoder checks the grammar of all it reads
    let mut de = De::new(text, 0);
    let refusal = if line.get(de.value_start()) == Some(&b'{') {
        match T::decode(&mut de, &Path::ROOT) {
            Ok(v) if de.at_end() => return Ok(v),
            Ok(_) => None, // data after the value: the grammar check says what
            Err(e) => Some(e),
        }
    } else {
        None
    };
    // refused: the levels in order decide which refusal the line gets
    let (_, start) = grammar::check(line)?;
    if line[start] != b'{' {
        return Err(DecodeError::new(
            Category::WrongType,
            crate::pointer::Pointer::root(),
            Some(0),
            "a message is a JSON object",
        ));
    }
    let lexical = crate::walk::first_lexical(text, start);
    Err(lexical.or(refusal).unwrap_or_else(|| grammar::json(0, "refused")))
}

/// Where the first raw LF or CR of a line (less its terminating LF) is, when it comes before the
/// JSON whitespace that ends the line, i.e. inside the message (schema/README.md section 1.5,
/// `line_break`).
fn line_break_at(line: &[u8]) -> Option<usize> {
    let body = line.strip_suffix(b"\n").unwrap_or(line);
    let at = crate::string_stops::find_line_break(body)?;
    if body[at..].iter().all(|&b| is_ws(b)) {
        None
    } else {
        Some(at)
    }
}

/// Decodes one line (one trailing LF allowed) strictly.
pub fn decode(line: &[u8]) -> Result<Message, DecodeError> {
    decode_as::<Message>(line)
}

/// Decodes one line leniently: a well-formed object strict decoding refuses is kept opaque.
/// Still refused: the bytes and grammar (`invalid_utf8`, `invalid_json`, `too_deep`,
/// `trailing_data`) and a line that is not an object (`wrong_type`).
pub fn decode_lenient(line: &[u8]) -> Result<Decoded, DecodeError> {
    match decode(line) {
        Ok(m) => Ok(Decoded::Message(m)),
        Err(e) if refused_leniently(&e) => Err(e),
        Err(error) => {
            let mut a = 0;
            let mut b = line.len();
            while a < b && is_ws(line[a]) {
                a += 1;
            }
            while b > a && is_ws(line[b - 1]) {
                b -= 1;
            }
            Ok(Decoded::Opaque(Opaque {
                raw: line[a..b].to_vec(),
                error,
            }))
        }
    }
}

/// What lenient decoding still refuses: the line's bytes and grammar, and a line that is not an object.
fn refused_leniently(e: &DecodeError) -> bool {
    use Category::*;
    matches!(
        e.category,
        InvalidUtf8 | InvalidJson | TooDeep | TrailingData | LineBreak | TooLarge | Truncated
    ) || (e.category == WrongType && e.pointer.is_empty())
}

/// The canonical encoding of a message (no trailing LF).
pub fn encode(msg: &Message) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    msg.encode(&mut out);
    out
}

/// Appends the canonical encoding of a message to `out`.
pub fn encode_into(msg: &Message, out: &mut Vec<u8>) {
    msg.encode(out);
}

/// The canonical bytes of one line (no trailing LF).
pub fn canonicalize(line: &[u8], lenient: bool) -> Result<Vec<u8>, DecodeError> {
    if lenient {
        Ok(decode_lenient(line)?.encode())
    } else {
        Ok(encode(&decode(line)?))
    }
}
