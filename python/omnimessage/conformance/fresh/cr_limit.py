"""Fresh line limits around a line ending in CR LF (schema/README.md section 7): the CR before the
LF counts against the limit, which is checked before anything else."""

from __future__ import annotations

import random

from .draft import Edit, _Draft

__all__ = ["EDITS"]


def _cr_limit(rng: random.Random, d: _Draft) -> bool:
    body = d.data[:-1] if d.data.endswith(b"\n") else d.data
    body = body.rstrip(b"\r") + b"\r" * rng.choice([1, 1, 1, 2])
    d.data = body + b"\n"
    d.max_line_bytes = max(1, len(body) + rng.choice([-2, -1, -1, 0, 0, 1]))
    return True


EDITS: dict[str, tuple[Edit, bool]] = {"cr-limit": (_cr_limit, False)}
"""Byte edits of this family: (edit, whether it makes a schema defect)."""
