"""OM2xx: what a stored trace file may hold."""

from __future__ import annotations

from .fixture import CHILD, fx, trace


def declare() -> None:
    """Declare the OM2xx fixtures."""
    f = trace("OM201", "pass-opens-with-session-meta", "session_meta first")
    f.turn()
    f = fx("OM201", "fail-opens-with-text", "trace", "the file opens with a user text")
    n = f.user()
    f.meta()
    f.expect("OM201", n)

    f = trace("OM202", "pass-one-session-meta", "one session_meta")
    f.turn()
    f = trace("OM202", "fail-two-session-metas", "a model switch written into the same file")
    f.turn()
    n = f.meta(model_id="gpt-5")
    f.expect("OM202", n)

    f = trace("OM203", "pass-complete-messages-only", "complete messages only")
    f.say()
    f = trace("OM203", "fail-partials", "streamed fragments stored in a trace")
    f.user()
    f.begin()
    a = f.ptext("start")
    b = f.ptext("delta", "Here they are.")
    c = f.ptext("stop", stop_reason="completed")
    f.say()
    f.usage()
    f.end()
    for n in (a, b, c):
        f.expect("OM203", n)

    f = trace("OM204", "pass-subagent-pointer", "the parent holds only a subagent pointer")
    f.ev({"type": "subagent", "session_id": CHILD})
    f = trace("OM204", "fail-forwarded-message", "a message forwarded from a child stored in the parent trace")
    f.ev({"type": "subagent", "session_id": CHILD})
    n = f.user("child prompt", origin=[CHILD])
    f.expect("OM204", n)
