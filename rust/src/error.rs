//! The one error a decoder returns: a category of the wire contract, the JSON pointer of the
//! refused value, the byte offset where the problem was found, and a readable detail.

use std::fmt;

pub use crate::generated::tables::Category;
use crate::pointer::Pointer;

/// Why a line was refused (schema/README.md section 4). `category`, `pointer` and `offset` are
/// normative; `detail` is for people (and quotes input cut short).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub category: Category,
    pub pointer: Pointer,
    pub offset: Option<usize>,
    pub detail: String,
    /// The 1-based line number, when a reader reports it.
    pub line: Option<usize>,
}

impl DecodeError {
    pub fn new(category: Category, pointer: Pointer, offset: Option<usize>, detail: impl Into<String>) -> Self {
        DecodeError {
            category,
            pointer,
            offset,
            detail: detail.into(),
            line: None,
        }
    }

    /// A refusal of the line itself (bytes and grammar): its pointer is `""`.
    pub fn line_level(category: Category, offset: Option<usize>, detail: impl Into<String>) -> Self {
        Self::new(category, Pointer::root(), offset, detail)
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.category.as_str(), self.detail)?;
        let mut sep = " (";
        if let Some(line) = self.line {
            write!(f, "{sep}line {line}")?;
            sep = ", ";
        }
        if !self.pointer.is_empty() {
            write!(f, "{sep}at {}", self.pointer)?;
            sep = ", ";
        }
        if let Some(off) = self.offset {
            write!(f, "{sep}byte {off}")?;
            sep = ", ";
        }
        if sep == ", " {
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl std::error::Error for DecodeError {}

/// Quotes `text` for a detail, cut to at most 200 characters.
pub fn clip(text: &str) -> String {
    const MAX: usize = 200;
    let mut out = String::with_capacity(text.len().min(MAX) + 5);
    out.push('\'');
    for (n, c) in text.chars().enumerate() {
        if n == MAX {
            out.push_str("...");
            break;
        }
        out.push(c);
    }
    out.push('\'');
    out
}
