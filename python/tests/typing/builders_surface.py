"""Checked by `mypy --strict` in `make lint` (never run): the builders are visible, typed, from both
`omnimessage` and `omnimessage.builders`. A facade that hid them (an `__all__` a type checker cannot
follow) turns this file red."""

import omnimessage as om
from omnimessage import builders
from omnimessage._generated.models import EventMessage, ModelMessage, SessionMetaMessage

user: ModelMessage = om.user_text("hi")
reply: ModelMessage = builders.assistant_text("hello", stop_reason="completed")
counts = om.token_counts(cache_read=1, cache_write=2, output=3, total=6)
usage: EventMessage = om.token_usage(counts, counts)
wrapped: ModelMessage = om.model(om.TextPayload(role="user", text="x"))
forwarded = om.with_origin(user, "session-2026-07-18-03-10-22-0a1b2c3d")
meta: SessionMetaMessage = om.session_meta(
    session_id="s", provider="p", model_id="m", model_context_window=1, system_prompt="",
    agent_state="/a", workspace="/w",
)
stamp: str = om.now()
