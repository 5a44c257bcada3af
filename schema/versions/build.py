#!/usr/bin/env python3
"""Write one schema per protocol version (`<version>.schema.json`), derived from the canonical
schema's version marks (omnimessage.versions.derive); `--check` writes nothing and fails when a
file is stale, missing, or no longer written. `make generate` runs it, `make check-generated`
runs it with `--check`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from omnimessage.versions import derive, versions

HERE = Path(__file__).resolve().parent


def files() -> dict[str, bytes]:
    return {f"{v}.schema.json": (json.dumps(derive(v), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
            for v in versions()}


def main() -> int:
    want = files()
    if "--check" in sys.argv[1:]:
        bad = [n for n, data in want.items() if not (HERE / n).is_file() or (HERE / n).read_bytes() != data]
        bad += [p.name for p in HERE.glob("*.schema.json") if p.name not in want]
        for n in bad:
            print(f"schema/versions/{n} is stale, missing or no longer written", file=sys.stderr)
        return 1 if bad else 0
    for p in HERE.glob("*.schema.json"):
        if p.name not in want:
            p.unlink()
    for n, data in want.items():
        (HERE / n).write_bytes(data)
    print(f"wrote {len(want)} protocol version schemas")
    return 0


if __name__ == "__main__":
    sys.exit(main())
