"""Inputs in object storage, through fsspec: `s3://bucket/traces/`, `gs://...`, `memory://...`, `file://...`.

This module indexes and discovers; opening an object (streamed reads, errors, options) is :mod:`.objects`.

A URL root is indexed from its listing exactly as a local trace root is (`inputs.index_root`): the
same layout regex, sessions by id in rotation order, every other `.jsonl` object loose. A session
id read from a file is looked up in that index, never joined into a path.

Reads stream: an object is opened unbuffered by fsspec (`cache_type="none"`) under an
`io.BufferedReader` of :data:`.objects.BLOCK_SIZE` bytes, so each read is one ranged request of at most
that size and memory stays flat whatever the object's size. Every error of a read (permission
denied, missing key, a network error mid-read, whatever the filesystem raises) becomes an
`OSError` naming the URL (credentials cut out), which `inputs.run_unit` reports as that input's
failure: never a silent skip, never a traceback.

fsspec and the cloud filesystems are optional extras (`archive`, `s3`, `gcs`): a missing one is a
:class:`.objects.StorageUnavailable` naming the extra to install. Units carry only strings (the URL) and the
storage options travel in `Options.storage_options` (pairs of strings), so a unit pickles to a
Dask worker.
"""
from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from omnimessage.text import sanitize as _sanitize
from omnimessage.validate.sources.inputs import FileUnit, SessionUnit, SkippedUnit, Unit, discover
from omnimessage.validate.sources.objects import (
    _os_error,
    display_url,
    filesystem,
    is_url,
    redacted,
)
from omnimessage.validate.sources.roots import TRACE_NAME, Root, is_date

__all__ = [
    "UrlFileUnit",
    "UrlSessionUnit",
    "discover_any",
    "index_url_root",
]


# ------------------------------------------------------------------ discovery


@dataclass(frozen=True, slots=True)
class UrlFileUnit(FileUnit):
    """A file unit for an object: its size comes from the listing (no request per `size`)."""


@dataclass(frozen=True, slots=True)
class UrlSessionUnit(SessionUnit):
    """A session unit of objects: their total size comes from the listing."""


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
