"""Write the validator fixtures: `.venv/bin/python conformance/validator/build.py` (the project's Python:
the `omnimessage` package must be importable).

Each fixture is declared in the `fixture_builder` package beside this script with its input and,
written by hand, the findings a validator must report for it (rule id and line). The files are
committed; this script only spares writing JSON by hand (messages are canonicalised with the codec,
so passing fixtures are byte-canonical).

    build.py              rewrites the OM*/ folders here
    build.py --out DIR    writes them under DIR instead
    build.py --check      writes nothing; exit 1 when a committed fixture file (under --out) is
                          stale, missing or no longer written by the builder
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from fixture_builder import declare_all
from fixture_builder.writing import stale_files, write

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--out", type=Path, default=HERE,
                    help="where to write the OM*/ folders (default: beside this script)")
    ap.add_argument("--check", action="store_true",
                    help="compare a fresh build with the fixtures under --out; write nothing")
    args = ap.parse_args(argv)
    declare_all()
    if not args.check:
        write(args.out)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp))
        stale = stale_files(Path(tmp), args.out)
    for name in stale:
        print(f"stale: {args.out / name} (run conformance/validator/build.py)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
