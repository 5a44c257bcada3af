"""What each native decode row lets through: the conformance suite's one-line rejection cases, one file per
category, through every `decode_validate` row of bench/native.py (ours and the ecosystem peers), counting the
lines each accepts. Ours accept none; a peer's count is the checks it skips that the strict decoder makes,
beside its speed in RESULTS.md (bench/report.py renders the table). `too_large` is left out: a line-length
limit of the reader, not of a decoder (the bench modes decode lines without the reader)."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from .native import NATIVE

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "conformance"
READER_ONLY = frozenset({"too_large"})


def rejection_lines() -> dict[str, list[bytes]]:
    """The suite's rejection cases that are one line (a file line or base64 bytes, no LF inside), by category."""
    manifest = json.loads((CONFORMANCE / "manifest.json").read_text())
    files: dict[str, list[bytes]] = {}
    out: dict[str, list[bytes]] = defaultdict(list)
    for case in manifest["cases"]:
        expect, given = case["expect"], case["input"]
        if expect["kind"] != "reject" or expect["category"] in READER_ONLY:
            continue
        if "base64" in given:
            data = base64.b64decode(given["base64"])
        elif "file" in given:
            lines = files.setdefault(given["file"], (CONFORMANCE / given["file"]).read_bytes().split(b"\n"))
            data = lines[given["line"] - 1]
        else:  # `parts`: a streamed input of the reader
            continue
        data = data.removesuffix(b"\n")
        if b"\n" not in data:
            out[expect["category"]].append(data)
    return dict(sorted(out.items()))


def let_through() -> dict[str, Any]:
    """{"cases": {category: n}, "accepted": {row: {category: n}}} for the native rows that are built."""
    by_category = rejection_lines()
    accepted: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory(prefix="omnimessage-let-through-") as tmp:
        paths = {}
        for category, lines in by_category.items():
            paths[category] = Path(tmp) / f"{category}.jsonl"
            paths[category].write_bytes(b"".join(line + b"\n" for line in lines))
        for env, default, _build, rows in NATIVE.values():
            binary = Path(os.environ.get(env) or default)
            if not binary.is_file():
                continue
            for task, name, mode, _note in rows:
                if task != "decode_validate":
                    continue
                accepted[name] = {}
                for category, path in paths.items():
                    out = subprocess.run(
                        [str(binary), "bench", mode, str(path)], capture_output=True, text=True, check=True, timeout=60
                    ).stdout
                    accepted[name][category] = json.loads(out)["accepted"]
    return {"cases": {c: len(lines) for c, lines in by_category.items()}, "accepted": accepted}

