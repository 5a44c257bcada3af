"""The consumer role's cases on disk: `conformance/consumer/cases.json` (written by
`conformance/tools/consumer_cases.py`), each a scripted SSE stream and the complete messages per
card a consumer's render model must hold once it ends (conformance/TESTEE-PROTOCOL.md)."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .suite import _ID, CONSUMER_GROUP, Case, Suite, SuiteError

__all__ = ["CONSUMER_GROUP", "CONSUMER_SPEC", "Connection", "ConsumerCase", "Piece", "load_consumer_cases"]

CONSUMER_SPEC = "TESTEE-PROTOCOL.md#the-consumer-role"
CASES_FILE = Path("consumer") / "cases.json"
MAX_CASES_FILE_BYTES = 16 << 20
"""The cases file is read whole; beyond this it is refused."""
MAX_REPEAT = 1 << 20
"""A piece's `repeat` (its text written that many times over) is at most this."""


@dataclass(frozen=True)
class Piece:
    """Bytes the server writes in one go, or (`split`) one byte per write."""

    data: bytes
    split: bool = False


@dataclass(frozen=True)
class Connection:
    """One scripted connection: the `Last-Event-ID` it must carry (None: none) and what it is sent
    before the server closes it."""

    last_event_id: str | None
    pieces: tuple[Piece, ...]

    @property
    def size(self) -> int:
        return sum(len(p.data) for p in self.pieces)


@dataclass(frozen=True)
class ConsumerCase:
    case: Case  # its id, description and tags, as the reports show every case
    connections: tuple[Connection, ...]
    expect: tuple[tuple[tuple[str, ...], tuple[bytes, ...]], ...]
    """(origin, complete messages in arrival order) per card holding any, depth first."""
    expect_error: bool = False
    """The stream carries what a strict consumer refuses (`"expect": "error"`): it must end with an error."""

    @property
    def id(self) -> str:
        return self.case.id

    @property
    def size(self) -> int:
        return sum(c.size for c in self.connections)


def load_consumer_cases(suite: Suite) -> list[ConsumerCase]:
    path = suite.root / CASES_FILE
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_CASES_FILE_BYTES + 1)
    except OSError as exc:
        raise SuiteError(f"{path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_CASES_FILE_BYTES:
        raise SuiteError(f"{path}: larger than {MAX_CASES_FILE_BYTES} bytes")
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise SuiteError(f"{path}: not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("role") != "consumer" or not isinstance(doc.get("cases"), list):
        raise SuiteError(f'{path}: expected {{"role": "consumer", "cases": [...]}}')
    out: list[ConsumerCase] = []
    seen: set[str] = set()
    for i, c in enumerate(doc["cases"]):
        where = f"{path}: /cases/{i}"
        cc = _case(c, where)
        if cc.id in seen:
            raise SuiteError(f"{where}: duplicate id {cc.id!r}")
        seen.add(cc.id)
        out.append(cc)
    return out


def _case(c: Any, where: str) -> ConsumerCase:
    if not isinstance(c, dict):
        raise SuiteError(f"{where}: a case is an object")
    cid, desc, tags = c.get("id"), c.get("description"), c.get("tags", [])
    if not isinstance(cid, str) or not _ID.match(cid):
        raise SuiteError(f"{where}/id: a case id of letters, digits and _.+-")
    if not isinstance(desc, str) or not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise SuiteError(f"{where}: `description` (a string) and `tags` (strings) are required")
    conns = c.get("connections")
    if not isinstance(conns, list) or not conns:
        raise SuiteError(f"{where}/connections: at least one connection")
    connections = tuple(_connection(x, f"{where}/connections/{j}") for j, x in enumerate(conns))
    cards = c.get("expect")
    expect_error = cards == "error"
    if expect_error:
        cards = []
    if not isinstance(cards, list):
        raise SuiteError(f"{where}/expect: a list of cards, or \"error\"")
    expect = []
    for j, card in enumerate(cards):
        w = f"{where}/expect/{j}"
        origin, messages = (card.get("origin"), card.get("messages")) if isinstance(card, dict) else (None, None)
        if not isinstance(origin, list) or not all(isinstance(o, str) for o in origin):
            raise SuiteError(f"{w}/origin: a list of session ids")
        if not isinstance(messages, list) or not messages or not all(isinstance(m, str) for m in messages):
            raise SuiteError(f"{w}/messages: a non-empty list of lines")
        expect.append((tuple(origin), tuple(m.encode("utf-8") for m in messages)))
    case = Case(id=cid, group=CONSUMER_GROUP, description=desc, spec=CONSUMER_SPEC, input=b"",
                expect="consumer-error" if expect_error else "consumer",
                tags=tuple(tags), source=f"consumer/cases.json#{cid}")
    return ConsumerCase(case, connections, tuple(expect), expect_error)


def _connection(x: Any, where: str) -> Connection:
    if not isinstance(x, dict) or not isinstance(x.get("send"), list):
        raise SuiteError(f"{where}: a connection is {{\"last_event_id\": ..., \"send\": [...]}}")
    lei = x.get("last_event_id")
    if lei is not None and not isinstance(lei, str):
        raise SuiteError(f"{where}/last_event_id: a string or null")
    pieces = []
    for k, p in enumerate(x["send"]):
        w = f"{where}/send/{k}"
        if not isinstance(p, dict) or p.get("split", None) not in (None, "bytes"):
            raise SuiteError(f"{w}: a piece is {{\"text\" | \"base64\": ..., \"repeat\"?: N, \"split\"?: \"bytes\"}}")
        if isinstance(p.get("text"), str):
            data = p["text"].encode("utf-8")
        elif isinstance(p.get("base64"), str):
            try:
                data = base64.b64decode(p["base64"], validate=True)
            except (binascii.Error, ValueError):
                raise SuiteError(f"{w}/base64: not base64") from None
        else:
            raise SuiteError(f"{w}: `text` or `base64` is required")
        repeat = p.get("repeat", 1)
        if not isinstance(repeat, int) or isinstance(repeat, bool) or not 1 <= repeat <= MAX_REPEAT:
            raise SuiteError(f"{w}/repeat: an integer 1..{MAX_REPEAT}")
        pieces.append(Piece(data * repeat, p.get("split") == "bytes"))
    return Connection(lei, tuple(pieces))
