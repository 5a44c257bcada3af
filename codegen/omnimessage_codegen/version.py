"""The generator's version, which every generated file records: the `omnimessage` release it ships in.

Read from the runtime's `_version.py` as text (`__version__ = "..."`, the one source hatch reads too),
found without importing the runtime: the generator must work while the code it writes is stale or
broken, and the editable install's metadata keeps the version of the day it was installed.
"""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

_VERSION = re.compile(r'^__version__ = "([^"]+)"$', re.M)


@cache
def generator_version() -> str:
    spec = importlib.util.find_spec("omnimessage")
    if spec is not None and spec.origin:
        m = _VERSION.search((Path(spec.origin).parent / "_version.py").read_text(encoding="utf-8"))
        if m:
            return m.group(1)
    raise RuntimeError("cannot read __version__ from the omnimessage package: is it installed?")
