"""Type-checked, never run: the provider projections and the way back (`omnimessage.providers`)
as a user's code sees them (python/tests/test_typing.py)."""

from typing import Any, assert_type

import omnimessage as om
from omnimessage import Message
from omnimessage.providers import PROVIDERS, Loss, Projection, Provider, StreamError, from_stream, project


def to_a_provider(root: str, session_id: str, lines: list[bytes]) -> None:
    ctx = om.restore(root, session_id)
    p = project(ctx, "anthropic")
    assert_type(p, Projection)
    assert_type(p.provider, Provider)
    assert_type(p.body, dict[str, Any])
    assert_type(p.losses, tuple[Loss, ...])
    for loss in p.losses:
        assert_type(loss.message, int)
        assert_type(loss.pointer, str)
        assert_type(loss.reason, str)
    for name in PROVIDERS:
        assert_type(project(lines, name, system="You are terse.").body, dict[str, Any])


def and_back(events: list[dict[str, Any]]) -> None:
    try:
        out = from_stream("gemini", events, used_ids={"call_1"}, timestamp="2026-10-12T03:40:00.000Z")
    except StreamError as exc:
        assert_type(exc.event, int)
        return
    assert_type(out, tuple[Message, ...])
    usage = out[-1]
    if om.is_event(usage) and usage.payload.type == "token_usage":
        assert_type(usage.payload.request, om.TokenCounts)
