"""Emitters `decode_<envelope>.rs`, `encode_<envelope>.rs` and `message.rs` of target `rust`: for every object the typed
decoder (`Decode`: fields by the schema's table, duplicates, required and unknown keys refused
with their pointer) and the canonical encoder (`Encode`: keys in schema order, optional keys only
when set), grouped by the envelope that reaches them; `message.rs`: the payload unions and `Message`."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .context import codec_modules, envelopes, struct_ctx, unions


def render(model: Model) -> dict[str, str]:
    env = environment()
    all_unions = {u["name"]: u for u in unions(model)}
    out = {}
    for module, names in codec_modules(model).items():
        structs = [struct_ctx(model, model.structs[n]) for n in names if n in model.structs]
        us = [all_unions[n] for n in names if n in all_unions]
        for part in ("decode", "encode"):
            name = module.replace("codec_", f"{part}_", 1)
            out[f"{name}.rs"] = env.get_template(f"rust/{part}.rs.j2").render(m=model, structs=structs, unions=us)
    out["message.rs"] = env.get_template("rust/message.rs.j2").render(
        m=model, envelopes=envelopes(model), unions=list(all_unions.values())
    )
    return out
