"""Emitters `decode_<envelope>.go`, `encode_<envelope>.go` and `message.go` of target `go`: for
every object the typed decoder (fields by the schema's table; duplicate, unknown and missing keys
refused with their pointer) and the canonical encoder (keys in schema order, optional keys only
when set), grouped by the envelope that reaches them; `message.go`: the decoders of the payload
unions and of `Message`, and the package's entry points (Decode, DecodeLenient, Encode, NewReader)."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .context import base, envelopes, file_groups, struct_ctx, unions


def render(model: Model) -> dict[str, str]:
    env = environment()
    all_unions = {u["name"]: u for u in unions(model)}
    out = {}
    for stem, names in file_groups(model).items():
        structs = [struct_ctx(model, model.structs[n]) for n in names if n in model.structs]
        us = [all_unions[n] for n in names if n in all_unions]
        for part in ("decode", "encode"):
            template = env.get_template(f"go/{part}.go.j2")
            out[f"{part}_{stem}.go"] = template.render(**base(model), structs=structs, unions=us)
    out["message.go"] = env.get_template("go/message.go.j2").render(**base(model), envelopes=envelopes(model))
    return out
