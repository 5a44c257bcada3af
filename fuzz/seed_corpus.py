"""Write the fuzzing seed corpora from the bundled examples, the conformance fixtures and the
synthetic-message generator (omnimessage_dev.synth: a sample of every payload kind, whole sessions).

    seed_corpus.py DIR            one line per seed (fuzz_decode.py)
    seed_corpus.py --files DIR    whole files, behind a flag byte (fuzz_validate.py): the protocol
                                  fixtures (streams, traces, SSE captures), the examples, and the
                                  per-line fixtures in slices of a few lines
    seed_corpus.py --dict FILE    a libFuzzer dictionary: the schema's keys, types and vocabularies,
                                  JSON punctuation, and the bytes hostile inputs are made of
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from omnimessage_dev.synth.samples import canonical_samples
from omnimessage_dev.synth.sessions import stream_lines, trace_lines

ROOT = Path(__file__).resolve().parent.parent
MAX_SEED = 100_000


def seeds() -> list[bytes]:
    out: list[bytes] = []
    for f in [ROOT / "examples" / "trace.jsonl", ROOT / "examples" / "invalid.jsonl"]:
        out += f.read_bytes().splitlines()
    for f in sorted((ROOT / "conformance").rglob("*.jsonl")) if (ROOT / "conformance").exists() else []:
        out += [line for line in f.read_bytes().splitlines() if len(line) < MAX_SEED]
    if (ROOT / "conformance" / "manifest.json").exists():
        from omnimessage.conformance.suite import load_suite

        for case in load_suite(ROOT / "conformance").cases:  # inline base64 and compact parts included
            if case.source in ("base64", "parts") and len(case.input) < MAX_SEED:
                out.append(case.input)
    for crash in sorted((ROOT / "fuzz" / "crashes").glob("decode-*")) if (ROOT / "fuzz" / "crashes").exists() else []:
        out.append(crash.read_bytes())
    out += [line for _, line in canonical_samples()]  # every payload kind and field shape
    return out


def file_seeds() -> list[bytes]:
    """Whole inputs for the validator, each behind its flag byte (bit 0 legacy, 1 truncated, 2 twice)."""
    files: list[bytes] = []
    protocol = ROOT / "conformance" / "validator"
    for f in sorted(protocol.rglob("*")) if protocol.exists() else []:
        if f.is_file() and f.suffix in (".jsonl", ".sse") and f.stat().st_size < MAX_SEED:
            files.append(f.read_bytes())
    for f in sorted((ROOT / "examples").glob("*.jsonl")):
        files.append(f.read_bytes()[:MAX_SEED])
    for seed in (1, 2):  # whole synthetic sessions that follow every rule
        files.append(b"".join(trace_lines(MAX_SEED // 2, seed)))
        files.append(b"".join(stream_lines(MAX_SEED // 2, seed)))
    for f in sorted((ROOT / "conformance" / "cases").glob("*.jsonl")):
        lines = [ln for ln in f.read_bytes().split(b"\n") if len(ln) < 4096]
        files += [b"\n".join(lines[i : i + 8]) + b"\n" for i in range(0, len(lines), 8)]
    out = [bytes([flag]) + data for data in files for flag in (0, 1)]
    out += [bytes([2]) + data for data in files[:50]]
    for crash in sorted((ROOT / "fuzz" / "crashes").glob("validate-*")) if (ROOT / "fuzz" / "crashes").exists() else []:
        out.append(crash.read_bytes())
    return out


def dictionary() -> list[bytes]:
    schema = json.loads((ROOT / "schema" / "omnimessage.schema.json").read_text(encoding="utf-8"))
    words: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "properties" and isinstance(v, dict):
                    words.update(f'"{name}":' for name in v)
                elif k == "const" and isinstance(v, str):
                    words.add(f'"{v}"')
                elif k == "enum" and isinstance(v, list):
                    words.update(f'"{x}"' for x in v if isinstance(x, str))
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    out = sorted(w.encode() for w in words)
    out += [
        b"{", b"}", b"[", b"]", b'":', b'","', b"null", b"true", b"false", b"-0", b"1.0", b"1e400", b"9007199254740993",
        b"\\u0000", b"\\ud800", b"\\udc00", b"\\ud83d\\ude00", b"\\u0065", b"\\/", b'"__proto__":', b'"constructor":',
        b"\xef\xbb\xbf", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\r\n", b"\x00",
        b"data: ", b"event: ", b"id: ", b"retry: ", b"\n\n",
        b'"2026-07-18T03:10:22.531Z"',
    ]
    return out


def write_dict(path: Path, words: list[bytes]) -> None:
    lines = ['kw%d="%s"' % (i, "".join(f"\\x{b:02x}" for b in w)) for i, w in enumerate(words)]  # noqa: UP031
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--dict"]:
        words = dictionary()
        write_dict(Path(argv[1]), words)
        print(f"{len(words)} dictionary entries in {argv[1]}")
        return 0
    files = argv[:1] == ["--files"]
    target = Path(argv[1] if files else argv[0])
    target.mkdir(parents=True, exist_ok=True)
    n = 0
    for s in file_seeds() if files else seeds():
        path = target / hashlib.sha1(s).hexdigest()
        if not path.exists():
            path.write_bytes(s)
            n += 1
    print(f"{n} new seeds in {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
