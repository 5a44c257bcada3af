"""Which proof of canonical form the codec's fast path uses.

The native accelerator (`omnimessage._accel`, built from python/omnimessage/_native/ when a C
compiler was there at install time) proves it in one pass over the line; the pure-Python fallback
re-encodes the message and compares bytes (:mod:`._fast_path`), which is also the test oracle.
Both answer the same; the accelerator is only faster. `OMNIMESSAGE_PURE=1` forces the fallback.
The accelerator is used only when its compiled table is the one generated for these structs
(`OMV_TABLE_ID` of `_native/generated/omv_table.h`): a stale build falls back, and says why.
`omnimessage --version` names the path in use.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from importlib import resources
from typing import Final

_ID = re.compile(rb'^#define OMV_TABLE_ID "([0-9a-f]+)"$', re.M)


def _table_id() -> str | None:
    try:
        text = resources.files(__package__).joinpath("_native/generated/omv_table.h").read_bytes()
    except OSError:
        return None
    m = _ID.search(text)
    return m.group(1).decode() if m else None


def _select() -> tuple[Callable[[bytes], bool] | None, str]:
    """(the native verifier or None, why it is or is not in use)."""
    if os.environ.get("OMNIMESSAGE_PURE") == "1":
        return None, "pure Python (OMNIMESSAGE_PURE=1)"
    try:
        from . import _accel  # type: ignore[attr-defined]
    except ImportError:
        return None, "pure Python (the native accelerator is not built: installed without a C compiler)"
    built, expected = getattr(_accel, "TABLE_ID", None), _table_id()
    if built != expected:
        return None, (f"pure Python (the native accelerator's table {built} is not this schema's {expected}: "
                      "reinstall to rebuild it)")
    canonical: Callable[[bytes], bool] = _accel.canonical
    return canonical, "native accelerator (omnimessage._accel)"


CANONICAL, DESCRIPTION = _select()
ACTIVE: Final = CANONICAL is not None
