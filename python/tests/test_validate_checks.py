"""The validator's rule table: every payload type has its row, rows run in order (module sizes: test_module_size.py)."""

from __future__ import annotations

import typing
from typing import Any

from omnimessage._generated import models
from omnimessage.validate.engine import checks
from omnimessage.validate.engine.checks import CHECKS, DISPATCH, _chain
from omnimessage.validate.engine.context import Context
from omnimessage.validate.engine.state import Session


def _payload_classes() -> set[type]:
    return {*typing.get_args(models.ModelPayload), *typing.get_args(models.EventPayload), models.SessionMetaPayload}


def test_every_payload_type_has_a_row() -> None:
    assert set(CHECKS) == _payload_classes()
    assert set(DISPATCH) == set(CHECKS)


def test_every_partial_is_one_fragment_handler() -> None:
    # one handler for every streaming partial, driven by the schema's fragment-of table
    assert {cls for cls, row in CHECKS.items() if checks.streaming.fragment in row} == set(models.FRAGMENT_OF)


def test_a_row_runs_its_checks_in_order() -> None:
    calls: list[tuple[int, Any]] = []

    def make(i: int) -> checks.Check:
        return lambda ctx, s, p, line, msg: calls.append((i, p))

    for n in range(7):
        calls.clear()
        _chain(tuple(make(i) for i in range(n)))(None, Session(), "p", 1, None)  # type: ignore[arg-type]
        assert calls == [(i, "p") for i in range(n)]


def test_checks_take_the_context_they_are_given() -> None:
    ctx = Context("stream", legacy=False, lenient=False, truncated=False, source="s", canonical=True,
                  collect_subagents=False, window=10)
    p = models.RequestEndPayload(status="fatal")
    DISPATCH[models.RequestEndPayload](ctx, ctx.main, p, 3, None)  # type: ignore[arg-type]
    assert [(f.rule, f.line, f.path) for f in ctx._pending] == [("OM406", 3, "s"), ("OM506", 3, "s")]
