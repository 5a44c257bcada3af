"""Emitters `enums.go` and `types.go` of target `go`: one string type per vocabulary (its values
as constants), one struct per object, one interface per payload union and `Message` over the
envelopes."""

from __future__ import annotations

from ...model import Model
from .._imports import Imports
from .._imports import render as render_template
from .._jinja import environment
from .context import base, enums, envelopes, markers, struct_ctx, unions


def render(model: Model) -> dict[str, str]:
    env = environment()
    imports = Imports("go")
    structs = [struct_ctx(model, st, imports) for st in model.structs_in_dependency_order()]
    return {
        "enums.go": env.get_template("go/enums.go.j2").render(**base(model), enums=enums(model)),
        "types.go": render_template(
            env, "go/types.go.j2", imports,
            **base(model), structs=structs, unions=unions(model), envelopes=envelopes(model), markers=markers(model),
        ),
    }
