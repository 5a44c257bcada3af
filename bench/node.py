"""The TypeScript implementations, run out of process by typescript/bench/worker.mjs, which
times only the work (not Node start-up, not reading the file)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from .impls import Impl

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "typescript" / "bench" / "worker.mjs"

NODE_IMPLS = [
    ("decode_validate", "omnimessage-typescript", ""),
    ("decode_validate", "omnimessage-typescript-json-parse", "no one-pass readers: JSON.parse, validators, verifier"),
    ("decode_validate", "json-parse", "JSON.parse only: the floor"),
    ("decode_validate", "json-parse+ajv", "JSON.parse + ajv (2020-12, compiled)"),
    ("roundtrip", "omnimessage-typescript", "an unchanged decoded message encodes to its retained line (checked)"),
    ("roundtrip", "omnimessage-typescript-json-parse", "without the one-pass readers (retained line checked)"),
    ("roundtrip", "omnimessage-typescript-reserialise", "retainSource: false: every message serialised again"),
    ("roundtrip", "json-parse+stringify", "JSON.parse + JSON.stringify, no validation"),
]


def node_impls() -> list[Impl]:
    if shutil.which("node") is None or not WORKER.exists() or not (ROOT / "typescript" / "dist").exists():
        print("TypeScript implementations skipped: node or the built typescript package is missing")
        return []
    impls = []
    for task, name, note in NODE_IMPLS:

        def run_external(path: Path, task: str = task, name: str = name) -> tuple[int, int | None, float]:
            out = subprocess.run(
                ["node", str(WORKER), task, name, str(path)], capture_output=True, text=True, check=True, timeout=600
            ).stdout
            r = json.loads(out)
            return r["accepted"], r.get("identical"), r["seconds"]

        impls.append(Impl(task, name, lambda lines: (0, None), note, run_external=run_external))
    return impls
