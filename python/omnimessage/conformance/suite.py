"""The conformance suite on disk: the manifest, its cases and the bytes they name.

Layout (see `conformance/README.md`): `manifest.json` lists every case; inputs and expected
outputs are lines of the `.jsonl` fixture files under `cases/` (named by file and 1-based
line number; lines are split on LF only), inline base64 for bytes a text file cannot hold, or
compact `parts` (pieces repeated and concatenated) for huge inputs.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final, get_args

from . import testee_protocol as wire
from .levels import LEVELS, REQUIRED

__all__ = [
    "CONSUMER_GROUP",
    "EXPECTATIONS",
    "FRESH_GROUP",
    "GROUPS",
    "OPTIONAL_FEATURES",
    "PROTOCOL_VERSION",
    "REPORT_GROUPS",
    "SUITE_VERSION",
    "Case",
    "Suite",
    "SuiteError",
    "expand_parts",
    "load_suite",
    "suite_dir",
]

SUITE_VERSION = "3.0.0"
"""The version of the case set this code reads (`suite_version` in the manifest)."""

PROTOCOL_VERSION: Final = wire.PROTOCOL
"""The version of the testee protocol (`conformance/TESTEE-PROTOCOL.md`)."""

GROUPS: tuple[str, ...] = ("roundtrip", "verbatim", "canonicalization", "rejection", "lenient")
"""The codec groups, in report order. (`protocol`, the validator group, lives in `validator/`.)"""

FRESH_GROUP = "fresh"
"""The group of the cases generated for each run (:mod:`.fresh`); no manifest case belongs to it."""

CONSUMER_GROUP = "consumer"
"""The group of the consumer role's cases (`consumer/cases.json`, :mod:`.consumer_cases`)."""

REPORT_GROUPS: tuple[str, ...] = (*GROUPS, FRESH_GROUP, CONSUMER_GROUP)
"""Every group a run reports, in order."""

EXPECTATIONS: tuple[str, ...] = ("identical", "canonical", "reject")

OPTIONAL_FEATURES: frozenset[str] = frozenset({"lenient"})
"""Features a testee MAY lack: it may answer `skipped` to cases that need them."""

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


class SuiteError(ValueError):
    """The manifest or a fixture file is malformed."""


@dataclass(frozen=True)
class Case:
    """One conformance case.

    `input` is sent to the testee as is: the bytes of a JSON Lines file holding this one line
    (normally ending with LF). `output` is the expected encoding (no LF) for `identical` and
    `canonical` cases; `category` (and optionally `pointer`) for `reject` cases.
    """

    id: str
    group: str
    description: str
    spec: str
    input: bytes
    expect: str
    mode: wire.RequestMode = "strict"
    max_line_bytes: int | None = None
    output: bytes | None = None
    category: str | None = None
    pointer: str | None = None
    lexical: bool = False
    tags: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    source: str = ""  # where the input comes from, for messages: `cases/x.jsonl:12`, `base64` or `parts`
    level: str = REQUIRED  # `required` or `recommended` (:mod:`.levels`; the manifest states it)

    @property
    def optional(self) -> bool:
        """A testee may answer `skipped` to this case."""
        return any(f in OPTIONAL_FEATURES for f in self.features)

    def request(self) -> wire.Request:
        """The testee-protocol request for this case."""
        req: wire.Request = {"id": self.id, "mode": self.mode, "input": base64.b64encode(self.input).decode()}
        if self.max_line_bytes is not None:
            req["max_line_bytes"] = self.max_line_bytes
        return req

    def matches(self, selector: str) -> bool:
        """Whether `--category SELECTOR` selects this case: a group name selects its group; anything
        else a rejection category or a tag."""
        if selector in REPORT_GROUPS:
            return self.group == selector
        return selector == self.category or selector in self.tags


@dataclass
class Suite:
    root: Path
    suite_version: str
    schema_id: str
    protocol_version: int
    cases: list[Case]
    groups: dict[str, Any] = field(default_factory=dict)

    def by_id(self) -> dict[str, Case]:
        return {c.id: c for c in self.cases}


def suite_dir() -> Path:
    """The conformance suite: package data, `omnimessage/conformance/suite/` (the wheel copies the
    repository's `conformance/` there; in the checkout that folder is a symbolic link to it)."""
    return Path(str(resources.files("omnimessage.conformance").joinpath("suite"))).resolve()


class _Files:
    """Fixture files split into lines (on LF only, each line keeping its LF)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[str, list[bytes]] = {}

    def line(self, name: str, number: int, where: str) -> bytes:
        if name not in self.cache:
            if Path(name).is_absolute() or ".." in Path(name).parts:
                raise SuiteError(f"{where}: fixture {name!r} lies outside the suite folder")
            path = self.root / name
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise SuiteError(f"{where}: cannot read fixture {name!r}: {exc.strerror}") from None
            self.cache[name] = _split_lf(data)
        lines = self.cache[name]
        if not 1 <= number <= len(lines):
            raise SuiteError(f"{where}: {name} has no line {number} ({len(lines)} lines)")
        return lines[number - 1]


def _split_lf(data: bytes) -> list[bytes]:
    """Lines split on LF only (`bytes.splitlines` would also split on CR, VT, FF, ...)."""
    parts = data.split(b"\n")
    out = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


MAX_PARTS_BYTES = 256 << 20
"""The largest input a `parts` source may describe."""


def _b64(text: Any, where: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, TypeError, ValueError) as exc:
        raise SuiteError(f"{where}: invalid base64: {exc}") from None


def expand_parts(parts: Any, where: str = "parts") -> bytes:
    """The bytes of a compact `{"parts": [...]}` source: each piece (`text` as UTF-8, or `base64`)
    repeated `repeat` times (default 1), concatenated."""
    if not isinstance(parts, list) or not parts:
        raise SuiteError(f"{where}: parts must be a non-empty list")
    pieces: list[tuple[bytes, int]] = []
    total = 0
    for i, item in enumerate(parts):
        at = f"{where}[{i}]"
        if not isinstance(item, dict) or len({"text", "base64"} & set(item)) != 1 or set(item) - {
            "text", "base64", "repeat"
        }:
            raise SuiteError(f"{at}: a part is {{'text' or 'base64', optional 'repeat'}}, got {item!r:.200}")
        if "text" in item:
            if not isinstance(item["text"], str):
                raise SuiteError(f"{at}: text must be a string")
            try:
                piece = item["text"].encode("utf-8")
            except UnicodeEncodeError:
                raise SuiteError(f"{at}: text holds a lone surrogate (use base64)") from None
        else:
            piece = _b64(item["base64"], at)
        n = item.get("repeat", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise SuiteError(f"{at}: repeat must be a positive integer")
        total += len(piece) * n
        if total > MAX_PARTS_BYTES:
            raise SuiteError(f"{where}: describes more than {MAX_PARTS_BYTES} bytes")
        pieces.append((piece, n))
    return b"".join(piece * n for piece, n in pieces)


def _bytes(spec: Any, files: _Files, where: str, *, output: bool) -> tuple[bytes, str]:
    if not isinstance(spec, dict) or not (
        set(spec) == {"base64"} or set(spec) == {"file", "line"} or set(spec) == {"parts"}
    ):
        raise SuiteError(f"{where}: expected {{'file', 'line'}}, {{'base64'}} or {{'parts'}}, got {spec!r:.300}")
    if "base64" in spec:
        return _b64(spec["base64"], where), "base64"
    if "parts" in spec:
        return expand_parts(spec["parts"], f"{where}: parts"), "parts"
    name, number = spec["file"], spec["line"]
    if not isinstance(name, str) or not isinstance(number, int) or isinstance(number, bool):
        raise SuiteError(f"{where}: file must be a string and line an integer")
    data = files.line(name, number, where)
    if output:
        if not data.endswith(b"\n"):
            raise SuiteError(f"{where}: expected output {name}:{number} must end with LF")
        data = data[:-1]
    return data, f"{name}:{number}"


def _case(raw: Any, files: _Files, index: int) -> Case:
    where = f"manifest.json cases[{index}]"
    if not isinstance(raw, dict):
        raise SuiteError(f"{where}: a case is an object")
    cid = raw.get("id")
    if not isinstance(cid, str) or not _ID.match(cid):
        raise SuiteError(f"{where}: id must match {_ID.pattern}, got {cid!r}")
    where = f"case {cid}"
    group = raw.get("group")
    if group not in GROUPS:
        raise SuiteError(f"{where}: unknown group {group!r}")
    data, source = _bytes(raw.get("input"), files, f"{where}: input", output=False)
    body = data[:-1] if data.endswith(b"\n") else data
    if b"\n" in body:
        raise SuiteError(f"{where}: input holds more than one line")
    exp = raw.get("expect")
    if not isinstance(exp, dict) or exp.get("kind") not in EXPECTATIONS:
        raise SuiteError(f"{where}: expect.kind must be one of {EXPECTATIONS}")
    kind = exp["kind"]
    output = category = pointer = None
    if kind == "identical":
        output = body
    elif kind == "canonical":
        output, _ = _bytes(exp.get("output"), files, f"{where}: expect.output", output=True)
    else:
        category = exp.get("category")
        if not isinstance(category, str):
            raise SuiteError(f"{where}: a reject expectation names a category")
        pointer = exp.get("pointer")
        if pointer is not None and not isinstance(pointer, str):
            raise SuiteError(f"{where}: pointer must be a string")
    mode = raw.get("mode", "strict")
    if mode not in get_args(wire.RequestMode):
        raise SuiteError(f"{where}: mode must be strict or lenient")
    level = raw.get("level")
    if level not in LEVELS:
        raise SuiteError(f"{where}: level must be one of {', '.join(LEVELS)}, got {level!r:.100}")
    limit = raw.get("max_line_bytes")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
        raise SuiteError(f"{where}: max_line_bytes must be a positive integer")
    return Case(
        id=cid,
        group=group,
        description=str(raw.get("description", "")),
        spec=str(raw.get("spec", "")),
        input=data,
        expect=kind,
        mode=mode,
        max_line_bytes=limit,
        output=output,
        category=category,
        pointer=pointer,
        lexical=bool(raw.get("lexical", False)),
        tags=tuple(raw.get("tags", ())),
        features=tuple(raw.get("features", ())),
        source=source,
        level=level,
    )


def load_suite(root: Path | None = None) -> Suite:
    """Load and check the manifest and every byte it names."""
    root = root or suite_dir()
    path = root / "manifest.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SuiteError(f"cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise SuiteError(f"{path}: not JSON: {exc}") from None
    version = doc.get("suite_version")
    if not isinstance(version, str) or version.split(".")[0] != SUITE_VERSION.split(".")[0]:
        raise SuiteError(f"{path}: suite_version {version!r} is not readable by this runner ({SUITE_VERSION})")
    files = _Files(root)
    cases = [_case(c, files, i) for i, c in enumerate(doc.get("cases", []))]
    seen: set[str] = set()
    for c in cases:
        if c.id in seen:
            raise SuiteError(f"{path}: duplicate case id {c.id!r}")
        seen.add(c.id)
    return Suite(
        root=root,
        suite_version=version,
        schema_id=str(doc.get("schema_id", "")),
        protocol_version=int(doc.get("protocol_version", PROTOCOL_VERSION)),
        cases=cases,
        groups=dict(doc.get("groups", {})),
    )
