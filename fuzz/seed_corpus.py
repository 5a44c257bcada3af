"""Write the fuzzing seed corpora from the bundled examples and the conformance fixtures."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def seeds() -> list[bytes]:
    out: list[bytes] = []
    for f in [ROOT / "examples" / "trace.jsonl", ROOT / "examples" / "invalid.jsonl"]:
        out += f.read_bytes().splitlines()
    for f in sorted((ROOT / "conformance").rglob("*.jsonl")) if (ROOT / "conformance").exists() else []:
        out += [line for line in f.read_bytes().splitlines() if len(line) < 100_000]
    if (ROOT / "conformance" / "manifest.json").exists():
        from omnimessage.conformance.suite import load_suite

        for case in load_suite(ROOT / "conformance").cases:  # inline base64 and compact parts included
            if case.source in ("base64", "parts") and len(case.input) < 100_000:
                out.append(case.input)
    for crash in sorted((ROOT / "fuzz" / "crashes").glob("*")) if (ROOT / "fuzz" / "crashes").exists() else []:
        out.append(crash.read_bytes())
    return out


def main() -> int:
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    n = 0
    for s in seeds():
        path = target / hashlib.sha1(s).hexdigest()
        if not path.exists():
            path.write_bytes(s)
            n += 1
    print(f"{n} new seeds in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
