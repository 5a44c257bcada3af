//! JSON Lines reading (schema/README.md section 1.4): every line decoded or reported with its
//! 1-based number, never stopping at a bad one. A line longer than the limit is `too_large` and
//! is skipped without being kept; a last line with no LF that does not parse (`invalid_utf8`,
//! `invalid_json`) is a torn write, `truncated`. Memory: the longest line kept (at most the limit).

use std::io::{BufRead, BufReader, Read};

use crate::codec::{decode, decode_lenient, Decoded};
use crate::error::{Category, DecodeError};
use crate::generated::tables::DEFAULT_MAX_LINE_BYTES;

/// How to read.
#[derive(Clone, Copy, Debug)]
pub struct ReaderOptions {
    /// Keep well-formed objects strict decoding refuses as opaque messages.
    pub lenient: bool,
    /// The longest line accepted, its LF not counted (readers accept at least 64 MiB).
    pub max_line_bytes: usize,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            lenient: false,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
        }
    }
}

/// One line of the input.
#[derive(Debug)]
pub struct Line {
    /// 1-based.
    pub number: usize,
    /// The line without its LF (empty for a `too_large` line, which is not kept).
    pub raw: Vec<u8>,
    pub result: Result<Decoded, DecodeError>,
    /// False for a last line with no LF.
    pub terminated: bool,
}

/// The lines of a JSON Lines input, decoded.
pub struct Reader<R: Read> {
    input: BufReader<R>,
    options: ReaderOptions,
    number: usize,
    done: bool,
}

impl<R: Read> Reader<R> {
    pub fn new(input: R, options: ReaderOptions) -> Self {
        Reader {
            input: BufReader::with_capacity(1 << 16, input),
            options,
            number: 0,
            done: false,
        }
    }

    /// The next line's bytes (without LF), whether it was longer than the limit, and whether an LF ended it.
    fn next_raw(&mut self) -> std::io::Result<Option<(Vec<u8>, bool, bool)>> {
        let mut buf = Vec::new();
        let mut too_large = false;
        let mut any = false;
        loop {
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                return Ok(if any { Some((buf, too_large, false)) } else { None });
            }
            any = true;
            let (take, found) = match chunk.iter().position(|&c| c == b'\n') {
                Some(p) => (p, true),
                None => (chunk.len(), false),
            };
            if !too_large {
                if buf.len() + take > self.options.max_line_bytes {
                    too_large = true;
                    buf = Vec::new();
                } else {
                    buf.extend_from_slice(&chunk[..take]);
                }
            }
            self.input.consume(take + usize::from(found));
            if found {
                return Ok(Some((buf, too_large, true)));
            }
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        if self.done {
            return None;
        }
        let (raw, too_large, terminated) = match self.next_raw() {
            Ok(Some(x)) => x,
            Ok(None) => {
                self.done = true;
                return None;
            }
            Err(e) => {
                self.done = true;
                self.number += 1;
                let err = DecodeError::line_level(Category::Truncated, None, format!("read error: {e}"));
                return Some(Line {
                    number: self.number,
                    raw: Vec::new(),
                    result: Err(err),
                    terminated: false,
                });
            }
        };
        self.number += 1;
        if !terminated {
            self.done = true;
        }
        let result = if too_large {
            Err(DecodeError::line_level(
                Category::TooLarge,
                None,
                format!("line longer than {} bytes", self.options.max_line_bytes),
            ))
        } else if self.options.lenient {
            decode_lenient(&raw)
        } else {
            decode(&raw).map(Decoded::Message)
        };
        let result = result.map_err(|mut e| {
            if !terminated && matches!(e.category, Category::InvalidUtf8 | Category::InvalidJson) {
                e.detail = format!(
                    "last line has no line feed and does not decode ({}: {})",
                    e.category.as_str(),
                    e.detail
                );
                e.category = Category::Truncated;
            }
            e.line = Some(self.number);
            e
        });
        Some(Line {
            number: self.number,
            raw,
            result,
            terminated,
        })
    }
}
