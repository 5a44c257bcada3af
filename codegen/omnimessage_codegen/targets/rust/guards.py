"""Emitter `guards.rs` of target `rust`: one predicate per `x-omnimessage-guard` (an envelope
kind, or a payload union within its envelope), named as the schema names the Python guard (the
schema has no Rust name; Python's snake_case is Rust's)."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .._shapes import variant
from .common import doc


def render(model: Model) -> dict[str, str]:
    if not model.guards:
        return {}
    envs = {e.struct.name: e for e in model.envelopes}
    guards = []
    for g in model.guards:
        env = envs[g.envelope]
        item: dict[str, object] = {
            "name": g.python,
            "doc": doc(g.doc or f"Whether a message is a `{env.struct.tag}`."),
            "variant": variant(env.struct.name),
            "members": [],
        }
        if g.of != g.envelope:
            union = env.payload
            item["doc"] = doc(g.payload_doc or g.doc or f"Whether a message's payload is a `{g.of}`.")
            item["members"] = [f"{union}::{variant(m)}(_)" for m in model.unions[g.of].members]
        guards.append(item)
    text = environment().get_template("rust/guards.rs.j2").render(m=model, guards=guards)
    return {"guards.rs": text}
