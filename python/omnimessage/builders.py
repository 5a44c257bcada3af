"""Builders: construct messages the way the reference producer does.

The builders themselves are generated from the schema's `x-omnimessage-builders`
(`_generated/builders.py`, the same in TypeScript): complete model messages carry
`stop_reason="completed"` unless told otherwise, every other optional field is left out unless
given, and a verbatim value given empty (`{}`) is left out. Timestamps default to now, in
`Date.toISOString()` form (`2026-07-18T03:10:22.531Z`). What is written here by hand: `now`,
`raw_json`, the envelope wrappers `model` / `event` and `with_origin`.
"""

from __future__ import annotations

import msgspec
from msgspec import UNSET

from omnimessage.codec.verbatim import now, raw_json

from ._generated import builders as _generated_builders
from ._generated import models as m
from ._generated.builders import *  # noqa: F403

__all__ = ["event", "model", "now", "raw_json", "with_origin"]
__all__ += _generated_builders.__all__  # the form type checkers follow


def model(payload: m.ModelPayload, *, timestamp: str | None = None) -> m.ModelMessage:
    """Wrap a model payload in its envelope."""
    return m.ModelMessage(timestamp=timestamp or now(), payload=payload)


def event(payload: m.EventPayload, *, timestamp: str | None = None) -> m.EventMessage:
    """Wrap an event payload in its envelope."""
    return m.EventMessage(timestamp=timestamp or now(), payload=payload)


def with_origin(msg: m.Message, session_id: str) -> m.Message:
    """The message forwarded one hop up: `session_id` prepended to its `origin` chain."""
    chain = [] if msg.origin is UNSET else list(msg.origin)
    return msgspec.structs.replace(msg, origin=[session_id, *chain])
