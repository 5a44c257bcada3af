"""Emitter `mod.rs` of target `rust`: the generated modules and what they export."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .builders import modules as builder_modules
from .context import codec_modules


def render(model: Model) -> dict[str, str]:
    text = environment().get_template("rust/mod.rs.j2").render(
        m=model,
        codec_modules=list(codec_modules(model)),
        builder_modules=list(builder_modules(model)),
        has_guards=bool(model.guards),
        has_fragments=bool(model.assemblies),
    )
    return {"mod.rs": text}
