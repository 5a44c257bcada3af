//! The canonical encoder's value writers (schema/README.md section 2); the generated code
//! writes each object's keys in schema order and calls these for the values.

use crate::escape::{write_str, write_wtf8};
use crate::number::{write_f64, write_u64};
use crate::values::{Fragment, NumberOrString, Verbatim};

/// A value with one canonical encoding.
pub trait Encode {
    fn encode(&self, out: &mut Vec<u8>);
}

impl Encode for String {
    fn encode(&self, out: &mut Vec<u8>) {
        write_str(out, self);
    }
}

impl Encode for str {
    fn encode(&self, out: &mut Vec<u8>) {
        write_str(out, self);
    }
}

impl Encode for u64 {
    fn encode(&self, out: &mut Vec<u8>) {
        write_u64(out, *self);
    }
}

impl Encode for f64 {
    fn encode(&self, out: &mut Vec<u8>) {
        write_f64(out, *self);
    }
}

impl Encode for bool {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
    }
}

impl Encode for Fragment {
    fn encode(&self, out: &mut Vec<u8>) {
        write_wtf8(out, self.as_wtf8());
    }
}

impl Encode for Verbatim {
    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
}

impl Encode for NumberOrString {
    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            NumberOrString::Number(n) => write_f64(out, *n),
            NumberOrString::String(s) => write_str(out, s),
        }
    }
}

/// `null` or the value.
impl<T: Encode> Encode for Option<T> {
    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            Some(v) => v.encode(out),
            None => out.extend_from_slice(b"null"),
        }
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (n, item) in self.iter().enumerate() {
            if n > 0 {
                out.push(b',');
            }
            item.encode(out);
        }
        out.push(b']');
    }
}

/// Writes a string that needs no escape (a vocabulary value) in quotes.
pub fn write_plain(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
}
