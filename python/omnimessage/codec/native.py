"""Which proof of canonical form the codec's fast path uses.

The native accelerator (`omnimessage._accel`, built from python/omnimessage/_native/ when a C
compiler was there at install time) proves it in one pass over the line; the pure-Python fallback
re-encodes the message and compares bytes (:mod:`.fast_path`), which is also the test oracle.
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
from typing import Any, Final

import msgspec

from omnimessage._generated.models import Message

_ID = re.compile(rb'^#define OMV_TABLE_ID "([0-9a-f]+)"$', re.M)


def _table_id() -> str | None:
    try:
        text = resources.files("omnimessage").joinpath("_native/generated/omv_table.h").read_bytes()
    except OSError:
        return None
    m = _ID.search(text)
    return m.group(1).decode() if m else None


# The exceptions of msgspec's typed decode that send a line to the slow path (which names them).
DECODE_ERRORS: Final = (msgspec.DecodeError, msgspec.ValidationError, RecursionError, MemoryError)
DECODER: Final = msgspec.json.Decoder(Message)


def _select() -> tuple[Callable[[bytes], Any] | None, Callable[..., Any] | None, str]:
    """(the native fast path, DECODER's decode and the verifier in one call, or None; the maker of the
    public decode's C entry (`_accel.entry`, used by `omnimessage.codec.api`), or None; why the accelerator
    is or is not in use)."""
    if os.environ.get("OMNIMESSAGE_PURE") == "1":
        return None, None, "pure Python (OMNIMESSAGE_PURE=1)"
    try:
        from omnimessage import _accel  # type: ignore[attr-defined]
    except ImportError:
        return None, None, "pure Python (the native accelerator is not built: installed without a C compiler)"
    built, expected = getattr(_accel, "TABLE_ID", None), _table_id()
    if built != expected:
        return None, None, (f"pure Python (the native accelerator's table {built} is not this schema's "
                            f"{expected}: reinstall to rebuild it)")
    _accel.bind(DECODER.decode, DECODE_ERRORS)
    native: Callable[[bytes], Any] = _accel.decode
    return native, getattr(_accel, "entry", None), "native accelerator (omnimessage._accel)"


NATIVE, ENTRY, DESCRIPTION = _select()
ACTIVE: Final = NATIVE is not None
