"""The protocol fixtures (conformance/validator/<rule>/): each is validated through the command line and
must produce exactly the findings its `.expect.json` lists; every rule has passing and failing ones."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT as CHECKOUT

from omnimessage.cli.validate import main
from omnimessage.validate.engine.rules import RULES

ROOT = CHECKOUT / "conformance" / "validator"
EXPECTS = sorted(ROOT.glob("OM*/*.expect.json"))


def _load(p: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(p.read_text(encoding="utf-8"))
    return data


def _run(expect: Path, tmp_path: Path) -> tuple[int, dict[str, Any], dict[str, Any]]:
    meta = _load(expect)
    stem = expect.name[: -len(".expect.json")]
    target = expect.parent / (stem + {"jsonl": ".jsonl", "sse": ".sse", "dir": ""}[meta["input"]])
    argv = ["--format", "json", "-o", str(tmp_path / "report.json"), "--no-progress"]
    if meta["input"] == "sse":
        argv += ["--sse", str(target)]
    else:
        argv += ["--profile", meta["profile"], str(target)]
    opts = meta.get("options", {})
    if opts.get("legacy"):
        argv.append("--legacy")
    if opts.get("lenient"):
        argv.append("--lenient")
    if opts.get("truncated"):
        argv.append("--truncated")
    if "protocol" in opts:
        argv += ["--protocol", opts["protocol"]]
    if "max_line_bytes" in opts:
        argv += ["--max-line-bytes", str(opts["max_line_bytes"])]
    rc = main(argv)
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    for f in report["findings"]:
        f["path"] = str(Path(f["path"]).relative_to(target)) if meta["input"] == "dir" else ""
    return rc, meta, report


@pytest.mark.parametrize("expect", EXPECTS, ids=[f"{p.parent.name}/{p.name[:-12]}" for p in EXPECTS])
def test_fixture(expect: Path, tmp_path: Path) -> None:
    rc, meta, report = _run(expect, tmp_path)
    got = Counter((f["rule"], f["line"], f["path"]) for f in report["findings"])
    want = Counter((e["rule"], e["line"], e.get("path", "")) for e in meta["findings"])
    assert got == want, report["findings"]
    for e in meta["findings"]:
        if "severity" in e:
            assert any(f["rule"] == e["rule"] and f["line"] == e["line"] and f["severity"] == e["severity"]
                       for f in report["findings"]), e
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert rc == (1 if errors else 0)
    name = expect.name
    if name.startswith("pass-"):
        assert not meta["findings"], "a passing fixture has no findings"
    else:
        assert name.startswith("fail-")
        assert any(e["rule"] == meta["rule"] for e in meta["findings"]), "a failing fixture shows its own rule"


def test_every_rule_has_passing_and_failing_fixtures() -> None:
    have: dict[str, set[str]] = {rid: set() for rid in RULES}
    for p in EXPECTS:
        meta = _load(p)
        assert meta["rule"] == p.parent.name
        assert meta["rule"] in RULES, p
        assert meta["profile"] in RULES[meta["rule"]].profiles, p
        have[meta["rule"]].add(p.name.split("-", 1)[0])
    missing = {rid: {"pass", "fail"} - kinds for rid, kinds in have.items() if {"pass", "fail"} - kinds}
    assert not missing


def test_fixture_layout() -> None:
    """Every fixture input has its sidecar and the other way round (README layout)."""
    for folder in ROOT.glob("OM*"):
        stems = {p.name[: -len(".expect.json")] for p in folder.glob("*.expect.json")}
        inputs = {p.stem for p in folder.iterdir() if p.suffix in (".jsonl", ".sse")} | {
            p.name for p in folder.iterdir() if p.is_dir()
        }
        assert stems == inputs, folder
