"""Type-checked, never run (`make lint` and python/tests/test_typing.py, with mypy --strict and
pyright strict): the builders are visible, typed, from both `omnimessage` and
`omnimessage.builders`. A facade that hid them (an `__all__` a type checker cannot follow) turns
this file red."""

from typing import assert_type

import omnimessage as om
from omnimessage import builders
from omnimessage._generated.models import EventMessage, ModelMessage, SessionMetaMessage

user = om.user_text("hi")
assert_type(user, ModelMessage)
reply: ModelMessage = builders.assistant_text("hello", stop_reason="completed")
assert_type(om.assistant_text("x", fidelity={"signature": "EqQB"}), ModelMessage)
counts = om.token_counts(cache_read=1, cache_write=2, output=3, total=6)
assert_type(counts, om.TokenCounts)
usage: EventMessage = om.token_usage(counts, counts)
assert_type(om.request_end("completed"), EventMessage)
assert_type(om.partial_text("delta", "he"), ModelMessage)
wrapped: ModelMessage = om.model(om.TextPayload(role="user", text="x"))
assert_type(om.event(om.RequestBeginPayload()), EventMessage)
forwarded = om.with_origin(user, "session-2026-07-18-03-10-22-0a1b2c3d")
assert_type(forwarded, om.Message)
meta = om.session_meta(
    session_id="s", provider="p", model_id="m", model_context_window=1, system_prompt="",
    agent_state="/a", workspace="/w",
)
assert_type(meta, SessionMetaMessage)
stamp: str = om.now()
assert_type(om.encode(user), bytes)
