"""The validator fixtures' builder (entry point: `conformance/validator/build.py`).

Each fixture is declared with its input and, written by hand, the findings a validator must
report for it (rule id and line). Modules:

* `fixture`: `Fx`, one fixture and its message builders; `FIXTURES`, everything declared; the
  material several rule groups share
* one module per rule group, each with a `declare()`: `framing` (OM0xx), `schema_rules` (OM1xx),
  `trace_files` (OM2xx), `streaming` (OM3xx), `pairing` (OM4xx), `vocabulary` (OM5xx),
  `origin` (OM6xx), `values` (OM70x), `retired` (OM75x), `directories` (OM8xx, trace roots),
  `sse` (OM9xx, event-stream captures), `versions` (OM117 and the behaviours of a
  protocol version)
* `writing`: writes the folders and sidecars; compares a fresh build with the committed one
"""

from __future__ import annotations

from . import (
    directories,
    framing,
    origin,
    pairing,
    retired,
    schema_rules,
    sse,
    streaming,
    trace_files,
    values,
    versions,
    vocabulary,
)

GROUPS = (framing, schema_rules, trace_files, streaming, pairing, vocabulary, origin, values, retired, directories,
          sse, versions)
"""The rule groups, in the order their fixtures are declared."""


def declare_all() -> None:
    """Declare every fixture once (into `fixture.FIXTURES`)."""
    for group in GROUPS:
        group.declare()
