"""`omnimessage conformance --protocol V`: the cases of one protocol version.

The suite's expectations are the newest version's. A case holds in version V when V and the
newest version agree on every versioned feature its input shows (`omnimessage.schema.versions.features`:
payload kinds, fields, enum values, retired spellings): each is part of both, or of neither (a
retired spelling that both refuse). Its expected answer is then the same in V. A case about a
feature V lacks (a field added later) or one the newest refuses while V reads it (a retired stop
reason) is not a case of V. Input that is not JSON shows no feature: its lexical or framing
expectation holds in every version. For the newest version every case holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from omnimessage.schema.versions import features, newest, versions

from .suite import Case

__all__ = ["holds_in", "of_protocol"]


def _lines(data: bytes) -> Iterable[object]:
    for line in data.split(b"\n")[:64]:  # a case is one line, a few at most; never parse more than 64
        try:
            yield json.loads(line)
        except (ValueError, RecursionError):
            continue


def holds_in(case: Case, version: str) -> bool:
    """Whether `case`'s expectation is the one version `version` gives."""
    order = versions()
    v, n = order.index(version), order.index(newest())
    for obj in _lines(case.input):
        for spot in features(obj):
            since = order.index(spot.since)
            until = order.index(spot.until) if spot.until is not None else len(order)
            if (since <= v < until) != (since <= n < until):
                return False
    return True


def of_protocol(cases: Iterable[Case], version: str | None) -> list[Case]:
    """The cases of `cases` that hold in `version` (all of them for None)."""
    return list(cases) if version is None else [c for c in cases if holds_in(c, version)]
