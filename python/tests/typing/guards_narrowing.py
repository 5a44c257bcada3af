"""Type-checked, never run: the guards take what `decode` and `iter_messages` give (and any
object) and narrow it (python/tests/test_typing.py). The envelope guards are exact (`TypeIs`):
the other branch narrows too. The payload guards (`is_complete_model`, `is_partial`) narrow only
where they hold (`TypeGuard`): a `model_msg` they refuse may still be one."""

from typing import assert_type

import omnimessage as om
from omnimessage import EventMessage, Message, ModelMessage, OpaqueMessage, SessionMetaMessage


def envelopes(msg: Message | OpaqueMessage) -> None:
    if om.is_model(msg):
        assert_type(msg, ModelMessage)
        assert_type(msg.payload, om.ModelPayload)
    elif om.is_event(msg):
        assert_type(msg, EventMessage)
        assert_type(msg.payload, om.EventPayload)
    elif om.is_session_meta(msg):
        assert_type(msg, SessionMetaMessage)
        assert_type(msg.payload.model_id, str)
    else:
        assert_type(msg, OpaqueMessage)


def strict_message(msg: Message) -> None:
    if not om.is_model(msg):
        assert_type(msg, SessionMetaMessage | EventMessage)


def payload_guards(msg: Message | OpaqueMessage) -> None:
    if om.is_complete_model(msg):
        assert_type(msg, ModelMessage)
    else:
        assert_type(msg, Message | OpaqueMessage)  # may still be a model_msg: a partial
    if om.is_partial(msg):
        assert_type(msg, ModelMessage)


def anything(value: object) -> None:
    if om.is_event(value):
        assert_type(value, EventMessage)
    if om.is_complete_model(value):
        assert_type(value, ModelMessage)


def decoded(line: bytes) -> None:
    msg = om.decode(line, lenient=True)
    assert om.is_model(msg)
    assert_type(msg, ModelMessage)
