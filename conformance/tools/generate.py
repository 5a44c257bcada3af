#!/usr/bin/env python3
"""Writes the conformance fixtures (`cases/*.jsonl`), `manifest.json` and the case counts of `README.md`.

Run with the project's Python (the `omnimessage` package must be importable):
`.venv/bin/python conformance/tools/generate.py` writes them; `--check` only compares and exits 1
when a committed file differs. The fixture files are committed; the generator (the
`case_builder` package beside this script) documents how they were made.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from case_builder.collector import CASES
from case_builder.manifest import BuildError, build
from case_builder.readme_counts import README, with_counts
from case_builder.schema_facts import SUITE


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files; write nothing")
    args = ap.parse_args()
    try:
        files, manifest = build()
    except BuildError as exc:
        print(f"conformance/tools/generate.py: {exc}", file=sys.stderr)
        return 1
    files["manifest.json"] = manifest
    readme = (SUITE / README).read_text("utf-8")
    files[README] = with_counts(readme, CASES.cases).encode("utf-8")
    stale = []
    for name, data in sorted(files.items()):
        path = SUITE / name
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    if args.check:
        for name in stale:
            print(f"stale: conformance/{name} (run conformance/tools/generate.py)")
        return 1 if stale else 0
    counts: dict[str, int] = defaultdict(int)
    for c in CASES.cases:
        counts[c["group"]] += 1
    print(", ".join(f"{g}: {n}" for g, n in counts.items()), f"(total {len(CASES.cases)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
