"""Producing OmniMessage: one session's stream, trace and SSE channel from the same messages.

    >>> from omnimessage.produce import Session, SseChannel, TraceWriter, new_session_id
    >>> sid = new_session_id()                                   # doctest: +SKIP
    >>> with Session(TraceWriter("traces", sid), SseChannel()) as s:   # doctest: +SKIP
    ...     s.start(meta)
    ...     s.emit(msg)

docs/producing.md walks through a whole producer.
"""

from .asgi import serve, sse_app
from .ids import new_session_id, session_date, trace_file_name, trace_path
from .session import Session, StreamDisciplineError
from .sse import SseChannel, SseEvent
from .trace_writer import TraceRefused, TraceWriter, latest_trace_file

__all__ = [
    "Session",
    "SseChannel",
    "SseEvent",
    "StreamDisciplineError",
    "TraceRefused",
    "TraceWriter",
    "latest_trace_file",
    "new_session_id",
    "serve",
    "session_date",
    "sse_app",
    "trace_file_name",
    "trace_path",
]
