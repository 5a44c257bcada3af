//! OmniMessage for Rust: a strict, byte-exact codec of the OmniMessage protocol, standard
//! library only.
//!
//! - [`decode`]: one line to a [`Message`], or a [`DecodeError`] with the category, JSON
//!   pointer and byte offset of the wire contract (schema/README.md); [`decode_lenient`] keeps a
//!   well-formed object strict decoding refuses as an [`Opaque`] message.
//! - [`encode`]: the canonical bytes (`JSON.stringify` of the reference producer), verbatim
//!   values (`fidelity`, tool `parameters`, hook `output`) byte for byte.
//! - [`reader`]: JSON Lines, every line decoded or reported, a torn last line `truncated`.
//! - [`aggregate`]: streaming fragments folded into complete messages.
//!
//! The types, tables, builders and guards in [`generated`] come from the schema
//! (`omnimessage generate --target rust`).

extern crate self as omnimessage;

pub mod aggregate;
mod codec;
pub mod de;
pub mod error;
mod escape;
#[rustfmt::skip]
pub mod generated;
mod grammar;
pub mod number;
pub mod pointer;
pub mod reader;
pub mod runtime;
pub mod ser;
mod string_stops;
mod strings;
pub mod time;
pub mod values;
mod versions;
mod walk;

pub use codec::{canonicalize, decode, decode_as, decode_lenient, encode, encode_into, Decoded, Opaque};
pub use error::{Category, DecodeError};
pub use generated::builders;
pub use generated::enums::*;
pub use generated::guards;
pub use generated::message::*;
pub use generated::tables;
pub use generated::types::*;
pub use values::{Fragment, NumberOrString, Verbatim};
pub use versions::{knows_protocol, require_protocol};
