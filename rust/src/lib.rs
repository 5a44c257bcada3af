//! OmniMessage for Rust: a strict, byte-exact codec of the OmniMessage protocol, standard
//! library only.
//!
//! - [`decode`]: one line to a [`Message`], or a [`DecodeError`] with the category, JSON
//!   pointer and byte offset of the wire contract (schema/README.md); [`decode_lenient`] keeps a
//!   well-formed object strict decoding refuses as an [`Opaque`] message.
//! - [`encode`]: the canonical bytes (`JSON.stringify` of the reference producer), verbatim
//!   values (`fidelity`, tool `parameters`, hook `output`) byte for byte.
//! - [`Reader`]: JSON Lines, every line decoded or reported, a torn last line `truncated`.
//! - [`Aggregator`]: streaming fragments folded into complete messages.
//!
//! The message types, [`tables`], [`builders`] and [`guards`] come from the schema
//! (`omnimessage generate --target rust`). This file is the crate's whole public API
//! (docs/bindings.md, "The public API"); generated code names [`runtime`] and nothing else.

extern crate self as omnimessage;

// Internal: the scanner, the lexical checks, the value writers and the generated decoders and
// encoders. Users reach them through the names below; generated code through `runtime`.
mod aggregate;
mod codec;
mod de;
mod error;
mod escape;
#[rustfmt::skip]
mod generated;
mod grammar;
mod number;
mod pointer;
mod reader;
mod ser;
mod string_stops;
mod strings;
mod time;
mod values;
mod versions;
mod walk;

/// The one module generated code names (`omnimessage generate --target rust`): the strict
/// scanner, the value writers and the helpers its decoders, encoders and builders call. Not meant
/// for direct use.
pub mod runtime;

// Decoding and encoding one line.
pub use codec::{canonicalize, decode, decode_as, decode_lenient, encode, encode_into, Decoded, Opaque};
// Errors: the wire contract's category, JSON pointer and byte offset.
pub use error::{Category, DecodeError};
pub use pointer::Pointer;
// Reading JSON Lines.
pub use reader::{Line, Reader, ReaderOptions};
// Folding streamed fragments into complete messages.
pub use aggregate::{Aggregator, Segment, SegmentKey};
// The value types a message holds.
pub use values::{Fragment, NumberOrString, Verbatim};
// The codec's traits: a bound of `decode_as` and of generic code over generated types (bindings
// of an older protocol version, `omnimessage generate --target rust --protocol V`).
pub use de::Decode;
pub use ser::Encode;
// Protocol versions this crate decodes (`x-omnimessage-versions`).
pub use versions::{knows_protocol, require_protocol};
// Generated from the schema: every message, payload and enum type; builders, guards, the schema's
// tables.
pub use generated::enums::*;
pub use generated::message::*;
pub use generated::types::*;
pub use generated::{builders, guards, tables};
