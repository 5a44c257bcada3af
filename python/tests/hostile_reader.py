"""Reads one file with `omnimessage.iter_messages` and prints what it made of it, as one JSON line.

Run as a script by test_hostile_files.py (in a subprocess with time and memory limits); the
TypeScript twin is typescript/test/hostile-reader.mjs, and both must print the same summary:
lines, messages, lines re-encoding to themselves, refusals by category, and a digest of every
line's outcome (category, pointer, offset, terminated; or the canonical bytes).
"""

from __future__ import annotations

import hashlib
import json
import sys

import omnimessage as om


def summarize(path: str) -> dict[str, object]:
    digest = hashlib.sha256()
    refused: dict[str, int] = {}
    lines = messages = identical = 0
    for line in om.iter_messages(path):
        lines += 1
        if line.error is not None:
            e = line.error
            refused[e.category] = refused.get(e.category, 0) + 1
            pointer = e.pointer.encode("utf-16-le", "surrogatepass").hex()
            digest.update(f"{line.number}\t{e.category}\t{pointer}\t{e.offset}\t{line.terminated}\n".encode())
            continue
        assert line.message is not None
        out = om.encode(line.message)
        messages += 1
        identical += out == line.raw
        digest.update(f"{line.number}\tok\t{len(out)}\t{line.terminated}\n".encode())
        digest.update(out)
    return {
        "lines": lines,
        "messages": messages,
        "identical": identical,
        "refused": dict(sorted(refused.items())),
        "digest": digest.hexdigest(),
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(summarize(sys.argv[1])) + "\n")
