"""The install hint for a missing optional extra.

omnimessage itself is on no package registry yet, so `pip install 'omnimessage[dask]'` fails ("No
matching distribution"). The packages an extra stands for are on PyPI, though: the hint names them,
read from this installation's own metadata, so it works however omnimessage was installed (a clone,
a Git URL, a wheel)."""

from __future__ import annotations

import re
import shlex
from importlib import metadata

__all__ = ["install_hint"]


def _requirements(extra: str) -> list[str]:
    try:
        reqs = metadata.requires("omnimessage") or []
    except metadata.PackageNotFoundError:
        return []
    marker = re.compile(r"""^extra\s*==\s*["']""" + re.escape(extra) + r"""["']$""")
    out = []
    for req in reqs:
        spec, _, cond = req.partition(";")
        if marker.match(cond.strip()):
            out.append(spec.strip().replace(" ", ""))
    return out


def install_hint(extra: str) -> str:
    """`pip install 'pkg>=x' ...` for the packages of omnimessage's `extra` (one line)."""
    reqs = _requirements(extra)
    if not reqs:
        return f"pip install './omnimessage[{extra}]' in a clone of omnimessage (README: Install)"
    return "pip install " + " ".join(shlex.quote(r) for r in reqs) + f" (the '{extra}' extra's packages)"
