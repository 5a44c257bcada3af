"""`python -m omnimessage_dev.synth KIND OUT [--bytes N] [--seed S]`: write synthetic lines to a file.

KIND is `trace` or `stream` (a session, plain flavour: what the tests validate), or `bench-trace`,
`bench-stream`, `bench-small` (the benchmark corpora: the rich flavour, :mod:`.corpora`). The
TypeScript bench (typescript/bench/bench.mjs) reads the `bench-trace` file this writes.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from . import corpora, sessions

KINDS: dict[str, Callable[[int, int], Iterator[bytes]]] = {
    "trace": lambda size, seed: sessions.trace_lines(size, seed),
    "stream": lambda size, seed: sessions.stream_lines(size, seed),
    "bench-trace": corpora.trace,
    "bench-stream": corpora.stream,
    "bench-small": corpora.small,
}


def write(kind: str, out: Path, size: int, seed: int) -> int:
    """Write about `size` bytes of `kind` to `out` (atomically); return the bytes written."""
    tmp = out.with_name(out.name + ".tmp")
    written = 0
    with open(tmp, "wb", buffering=1 << 20) as fh:
        for line in KINDS[kind](size, seed):
            fh.write(line)
            written += len(line)
    os.replace(tmp, out)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m omnimessage_dev.synth", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("out", type=Path, help="the JSON Lines file to write")
    ap.add_argument("--bytes", type=float, default=10e6, help="about how many bytes (default 10e6)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    n = write(args.kind, args.out, int(args.bytes), args.seed)
    sys.stderr.write(f"wrote {args.out}: {n / 1e6:.1f} MB of {args.kind} (seed {args.seed})\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
