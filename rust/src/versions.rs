//! The version rule (docs/bindings.md, "Versions"): this runtime accepts generated bindings of
//! every protocol version its schema lists (`tables::PROTOCOL_VERSIONS`, the schema's
//! `x-omnimessage-versions`) and refuses any other. A generated `tables.rs` calls
//! [`require_protocol`] in a constant, so bindings of a version the runtime does not know do not
//! compile.

use crate::generated::tables::PROTOCOL_VERSIONS;

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether this runtime accepts bindings of protocol version `v`: one its schema lists.
pub const fn knows_protocol(v: &str) -> bool {
    let mut i = 0;
    while i < PROTOCOL_VERSIONS.len() {
        if same(PROTOCOL_VERSIONS[i], v) {
            return true;
        }
        i += 1;
    }
    false
}

/// Panics (at compile time, in a constant of the generated `tables.rs`) unless this runtime
/// accepts bindings of protocol version `v`.
pub const fn require_protocol(v: &str) {
    if !knows_protocol(v) {
        panic!(
            "omnimessage: these bindings state a protocol version this runtime does not know (see \
             omnimessage::tables::PROTOCOL_VERSIONS): regenerate them with this release (omnimessage \
             generate --target rust --protocol V), or use the crate of the release that generated them"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_version_is_accepted_and_no_other() {
        for v in PROTOCOL_VERSIONS {
            assert!(knows_protocol(v), "{v}");
        }
        assert!(knows_protocol("0.2.4"));
        assert!(knows_protocol(crate::tables::PROTOCOL_VERSION));
        for v in ["9.9", "", "0.2.4 ", "0.2", "next1"] {
            assert!(!knows_protocol(v), "{v:?}");
        }
        assert!(std::panic::catch_unwind(|| require_protocol("9.9")).is_err());
        require_protocol("0.2.4");
    }
}
