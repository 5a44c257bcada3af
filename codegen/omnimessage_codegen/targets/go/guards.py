"""Emitter `guards.go` of target `go`: one predicate per `x-omnimessage-guard` (an envelope kind, or
a payload union within its envelope), named as the schema names the Python guard, in Go's
spelling (`is_model` -> `IsModel`)."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .common import camel, doc
from .context import base


def render(model: Model) -> dict[str, str]:
    if not model.guards:
        return {}
    envs = {e.struct.name: e for e in model.envelopes}
    guards = []
    for g in model.guards:
        env = envs[g.envelope]
        name = camel(g.python)
        item: dict[str, object] = {
            "name": name,
            "doc": doc(f"{name}: " + (g.doc or f"whether a message is a `{env.struct.tag}`.")),
            "envelope": env.struct.name,
            "members": [],
        }
        if g.of != g.envelope:
            item["doc"] = doc(f"{name}: " + (g.payload_doc or g.doc or f"whether a message's payload is a `{g.of}`."))
            item["members"] = list(model.unions[g.of].members)
        guards.append(item)
    text = environment().get_template("go/guards.go.j2").render(**base(model), guards=guards)
    return {"guards.go": text}
