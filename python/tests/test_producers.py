"""The producer corpus (conformance/producers/): whole sessions written exactly as the reference
producer writes them. Every file must pass the validator with no error (warnings are allowed and
listed on failure) but the ones its index entry lists as `findings` (the AMSP capture: not
OmniMessage, said once), re-encode byte-identical under its canonicalize mode, and be exactly what
conformance/producers/build.py writes today.

The corpus and its index are described in conformance/producers/README.md.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from omnimessage.schema.versions import versions

CORPUS = ROOT / "conformance" / "producers"
INDEX = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))
ENTRIES: list[dict[str, Any]] = INDEX["entries"]
OWN_FILES = {"build.py", "index.json", "README.md"}  # and the builder package, corpus_builder/


def _cli() -> list[str]:
    exe = Path(sys.executable).with_name("omnimessage")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "omnimessage"]


def _run(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([*_cli(), *args], input=stdin, capture_output=True, cwd=CORPUS, env=env,
                          timeout=300, check=False)


def _files(entry: dict[str, Any]) -> list[Path]:
    """The JSON Lines files of an entry (a trace root holds several)."""
    path = CORPUS / entry["path"]
    return sorted(path.rglob("*.jsonl")) if entry["input"] == "dir" else [path]


def _ident(entry: dict[str, Any]) -> str:
    return str(entry["path"])


def _unexpected_errors(entry: dict[str, Any], findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The errors of a report beyond the entry's `findings`, each of which must be there."""
    errors = [f for f in findings if f["severity"] == "error"]
    want = [(w["rule"], w["line"]) for w in entry.get("findings", [])]
    got = [(f["rule"], f["line"]) for f in errors]
    assert all(w in got for w in want), (entry["path"], want, got)
    return [f for f in errors if (f["rule"], f["line"]) not in want]


@pytest.mark.parametrize("entry", ENTRIES, ids=_ident)
def test_validator_reports_no_error(entry: dict[str, Any]) -> None:
    opts = entry.get("options", {})
    args = ["validate", "--format", "json", "--no-progress"]
    if entry["input"] == "sse":
        args += ["--sse", entry["path"]]
    else:
        args += ["--profile", entry["profile"], entry["path"]]
    for flag in ("legacy", "lenient", "truncated"):
        if opts.get(flag):
            args.append(f"--{flag}")
    res = _run(args)
    assert res.returncode in (0, 1), res.stderr.decode("utf-8", "replace")
    report = json.loads(res.stdout)
    findings = report["findings"]
    errors = _unexpected_errors(entry, findings)
    listing = "\n".join(f"  {f['severity']:7} {f['rule']} {f.get('path', '')}:{f['line']}: {f['message']}"
                        for f in findings)
    assert not errors, (f"{entry['path']} ({' '.join(args[1:])}): {len(errors)} error(s) on reference "
                        f"producer output; all findings:\n{listing}")
    assert res.returncode == (1 if entry.get("findings") else 0), listing


@pytest.mark.parametrize("entry", ENTRIES, ids=_ident)
@pytest.mark.parametrize("how", ["own", "auto"])
def test_validates_under_its_own_protocol_version(entry: dict[str, Any], how: str) -> None:
    """Every file passes under the version it is written in (index `protocol`), with no other option,
    and under `--protocol auto`, which reads the version from the file."""
    protocol = entry["protocol"] if how == "own" else "auto"
    if how == "auto" and entry["protocol"] in ("legacy", "newer"):
        protocol = entry["protocol"]  # no listed version holds them: only their spelling reads them
    args = ["validate", "--format", "json", "--no-progress", "--protocol", protocol]
    args += ["--sse", entry["path"]] if entry["input"] == "sse" else ["--profile", entry["profile"], entry["path"]]
    res = _run(args)
    report = json.loads(res.stdout)
    errors = [f"{f['rule']} {f.get('path', '')}:{f['line']}: {f['message']}"
              for f in _unexpected_errors(entry, report["findings"])]
    assert not errors and res.returncode == (1 if entry.get("findings") else 0), (protocol, errors[:5])
    if how == "auto":
        assert protocol != "auto" or any(n.startswith("protocol auto: ") for n in report["summary"]["notes"])


CANONICAL = [e for e in ENTRIES if e.get("canonicalize")]


@pytest.mark.parametrize("entry", CANONICAL, ids=_ident)
def test_canonicalize_is_byte_identical(entry: dict[str, Any]) -> None:
    mode = entry["canonicalize"]
    assert mode in ("strict", "lenient")
    refusals = {r["line"] for r in entry.get("canonicalize_refusals", [])}
    for path in _files(entry):
        data = path.read_bytes()
        res = _run(["canonicalize", *(["--lenient"] if mode == "lenient" else []), "-"], stdin=data)
        stderr = res.stderr.decode("utf-8", "replace")
        reported = {int(m.group(1)) for m in re.finditer(r"^[^:\n]*:(\d+): ", stderr, re.M)}
        assert reported == refusals, f"{path.relative_to(CORPUS)}: lines refused {sorted(reported)}, " \
                                     f"expected {sorted(refusals)}:\n{stderr}"
        assert res.returncode == (1 if refusals else 0), stderr
        expected = b"".join(line for n, line in enumerate(data.splitlines(keepends=True), 1)
                            if n not in refusals)
        if res.stdout != expected:
            got, want = res.stdout.splitlines(), expected.splitlines()
            first = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
            pytest.fail(f"{path.relative_to(CORPUS)} ({mode}): re-encoding differs at output line {first + 1}:\n"
                        f"  got  {got[first][:300]!r}\n  want {want[first][:300]!r}"
                        if first < min(len(got), len(want)) else
                        f"{path.relative_to(CORPUS)}: {len(got)} lines out, {len(want)} expected")


def test_build_regenerates_the_corpus(tmp_path: Path) -> None:
    out = tmp_path / "producers"
    res = subprocess.run([sys.executable, str(CORPUS / "build.py"), "--out", str(out)],
                         capture_output=True, check=False, timeout=120)
    assert res.returncode == 0, res.stderr.decode("utf-8", "replace")
    built = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    on_disk = {p.relative_to(CORPUS).as_posix(): p.read_bytes() for p in CORPUS.rglob("*")
               if p.is_file() and p.name not in OWN_FILES - {"index.json"} and "__pycache__" not in p.parts and "corpus_builder" not in p.parts}
    stale = sorted(k for k in built.keys() | on_disk.keys() if built.get(k) != on_disk.get(k))
    assert not stale, f"run conformance/producers/build.py: stale or missing files {stale}"


def test_every_file_is_indexed() -> None:
    listed = [CORPUS / e["path"] for e in ENTRIES]
    assert len({e["path"] for e in ENTRIES}) == len(ENTRIES), "an entry is listed twice"
    for path in listed:
        assert path.exists(), f"index.json lists {path.relative_to(CORPUS)}, which does not exist"
    unlisted = [p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*")
                if p.is_file() and p.name not in OWN_FILES and "__pycache__" not in p.parts and "corpus_builder" not in p.parts
                and not any(p == q or q in p.parents for q in listed)]
    assert not unlisted, f"files not in index.json: {unlisted}"


@pytest.mark.parametrize("entry", ENTRIES, ids=_ident)
def test_index_entry_is_complete(entry: dict[str, Any]) -> None:
    assert entry["input"] in ("jsonl", "sse", "dir")
    assert entry["profile"] in ("trace", "stream")
    assert entry["input"] != "sse" or entry["profile"] == "stream"
    assert set(entry.get("options", {})) <= {"legacy", "lenient", "truncated"}
    assert entry["protocol"] in (*versions(), "legacy", "newer")
    assert entry["what"] and entry["shows"] and entry["reference"]
