"""Emitter `codec.py` of target `python`: the runtime's codec bound to the generated structs.

The generated package registers itself with the runtime, as protobuf's generated code does: its
`codec.py` imports `omnimessage.runtime` by the package name and makes the `Codec` of its own
`models`, so `decode`/`encode` of the package read and write its structs byte for byte.
"""

from __future__ import annotations

from ...model import Model
from .._jinja import environment


def render(model: Model) -> dict[str, str]:
    return {"codec.py": environment().get_template("python/codec.py.j2").render(m=model)}
