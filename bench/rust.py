"""The Rust implementation, run out of process by `omnimessage-rs bench` ($OMNIMESSAGE_RS_BIN, else
rust/target/release/omnimessage-rs, built by `make rust-test`), which times only the work (not
start-up, not reading the file): one untimed warm-up pass, then one timed pass."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from .impls import Impl

ROOT = Path(__file__).resolve().parent.parent
BINARY = Path(os.environ.get("OMNIMESSAGE_RS_BIN") or ROOT / "rust" / "target" / "release" / "omnimessage-rs")

RUST_IMPLS = [
    ("decode_validate", "omnimessage-rust", "strict decode into the generated types"),
    ("roundtrip", "omnimessage-rust", "strict decode + canonical encode of every message"),
]


def rust_impls() -> list[Impl]:
    if not BINARY.is_file():
        print(f"Rust implementation skipped: {BINARY} is not built (make rust-test)")
        return []
    impls = []
    for task, name, note in RUST_IMPLS:

        def run_external(path: Path, task: str = task) -> tuple[int, int | None, float]:
            mode = "strict" if task == "decode_validate" else "roundtrip"
            out = subprocess.run(
                [str(BINARY), "bench", mode, str(path)], capture_output=True, text=True, check=True, timeout=600
            ).stdout
            r = json.loads(out)
            return r["accepted"], r.get("identical"), r["seconds"]

        impls.append(Impl(task, name, lambda lines: (0, None), note, run_external=run_external))
    return impls
