"""A restored context as a provider's request body, and a provider's stream back to OmniMessage.

    >>> import omnimessage as om
    >>> from omnimessage.providers import project
    >>> ctx = om.restore("traces/", "session-2026-09-14-19-03-27-b85e1c40")    # doctest: +SKIP
    >>> p = project(ctx, "anthropic")                                         # doctest: +SKIP
    >>> p.body["messages"], p.losses                                          # doctest: +SKIP

`project(context, provider)` maps the context as the reference's model gateway does (PenguinHarness
`packages/core/src/llm/generative-model.ts`, then AgentHub's client for the provider): adjacent
messages of one role are one provider message, tool arguments are parsed, the `#n` suffix of a
repeated tool-call id is stripped, images and `fidelity` go where the provider expects them. The
body is the conversation part of the request plus the session's system prompt (its `session_meta`
holds no tools: a body has none); no model, no key, no network. Whatever the provider's request has
no place for is a `Loss` (message index, JSON pointer, reason), never dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from omnimessage.model_context.rebuild import ContextLine, Restored

from .._generated.models import Message, TokenCounts
from . import anthropic, gemini, openai_chat, openai_responses
from ._shared import PROVIDERS, Loss, LossLog, Projection, Provider, group, items
from ._translate import MAX_STREAM_BYTES, StreamError, Translator, Uni

__all__ = ["MAX_STREAM_BYTES", "PROVIDERS", "Loss", "Projection", "Provider", "StreamError", "from_stream", "project"]

_BODY = {
    "anthropic": anthropic.messages,
    "openai-chat": openai_chat.messages,
    "openai-responses": openai_responses.messages,
    "gemini": gemini.messages,
}


def project(context: Restored | Sequence[ContextLine | bytes], provider: str, *,
            system: str | None = None) -> Projection:
    """The request body of `provider` ("anthropic", "openai-chat", "openai-responses", "gemini")
    for `context`: a `Restored` (its messages, and its system prompt unless `system` is given) or a
    sequence of messages (`ContextLine`s or their bytes; `system` the system prompt, None for none).

    Raises `ValueError` for an unknown provider.
    """
    if provider not in _BODY:
        raise ValueError(f"unknown provider {provider!r}: one of {', '.join(PROVIDERS)}")
    if isinstance(context, Restored):
        raws = [m.raw for m in context.messages]
        system = context.config.system_prompt if system is None else system
    else:
        raws = [m.raw if isinstance(m, ContextLine) else m for m in context]
    losses = LossLog()
    body: dict[str, Any] = _BODY[provider](group(items(raws, losses)), system, losses)
    return Projection(provider, body, losses.sorted())  # type: ignore[arg-type]


_STREAM: dict[str, Callable[[Iterable[object]], Iterator[tuple[int, Uni]]]] = {
    "anthropic": anthropic.uni_events,
    "openai-chat": openai_chat.uni_events,
    "openai-responses": openai_responses.uni_events,
    "gemini": gemini.uni_events,
}


def from_stream(provider: str, events: Iterable[object], *, used_ids: set[str] | None = None,
                session_before: TokenCounts | None = None, timestamp: str | None = None,
                max_bytes: int = MAX_STREAM_BYTES) -> tuple[Message, ...]:
    """OmniMessages for one streamed response of `provider`, as the reference's gateway translates
    it: `partial_*` start, deltas and stop for each segment, each segment's complete message
    (`fidelity` and `stop_reason` included) after its stop, then `token_usage`. `events` are the
    provider SDK's streaming events as plain dicts (`model_dump()`, or the JSON of the wire).

    `used_ids` are tool-call ids the session already holds (a repeated provider id gets a `#n`
    suffix); `session_before` the session's token counts before this request; `timestamp` the
    messages' timestamp (None: the time each is built).

    Raises `StreamError` (a `ValueError`, naming the event) for an event of the wrong shape,
    tool-call arguments that are not JSON, or open segments over `max_bytes`; `ValueError` for an
    unknown provider.
    """
    if provider not in _STREAM:
        raise ValueError(f"no stream translation for provider {provider!r}: one of {', '.join(_STREAM)}")
    translator = Translator(used_ids=used_ids, timestamp=timestamp, max_bytes=max_bytes)
    out: list[Message] = []
    index = 0
    try:
        for index, uni in _STREAM[provider](events):
            out.extend(translator.push(uni, index))
        out.extend(translator.finish(session_before))
    except RecursionError:  # a value (arguments, fidelity) nested past what re-serialising can hold
        raise StreamError(index, "a value in the event is nested too deeply") from None
    except ValueError as exc:  # a builder refusing a value the event carries (a line break in a fidelity key)
        if isinstance(exc, StreamError):
            raise
        raise StreamError(index, f"a value in the event cannot be an OmniMessage: {exc}") from None
    return tuple(out)
