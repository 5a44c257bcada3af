//! The one door generated code comes through: every name of this crate that the output of
//! `omnimessage generate --target rust` uses (docs/bindings.md, "The runtime namespace").
//!
//! Generated code names `omnimessage::runtime::...` and nothing else of the crate, so the crate may
//! reorganise its private modules without breaking a user's generated files. Users need none of
//! it: the crate root (`lib.rs`) re-exports what they call.

pub use crate::de::{De, Decode, Result, UNKNOWN};
pub use crate::pointer::Path;
pub use crate::ser::{write_plain, Encode};
pub use crate::time::now_iso;
pub use crate::values::{Fragment, NumberOrString, Verbatim};
pub use crate::versions::require_protocol;
