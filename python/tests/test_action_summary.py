"""The action shows everything: one validation run gives the annotations (capped as GitHub caps
them, with a notice of how many more), the Markdown step summary and the SARIF report, whose
links are absolute; the SARIF validates against the SARIF 2.1.0 schema (test_sarif_schema.py)."""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

from action_harness import DEV_BIN, run_action

NO_INSTALL = {"install": "false"}
TS = "2026-07-18T03:10:22.531Z"


def _many_findings(path: Path, n: int) -> Path:
    """`n` tool outputs for calls never made (OM401 errors), one a line, and a warning (OM702)."""
    lines = [json.dumps({"timestamp": TS, "type": "model_msg", "payload": {
        "type": "tool_call_output", "role": "user", "output": "x", "tool_call_id": f"toolu_{i}",
        "stop_reason": "completed"}}, separators=(",", ":")) for i in range(n)]
    lines.append(json.dumps({"timestamp": "2026-07-18T03:00:00.000Z", "type": "event_msg",
                             "payload": {"type": "approval_decision", "decision": "allow", "tool_call_id": "zz"}},
                            separators=(",", ":")))
    path.write_text("\n".join(lines) + "\n")
    return path


def _shim(tmp: Path) -> tuple[Path, Path]:
    d, log = tmp / "shim", tmp / "argv.log"
    d.mkdir()
    (d / "omnimessage").write_text(f'#!/bin/bash\necho "$*" >> "{log}"\nexec "{DEV_BIN / "omnimessage"}" "$@"\n')
    (d / "omnimessage").chmod(0o755 | stat.S_IEXEC)
    return d, log


def test_one_run_annotates_summarises_and_writes_sarif(tmp_path: Path) -> None:
    _many_findings(tmp_path / "bad.jsonl", 25)
    shim, log = _shim(tmp_path)
    env = {"GITHUB_ACTION_REPOSITORY": "acme/omnimessage", "GITHUB_ACTION_REF": "v1",
           "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/producer"}
    run = run_action({**NO_INSTALL, "paths": "bad.jsonl", "profile": "stream", "sarif": "true",
                      "sarif-file": "out/r.sarif"}, tmp_path, path_prefix=[shim], extra_env=env)
    assert run.rc == 1
    assert len(log.read_text().splitlines()) == 1  # validation ran once, for everything
    out = run.step("Validate").stdout
    errors = [ln for ln in out.splitlines() if ln.startswith("::error ")]
    assert len(errors) == 10  # what GitHub shows of a step; the rest are log lines, and said so
    assert out.count("(not annotated)") == 16  # 26 errors (25 outputs, 1 approval), 1 warning
    assert re.search(r"^::notice title=omnimessage: annotations capped::16 more finding\(s\) not annotated", out, re.M)

    summary = (tmp_path / ".runner-temp" / "step_summary.md").read_text()
    assert summary.startswith("### omnimessage validate: FAILED")
    base = "https://github.com/acme/omnimessage/blob/v1/docs/rules.md"
    assert f"| [OM401]({base}#om401) | error | 25 | output-without-call |" in summary
    assert "| [OM702](" in summary and "| warning | 1 |" in summary
    assert summary.count("| bad.jsonl |") == 27  # the first findings (all 27, under the summary's cap)
    assert "**Annotations capped:**" in summary and "16 more finding(s)" in summary
    assert "https://github.com/acme/producer/security/code-scanning?query=tool%3Aomnimessage-validate" in summary

    sarif = json.loads((tmp_path / "out" / "r.sarif").read_text())
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == base
    assert all(r["helpUri"] == f"{base}#{r['id'].lower()}" for r in driver["rules"])
    assert len(sarif["runs"][0]["results"]) == 27


def test_rules_url_input_overrides_and_summary_escapes_input(tmp_path: Path) -> None:
    evil = tmp_path / "a|b<img_src=x>[l](http:x).jsonl"
    _many_findings(evil, 1)
    run = run_action({**NO_INSTALL, "paths": evil.name, "profile": "stream", "sarif": "true",
                      "rules-url": "https://docs.example/rules.md"}, tmp_path)
    assert run.rc == 1
    summary = (tmp_path / ".runner-temp" / "step_summary.md").read_text()
    assert "<img" not in summary and "a\\|b&lt;img\\_src=x&gt;\\[l\\](http:x).jsonl" in summary
    assert "(https://docs.example/rules.md#om401)" in summary
    assert "::notice" not in run.step("Validate").stdout  # nothing capped
    sarif = json.loads((tmp_path / "omnimessage.sarif").read_text())
    assert sarif["runs"][0]["tool"]["driver"]["informationUri"] == "https://docs.example/rules.md"


HOSTILE_TESTEE = Path(__file__).parent / "bad_testees" / "hostile_strings.py"


def test_conformance_step_summarises_and_annotates(tmp_path: Path) -> None:
    """Issue 34: the conformance mode writes a step summary (the run by group, the level reached, the
    failures, capped) and annotations (10, then a notice counting the rest), in one run."""
    mutant = f"{DEV_BIN / 'python'} -m omnimessage_dev.mutants keys-sorted"
    run = run_action({**NO_INSTALL, "command": "conformance", "impl": mutant, "junit": "conf.xml",
                      "args": "--category canonicalization --fresh 0"}, tmp_path)
    assert run.rc == 1 and run.outputs["exit-code"] == "1"
    out = run.step("Conformance suite").stdout
    errors = [ln for ln in out.splitlines() if ln.startswith("::error ")]
    assert len(errors) == 10 and all(ln.startswith("::error title=conformance required case ") for ln in errors)
    capped = re.search(r"^::notice title=omnimessage conformance%3A annotations capped::(\d+) more failure", out, re.M)
    assert capped and int(capped.group(1)) > 0
    assert re.search(r"^::notice title=omnimessage conformance::level reached: none \(gated at recommended\)", out,
                     re.M)
    summary = (tmp_path / ".runner-temp" / "step_summary.md").read_text()
    assert summary.startswith("### omnimessage conformance: FAILED")
    assert "level reached: **none**" in summary
    assert re.search(r"^\| canonicalization \| required \| \d+ \| \d+ \| 0 \| 0 \| 0 \|$", summary, re.M)
    n_failing = int(capped.group(1)) + 10
    assert f"First 30 of {n_failing} failing case(s):" in summary
    assert summary.count("| required | yes |") == 30
    assert f"{n_failing - 30} more failing case(s)" in summary


def test_conformance_summary_and_annotations_escape_the_testee(tmp_path: Path) -> None:
    impl = f"{DEV_BIN / 'python'} {HOSTILE_TESTEE}"
    run = run_action({**NO_INSTALL, "command": "conformance", "impl": impl, "level": "required",
                      "args": "--category canonicalization --fresh 0"}, tmp_path)
    assert run.rc == 1
    out = run.step("Conformance suite").stdout
    ours = ("::error title=conformance ", "::warning title=conformance ", "::notice title=omnimessage conformance")
    for line in out.splitlines():
        assert not line.startswith("::") or line.startswith(ours), line  # no command the testee forged
        assert "\x1b" not in line and "\u202e" not in line
    summary = (tmp_path / ".runner-temp" / "step_summary.md").read_text()
    assert "\x1b" not in summary and "\u202e" not in summary and "<script" not in summary
    assert "gated at level **required**" in summary
    table = [ln for ln in summary.splitlines() if ln.startswith("| canonicalization.")]
    assert table and all(ln.count(" | ") == 3 for ln in table)  # a testee's `|` cannot add a cell
