"""OM6xx: origin chains and session ids."""

from __future__ import annotations

from .fixture import CHILD, SID, M, U, stream, trace


def declare() -> None:
    """Declare the OM6xx fixtures."""
    f = trace("OM601", "pass-no-origin", "main-session messages have no origin")
    f.user()
    f = trace("OM601", "fail-empty-origin", "origin: []")
    n = f.obj(M("model_msg", U, origin=[]))
    f.expect("OM601", n)

    f = trace("OM602", "pass-safe-ids", "reference-shaped session ids")
    f.ev({"type": "subagent", "session_id": CHILD})
    f = trace("OM602", "fail-traversal-subagent-id", "a subagent pointer that would leave the trace root")
    n = f.ev({"type": "subagent", "session_id": "../../../etc/passwd"})
    f.expect("OM602", n)
    f = stream("OM602", "fail-backslash-in-origin", "an origin id with a backslash")
    n = f.meta(sid="c\\1", origin=["c\\1"])
    f.expect("OM602", n)
    f.expect("OM602", n)  # both the origin entry and the forwarded session_meta's own id

    f = stream("OM603", "pass-nested-origin", "a grandchild forwarded through its parent")
    f.meta(sid="child-b", origin=["child-a", "child-b"])
    f.user("hi", origin=["child-a", "child-b"])
    f = stream("OM603", "fail-origin-cycle", "a session appearing twice in its chain")
    n = f.meta(sid="child-a", origin=["child-a", "child-b", "child-a"])
    f.expect("OM603", n)

    f = stream("OM604", "pass-child-meta-owned", "the child's session_meta names the innermost origin id")
    f.meta(sid=CHILD, origin=[CHILD])
    f = stream("OM604", "fail-child-meta-of-another-session", "a forwarded session_meta of another session")
    n = f.meta(sid=SID, origin=[CHILD])
    f.expect("OM604", n)

    f = stream("OM605", "pass-child-opens-with-meta", "a child stream opens with its session_meta")
    f.ev({"type": "subagent", "session_id": CHILD})
    f.meta(sid=CHILD, origin=[CHILD])
    f.user("do it", origin=[CHILD])
    f = stream("OM605", "fail-child-opens-with-text", "a child stream's first message is a text")
    f.ev({"type": "subagent", "session_id": CHILD})
    n = f.user("do it", origin=[CHILD])
    f.expect("OM605", n)
