"""The request a subscription sends: its URL checked, its headers checked, its target.

Shared by `subscribe`, `asubscribe` and `omnimessage validate --sse-url`. A header value is never
shown in an error (headers carry credentials); a URL with user information is refused (it would
never be sent, and would be shown in every message): credentials go in a header.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from omnimessage.text.sanitize import clip_text, sanitize

__all__ = ["MAX_HEADERS", "MAX_HEADER_BYTES", "Target", "check_header", "check_headers", "redacted", "target"]

_TOKEN: Final = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""A header name: an RFC 7230 token."""
_FIELD_VALUE: Final = re.compile(r"[\t\x20-\x7e\x80-\xff]*")
"""A header value: visible ASCII, spaces, tabs and obs-text (RFC 7230 field-value); no CR, LF, NUL or
other control character, nothing beyond Latin-1 (http.client sends values as Latin-1)."""
MAX_HEADERS: Final = 64
"""Request headers a caller may add."""
MAX_HEADER_BYTES: Final = 8192
"""The longest header (name and value) accepted."""
_DEFAULTS: Final = (("Accept", "text/event-stream"), ("Cache-Control", "no-cache"))


def redacted(name: str) -> str:
    """How a header is named in any output: `Authorization: <redacted>` (its value may be a credential)."""
    return f"{name}: <redacted>"


def check_header(name: str, value: str) -> tuple[str, str]:
    """Check one request header; returns it with the value's surrounding blanks stripped.

    Raises ValueError naming the header but never showing its value (it often holds credentials):
    the name must be an RFC 7230 token, the value visible characters, spaces or tabs.
    """
    if not _TOKEN.fullmatch(name):  # not shown either: a misplaced colon may have made a credential the name
        raise ValueError("a header name is an HTTP token (letters, digits and !#$%&'*+-.^_`|~, no space), "
                         "followed by ':' and the value")
    value = value.strip(" \t")
    if not _FIELD_VALUE.fullmatch(value):
        raise ValueError(f"header {redacted(name)}: the value holds a line break, NUL or another control "
                         "character (or a character beyond Latin-1); it cannot be sent")
    if len(name) + len(value) > MAX_HEADER_BYTES:
        raise ValueError(f"header {redacted(name)}: longer than {MAX_HEADER_BYTES} bytes")
    return name, value


def check_headers(headers: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The headers to send: `Accept: text/event-stream` and `Cache-Control: no-cache` unless given,
    then the caller's (each checked; a name given twice is sent twice). `Last-Event-ID` is the
    subscription's to send: a caller's is refused."""
    extra: list[tuple[str, str]] = []
    for n, v in headers:
        if len(extra) >= MAX_HEADERS:
            raise ValueError(f"more than {MAX_HEADERS} request headers")
        extra.append(check_header(n, v))
    given = {n.lower() for n, _ in extra}
    if "last-event-id" in given:
        raise ValueError("Last-Event-ID is sent by the subscription: pass last_event_id= instead")
    return [(n, v) for n, v in _DEFAULTS if n.lower() not in given] + extra


@dataclass(frozen=True, slots=True)
class Target:
    """Where to connect and what to ask for."""

    scheme: str
    host: str
    port: int
    path: str
    """The request target: path and query."""

    @property
    def shown(self) -> str:
        """The URL without its query (which may hold a credential), sanitised, for messages."""
        return sanitize(clip_text(f"{self.scheme}://{self.host}:{self.port}{self.path.partition('?')[0]}"))


def target(url: str) -> Target:
    """Parse an http(s) URL; ValueError for another scheme, no host, or user information."""
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname
        port = parts.port
    except ValueError:
        raise ValueError("not a valid http(s) URL") from None
    if parts.scheme not in ("http", "https") or not host:
        raise ValueError(f"not an http(s) URL (scheme {sanitize(clip_text(parts.scheme))!r})")
    if "@" in parts.netloc:
        raise ValueError("user information in the URL (user:password@host) is never sent and would be shown: "
                         "give credentials as a header ('Authorization: Basic ...', or Bearer)")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if any(c in path for c in "\r\n\x00 "):
        raise ValueError("the URL's path holds a space or a control character")
    return Target(parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path)
