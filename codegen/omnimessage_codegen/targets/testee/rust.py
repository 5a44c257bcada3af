"""Emitter of target `rust-testee`: the testee protocol's flat objects as Rust structs, each with a
reader from the members of a flat JSON object (the Rust testee's `json::parse_object`), for the Rust
testee (rust/src/bin/omnimessage-rs). Every member is an `Option` (absent or of another type:
`None`: the testee answers a malformed request, it does not refuse to read it); a string, const or
enum is a `String`, an integer an `i64`. An object with a nested member (`card`, `rendered`) has no
Rust type: the testee writes its answers byte by byte (a pointer's lone surrogate keeps its escape).
"""

from __future__ import annotations

from ...model import AnyOf, Const, Model, Prim, Struct, TypeRef
from ._common import const_value, first_line, pascal, wrap

FILE = "testee_protocol.rs"


def _scalar(t: TypeRef) -> str | None:
    """`string` or `integer`: how a member of this type is read; None for a nested one."""
    if isinstance(t, Const) or (isinstance(t, Prim) and t.kind == "string"):
        return "string"
    if isinstance(t, Prim) and t.kind == "integer":
        return "integer"
    if isinstance(t, AnyOf):
        kinds = {_scalar(o) for o in t.options if o != Prim("null")}
        return kinds.pop() if len(kinds) == 1 else None
    return None


def _flat(st: Struct) -> bool:
    return all(_scalar(f.type) is not None for f in st.fields)


_READERS = '''
fn string(members: &HashMap<String, Value>, name: &str) -> Option<String> {
    match members.get(name) {
        Some(Value::Str(s)) => Some(s.clone()),
        _ => None,
    }
}

fn integer(members: &HashMap<String, Value>, name: &str) -> Option<i64> {
    match members.get(name) {
        Some(Value::Int(n)) => Some(*n),
        _ => None,
    }
}'''


def render(model: Model) -> dict[str, str]:
    out = [wrap(first_line("rust-testee", model), 100, "// "), "",
           wrap("The testee protocol's flat objects, each read from the members of a flat JSON object "
                "(`None`: a member absent or of another type).", 100, "//! "),
           "#![allow(dead_code)] // every line type of the protocol; a testee reads the ones it receives", "",
           "use std::collections::HashMap;", "", "use crate::json::Value;", "",
           "/// The `$id` of the testee protocol's schema these types are generated from.",
           f'pub const SCHEMA_ID: &str = "{model.schema_id}";']
    for name in model.order:
        value = const_value(model.aliases[name].type) if name in model.aliases else None
        if value is not None:
            out += [f"/// The one value of the schema's `{name}`.",
                    f'pub const {name.upper()}: &str = "{value}";' if isinstance(value, str)
                    else f"pub const {name.upper()}: i64 = {value};"]
        if name not in model.structs or not _flat(model.structs[name]):
            continue
        st = model.structs[name]
        out += ["", wrap(f"The schema's `{name}`: {st.description}", 100, "/// "), "#[derive(Debug, Default)]",
                f"pub struct {pascal(name)} {{"]
        out += [f"    pub {f.name}: Option<{'String' if _scalar(f.type) == 'string' else 'i64'}>," for f in st.fields]
        out += ["}", "", f"impl {pascal(name)} {{", "    /// Its members, read from those of a flat JSON object.",
                "    pub fn read(members: &HashMap<String, Value>) -> Self {", "        Self {"]
        out += [f'            {f.name}: {_scalar(f.type)}(members, "{f.name}"),' for f in st.fields]
        out += ["        }", "    }", "}"]
    return {FILE: "\n".join(out) + _READERS + "\n"}
