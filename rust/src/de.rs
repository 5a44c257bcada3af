//! The typed decoder: reads a line straight into the generated types in one pass, checking the
//! grammar of every byte it passes (a string's escapes and control characters, a number's
//! spelling, the commas and colons, the nesting depth, verbatim values whole) and refusing
//! schema errors (level 4) with their pointer and offset. It also notices the lexical defects of
//! level 3 on its way (a duplicate field, a lone surrogate, a number beyond the double range).
//! Whatever it refuses, `codec.rs` then asks the grammar check and the level-3 walk (`walk.rs`)
//! first, which decide exactly; so a line it accepts is one the grammar accepts, and a refusal
//! of its own for bad syntax never reaches the caller.

mod numbers;

use std::borrow::Cow;

use crate::error::{clip, Category, DecodeError};
use crate::generated::tables::MAX_DEPTH;
use crate::grammar::{json, number_end, skip_ws, too_deep, value_end};
use crate::pointer::Path;
use crate::strings::{scan, Scanned, Sink};
use crate::values::{Fragment, Verbatim};

pub type Result<T> = std::result::Result<T, DecodeError>;

/// A key that names none of an object's fields.
pub const UNKNOWN: usize = usize::MAX;

/// The cursor of the typed decoder over a line of valid UTF-8.
pub struct De<'a> {
    text: &'a str,
    b: &'a [u8],
    pub(crate) i: usize,
    /// The containers open around the cursor (the grammar's `MAX_DEPTH` counts them).
    depth: usize,
    /// An object was just opened: its first member (or its `}`) comes next, no `,`.
    fresh: bool,
}

/// Values the generated code decodes without parameters.
pub trait Decode: Sized {
    fn decode(de: &mut De<'_>, path: &Path<'_>) -> Result<Self>;
}

/// The text of a string token whose body runs from `start`.
fn text_of<S>(text: &str, start: usize, s: Scanned<S>) -> std::result::Result<&str, S> {
    match s.unescaped {
        None => Ok(text.get(start..s.end - 1).unwrap_or("")),
        Some(out) => Err(out),
    }
}

impl<'a> De<'a> {
    pub fn new(text: &'a str, start: usize) -> De<'a> {
        De {
            text,
            b: text.as_bytes(),
            i: start,
            depth: 0,
            fresh: false,
        }
    }

    /// Whether only whitespace follows the cursor.
    pub(crate) fn at_end(&self) -> bool {
        skip_ws(self.b, self.i) == self.b.len()
    }

    fn at(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    /// Skips whitespace; returns where the value starts.
    pub fn value_start(&mut self) -> usize {
        self.i = skip_ws(self.b, self.i);
        self.i
    }

    pub fn error(&self, category: Category, path: &Path<'_>, at: usize, detail: impl Into<String>) -> DecodeError {
        DecodeError::new(category, path.render(), Some(at), detail)
    }

    fn what(&self, at: usize) -> &'static str {
        match self.b.get(at) {
            Some(b'{') => "an object",
            Some(b'[') => "an array",
            Some(b'"') => "a string",
            Some(b't' | b'f') => "a boolean",
            Some(b'n') => "null",
            _ => "a number",
        }
    }

    pub fn wrong_type(&self, path: &Path<'_>, at: usize, expected: &str) -> DecodeError {
        let got = self.what(at);
        self.error(Category::WrongType, path, at, format!("expected {expected}, got {got}"))
    }

    /// Enters the container at the cursor (its `{` or `[`).
    fn enter(&mut self) -> Result<()> {
        if self.depth + 1 > MAX_DEPTH {
            return Err(too_deep(self.i));
        }
        self.depth += 1;
        self.i += 1;
        Ok(())
    }

    /// `{`; returns where the object starts.
    pub fn begin_object(&mut self, path: &Path<'_>) -> Result<usize> {
        let at = self.value_start();
        if self.at() != b'{' {
            return Err(self.wrong_type(path, at, "an object"));
        }
        self.enter()?;
        self.fresh = true;
        Ok(at)
    }

    /// The next member's key as an index into `fields` (UNKNOWN when it names none) and where
    /// the key starts; None at the object's end (its `}` consumed). The cursor is left at the
    /// member's value.
    pub fn next_key(&mut self, fields: &[&str]) -> Result<Option<(usize, usize)>> {
        self.i = skip_ws(self.b, self.i);
        let fresh = std::mem::replace(&mut self.fresh, false);
        match self.at() {
            b'}' => {
                self.i += 1;
                self.depth -= 1;
                return Ok(None);
            }
            b',' if !fresh => self.i = skip_ws(self.b, self.i + 1),
            b'"' if fresh => {}
            _ => return Err(json(self.i, "',' or '}' expected in object")),
        }
        let key_start = self.i;
        if self.at() != b'"' {
            return Err(json(key_start, "object key expected (a double-quoted string)"));
        }
        let key = scan::<Vec<u8>>(self.text, key_start)?;
        self.i = skip_ws(self.b, key.end);
        if self.at() != b':' {
            return Err(json(self.i, "':' expected after object key"));
        }
        self.i += 1;
        let index = match (&key.unescaped, key.lone) {
            (_, true) => UNKNOWN,
            (None, false) => {
                let body = &self.b[key_start + 1..key.end - 1];
                fields.iter().position(|f| f.as_bytes() == body).unwrap_or(UNKNOWN)
            }
            (Some(k), false) => fields
                .iter()
                .position(|f| f.as_bytes() == k.as_slice())
                .unwrap_or(UNKNOWN),
        };
        Ok(Some((index, key_start)))
    }

    /// The string value of key at `key_start` (for details and pointers), lossy.
    pub fn key_text(&self, key_start: usize) -> String {
        match scan::<String>(self.text, key_start) {
            Ok(s) => text_of(self.text, key_start + 1, s).map_or_else(|s| s, str::to_owned),
            Err(_) => String::new(),
        }
    }

    pub fn unexpected(&self, path: &Path<'_>, key_start: usize) -> DecodeError {
        let key = self.key_text(key_start);
        DecodeError::new(
            Category::UnexpectedField,
            path.render_with(key.as_bytes()),
            Some(key_start),
            format!("key {} is not defined here", clip(&key)),
        )
    }

    pub fn duplicate(&self, path: &Path<'_>, key_start: usize) -> DecodeError {
        let key = self.key_text(key_start);
        DecodeError::new(
            Category::DuplicateKey,
            path.render_with(key.as_bytes()),
            Some(key_start),
            format!("duplicate key {}", clip(&key)),
        )
    }

    pub fn missing(&self, path: &Path<'_>, field: &str, object_start: usize) -> DecodeError {
        DecodeError::new(
            Category::MissingField,
            path.render_with(field.as_bytes()),
            Some(object_start),
            format!("required key '{field}' is missing"),
        )
    }

    /// Skips the value at the cursor, checking its grammar.
    pub fn skip_value(&mut self) -> Result<()> {
        let at = self.value_start();
        self.i = match self.at() {
            b'"' => scan::<Vec<u8>>(self.text, at)?.end,
            b'{' | b'[' => value_end(self.b, at, self.depth)?,
            c if c == b'-' || c.is_ascii_digit() => number_end(self.b, at)?,
            _ => value_end(self.b, at, self.depth)?,
        };
        Ok(())
    }

    /// The string token at the cursor (which must be one), read by `scan`.
    fn token<S: Sink>(&mut self, path: &Path<'_>) -> Result<(usize, Scanned<S>)> {
        let at = self.value_start();
        if self.at() != b'"' {
            return Err(self.wrong_type(path, at, "a string"));
        }
        let s = scan::<S>(self.text, at)?;
        self.i = s.end;
        Ok((at, s))
    }

    /// A string value, borrowed from the line when it has no escape; a lone surrogate is refused.
    pub fn str(&mut self, path: &Path<'_>) -> Result<Cow<'a, str>> {
        let (at, s) = self.token::<String>(path)?;
        if s.lone {
            return Err(self.error(Category::LoneSurrogate, path, at, "string escapes a lone surrogate"));
        }
        Ok(text_of(self.text, at + 1, s).map_or_else(Cow::Owned, Cow::Borrowed))
    }

    pub fn string(&mut self, path: &Path<'_>) -> Result<String> {
        Ok(self.str(path)?.into_owned())
    }

    /// A fragment: a string that may escape a lone surrogate (WTF-8).
    pub fn fragment(&mut self, path: &Path<'_>) -> Result<Fragment> {
        let (at, s) = self.token::<Vec<u8>>(path)?;
        let bytes = text_of(self.text, at + 1, s).map_or_else(|v| v, |t| t.as_bytes().to_vec());
        Ok(Fragment::from_wtf8(bytes))
    }

    /// A string that must be `value` (a discriminator or a fixed role).
    pub fn constant(&mut self, path: &Path<'_>, value: &str) -> Result<()> {
        let at = self.value_start();
        let s = self.str(path)?;
        if s != value {
            return Err(self.error(
                Category::InvalidValue,
                path,
                at,
                format!("{} is not allowed here (expected '{value}')", clip(&s)),
            ));
        }
        Ok(())
    }

    /// A string of a vocabulary (an enum).
    pub fn enumerated<T: std::str::FromStr>(&mut self, path: &Path<'_>) -> Result<T> {
        let at = self.value_start();
        let s = self.str(path)?;
        s.parse::<T>().map_err(|_| {
            self.error(
                Category::InvalidValue,
                path,
                at,
                format!("{} is not allowed here", clip(&s)),
            )
        })
    }

    /// A boolean field: `true` or `false`.
    pub fn boolean(&mut self, path: &Path<'_>) -> Result<bool> {
        let at = self.value_start();
        let rest = &self.b[self.i..];
        if rest.starts_with(b"true") {
            self.i += 4;
            Ok(true)
        } else if rest.starts_with(b"false") {
            self.i += 5;
            Ok(false)
        } else {
            Err(self.wrong_type(path, at, "a boolean"))
        }
    }

    /// `null` (consumed) or not.
    pub fn null(&mut self) -> bool {
        self.value_start();
        if self.b[self.i..].starts_with(b"null") {
            self.i += 4;
            return true;
        }
        false
    }

    /// An array, each item decoded by `item`; at least `min_items` of them.
    pub fn array<T>(
        &mut self,
        path: &Path<'_>,
        min_items: usize,
        mut item: impl FnMut(&mut Self, &Path<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let at = self.value_start();
        if self.at() != b'[' {
            return Err(self.wrong_type(path, at, "an array"));
        }
        self.enter()?;
        let mut out = Vec::new();
        self.value_start();
        if self.at() == b']' {
            self.i += 1;
        } else {
            loop {
                let p = path.index(out.len());
                out.push(item(self, &p)?);
                self.i = skip_ws(self.b, self.i);
                match self.at() {
                    b']' => {
                        self.i += 1;
                        break;
                    }
                    b',' if self.b.get(skip_ws(self.b, self.i + 1)) != Some(&b']') => self.i += 1,
                    _ => return Err(json(self.i, "',' or ']' expected in array")),
                }
            }
        }
        self.depth -= 1;
        if out.len() < min_items {
            return Err(self.error(
                Category::InvalidValue,
                path,
                at,
                format!("expected at least {min_items} items"),
            ));
        }
        Ok(out)
    }

    /// A verbatim value: an object kept as its bytes (its grammar checked); `scalar_map`: its
    /// member values must be strings, numbers or booleans.
    pub fn verbatim(&mut self, path: &Path<'_>, scalar_map: bool) -> Result<Verbatim> {
        let at = self.value_start();
        if self.at() != b'{' {
            return Err(self.wrong_type(path, at, "a JSON object (a verbatim value)"));
        }
        if scalar_map {
            self.enter()?;
            self.fresh = true;
            while let Some((_, key_start)) = self.next_key(&[])? {
                let v = self.value_start();
                if matches!(self.at(), b'{' | b'[' | b'n') {
                    let key = self.key_text(key_start);
                    return Err(DecodeError::new(
                        Category::WrongType,
                        path.render_with(key.as_bytes()),
                        Some(v),
                        "values here must be strings, numbers or booleans",
                    ));
                }
                self.skip_value()?;
            }
        } else {
            self.skip_value()?;
        }
        Ok(Verbatim::from_span(self.text.get(at..self.i).unwrap_or("{}")))
    }

    /// The string value of the first member named `name` of the object at the cursor, without
    /// moving: Ok(None) when absent (or when the object's grammar fails before it: the decoder
    /// refuses the line then); Err(at) when it is not a string (`at`: its value). The text is
    /// lossy (a lone surrogate as U+FFFD): the level-3 walk reports the surrogate.
    pub fn peek_member(&self, name: &str) -> std::result::Result<Option<(usize, Cow<'a, str>)>, usize> {
        let mut d = De::new(self.text, self.i);
        d.depth = self.depth;
        if d.value_start() >= self.b.len() || d.at() != b'{' || d.enter().is_err() {
            return Ok(None);
        }
        d.fresh = true;
        while let Ok(Some((index, _))) = d.next_key(&[name]) {
            if index == 0 {
                let at = d.value_start();
                if d.at() != b'"' {
                    return Err(at);
                }
                return match scan::<String>(self.text, at) {
                    Ok(s) => Ok(Some((
                        at,
                        text_of(self.text, at + 1, s).map_or_else(Cow::Owned, Cow::Borrowed),
                    ))),
                    Err(_) => Ok(None),
                };
            }
            if d.skip_value().is_err() {
                break;
            }
        }
        Ok(None)
    }

    /// The discriminator of the object at the cursor: its first `type` member, which must be a string.
    pub fn tag(&mut self, path: &Path<'_>) -> Result<(usize, Cow<'a, str>)> {
        let at = self.value_start();
        if self.at() != b'{' {
            return Err(self.wrong_type(path, at, "an object"));
        }
        let p = path.key("type");
        match self.peek_member("type") {
            Ok(Some(found)) => Ok(found),
            Ok(None) => Err(self.missing(path, "type", at)),
            Err(v) => Err(self.wrong_type(&p, v, "a string")),
        }
    }

    pub fn unknown_type(&self, path: &Path<'_>, at: usize, tag: &str) -> DecodeError {
        self.error(
            Category::UnknownType,
            &path.key("type"),
            at,
            format!("unknown type {}", clip(tag)),
        )
    }
}

impl Decode for String {
    fn decode(de: &mut De<'_>, path: &Path<'_>) -> Result<Self> {
        de.string(path)
    }
}
