"""Writing the fixtures: `<rule>/<name>.jsonl|.sse|/` and its `<name>.expect.json` sidecar, and
comparing a fresh build with the committed folders."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from .directories import Dir
from .fixture import FIXTURES
from .sse import Sse


def write(out: Path) -> None:
    """Write every declared fixture under `out`, replacing its `OM*` folders."""
    out.mkdir(parents=True, exist_ok=True)
    for sub in out.iterdir():
        if sub.is_dir() and sub.name.startswith("OM"):
            shutil.rmtree(sub)
    seen = set()
    for f in FIXTURES:
        key = (f.rule, f.name)
        assert key not in seen, key
        seen.add(key)
        folder = out / f.rule
        folder.mkdir(exist_ok=True)
        meta: dict[str, Any] = {"rule": f.rule, "description": f.about, "profile": f.profile}
        options = {k: v for k, v in f.options.items() if v}
        if options:
            meta["options"] = options
        if isinstance(f, Dir):
            meta["input"] = "dir"
            for rel, lines in f.files.items():
                p = folder / f.name / rel
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(b"".join(x + b"\n" for x in lines))
            for rel, target in f.links.items():
                p = folder / f.name / rel
                p.parent.mkdir(parents=True, exist_ok=True)
                p.symlink_to(target)
        elif isinstance(f, Sse):
            meta["input"] = "sse"
            (folder / f"{f.name}.sse").write_bytes(b"".join(f.chunks))
        else:
            meta["input"] = "jsonl"
            data = b"\n".join(f.lines) + (f.tail if f.lines else b"")
            (folder / f"{f.name}.jsonl").write_bytes(data)
        meta["findings"] = sorted(f.expected, key=lambda e: (e.get("path", ""), e["line"], e["rule"]))
        (folder / f"{f.name}.expect.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(FIXTURES)} fixtures", file=sys.stderr)


def fixture_files(root: Path) -> dict[str, bytes]:
    """Every file under the `OM*` folders of `root`, by path relative to `root` (a symbolic link by
    what it leads to, as a copy made without links holds it)."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for sub in sorted(root.glob("OM*")) if sub.is_dir() for p in sorted(sub.rglob("*")) if p.is_file()}


def stale_files(built: Path, committed: Path) -> list[str]:
    """Fixture files that differ between two folders, or exist in only one of them."""
    a, b = fixture_files(built), fixture_files(committed)
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
