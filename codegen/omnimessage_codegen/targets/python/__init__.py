"""Target `python`: msgspec structs in canonical field order, their codec, the builders and the guards.

Why not datamodel-code-generator: see :mod:`.models`. The output is a package that works where it is
written (any folder of any project): it imports the runtime by its name only (`omnimessage.runtime`:
the codec bound to its structs in `codec.py`, the builders' helpers), never by a relative path
outside itself. The runtime's own `omnimessage/_generated/` is this very output.
"""

from __future__ import annotations

from .. import Target
from . import builders, codec, guards, models

TARGET = Target(
    "python",
    "msgspec structs, their byte-exact codec, builders and guards (needs the omnimessage package at run time)",
    (models.render, codec.render, builders.render, guards.render),
    writes=("__init__.py", "models.py", "codec.py", "builders.py", "guards.py"),
)
