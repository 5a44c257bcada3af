"""The consumer role of the Python testee (conformance/TESTEE-PROTOCOL.md, "The consumer role"):
the scripted stream at the request's `url` read with `omnimessage.consume.subscribe` into a
`RenderModel` until the server ends it (`204`), answered as every card's complete messages in
arrival order, depth first."""

from __future__ import annotations

from typing import Any

from . import testee_protocol as wire

__all__ = ["handle_consumer", "is_consumer_request"]


def is_consumer_request(req: Any) -> bool:
    return isinstance(req, dict) and req.get("role") == "consumer"


def handle_consumer(req: dict[str, Any]) -> wire.Rendered | wire.Error | wire.Skipped:
    from ..consume import Backoff, ConsumeError, RenderModel, subscribe

    cid: Any = req.get("id")  # echoed as it came (a malformed request's may be no string): the runner judges it
    url = req.get("url")
    if not isinstance(url, str) or not url.startswith("http://127.0.0.1:"):
        return {"id": cid, "result": "skipped", "reason": "malformed request: `url` must be an http URL on 127.0.0.1"}
    model = RenderModel()
    try:
        # the runner's server ends the stream with 204; a case that never does is ended by its time limit
        with subscribe(url, backoff=Backoff(initial_delay=1.0, max_delay=2.0, max_attempts=8)) as sub:
            for event in sub:
                model.apply(event)
    except (ConsumeError, OSError, ValueError) as exc:
        return {"id": cid, "result": "error", "message": f"{type(exc).__name__}: {exc}"}
    cards: list[wire.Card] = [
        {"origin": list(c.origin), "messages": [m.decode("utf-8") for m in c.arrived]} for c in model.root.walk()
    ]
    return {"id": cid, "result": "rendered", "cards": cards}
