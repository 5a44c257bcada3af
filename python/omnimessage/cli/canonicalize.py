"""`omnimessage canonicalize`: JSON Lines re-encoded in the canonical form, to standard output, checked
(`--check`) or in place (`--in-place`, atomically)."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from omnimessage.cli.main import COMMANDS
from omnimessage.cli.usage import EXIT_INVALID, EXIT_OK, UsageError, add_pre_commit_option
from omnimessage.codec.api import encode
from omnimessage.codec.errors import DecodeError
from omnimessage.files.atomic import atomic_replace
from omnimessage.files.safe_open import NotReadable, open_regular
from omnimessage.files.write_errors import NamedStream
from omnimessage.reader import iter_messages
from omnimessage.text.bytes_diff import canonical_diff
from omnimessage.text.sanitize import clip_text, sanitize


def _report(err: DecodeError, name: str, out: TextIO) -> None:
    """`FILE:LINE: category: detail (at POINTER, byte N)`: the detail and the pointer quote input,
    so each is clipped (`clip_text`, `MAX_QUOTED_CHARS`) and sanitised."""
    where = []
    if err.pointer:
        where.append(f"at {clip_text(err.pointer)}")
    if err.offset is not None:
        where.append(f"byte {err.offset}")
    loc = f" ({', '.join(where)})" if where else ""
    out.write(f"{sanitize(name)}:{err.line}: {err.category}: {sanitize(clip_text(err.detail))}{sanitize(loc)}\n")


def _canonical_lines(fh: BinaryIO, name: str, args: argparse.Namespace, stats: dict[str, int]) -> Iterator[bytes]:
    """Yield output lines (with LF) for one input; report invalid lines on stderr."""
    for line in iter_messages(fh, lenient=args.lenient):
        stats["lines"] += 1
        if line.error is not None:
            stats["invalid"] += 1
            _report(line.error, name, sys.stderr)
            if args.keep_invalid and line.raw:
                yield line.raw + (b"\n" if line.terminated else b"")
            continue
        assert line.message is not None
        out = encode(line.message)
        if out != line.raw:
            stats["changed"] += 1
            if args.check:
                sys.stderr.write(f"{sanitize(name)}:{line.number}: not canonical\n")
                if stats["changed"] == 1:  # the first difference of the run, shown (the rest only named)
                    sys.stderr.write(canonical_diff(line.raw, out) + "\n")
        yield out + b"\n"


def _in_place(path: Path, args: argparse.Namespace, stats: dict[str, int]) -> None:
    """Replace the regular file `path` by its canonical form, atomically. Refused (an OSError naming
    it, the file untouched): a symbolic link, a file with other hard links, anything but a regular
    file, and a file that changed while it was read (a trace still being appended)."""
    before = stats["invalid"]
    name = str(path)
    if stat.S_ISLNK(os.lstat(name).st_mode):
        raise NotReadable(errno.ELOOP, "a symbolic link: --in-place replaces only regular files, not links "
                                       "(give the file it points to)", name)
    with open_regular(name, follow=False) as fh:
        st = os.fstat(fh.fileno())
        if st.st_nlink > 1:
            raise NotReadable(errno.EMLINK, f"has {st.st_nlink} hard links: --in-place would split them "
                                            f"(canonicalize to standard output instead)", name)
        with atomic_replace(path, st) as out:
            for chunk in _canonical_lines(fh, name, args, stats):
                out.file.write(chunk)
            if stats["invalid"] > before and not args.keep_invalid:
                sys.stderr.write(
                    f"{sanitize(name)}: left unchanged: it has invalid lines (--keep-invalid copies them through)\n"
                )
                out.discard()


def _is_url(f: str) -> bool:
    return "://" in f and not f.startswith(("http://", "https://")) and f.split("://", 1)[0].isidentifier()


def _open_source(f: str, args: argparse.Namespace) -> BinaryIO:
    """A FILE argument: a local file (a FIFO or pipe read as stdin is, never a device), or a storage
    URL (`s3://...`, `memory://...`: fsspec, streamed; --storage-option)."""
    if not _is_url(f):
        return open_regular(f, streams=True)
    from omnimessage.validate.sources.objects import StorageError, is_url, open_url, parse_storage_options

    if not is_url(f):
        return open_regular(f, streams=True)
    try:
        return open_url(f, parse_storage_options(args.storage_option))
    except (StorageError, ValueError) as exc:  # fsspec or s3fs missing (names the extra), a bad option
        raise UsageError(str(exc)) from None


def cmd_canonicalize(args: argparse.Namespace) -> int:
    stats = {"lines": 0, "invalid": 0, "changed": 0}
    if args.in_place and not args.files:
        raise UsageError("--in-place needs file arguments")
    if args.in_place and args.check:
        raise UsageError("--in-place and --check exclude each other")
    if args.in_place and any(_is_url(f) for f in args.files):
        raise UsageError("--in-place rewrites local files only, not URLs")
    if args.in_place:
        for f in args.files:
            _in_place(Path(f), args, stats)
    else:
        out = NamedStream(sys.stdout.buffer)
        sources = args.files or ["-"]
        for f in sources:
            with contextlib.ExitStack() as stack:
                # a FIFO or pipe named here is read as stdin is (`<(zcat t.gz)`); never a device
                fh = sys.stdin.buffer if f == "-" else stack.enter_context(_open_source(f, args))
                name = "<stdin>" if f == "-" else f
                for chunk in _canonical_lines(fh, name, args, stats):
                    if not args.check:
                        out.write(chunk)
        out.flush()
    if args.check:
        sys.stderr.write(
            f"{stats['lines']} lines: {stats['lines'] - stats['invalid'] - stats['changed']} canonical, "
            f"{stats['changed']} not canonical, {stats['invalid']} invalid\n"
        )
        return EXIT_INVALID if stats["invalid"] or stats["changed"] else EXIT_OK
    return EXIT_INVALID if stats["invalid"] else EXIT_OK


CANONICALIZE_DESCRIPTION = (
    "Re-encode JSON Lines in the canonical form (key order from the schema, verbatim values kept byte for byte), "
    "decoding strictly: each invalid line is reported on stderr as FILE:LINE: category: detail, valid lines are "
    "still written. Exit 0: every line valid (with --check: and canonical); 1: otherwise; 2: usage or a file "
    "refused. A FILE may be a regular file, or a FIFO or pipe (`<(zcat t.gz)`, read as stdin is); a device or a "
    "socket is refused. Pointers and details quoted from input are clipped to 200 characters."
)


CANONICALIZE_EPILOG = (
    "--in-place replaces only a regular file with a single link, keeping its mode, owner and group: a symbolic "
    "link is refused (give the file it points to; the link is never replaced by a copy), as is a file with "
    "other hard links (canonicalize to standard output instead). A file that changed while it was read (a trace "
    "still being written: its size, times or inode differ just before the rename) is left untouched, exit 2. "
    "Every refusal and write error names the file."
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    c = sub.add_parser("canonicalize", help=COMMANDS["canonicalize"][1], description=CANONICALIZE_DESCRIPTION,
                       epilog=CANONICALIZE_EPILOG)
    c.add_argument("files", nargs="*", metavar="FILE",
                   help="input files or storage URLs (default: stdin; '-' is stdin)")
    c.add_argument(
        "--in-place", action="store_true",
        help="replace each file atomically (kept as is if any line is invalid or it changed while read; "
        "symbolic links and hard-linked files are refused)",
    )
    c.add_argument(
        "--keep-invalid", action="store_true", help="copy invalid lines through unchanged instead of dropping them"
    )
    c.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 unless every line is valid and canonical"
    )
    c.add_argument(
        "--lenient", action="store_true", help="pass well-formed lines the strict decoder refuses through verbatim"
    )
    c.add_argument(
        "--storage-option", action="append", default=[], metavar="KEY=VALUE",
        help="an fsspec storage option for FILE arguments that are URLs (s3://, gs://, memory://, file://); "
        "repeatable (docs/storage.md)",
    )
    add_pre_commit_option(c)
    c.set_defaults(func=cmd_canonicalize)
