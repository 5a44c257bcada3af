//! The typed decoder: reads a line the grammar check accepted (so it never meets a syntax
//! error) straight into the generated types, refusing schema errors (level 4) with their pointer
//! and offset. It also notices the lexical defects of level 3 on its way (a duplicate field, a
//! lone surrogate, a number beyond the double range); whatever it refuses, the decoder then asks
//! the level-3 walk (`walk.rs`) first, which decides exactly.

use crate::error::{clip, Category, DecodeError};
use crate::grammar::{rfc_number_end, skip_ws};
use crate::number;
use crate::pointer::Path;
use crate::strings::{find_quote_or_backslash, unescape, unescape_str};
use crate::values::{Fragment, NumberOrString, Verbatim};

pub type Result<T> = std::result::Result<T, DecodeError>;

/// A key that names none of an object's fields.
pub const UNKNOWN: usize = usize::MAX;

/// The cursor of the typed decoder over a grammar-valid line.
pub struct De<'a> {
    text: &'a str,
    b: &'a [u8],
    pub(crate) i: usize,
    scratch: Vec<u8>,
}

/// Values the generated code decodes without parameters.
pub trait Decode: Sized {
    fn decode(de: &mut De<'_>, path: &Path<'_>) -> Result<Self>;
}

impl<'a> De<'a> {
    pub fn new(text: &'a str, start: usize) -> De<'a> {
        De {
            text,
            b: text.as_bytes(),
            i: start,
            scratch: Vec::new(),
        }
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

    /// `{`; returns where the object starts.
    pub fn begin_object(&mut self, path: &Path<'_>) -> Result<usize> {
        let at = self.value_start();
        if self.at() != b'{' {
            return Err(self.wrong_type(path, at, "an object"));
        }
        self.i += 1;
        Ok(at)
    }

    /// The next member's key as an index into `fields` (UNKNOWN when it names none) and where
    /// the key starts; None at the object's end. The cursor is left at the member's value.
    pub fn next_key(&mut self, fields: &[&str]) -> Option<(usize, usize)> {
        self.i = skip_ws(self.b, self.i);
        if self.at() == b',' {
            self.i = skip_ws(self.b, self.i + 1);
        }
        if self.at() != b'"' {
            self.i += 1; // the `}`
            return None;
        }
        let key_start = self.i;
        let (body, escaped) = self.string_body();
        let index = if escaped {
            self.scratch.clear();
            let lone = unescape(body, &mut self.scratch);
            if lone {
                UNKNOWN
            } else {
                fields
                    .iter()
                    .position(|f| f.as_bytes() == self.scratch.as_slice())
                    .unwrap_or(UNKNOWN)
            }
        } else {
            fields.iter().position(|f| f.as_bytes() == body).unwrap_or(UNKNOWN)
        };
        self.i = skip_ws(self.b, self.i);
        self.i = skip_ws(self.b, self.i + 1); // the `:`
        Some((index, key_start))
    }

    /// The body of the string at the cursor (between its quotes) and whether it has escapes;
    /// the cursor moves past it.
    fn string_body(&mut self) -> (&'a [u8], bool) {
        let start = self.i + 1;
        let mut j = find_quote_or_backslash(self.b, start);
        let mut escaped = false;
        while self.b.get(j) == Some(&b'\\') {
            escaped = true;
            j = find_quote_or_backslash(self.b, j + 2);
        }
        self.i = (j + 1).min(self.b.len());
        (&self.b[start.min(j)..j.min(self.b.len())], escaped)
    }

    /// The string value of key at `key_start` (for details and pointers), lossy.
    pub fn key_text(&self, key_start: usize) -> String {
        let mut d = De::new(self.text, key_start);
        let (body, _) = d.string_body();
        let mut out = Vec::new();
        unescape(body, &mut out);
        String::from_utf8_lossy(&out).into_owned()
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

    /// Skips the value at the cursor (grammar-valid).
    pub fn skip_value(&mut self) {
        self.i = skip_ws(self.b, self.i);
        match self.at() {
            b'"' => {
                self.string_body();
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                while self.i < self.b.len() {
                    match self.b[self.i] {
                        b'"' => {
                            self.string_body();
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return;
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            _ => {
                while self.i < self.b.len()
                    && !matches!(self.b[self.i], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                {
                    self.i += 1;
                }
            }
        }
    }

    /// A string value; a lone surrogate escape is refused unless `fragment`.
    fn wtf8(&mut self, path: &Path<'_>) -> Result<(Vec<u8>, bool)> {
        let at = self.value_start();
        if self.at() != b'"' {
            return Err(self.wrong_type(path, at, "a string"));
        }
        let (body, escaped) = self.string_body();
        if !escaped {
            return Ok((body.to_vec(), false));
        }
        let mut out = Vec::with_capacity(body.len());
        let lone = unescape(body, &mut out);
        Ok((out, lone))
    }

    pub fn string(&mut self, path: &Path<'_>) -> Result<String> {
        let at = self.value_start();
        if self.at() == b'"' {
            let start = at + 1;
            let (body, escaped) = self.string_body();
            // the line is valid UTF-8 and the quotes are ASCII: the body is text
            let text = self.text.get(start..start + body.len()).unwrap_or("");
            if !escaped {
                return Ok(text.to_owned());
            }
            let mut out = String::with_capacity(body.len());
            if unescape_str(text, &mut out) {
                return Ok(out);
            }
            return Err(self.error(Category::LoneSurrogate, path, at, "string escapes a lone surrogate"));
        }
        let (bytes, lone) = self.wtf8(path)?;
        if lone {
            return Err(self.error(Category::LoneSurrogate, path, at, "string escapes a lone surrogate"));
        }
        String::from_utf8(bytes)
            .map_err(|_| self.error(Category::LoneSurrogate, path, at, "string escapes a lone surrogate"))
    }

    pub fn fragment(&mut self, path: &Path<'_>) -> Result<Fragment> {
        Ok(Fragment::from_wtf8(self.wtf8(path)?.0))
    }

    /// A string that must be `value` (a discriminator or a fixed role).
    pub fn constant(&mut self, path: &Path<'_>, value: &str) -> Result<()> {
        let at = self.value_start();
        let s = self.string(path)?;
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
        let s = self.string(path)?;
        s.parse::<T>().map_err(|_| {
            self.error(
                Category::InvalidValue,
                path,
                at,
                format!("{} is not allowed here", clip(&s)),
            )
        })
    }

    /// The number token at the cursor and its double.
    fn number_token(&mut self, path: &Path<'_>, expected: &str) -> Result<(usize, &'a str, f64)> {
        let at = self.value_start();
        let c = self.at();
        if !(c == b'-' || c.is_ascii_digit()) {
            return Err(self.wrong_type(path, at, expected));
        }
        let end = rfc_number_end(self.b, at).unwrap_or(at + 1).min(self.b.len());
        self.i = end;
        let spelling = self.text.get(at..end).unwrap_or("0");
        let value = number::parse(spelling);
        if !value.is_finite() {
            return Err(self.error(
                Category::InvalidNumber,
                path,
                at,
                format!("{} is beyond the IEEE 754 double range", clip(spelling)),
            ));
        }
        Ok((at, spelling, value))
    }

    /// An integer field within `min..=max`, judged by its parsed double (section 6).
    pub fn integer(&mut self, path: &Path<'_>, min: u64, max: u64) -> Result<u64> {
        let (at, spelling, value) = self.number_token(path, "an integer")?;
        if value.fract() != 0.0 {
            return Err(self.error(
                Category::WrongType,
                path,
                at,
                format!("expected an integer, got {}", clip(spelling)),
            ));
        }
        if number::has_fraction_or_exponent(spelling.as_bytes()) {
            return Err(self.error(
                Category::InvalidNumber,
                path,
                at,
                format!(
                    "integer written as {}: integers take no fraction or exponent",
                    clip(spelling)
                ),
            ));
        }
        if value < min as f64 || value > max as f64 {
            return Err(self.error(
                Category::InvalidValue,
                path,
                at,
                format!("{} is outside {min}..{max}", clip(spelling)),
            ));
        }
        Ok(value as u64)
    }

    /// A number field, at least `min` when given.
    pub fn number(&mut self, path: &Path<'_>, min: Option<f64>) -> Result<f64> {
        let (at, spelling, value) = self.number_token(path, "a number")?;
        if min.is_some_and(|m| value < m) {
            return Err(self.error(
                Category::InvalidValue,
                path,
                at,
                format!("{} is below the minimum", clip(spelling)),
            ));
        }
        Ok(value)
    }

    /// A number (at least `min`) or a string.
    pub fn number_or_string(&mut self, path: &Path<'_>, min: Option<f64>) -> Result<NumberOrString> {
        let at = self.value_start();
        match self.at() {
            b'"' => Ok(NumberOrString::String(self.string(path)?)),
            c if c == b'-' || c.is_ascii_digit() => Ok(NumberOrString::Number(self.number(path, min)?)),
            _ => Err(self.wrong_type(path, at, "a number or a string")),
        }
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
        self.i += 1;
        let mut out = Vec::new();
        loop {
            self.i = skip_ws(self.b, self.i);
            match self.at() {
                b']' => {
                    self.i += 1;
                    break;
                }
                b',' => self.i += 1,
                _ => {
                    let p = path.index(out.len());
                    out.push(item(self, &p)?);
                }
            }
        }
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

    /// A verbatim value: an object kept as its bytes; `scalar_map`: its member values must be
    /// strings, numbers or booleans.
    pub fn verbatim(&mut self, path: &Path<'_>, scalar_map: bool) -> Result<Verbatim> {
        let at = self.value_start();
        if self.at() != b'{' {
            return Err(self.wrong_type(path, at, "a JSON object (a verbatim value)"));
        }
        if scalar_map {
            self.i += 1;
            while let Some((_, key_start)) = self.next_key(&[]) {
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
                self.skip_value();
            }
        } else {
            self.skip_value();
        }
        Ok(Verbatim::from_span(self.text.get(at..self.i).unwrap_or("{}")))
    }

    /// The string value of the first member named `name` of the object at the cursor, without
    /// moving: Ok(None) when absent; Err(at) when it is not a string (`at`: its value).
    pub fn peek_member(&self, name: &str) -> std::result::Result<Option<(usize, String)>, usize> {
        let mut d = De::new(self.text, self.i);
        d.i = skip_ws(self.b, d.i);
        if d.at() != b'{' {
            return Ok(None);
        }
        d.i += 1;
        while let Some((index, _)) = d.next_key(&[name]) {
            if index == 0 {
                let at = d.value_start();
                if d.at() != b'"' {
                    return Err(at);
                }
                let (bytes, _) = d.wtf8(&Path::ROOT).map_err(|_| at)?;
                return Ok(Some((at, String::from_utf8_lossy(&bytes).into_owned())));
            }
            d.skip_value();
        }
        Ok(None)
    }

    /// The discriminator of the object at the cursor: its first `type` member, which must be a string.
    pub fn tag(&mut self, path: &Path<'_>) -> Result<(usize, String)> {
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
