"""Emitter `guards.py` of target `python`: one type guard per `x-omnimessage-guard` (an envelope
kind: `TypeIs`, exact; or a payload union within its envelope: `TypeGuard`, true only where it holds)."""

from __future__ import annotations

from ...model import Model
from .._jinja import environment
from .models import enum_const


def render(model: Model) -> dict[str, str]:
    classes = {g.of: enum_const(g.of).replace("_VALUES", "_CLASSES") for g in model.guards if g.of != g.envelope}
    names = {*classes.values(), *(g.envelope for g in model.guards)}
    imports = sorted(names, key=lambda n: (not n.isupper(), n))  # isort: constants, then classes
    if not model.guards:
        return {}
    exact = any(g.of == g.envelope for g in model.guards)  # an envelope guard: TypeIs
    partial = any(g.of != g.envelope for g in model.guards)  # a payload guard: TypeGuard
    text = environment().get_template("python/guards.py.j2").render(
        m=model, classes=classes, imports=imports, exact=exact, partial=partial
    )
    return {"guards.py": text}
