"""Inputs in object storage, through fsspec: `s3://bucket/traces/`, `gs://...`, `memory://...`, `file://...`.

A URL root is indexed from its listing exactly as a local trace root is (`inputs.index_root`): the
same layout regex, sessions by id in rotation order, every other `.jsonl` object loose. A session
id read from a file is looked up in that index, never joined into a path.

Reads stream: an object is opened unbuffered by fsspec (`cache_type="none"`) under an
`io.BufferedReader` of :data:`BLOCK_SIZE` bytes, so each read is one ranged request of at most
that size and memory stays flat whatever the object's size. Every error of a read (permission
denied, missing key, a network error mid-read, whatever the filesystem raises) becomes an
`OSError` naming the URL (credentials cut out), which `inputs.run_unit` reports as that input's
failure: never a silent skip, never a traceback.

fsspec and the cloud filesystems are optional extras (`archive`, `s3`, `gcs`): a missing one is a
:class:`StorageUnavailable` naming the extra to install. Units carry only strings (the URL) and the
storage options travel in `Options.storage_options` (pairs of strings), so a unit pickles to a
Dask worker.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, Final, cast

from .. import _sanitize
from .._extras import install_hint
from .._files import open_regular
from . import secrets
from .inputs import FileUnit, SessionUnit, SkippedUnit, Unit, discover
from .roots import TRACE_NAME, Root, is_date

if TYPE_CHECKING:
    from .inputs import Options

__all__ = [
    "BLOCK_SIZE",
    "StorageError",
    "StorageUnavailable",
    "UrlFileUnit",
    "UrlSessionUnit",
    "discover_any",
    "display_url",
    "filesystem",
    "index_url_root",
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


def open_input(path: str, opts: Options, *, streams: bool = False, follow: bool = True) -> BinaryIO:
    """Open an input of a unit: `_files.open_regular` for a local path (`streams`, `follow` as
    there), :func:`open_url` for a URL (an object: no links, no FIFOs). Either way a buffered
    reader, so `hints` can peek at its head. OSError naming the input when it cannot be opened."""
    if not is_url(path):
        return open_regular(path, streams=streams, follow=follow)
    try:
        return open_url(path, opts.storage_options)
    except StorageError as exc:  # on a worker without the extra: this input's failure, not the run's
        raise OSError(errno.ENOPKG, str(exc), display_url(path)) from None


# ------------------------------------------------------------------ discovery


@dataclass(frozen=True, slots=True)
class UrlFileUnit(FileUnit):
    """A file unit for an object: its size comes from the listing (no request per `size`)."""

    nbytes: int = 0

    @property
    def size(self) -> int:
        return self.nbytes


@dataclass(frozen=True, slots=True)
class UrlSessionUnit(SessionUnit):
    """A session unit of objects: their total size comes from the listing."""

    nbytes: int = 0

    @property
    def size(self) -> int:
        return self.nbytes


def _walk_key(parts: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    """The order `os.walk` (top-down, sorted) visits files in: a folder's files before its subfolders."""
    return (*((1, d) for d in parts[:-1]), (0, parts[-1]))


def _listing(url: str, pairs: Sequence[tuple[str, str]]
             ) -> tuple[Any, str, dict[str, int], list[tuple[str, str]]]:
    """(filesystem, root path, {relative path: size} of the `.jsonl` objects below `url`, skipped).

    Skipped are the entries not validated, each with the reason (OM806), as a local trace root
    reports them: a symbolic link (named `*.jsonl` or to a directory; never followed, nothing below
    it listed), a `.jsonl` entry that is no regular file (a FIFO, a device), a `.jsonl` key with an
    empty path segment (`day//s_001.jsonl`). Names starting with `.` are left out, as locally."""
    fs, base = filesystem(url, pairs)
    try:
        found = fs.find(base, withdirs=True, detail=True)
    except Exception as exc:
        raise _os_error(url, exc, pairs) from None
    prefix = base.rstrip("/") + "/"
    out: dict[str, int] = {}
    skipped: list[tuple[str, str]] = []
    links: list[str] = []
    for name in sorted(found):
        info = found[name]
        if not name.startswith(prefix) or name == prefix:
            continue  # anything outside the root; a marker of the root itself
        rel = name[len(prefix):]
        parts = rel.split("/")
        if any(p.startswith(".") for p in parts) or any(rel.startswith(d + "/") for d in links):
            continue  # hidden, as in a local root; below a link already reported
        kind = str(info.get("type", "file"))
        full = f"{url.rstrip('/')}/{rel}"
        if info.get("islink"):
            to_dir = False
            with contextlib.suppress(Exception):
                to_dir = bool(fs.isdir(name))
            if rel.endswith(".jsonl") or to_dir or kind == "directory":
                links.append(rel)
                dest = info.get("destination")
                where = f" (to {_sanitize.printable(str(dest), 200)!r})" if dest else ""
                skipped.append((full, f"a symbolic link{where}: not followed under a trace root"))
            continue
        if kind == "directory" or name.endswith("/"):
            continue  # a directory, or a "directory" marker object
        if not rel.endswith(".jsonl"):
            continue
        if "" in parts:
            skipped.append((full, "an empty path segment ('//') in its key: not read under a trace root"))
        elif kind != "file":
            skipped.append((full, f"not a regular file (type {_sanitize.printable(kind, 40)!r}): not read"))
        else:
            out[rel] = int(info.get("size") or 0)
    return fs, base, out, skipped


def index_url_root(url: str, storage_options: Sequence[tuple[str, str]] = ()) -> Root:
    """Index the objects below `url` as `inputs.index_root` indexes a directory: `<yyyy-mm-dd>/
    <session_id>_<NNN>.jsonl` objects group into sessions (rotation order), any other `.jsonl`
    object is loose; names starting with `.` (and what is below such a folder) are skipped. The
    paths in the root are URLs. OSError when the listing fails."""
    return _index(url, storage_options)[0]


def _index(url: str, pairs: Sequence[tuple[str, str]]) -> tuple[Root, dict[str, int]]:
    _, _, objects, skipped = _listing(url, pairs)
    root = Root(url)
    root.skipped.extend(skipped)
    sizes: dict[str, int] = {}
    keyed = sorted(((tuple(rel.split("/")), rel) for rel in objects), key=lambda t: _walk_key(t[0]))
    for parts, rel in keyed:
        if any(p.startswith(".") for p in parts) or not parts[-1].endswith(".jsonl"):
            continue
        full = f"{url.rstrip('/')}/{rel}"  # as the root was named: findings read as the user wrote it
        sizes[full] = objects[rel]
        m = TRACE_NAME.fullmatch(parts[-1])
        if len(parts) == 2 and is_date(parts[0]) and m is not None:
            root.sessions.setdefault(m.group("sid"), []).append((int(m.group("idx")), full))
        else:
            root.loose.append(full)
    for files in root.sessions.values():
        files.sort()
    return root, sizes


def _echo(pairs: Sequence[tuple[str, str]]) -> str:
    return f" (storage options: {redacted(pairs)})" if pairs else ""


def _discover_url(url: str, profile: str, pairs: Sequence[tuple[str, str]],
                  units: list[Unit], roots: list[Root], problems: list[str]) -> None:
    fs, path = filesystem(url, pairs)
    try:
        info = fs.info(path)
    except FileNotFoundError:
        info = None
    except Exception as exc:
        problems.append(f"{display_url(url)}: {_os_error(url, exc, pairs).strerror}{_echo(pairs)}")
        return
    if info is not None and info.get("type") == "file":
        units.append(UrlFileUnit(url, nbytes=int(info.get("size") or 0)))
        return
    try:
        root, sizes = _index(url, pairs)
    except OSError as exc:
        problems.append(f"{display_url(url)}: cannot list: {exc.strerror}{_echo(pairs)}")
        return
    units.extend(SkippedUnit(f, why, url) for f, why in root.skipped)
    if not root.sessions and not root.loose and not root.skipped:
        problems.append(f"{display_url(url)}: no such object" if info is None
                        else f"{display_url(url)}: no .jsonl object below this URL")
        return
    if profile == "trace":
        roots.append(root)
        for sid in sorted(root.sessions):
            files = tuple(root.sessions[sid])
            units.append(UrlSessionUnit(sid, files, url, nbytes=sum(sizes[f] for _, f in files)))
        units.extend(UrlFileUnit(f, layout_warning=True, root=url, nbytes=sizes[f]) for f in root.loose)
    else:
        every = sorted([f for fs_ in root.sessions.values() for _, f in fs_] + root.loose)
        units.extend(UrlFileUnit(f, nbytes=sizes[f]) for f in every)


def discover_any(paths: Sequence[str], profile: str, storage_options: Sequence[tuple[str, str]] = ()
                 ) -> tuple[list[Unit], list[Root], list[str]]:
    """`inputs.discover` for paths that may be URLs: units, trace roots and problems, in the order
    of `paths`. StorageError (a usage error) when fsspec or a protocol's filesystem is missing."""
    units: list[Unit] = []
    roots: list[Root] = []
    problems: list[str] = []
    for p in paths:
        if is_url(p):
            _discover_url(p, profile, storage_options, units, roots, problems)
        else:
            u, r, pr = discover([p], profile)
            units.extend(u)
            roots.extend(r)
            problems.extend(pr)
    return units, roots, problems
