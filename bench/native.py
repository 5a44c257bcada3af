"""The implementations that are one binary, run out of process by their `bench MODE FILE` command,
which times only the work (not start-up, not reading the file): one untimed warm-up pass, then one
timed pass.

- Rust: `omnimessage-rs bench` ($OMNIMESSAGE_RS_BIN, else rust/target/release/omnimessage-rs, built
  by `make rust-test`);
- Go: `omnimessage-go bench` ($OMNIMESSAGE_GO_BIN, else go/bin/omnimessage-go, built by `make
  go-test` or `make go-build`), and the standard library's encoding/json into `any` in the same
  binary (the Go floor: no schema, no duplicate-key check, no canonical form);
- each binding's own ecosystem (development only: their own module and crate, never the runtime's; built
  by `make peers-build`): `omnimessage-go-peers bench` (go/bench-peers: encoding/json and goccy/go-json into
  structs mirroring the generated types) and `omnimessage-rs-peers bench` (rust/bench-peers: serde_json and
  sonic-rs into serde-derive structs mirroring them). Each row's note says what the parser leaves unchecked
  that the strict decoder checks."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from .impls import Impl

ROOT = Path(__file__).resolve().parent.parent

# binary name -> (the variable naming it, its default path, how it is built, its rows: task, name, mode, note)
NATIVE = {
    "omnimessage-rs": (
        "OMNIMESSAGE_RS_BIN",
        ROOT / "rust" / "target" / "release" / "omnimessage-rs",
        "make rust-test",
        [
            ("decode_validate", "omnimessage-rust", "strict", "strict decode into the generated types"),
            ("roundtrip", "omnimessage-rust", "roundtrip", "strict decode + canonical encode of every message"),
        ],
    ),
    "omnimessage-go": (
        "OMNIMESSAGE_GO_BIN",
        ROOT / "go" / "bin" / "omnimessage-go",
        "make go-build",
        [
            ("decode_validate", "omnimessage-go", "strict", "strict decode into the generated types"),
            ("roundtrip", "omnimessage-go", "roundtrip", "strict decode + canonical encode of every message"),
            (
                "decode_validate",
                "go-encoding-json-any",
                "encoding-json-any",
                "encoding/json into any: parse only (no schema, duplicate keys pass)",
            ),
        ],
    ),
    "omnimessage-go-peers": (
        "OMNIMESSAGE_GO_PEERS_BIN",
        ROOT / "go" / "bin" / "omnimessage-go-peers",
        "make peers-build",
        [
            (
                "decode_validate",
                "go-encoding-json-structs",
                "encoding-json-structs",
                "encoding/json into structs mirroring the generated types, the union picked by its type "
                "(no duplicate, unknown or required key, enum or lexical check)",
            ),
            (
                "decode_validate",
                "go-goccy-json-structs",
                "go-json-structs",
                "goccy/go-json into the same structs (no duplicate, unknown or required key, enum or lexical check)",
            ),
        ],
    ),
    "omnimessage-rs-peers": (
        "OMNIMESSAGE_RS_PEERS_BIN",
        ROOT / "rust" / "bench-peers" / "target" / "release" / "omnimessage-rs-peers",
        "make peers-build",
        [
            (
                "decode_validate",
                "rust-serde-json-typed",
                "serde-json-typed",
                "serde_json into serde-derive structs and enums mirroring the generated types "
                "(no unknown key, lexical or surrogate check)",
            ),
            (
                "decode_validate",
                "rust-sonic-rs-typed",
                "sonic-rs-typed",
                "sonic-rs (SIMD) into the same serde structs (no unknown key, lexical or surrogate check)",
            ),
        ],
    ),
}


def native_impls() -> list[Impl]:
    impls = []
    for name, (env, default, build, rows) in NATIVE.items():
        binary = Path(os.environ.get(env) or default)
        if not binary.is_file():
            print(f"{name} skipped: {binary} is not built ({build})")
            continue
        for task, impl_name, mode, note in rows:

            def run_external(path: Path, binary: Path = binary, mode: str = mode) -> tuple[int, int | None, float]:
                out = subprocess.run(
                    [str(binary), "bench", mode, str(path)], capture_output=True, text=True, check=True, timeout=600
                ).stdout
                r = json.loads(out)
                return r["accepted"], r.get("identical"), r["seconds"]

            impls.append(Impl(task, impl_name, lambda lines: (0, None), note, run_external=run_external))
    return impls
