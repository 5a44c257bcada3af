"""Target `python`: msgspec structs in canonical field order, the builders and the guards.

Why not datamodel-code-generator: see :mod:`.models`. `builders.py` and `guards.py` are the
`omnimessage` package's (the builders call its hand-written `_builder_support`).
"""

from __future__ import annotations

from .. import Target
from . import builders, guards, models

TARGET = Target(
    "python",
    "msgspec structs, schema tables, builders and guards; the codec is the omnimessage package (not standalone)",
    (models.render, builders.render, guards.render),
)
