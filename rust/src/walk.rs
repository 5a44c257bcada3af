//! Level 3 of the precedence (schema/README.md section 4): the structure walked in document
//! order, the first duplicate key, lone surrogate escape or number beyond the double range
//! outside verbatim values reported. Where the verbatim values and the fragment field are is
//! read from the envelope `type` and the payload `type` (the first member of each name) through
//! the generated tables. Only run on a line the typed decoder refused, so it may take its time.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::de::De;
use crate::error::{clip, Category, DecodeError};
use crate::generated::tables::{payload_info, PayloadInfo, Shape};
use crate::grammar::{rfc_number_end, skip_ws};
use crate::number;
use crate::pointer::Path;
use crate::strings::{scan, Scanned};

struct Walk<'a> {
    text: &'a str,
    b: &'a [u8],
    info: Option<&'static PayloadInfo>,
    rel: Vec<Cow<'a, str>>, // the path from the payload, `*` for an array item
}

/// The first level-3 defect of the grammar-valid line whose value starts at `start`, if any.
pub fn first_lexical(text: &str, start: usize) -> Option<DecodeError> {
    let root = De::new(text, start);
    let env = root.peek_member("type").ok().flatten().map(|(_, t)| t);
    let payload_tag = payload_start(text, start)
        .and_then(|p| De::new(text, p).peek_member("type").ok().flatten())
        .map(|(_, t)| t);
    let info = match (env, payload_tag) {
        (Some(e), Some(p)) => payload_info(&e, &p),
        _ => None,
    };
    let mut w = Walk {
        text,
        b: text.as_bytes(),
        info,
        rel: Vec::new(),
    };
    w.value(start, &Path::ROOT, false).err()
}

/// Where the value of the first `payload` member of the root object starts.
fn payload_start(text: &str, start: usize) -> Option<usize> {
    let mut d = De::new(text, start);
    d.begin_object(&Path::ROOT).ok()?;
    while let Ok(Some((index, _))) = d.next_key(&["payload"]) {
        if index == 0 {
            return Some(d.value_start());
        }
        d.skip_value().ok()?;
    }
    None
}

impl<'a> Walk<'a> {
    fn string_at(&self, i: usize) -> (Cow<'a, [u8]>, bool, usize) {
        match scan::<Vec<u8>>(self.text, i) {
            Ok(Scanned {
                end, unescaped: None, ..
            }) => (Cow::Borrowed(&self.b[i + 1..end - 1]), false, end),
            Ok(Scanned {
                end,
                unescaped: Some(out),
                lone,
            }) => (Cow::Owned(out), lone, end),
            Err(_) => (Cow::Borrowed(&[]), false, self.b.len()), // not reached: the grammar passed
        }
    }

    /// The shape of the verbatim value kept where the walk is, if one is.
    fn at_verbatim(&self, in_payload: bool) -> Option<Shape> {
        if !in_payload {
            return None;
        }
        let info = self.info?;
        info.verbatim
            .iter()
            .find(|(path, _)| path.len() == self.rel.len() && path.iter().zip(&self.rel).all(|(a, b)| *a == b.as_ref()))
            .map(|(_, shape)| *shape)
    }

    /// A verbatim value: its shape is checked where the walk meets it (as the Python and TypeScript
    /// bindings do: a value there that is not an object, or a scalar map's member that is not a
    /// scalar, is refused in document order with the lexical defects); its inside is not walked.
    fn verbatim(&self, i: usize, path: &Path<'_>, shape: Shape) -> Result<usize, DecodeError> {
        let mut d = De::new(self.text, i);
        let wrong = |at: usize, pointer, detail: &str| DecodeError::new(Category::WrongType, pointer, Some(at), detail);
        if self.b.get(i) != Some(&b'{') {
            return Err(wrong(i, path.render(), "a verbatim value here must be a JSON object"));
        }
        if shape == Shape::ScalarMap {
            d.begin_object(path)?;
            while let Some((_, key_start)) = d.next_key(&[])? {
                let v = d.value_start();
                if matches!(self.b.get(v), Some(b'{' | b'[' | b'n')) {
                    let key = d.key_text(key_start);
                    return Err(wrong(
                        v,
                        path.render_with(key.as_bytes()),
                        "values here must be strings, numbers or booleans",
                    ));
                }
                d.skip_value()?;
            }
            return Ok(d.i);
        }
        d.skip_value()?;
        Ok(d.i)
    }

    fn at_fragment(&self, in_payload: bool) -> bool {
        in_payload && self.rel.len() == 1 && self.info.and_then(|i| i.fragment).is_some_and(|f| f == self.rel[0])
    }

    /// Walks the value at `i`; returns its end.
    fn value(&mut self, i: usize, path: &Path<'_>, in_payload: bool) -> Result<usize, DecodeError> {
        let i = skip_ws(self.b, i);
        if let Some(shape) = self.at_verbatim(in_payload) {
            return self.verbatim(i, path, shape);
        }
        match self.b.get(i) {
            Some(b'{') => self.object(i, path, in_payload),
            Some(b'[') => {
                let mut j = skip_ws(self.b, i + 1);
                let mut n = 0;
                while self.b.get(j) != Some(&b']') && j < self.b.len() {
                    if in_payload {
                        self.rel.push(Cow::Borrowed("*"));
                    }
                    let p = path.index(n);
                    let end = self.value(j, &p, in_payload);
                    if in_payload {
                        self.rel.pop();
                    }
                    j = skip_ws(self.b, end?);
                    if self.b.get(j) == Some(&b',') {
                        j = skip_ws(self.b, j + 1);
                    }
                    n += 1;
                }
                Ok(j + 1)
            }
            Some(b'"') => {
                let (_, lone, end) = self.string_at(i);
                if lone && !self.at_fragment(in_payload) {
                    return Err(DecodeError::new(
                        Category::LoneSurrogate,
                        path.render(),
                        Some(i),
                        "string escapes a lone surrogate",
                    ));
                }
                Ok(end)
            }
            Some(&c) if c == b'-' || c.is_ascii_digit() => {
                let end = rfc_number_end(self.b, i).unwrap_or(i + 1).min(self.b.len());
                let spelling = &self.b[i..end];
                if number::may_overflow(spelling) {
                    let s = self.text.get(i..end).unwrap_or("0");
                    if number::parse(s).is_infinite() {
                        return Err(DecodeError::new(
                            Category::InvalidNumber,
                            path.render(),
                            Some(i),
                            format!("{} is beyond the IEEE 754 double range", clip(s)),
                        ));
                    }
                }
                Ok(end)
            }
            Some(b't' | b'n') => Ok(i + 4),
            _ => Ok(i + 5),
        }
    }

    fn object(&mut self, i: usize, path: &Path<'_>, in_payload: bool) -> Result<usize, DecodeError> {
        let root = path.parent.is_none();
        let mut seen: HashSet<Cow<'a, [u8]>> = HashSet::new();
        let mut j = skip_ws(self.b, i + 1);
        while self.b.get(j) == Some(&b'"') {
            let key_start = j;
            let (key, lone, end) = self.string_at(j);
            let name: Cow<'a, str> = match &key {
                Cow::Borrowed(k) => Cow::Borrowed(std::str::from_utf8(k).unwrap_or("")),
                Cow::Owned(k) => Cow::Owned(String::from_utf8_lossy(k).into_owned()),
            };
            if lone {
                return Err(DecodeError::new(
                    Category::LoneSurrogate,
                    path.render_with(&key),
                    Some(key_start),
                    "object key escapes a lone surrogate",
                ));
            }
            if seen.contains(&key) {
                return Err(DecodeError::new(
                    Category::DuplicateKey,
                    path.render_with(&key),
                    Some(key_start),
                    format!("duplicate key {}", clip(&name)),
                ));
            }
            let p = path.key_wtf8(&key);
            j = skip_ws(self.b, skip_ws(self.b, end) + 1);
            let child_in_payload = in_payload || (root && name == "payload");
            let pushed = in_payload;
            if pushed {
                self.rel.push(name.clone());
            }
            let end = self.value(j, &p, child_in_payload);
            if pushed {
                self.rel.pop();
            }
            seen.insert(key);
            j = skip_ws(self.b, end?);
            if self.b.get(j) == Some(&b',') {
                j = skip_ws(self.b, j + 1);
            }
        }
        Ok(j + 1)
    }
}
