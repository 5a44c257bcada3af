"""The case collector: each case gets its id, its input (a line of `cases/<group>.jsonl`, inline
base64, or compact `parts`), its expectation and its tags."""

from __future__ import annotations

import base64
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from omnimessage.conformance.coverage import parse_json

from .schema_facts import REJECTIONS, WALKER


def text_safe(data: bytes) -> bool:
    """Whether the bytes can sit as one line of a committed text file."""
    if not data.endswith(b"\n") or b"\n" in data[:-1] or data.startswith(b"\xef\xbb\xbf"):
        return False
    try:
        s = data[:-1].decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(ord(c) < 0x20 and c != "\t" for c in s) and not s.endswith((" ", "\t"))


GRAMMAR_CATEGORIES: frozenset[str] = frozenset(
    {"invalid_utf8", "line_break", "invalid_json", "trailing_data", "too_deep", "too_large", "truncated"}
)
"""Refusals of the line before any value is read (levels 1 and 2 of the precedence, and the
reader's): their JSON pointer is `""`, stated by every case."""


Parts = list[tuple[str | bytes, int]]
"""A compact byte source for huge inputs: (text or bytes, repeat count) pieces, concatenated."""


def parts_bytes(parts: Parts) -> bytes:
    return b"".join((p.encode("utf-8") if isinstance(p, str) else p) * n for p, n in parts)


def parts_source(parts: Parts) -> dict[str, Any]:
    """The manifest form of `parts`: `{"parts": [{"text"|"base64": ..., "repeat": n}, ...]}`."""
    out: list[dict[str, Any]] = []
    for piece, n in parts:
        assert n >= 1 and piece, (piece, n)
        if isinstance(piece, str):
            piece.encode("utf-8")  # text pieces are well-formed Unicode (no lone surrogates)
            item: dict[str, Any] = {"text": piece}
        else:
            item = {"base64": base64.b64encode(piece).decode()}
        if n > 1:
            item["repeat"] = n
        out.append(item)
    return {"parts": out}


class CaseCollector:
    def __init__(self) -> None:
        self.files: dict[str, list[bytes]] = defaultdict(list)
        self.cases: list[dict[str, Any]] = []
        self.ids: set[str] = set()

    def _place(self, file: str, data: bytes) -> dict[str, Any]:
        self.files[file].append(data)
        return {"file": file, "line": len(self.files[file])}

    def add(
        self,
        cid: str,
        group: str,
        description: str,
        spec: str,
        data: bytes,
        *,
        expect: str = "identical",
        output: bytes | None = None,
        category: str | None = None,
        pointer: str | None = None,
        tags: Iterable[str] = (),
        mode: str = "strict",
        max_line_bytes: int | None = None,
        parts: Parts | None = None,
        output_parts: Parts | None = None,
    ) -> None:
        """`parts` / `output_parts` (huge inputs or outputs) are written compactly in the manifest
        instead of `data` / `output`, which are then computed from them."""
        cid = f"{group}.{cid}".replace("^", "pow")
        # The suite sends exactly one line: bytes, at most one LF, at their end (TESTEE-PROTOCOL.md).
        line_bytes = parts_bytes(parts) if parts is not None else data
        assert line_bytes and b"\n" not in line_bytes[:-1], f"{cid}: an input is one non-empty line"
        if category in GRAMMAR_CATEGORIES:
            # Grammar refusals refuse the line, not a value: their pointer is "" (schema/README.md section 4).
            assert pointer in (None, ""), (cid, pointer)
            pointer = ""
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]*", cid), cid
        assert cid not in self.ids, cid
        self.ids.add(cid)
        if parts is not None:
            data = line_bytes
            src = parts_source(parts)
        elif text_safe(data):
            src = self._place(f"cases/{group}.jsonl", data)
        else:
            src = {"base64": base64.b64encode(data).decode()}
        if output_parts is not None:
            output = parts_bytes(output_parts)
        case: dict[str, Any] = {"id": cid, "group": group, "description": description, "spec": spec, "input": src}
        if mode != "strict":
            case["mode"] = mode
            case["features"] = [mode]
        if max_line_bytes is not None:
            case["max_line_bytes"] = max_line_bytes
        ex: dict[str, Any] = {"kind": expect}
        facts: set[str] = set()
        if expect == "canonical":
            assert output is not None and b"\n" not in output
            if output_parts is not None:
                ex["output"] = parts_source(output_parts)
            else:
                ex["output"] = self._place(f"cases/{group}.expected.jsonl", output + b"\n")
            if mode == "strict":
                facts = WALKER.facts(parse_json(output))
        elif expect == "identical":
            body = data[:-1] if data.endswith(b"\n") else data
            if mode == "strict":
                facts = WALKER.facts(parse_json(body))
        else:
            assert category in REJECTIONS, category
            ex["category"] = category
            if pointer is not None:
                ex["pointer"] = pointer
        case["expect"] = ex
        case["lexical"] = bool(expect == "reject" and REJECTIONS[category or ""]["lexical"])
        facts = {f for f in facts if not f.startswith(("def:", "absent:"))}  # kept short; coverage measures all
        case["tags"] = sorted(facts | set(tags) | ({f"category:{category}"} if category else set()))
        self.cases.append(case)


CASES = CaseCollector()



def rejection_case(
    cid: str,
    desc: str,
    data: bytes | str,
    category: str,
    spec: str = "4",
    pointer: str | None = None,
    tags: Iterable[str] = (),
    max_line_bytes: int | None = None,
) -> None:
    b = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    CASES.add(
        f"{category}.{cid}",
        "rejection",
        desc,
        spec,
        b,
        expect="reject",
        category=category,
        pointer=pointer,
        tags=tags,
        max_line_bytes=max_line_bytes,
    )

