"""Runtime discrimination of messages (the guards of the reference SDK).

Generated from the schema's `x-omnimessage-guard` (`_generated/guards.py`; the same guards in
TypeScript).
"""

from __future__ import annotations

from ._generated.guards import *  # noqa: F403
from ._generated.guards import __all__ as __all__
