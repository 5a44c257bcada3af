"""`Reconnecting`: what the blocking and the asyncio subscriptions share, I/O aside: the request,
the event feed, and the decision taken each time a connection ends (reconnect after a delay, end,
or give up), so that both behave the same."""

from __future__ import annotations

from collections.abc import Iterable

from omnimessage.text.sanitize import clip_text, sanitize

from .backoff import Backoff
from .events import ConsumeError, Reconnect, ReconnectsExhausted
from .feed import EventFeed
from .frames import MAX_EVENT_BYTES
from .request import check_headers, target

__all__ = ["Reconnecting"]


class Reconnecting:
    def __init__(self, url: str, *, last_event_id: str | None = None, headers: Iterable[tuple[str, str]] = (),
                 strict: bool = True, reconnect: bool = True, backoff: Backoff | None = None,
                 connect_timeout: float = 10.0, idle_timeout: float = 60.0,
                 max_line_bytes: int = MAX_EVENT_BYTES, max_event_bytes: int = MAX_EVENT_BYTES) -> None:
        self.target = target(url)
        self._headers = check_headers(headers)
        self.feed = EventFeed(last_event_id=last_event_id, strict=strict, max_line_bytes=max_line_bytes,
                              max_event_bytes=max_event_bytes)
        self.reconnect = reconnect
        self.backoff = backoff or Backoff()
        self.connect_timeout = connect_timeout
        self.idle_timeout = idle_timeout
        self.connections = 0
        """Connections that were answered with an event stream."""
        self.ended = ""
        """Why the last connection ended (sanitised)."""
        self._attempt = 0
        self._start()

    def _start(self) -> None:
        """The subclass's own state, made at the end of `__init__`."""

    @property
    def last_event_id(self) -> str | None:
        """What the next connection sends as `Last-Event-ID`."""
        return self.feed.last_event_id

    def _failed(self, exc: BaseException, streaming: bool) -> None:
        """Say why a connection failed (`ended`)."""
        if isinstance(exc, TimeoutError):
            self.ended = (f"no byte for {self.idle_timeout:g} s (idle timeout)" if streaming else
                          f"no connection and response within {self.connect_timeout:g} s (connect timeout)")
        else:
            text = f"{exc.__class__.__name__}: {exc}" if str(exc) else exc.__class__.__name__
            self.ended = sanitize(clip_text(text))

    def _lost(self, failed: bool) -> Reconnect | None:
        """A connection ended: the `Reconnect` to yield before waiting its delay, or None when the
        subscription ends here (`reconnect=False` and the server closed the stream). Raises
        `ConsumeError` (`reconnect=False` and a failure) or `ReconnectsExhausted`."""
        if not self.reconnect:
            if failed:
                raise ConsumeError(f"{self.target.shown}: {self.ended}")
            return None
        self._attempt = 1 if self.feed.delivered else self._attempt + 1
        if self._attempt > self.backoff.max_attempts:
            raise ReconnectsExhausted(f"{self.target.shown}: gave up after {self._attempt - 1} failed attempt(s) "
                                      f"in a row; the last: {self.ended}")
        self.feed.delivered = 0
        return Reconnect(self._attempt, self.backoff.delay(self._attempt, self.feed.retry_ms), self.last_event_id,
                         self.ended)
