"""Emitters `enums.rs` and `types.rs` of target `rust`: one enum per vocabulary (`as_str`,
`FromStr`) and one struct per object (the payload unions and `Message` are in `message.rs`)."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .context import enums, struct_ctx


def render(model: Model) -> dict[str, str]:
    env = environment()
    structs = [struct_ctx(model, st) for st in model.structs_in_dependency_order()]
    return {
        "enums.rs": env.get_template("rust/enums.rs.j2").render(m=model, enums=enums(model)),
        "types.rs": env.get_template("rust/types.rs.j2").render(m=model, structs=structs),
    }
