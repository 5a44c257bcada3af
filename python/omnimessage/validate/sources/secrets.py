"""Credentials never reach output: storage options, URLs and the exception texts that echo them.

A credential hides in more places than a key named like one:

- the value of a storage option whose key looks like a credential (`key`, `secret`, `token`,
  `password`, `session`, `signature`, ...: :data:`SECRET_KEY`);
- the same keys *nested* in a JSON value (`client_kwargs={"aws_session_token": "..."}`), at any depth;
- the user information of a URL anywhere in a value or a text (`http://KEY:SECRET@host`);
- a query value whose name looks like a credential (`?access_token=...`, `X-Amz-Signature=...`).

:func:`redact_url`, :func:`redact_value` and :func:`redacted_options` replace each with `***`;
:func:`secrets_of` lists the credentials of a set of options, and :func:`scrub` removes them from
any text (an exception's message may quote an option it refused). Nothing here sanitises: the
callers do, after redacting.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Final

__all__ = ["MASK", "SECRET_KEY", "has_secrets", "redact_url", "redact_value", "redacted_options", "scrub",
           "secrets_of"]

MASK: Final = "***"
SECRET_KEY: Final = re.compile(
    r"key|secret|token|passw|pwd|credential|auth|signature|^sig$|session|cookie|jwt|bearer|private",
    re.IGNORECASE)
"""A key (storage option, JSON member, query parameter) matching this holds a credential."""
_USERINFO: Final = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)([^/?#@\s\"']*)@")
_QUERY: Final = re.compile(r"([?&;])([^=&#\s\"']*)=([^&#\s\"']*)")
MIN_SECRET_CHARS: Final = 3
"""Shorter values under a secret key are masked where they stand, not searched for in texts."""


def redact_url(text: str) -> str:
    """`text` with the user information of every URL in it and every credential-named query value
    replaced by `***` (`https://u:p@h/x?access_token=t&n=1` -> `https://***@h/x?access_token=***&n=1`)."""
    text = _USERINFO.sub(lambda m: f"{m.group(1)}{MASK}@", text)
    return _QUERY.sub(lambda m: f"{m.group(1)}{m.group(2)}={MASK}" if SECRET_KEY.search(m.group(2)) else m.group(),
                      text)


def _json(value: str) -> object:
    if value.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return None
    return None


MAX_DEPTH: Final = 64
"""A value nested deeper is masked whole (no recursion without a bound)."""


def redact_value(value: object, depth: int = 0) -> object:
    """`value` with every member under a credential-like key masked, at any depth (deeper than
    :data:`MAX_DEPTH`: the whole rest masked), and every string URL-redacted (:func:`redact_url`)."""
    if depth > MAX_DEPTH:
        return MASK
    if isinstance(value, dict):
        return {k: MASK if SECRET_KEY.search(str(k)) else redact_value(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_value(v, depth + 1) for v in value]
    if isinstance(value, str):
        nested = _json(value)
        return json.dumps(redact_value(nested)) if isinstance(nested, dict | list) else redact_url(value)
    return value


def redacted_options(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """`--storage-option` pairs as they may be shown: `(key, ***)` for a credential-like key, else
    the value redacted (nested JSON members, URL user information, query credentials, and any
    credential of the other options it repeats)."""
    pairs = list(pairs)
    known = secrets_of(pairs)  # a credential repeated in another option's value is masked there too
    return [(k, MASK if SECRET_KEY.search(k) else scrub(str(redact_value(v)), known)) for k, v in pairs]


def _leaves(value: object, depth: int = 0) -> Iterator[str]:
    if depth > MAX_DEPTH:
        return
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v, depth + 1)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _leaves(v, depth + 1)
    elif value is not None and not isinstance(value, bool):
        yield str(value)


def _in_text(text: str) -> Iterator[str]:
    for m in _USERINFO.finditer(text):
        yield m.group(2)
        yield from m.group(2).split(":")
    for m in _QUERY.finditer(text):
        if SECRET_KEY.search(m.group(2)):
            yield m.group(3)


def _secrets(value: object, under_secret: bool, depth: int = 0) -> Iterator[str]:
    if depth > MAX_DEPTH:
        return
    if isinstance(value, str) and not under_secret:
        nested = _json(value)
        if isinstance(nested, dict | list):
            yield from _secrets(nested, False, depth + 1)
        else:
            yield from _in_text(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if SECRET_KEY.search(str(k)) or under_secret:
                yield from _leaves(v)
                if isinstance(v, str):
                    yield from _in_text(v)
            else:
                yield from _secrets(v, False, depth + 1)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _secrets(v, under_secret, depth + 1)
    elif under_secret:
        yield from _leaves(value)


def secrets_of(pairs: Iterable[tuple[str, str]]) -> list[str]:
    """Every credential the pairs hold (values under credential-like keys, at any depth; URL user
    information; credential-named query values), longest first."""
    found: set[str] = set()
    for k, v in pairs:
        found.update(_secrets({k: v}, False))
    return sorted((s for s in found if len(s) >= MIN_SECRET_CHARS), key=lambda s: (-len(s), s))


def has_secrets(pairs: Iterable[tuple[str, str]]) -> bool:
    """Whether any pair holds a credential (:func:`secrets_of`, short ones included)."""
    return any(True for k, v in pairs for _ in _secrets({k: v}, False))


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` (an exception's message, say) with each of `secrets` and every URL credential masked."""
    for s in secrets:
        text = text.replace(s, MASK)
    return redact_url(text)
