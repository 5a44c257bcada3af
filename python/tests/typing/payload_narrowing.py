"""Type-checked, never run: a message's `type` and its payload's `type` are literals, so comparing
them narrows the unions, as `isinstance` and `match` do (python/tests/test_typing.py)."""

from typing import Literal, assert_type

import omnimessage as om
from omnimessage import Message, ModelMessage


def envelope_tag(msg: Message) -> None:
    assert_type(msg.type, Literal["session_meta", "model_msg", "event_msg"])
    if msg.type == "model_msg":
        assert_type(msg, ModelMessage)
    elif msg.type == "event_msg":
        assert_type(msg, om.EventMessage)
    else:
        assert_type(msg, om.SessionMetaMessage)


def payload_tag(msg: ModelMessage) -> str:
    payload = msg.payload
    if payload.type == "text":
        assert_type(payload, om.TextPayload)
        return payload.text
    if payload.type == "tool_call":
        assert_type(payload, om.ToolCallPayload)
        return payload.name
    if payload.type == "partial_text":
        assert_type(payload, om.PartialTextPayload)
        return payload.text
    return payload.type


def payload_tag_through_the_message(msg: Message) -> None:
    if msg.type == "model_msg" and msg.payload.type == "text":
        assert_type(msg.payload, om.TextPayload)
        assert_type(msg.payload.text, str)
    if om.is_event(msg) and msg.payload.type == "token_usage":
        assert_type(msg.payload, om.TokenUsagePayload)


def by_isinstance_and_match(msg: Message) -> None:
    if isinstance(msg, ModelMessage) and isinstance(msg.payload, om.ThinkingPayload):
        assert_type(msg.payload.thinking, str)
    match msg:
        case ModelMessage(payload=om.TextPayload(text=text)):
            assert_type(text, str)
        case om.EventMessage(payload=om.RequestEndPayload() as end):
            assert_type(end, om.RequestEndPayload)
        case _:
            pass
