"""`omnimessage validate` on the command line: inputs, report formats, exit codes, jobs, progress."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import ROOT

from omnimessage.cli.main import main as cli_main
from omnimessage.validate.reporting.output import Progress
from omnimessage_dev.synth.sessions import stream_lines, trace_lines

FIX = ROOT / "conformance" / "validator"
OMNI = [sys.executable, "-m", "omnimessage"]
BAD = FIX / "OM305" / "fail-dropped-fragment.jsonl"  # stream profile: one OM305 error on line 7
WARN = FIX / "OM420" / "fail-request-open.jsonl"  # trace: one OM420 warning on line 4


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = cli_main(["validate", "--no-progress", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_exit_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_bytes(b"".join(trace_lines(20_000, seed=2)))
    assert cli(capsys, str(good))[0] == 0
    assert cli(capsys, "--profile", "trace", str(WARN))[0] == 0  # warnings only
    assert cli(capsys, "--profile", "stream", str(BAD))[0] == 1
    rc, _, err = cli(capsys, str(tmp_path / "missing.jsonl"))
    assert rc == 2 and "missing.jsonl" in err
    rc, _, err = cli(capsys)
    assert rc == 2 and "nothing to validate" in err
    assert cli(capsys, "--profile", "trace", "--sse", str(BAD))[0] == 2
    assert cli(capsys, "--ignore", "OM999", str(good))[0] == 2
    assert cli(capsys, "--jobs", "-1", str(good))[0] == 2
    with pytest.raises(SystemExit) as exc:
        cli(capsys, "--format", "yaml", str(good))
    assert exc.value.code == 2
    # errors in one input, a missing second one: usage wins
    assert cli(capsys, "--profile", "stream", str(BAD), str(tmp_path / "nope"))[0] == 2


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = cli(capsys, "--profile", "stream", str(BAD))
    assert rc == 1
    lines = out.splitlines()
    assert re.fullmatch(rf"{re.escape(str(BAD))}:7: OM305 error: the fragments of lines 3-6 join to .*", lines[0])
    assert lines[1].strip().startswith("hint (fragments-join-mismatch): ")
    assert "\x1b[" not in out  # not a terminal: no colour
    assert re.search(r"^OM305\s+error\s+1\s+fragments-join-mismatch$", out, re.M)
    assert "FAILED: 1 input(s), 1 file(s), 9 line(s), 9 message(s): 1 error(s), 0 warning(s)" in out
    rc, out, _ = cli(capsys, "--color", "always", "--profile", "stream", str(BAD))
    assert "\x1b[31merror\x1b[0m" in out


def test_json_junit_github_sarif(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = cli(capsys, "--format", "json", "--profile", "stream", str(BAD))
    doc = json.loads(out)
    assert rc == 1 and doc["summary"]["errors"] == 1
    (f,) = doc["findings"]
    assert (f["rule"], f["line"], f["severity"], f["path"]) == ("OM305", 7, "error", str(BAD))
    assert f["pointer"] == "/payload/text" and f["hint"]

    rc, out, _ = cli(capsys, "--format", "junit", "--profile", "stream", str(BAD), str(FIX / "OM305" /
                                                                                   "pass-joined-fragments-equal.jsonl"))
    root = ET.fromstring(out)
    suites = root.findall("testsuite")
    assert [s.get("failures") for s in suites] == ["1", "0"]
    assert suites[0].find("testcase/failure").get("type") == "OM305"  # type: ignore[union-attr]
    assert suites[1].find("testcase").get("name") == "valid"  # type: ignore[union-attr]

    rc, out, _ = cli(capsys, "--format", "github", "--profile", "trace", str(WARN))
    first = out.splitlines()[0]
    assert first.startswith(f"::warning file={WARN},line=4,title=OM420 request-open-at-end::")

    rc, out, _ = cli(capsys, "--format", "sarif", "--profile", "stream", str(BAD))
    sarif = json.loads(out)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    (res,) = run["results"]
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"] == "OM305"
    assert res["level"] == "error"
    assert res["locations"][0]["physicalLocation"]["region"]["startLine"] == 7
    assert run["invocations"][0]["executionSuccessful"] is True


def test_github_escapes_properties(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    weird = tmp_path / "a,b:c%.jsonl"
    weird.write_bytes(WARN.read_bytes())
    _, out, _ = cli(capsys, "--format", "github", str(weird))
    assert "file=" + str(tmp_path).replace(":", "%3A") + "/a%2Cb%3Ac%25.jsonl" in out


def test_ignore_and_select(capsys: pytest.CaptureFixture[str]) -> None:
    target = FIX / "OM303" / "fail-event-between-stop-and-complete.jsonl"
    _, out, _ = cli(capsys, "--format", "json", "--profile", "stream", str(target))
    assert sorted(f["rule"] for f in json.loads(out)["findings"]) == ["OM303", "OM407"]
    _, out, _ = cli(capsys, "--format", "json", "--profile", "stream", "--ignore", "OM4", str(target))
    assert [f["rule"] for f in json.loads(out)["findings"]] == ["OM303"]
    rc, out, _ = cli(capsys, "--format", "json", "--profile", "stream", "--select", "token-usage-order", str(target))
    assert [f["rule"] for f in json.loads(out)["findings"]] == ["OM407"] and rc == 1
    rc, _, _ = cli(capsys, "--profile", "stream", "--ignore", "OM303,OM407", str(target))
    assert rc == 0


def test_list_and_explain(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = cli(capsys, "--list-rules")
    assert rc == 0 and "OM303  error    stream        complete-must-follow-stop" in out
    rc, out, _ = cli(capsys, "--explain", "om701")
    assert rc == 0 and out.startswith("OM701 timestamp-format (error; profiles: stream, trace)")
    assert "Fix: " in out
    assert cli(capsys, "--explain", "OM000")[0] == 2


def test_stdin(tmp_path: Path) -> None:
    data = BAD.read_bytes()
    p = subprocess.run([*OMNI, "validate", "--profile", "stream", "-"], input=data, capture_output=True, timeout=60)
    assert p.returncode == 1
    assert p.stdout.decode().startswith("<stdin>:7: OM305 error:")
    assert b"\r" not in p.stderr  # not a terminal: no progress
    p = subprocess.run([*OMNI, "validate", "--sse", "-"], input=(FIX / "OM902" / "fail-id-goes-back.sse").read_bytes(),
                       capture_output=True, timeout=60)
    assert p.returncode == 1 and b"OM902" in p.stdout


def _root(tmp: Path) -> Path:
    root = tmp / "traces"
    day = root / "2026-07-18"
    day.mkdir(parents=True)
    for i, sid in enumerate(["sess-a", "sess-b", "sess-c", "sess-d"]):
        data = b"".join(trace_lines(150_000, seed=i, session_id=sid))
        (day / f"{sid}_001.jsonl").write_bytes(data)
    # a broken one: sess-b's second file does not open with session_meta
    (day / "sess-b_002.jsonl").write_bytes(b"".join(trace_lines(5_000, seed=9, session_id="sess-b")).split(b"\n", 1)[1])
    return root


def test_trace_root_and_jobs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = _root(tmp_path)
    rc1, out1, _ = cli(capsys, "--format", "json", str(root))
    rc2, out2, _ = cli(capsys, "--format", "json", "--jobs", "2", str(root))
    doc1, doc2 = json.loads(out1), json.loads(out2)
    assert rc1 == rc2 == 1
    assert doc1["findings"] == doc2["findings"]
    assert doc1["summary"] == doc2["summary"]
    rules = {(f["rule"], Path(f["path"]).name) for f in doc1["findings"]}
    assert ("OM201", "sess-b_002.jsonl") in rules
    assert doc1["summary"]["files"] == 5 and doc1["summary"]["inputs"] == 4
    # stream profile over a directory: each file on its own, no layout rules
    _, out, _ = cli(capsys, "--format", "json", "--profile", "stream", str(root))
    assert not [f for f in json.loads(out)["findings"] if f["rule"].startswith("OM8")]


def test_root_never_follows_ids_outside(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "2026-07-18").mkdir(parents=True)
    outside = tmp_path / "2026-07-18"
    outside.mkdir()
    (outside / "evil_001.jsonl").write_bytes(b"".join(trace_lines(2_000, seed=1, session_id="evil")))
    parent = b"".join(trace_lines(2_000, seed=2, session_id="sess-a"))
    ptr = (b'{"timestamp":"2030-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"subagent",'
           b'"session_id":"../2026-07-18/evil"}}\n')
    ptr2 = ptr.replace(b"../2026-07-18/evil", b"sess-z")
    (root / "2026-07-18" / "sess-a_001.jsonl").write_bytes(parent + ptr + ptr2)
    (root / "2026-07-18" / "a..b_001.jsonl").write_bytes(b"".join(trace_lines(2_000, seed=3, session_id="a..b")))
    _, out, _ = cli(capsys, "--format", "json", str(root))
    found = {(f["rule"], Path(f["path"]).name) for f in json.loads(out)["findings"]}
    assert found == {("OM602", "sess-a_001.jsonl"), ("OM805", "sess-a_001.jsonl"), ("OM602", "a..b_001.jsonl")}


def test_never_a_traceback(tmp_path: Path) -> None:
    inputs = {
        "binary.jsonl": os.urandom(4096),
        "nul.jsonl": b"\x00" * 100 + b"\n",
        "deep.jsonl": b"[" * 200_000 + b"\n",
        "bom.jsonl": b"\xef\xbb\xbf" + WARN.read_bytes(),
        "utf16.jsonl": WARN.read_text().encode("utf-16"),
        "mixed.jsonl": b"\r\n\r\n{}\r\n\n\n" + BAD.read_bytes()[:777],
        "bad\udcff.jsonl".encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape"): b"{}\n",
    }
    paths = []
    for name, data in inputs.items():
        p = tmp_path / name
        p.write_bytes(data)
        paths.append(str(p))
    sse = tmp_path / "x.sse"
    sse.write_bytes(b"data: \xff\xfe\r\n\r\nid: \x00\nevent: server_event\ndata: [1\n\n:\n\ndata")
    for profile in ("trace", "stream"):
        for fmt in ("text", "json", "junit", "github", "sarif"):
            p = subprocess.run([*OMNI, "validate", "--profile", profile, "--format", fmt, "--legacy", *paths,
                                str(tmp_path)], capture_output=True, timeout=120)
            assert p.returncode == 1, p.stderr
            assert b"Traceback" not in p.stderr and b"internal error" not in p.stderr
    p = subprocess.run([*OMNI, "validate", "--sse", str(sse), "--format", "sarif"], capture_output=True, timeout=60)
    assert p.returncode == 1 and b"Traceback" not in p.stderr
    json.loads(p.stdout)


def test_output_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "r.sarif"
    rc, out, _ = cli(capsys, "--format", "sarif", "-o", str(target), "--profile", "stream", str(BAD))
    assert rc == 1 and out == ""
    assert json.loads(target.read_text())["runs"][0]["results"][0]["ruleId"] == "OM305"
    assert cli(capsys, "-o", str(tmp_path / "no" / "dir" / "r"), str(BAD))[0] == 2


# ------------------------------------------------------------------ progress


class FakeTTY:
    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_and_erases() -> None:
    now = [0.0]
    tty = FakeTTY()
    p = Progress(tty, 10_000_000, enabled=True, clock=lambda: now[0])  # type: ignore[arg-type]
    p.unit("big.jsonl")
    p.update(1_000_000)
    assert tty.text == ""  # not before the delay: small inputs never show it
    now[0] = 1.0
    p.update(5_000_000)
    assert "\r" in tty.text and " 50.0% " in tty.text and "big.jsonl" in tty.text and "MB/s" in tty.text
    assert "ETA 1s" in tty.text  # 5 of 10 MB in 1 s: 1 s to go
    p.close()
    assert tty.text.endswith("\r\x1b[2K")
    quiet = FakeTTY()
    q = Progress(quiet, 10, enabled=False, clock=lambda: 99.0)  # type: ignore[arg-type]
    q.update(5)
    q.close()
    assert quiet.text == ""


def test_progress_on_a_terminal_only(tmp_path: Path) -> None:
    """A slow input on stdin, stderr on a pseudo-terminal: the progress line shows, then is erased."""
    lines = list(trace_lines(3_000_000, seed=5))
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([*OMNI, "validate", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=slave)
        assert proc.stdin is not None
        step = max(1, len(lines) // 40)
        for i in range(0, len(lines), step):  # about 2 s in all: the bar appears after 0.5 s
            proc.stdin.write(b"".join(lines[i : i + step]))
            proc.stdin.flush()
            time.sleep(0.05)
        proc.stdin.close()
        out = proc.stdout.read() if proc.stdout else b""
        assert proc.wait(timeout=60) == 0, out
        seen = b""
        while select.select([master], [], [], 0.2)[0]:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
        os.close(slave)
    assert b"MB/s" in seen and b"\r\x1b[2K" in seen
    assert b"MB/s" not in out


def test_stream_file_clean_with_all_formats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = tmp_path / "s.jsonl"
    p.write_bytes(b"".join(stream_lines(200_000, seed=4)))
    for fmt in ("text", "json", "junit", "github", "sarif"):
        rc, out, _ = cli(capsys, "--profile", "stream", "--format", fmt, str(p))
        assert rc == 0, out


def test_bench_smoke(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from omnimessage_dev.validator_bench import main as bench_main

    assert bench_main(["--quick", "--json", str(tmp_path / "b.json")]) == 0
    out = capsys.readouterr().out
    assert "| trace |" in out and "| stream |" in out and "peak RSS" in out and "--jobs" in out
    doc = json.loads((tmp_path / "b.json").read_text())
    assert {t["input"] for t in doc["throughput"]} == {"trace", "stream"}
    assert doc["rss"]["peak_rss_bytes"] > 0 and doc["jobs"]["speedup"] > 0
