"""Reading an input that is a URL (fsspec) or a local path: `open_input`, `open_url`, and the storage options.

Reads stream: an object is opened unbuffered by fsspec (`cache_type="none"`) under an
`io.BufferedReader` of :data:`BLOCK_SIZE` bytes, so each read is one ranged request of at most
that size and memory stays flat whatever the object's size. Every error of a read becomes an
`OSError` naming the URL (credentials cut out). Discovery of URL inputs is `storage`'s.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, BinaryIO, Final, cast

from omnimessage.extras import install_hint
from omnimessage.files.safe_open import open_regular
from omnimessage.text import sanitize as _sanitize
from omnimessage.validate.sources import secrets

__all__ = [
    "BLOCK_SIZE",
    "StorageError",
    "StorageUnavailable",
    "display_url",
    "filesystem",
    "is_url",
    "open_input",
    "open_url",
    "parse_storage_options",
    "redacted",
    "typed_options",
]

BLOCK_SIZE: Final = 4 << 20
"""Bytes per ranged read of an object (and the size of its one read buffer)."""

_SCHEME: Final = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_LIVE: Final = frozenset({"http", "https"})
"""Schemes that are live streams (`--sse-url`), not storage."""
_EXTRA: Final = {"s3": "s3", "s3a": "s3", "gs": "gcs", "gcs": "gcs"}
"""The extra that installs the filesystem of a protocol (fsspec alone: `archive`)."""

class StorageError(Exception):
    """A URL input cannot be used at all (a usage error: exit 2)."""


class StorageUnavailable(StorageError):
    """fsspec, or the filesystem of a protocol (s3fs, gcsfs), is not installed."""


def is_url(path: str) -> bool:
    """Whether `path` is a storage URL (`scheme://...`, except the live `http(s)://` streams)."""
    m = _SCHEME.match(path)
    return m is not None and m.group(1).lower() not in _LIVE


def _scheme(url: str) -> str:
    m = _SCHEME.match(url)
    return m.group(1).lower() if m else ""


def display_url(url: str) -> str:
    """`url` without user information (`s3://KEY:SECRET@bucket` shows as `s3://***@bucket`) or
    credential-named query values (`secrets.redact_url`), sanitised."""
    return _sanitize.sanitize(secrets.redact_url(url))


# ------------------------------------------------------------------ storage options


def parse_storage_options(items: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """`KEY=VALUE` strings (`--storage-option`) as pairs; ValueError for one without `=` or key."""
    out: list[tuple[str, str]] = []
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"--storage-option {_sanitize.printable(item, 80)!r}: expected KEY=VALUE")
        out.append((key, value))
    return tuple(out)


def _typed(value: str) -> object:
    """A storage option's value as fsspec's own string options read: true/false, none, integers,
    floats, a JSON object or list (`client_kwargs={"region_name": "eu-west-1"}`), else the string."""
    low = value.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        with contextlib.suppress(ValueError):
            return kind(value)
    if value.lstrip()[:1] in ("{", "["):
        with contextlib.suppress(ValueError):
            return json.loads(value)
    return value


def typed_options(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The keyword arguments of the filesystem for these `(key, value)` pairs."""
    return {k: _typed(v) for k, v in pairs}


def redacted(pairs: Iterable[tuple[str, str]]) -> str:
    """The options for an echo: every credential masked (`secrets.redacted_options`: credential-like
    keys, nested JSON members, URL user information, query credentials)."""
    return ", ".join(f"{_sanitize.sanitize(k)}={_sanitize.printable(v, 200)}"
                     for k, v in secrets.redacted_options(pairs))


def _scrubbed(text: str, pairs: Sequence[tuple[str, str]], limit: int) -> str:
    """An exception's text for an echo: the options' credentials masked, clipped, sanitised."""
    return _sanitize.printable(secrets.scrub(text, secrets.secrets_of(pairs)), limit)


# ------------------------------------------------------------------ filesystems


def _needs(url: str, what: str) -> StorageUnavailable:
    scheme = _scheme(url)
    extra = _EXTRA.get(scheme, "archive")
    return StorageUnavailable(f"reading {scheme}:// URLs needs {what}: {install_hint(extra)}")


def filesystem(url: str, pairs: Sequence[tuple[str, str]]) -> tuple[Any, str]:
    """The fsspec filesystem of `url` and the path in it; StorageError when it cannot be had."""
    try:
        import fsspec.core
    except ImportError:
        raise _needs(url, "fsspec") from None
    try:
        fs, path = fsspec.core.url_to_fs(url, **typed_options(pairs))
    except ImportError as exc:
        raise _needs(url, f"a filesystem fsspec does not have ({exc})") from None
    except ValueError as exc:  # "Protocol not known"
        raise StorageError(f"{display_url(url)}: {_scrubbed(str(exc), pairs, 200)}") from None
    except Exception as exc:  # a storage option the filesystem refuses, ...
        raise StorageError(f"{display_url(url)}: cannot use the filesystem with the storage options "
                           f"[{redacted(pairs)}]: {exc.__class__.__name__}: "
                           f"{_scrubbed(str(exc), pairs, 200)}") from None
    return fs, cast(str, path)


def _os_error(url: str, exc: BaseException, pairs: Sequence[tuple[str, str]] = ()) -> OSError:
    """Any error of the filesystem as an OSError naming the URL (no credentials in it: neither
    the URL's nor those of the storage options, `pairs`)."""
    if isinstance(exc, OSError) and exc.errno is not None:
        code, text = exc.errno, exc.strerror or str(exc)
    elif isinstance(exc, FileNotFoundError):
        code, text = errno.ENOENT, "no such object"
    elif isinstance(exc, PermissionError):
        code, text = errno.EACCES, "permission denied"
    else:
        code, text = errno.EIO, f"{exc.__class__.__name__}: {exc}"
    return OSError(code, _scrubbed(text, pairs, 300), display_url(url))


class _Guarded(io.RawIOBase):
    """An fsspec file as a raw stream whose every error is an OSError naming the URL."""

    def __init__(self, inner: Any, url: str, pairs: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__()
        self._inner = inner
        self._url = url
        self._pairs = pairs

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        try:
            data = self._inner.read(len(b))
        except Exception as exc:
            raise _os_error(self._url, exc, self._pairs) from None
        n = len(data)
        memoryview(b).cast("B")[:n] = data
        return n

    def tell(self) -> int:
        return int(self._inner.tell())

    def seek(self, offset: int, whence: int = 0) -> int:
        try:
            return int(self._inner.seek(offset, whence))
        except Exception as exc:
            raise _os_error(self._url, exc, self._pairs) from None

    def close(self) -> None:
        if not self.closed:
            with contextlib.suppress(Exception):
                self._inner.close()
        super().close()


def open_url(url: str, pairs: Sequence[tuple[str, str]]) -> BinaryIO:
    """Open an object for streaming reads: ranged reads of at most :data:`BLOCK_SIZE` bytes, one
    buffer of that size; every error an OSError naming the URL (StorageError when the filesystem
    itself cannot be had)."""
    fs, path = filesystem(url, pairs)
    try:
        inner = fs.open(path, "rb", block_size=BLOCK_SIZE, cache_type="none")
    except Exception as exc:
        raise _os_error(url, exc, pairs) from None
    return cast(BinaryIO, io.BufferedReader(_Guarded(inner, url, pairs), buffer_size=BLOCK_SIZE))


def open_input(path: str, pairs: Sequence[tuple[str, str]], *, streams: bool = False, follow: bool = True
               ) -> BinaryIO:
    """Open an input of a unit: `omnimessage.files.safe_open.open_regular` for a local path (`streams`, `follow` as
    there), :func:`open_url` for a URL (an object: no links, no FIFOs). Either way a buffered
    reader, so `hints` can peek at its head. OSError naming the input when it cannot be opened."""
    if not is_url(path):
        return open_regular(path, streams=streams, follow=follow)
    try:
        return open_url(path, pairs)
    except StorageError as exc:  # on a worker without the extra: this input's failure, not the run's
        raise OSError(errno.ENOPKG, str(exc), display_url(path)) from None
