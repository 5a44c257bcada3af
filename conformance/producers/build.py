#!/usr/bin/env python3
"""Write the producer corpus: whole sessions laid out exactly as the reference producer writes them.

The reference producer is PenguinHarness (github.com/Prism-Shadow/penguin-harness). Nothing here is
its code: this builder re-states, in Python and with the standard library only, the *facts* of how
it builds, orders and serialises messages (README.md in this folder lists each fact with the
reference file it comes from). Every session is modelled once as a sequence of emissions, each
going to the live stream, to the trace, or to both, the way the reference's engine decides it;
the trace files and the stream files of a session are then two views of that one sequence.

Run it after editing (the output is deterministic, byte for byte):

    .venv/bin/python conformance/producers/build.py            # rewrites the corpus in place
    .venv/bin/python conformance/producers/build.py --out DIR  # writes it somewhere else
    .venv/bin/python conformance/producers/build.py --check    # writes nothing; exit 1 when a file
                                                               # (under --out) is stale, missing or
                                                               # no longer written

The model lives in the `corpus_builder` package beside this script. It deliberately does NOT use
the omnimessage codec or builders: the corpus exists to check them. Records are serialised by
`corpus_builder.js_json.stringify`, a small equivalent of JavaScript's JSON.stringify.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from corpus_builder.corpus import corpus
from corpus_builder.index_entries import index

HERE = Path(__file__).resolve().parent
OWN = {"build.py", "README.md", "corpus_builder", "__pycache__"}
"""What the corpus folder holds besides the corpus: the builder and its description."""


def write(out: Path) -> None:
    """Write the corpus under `out`, dropping whatever it no longer has."""
    out.mkdir(parents=True, exist_ok=True)
    for child in out.iterdir():
        if child.name in OWN:
            continue
        if child.is_dir():
            shutil.rmtree(child)
        else:
            child.unlink()
    files = corpus()
    files["index.json"] = index(files)
    for name, data in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def corpus_files(root: Path) -> dict[str, bytes]:
    """Every corpus file under `root` (the builder and README.md left out), by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.relative_to(root).parts[0] not in OWN and "__pycache__" not in p.parts}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE, help="corpus folder (default: this folder)")
    ap.add_argument("--check", action="store_true",
                    help="compare a fresh build with the corpus under --out; write nothing")
    a = ap.parse_args(argv)
    if not a.check:
        write(a.out)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(tmp))
        built, committed = corpus_files(Path(tmp)), corpus_files(a.out)
    stale = sorted(k for k in built.keys() | committed.keys() if built.get(k) != committed.get(k))
    for name in stale:
        print(f"stale: {a.out / name} (run conformance/producers/build.py)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
