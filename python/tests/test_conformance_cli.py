"""`omnimessage conformance`, the command: reports (JUnit, JSON) and exit status, failure output,
`--impl` as a command line, expected-failure lists written and read; its hygiene (issue 13): a
testee that cannot start reported once, reasons and ids escaped, progress on a terminal only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conformance_harness import FIRST, PYTHON_KNOWN, RAW_CONTROL, SUITE, SUMMARY, THREE, cli
from conftest import ROOT

from omnimessage.conformance.runner import select_cases


def test_cli_reports_and_exit_status(tmp_path: Path) -> None:
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    r = cli("--impl", "python", "--category", "verbatim", "--junit", str(junit), "--json", str(report))
    assert SUMMARY.search(r.stdout), r.stdout[-500:]
    last = r.stdout.rstrip().splitlines()[-1]
    assert SUMMARY.fullmatch(last)
    doc = json.loads(report.read_text())
    assert doc["summary"]["passed"] + doc["summary"]["failed"] == len(select_cases(SUITE, ["verbatim"]))
    assert r.returncode == (0 if doc["summary"]["ok"] else 1)
    tree = ET.parse(junit).getroot()
    assert tree.tag == "testsuites" and int(tree.get("tests", "0")) == len(doc["cases"])
    r = cli("--impl", "python", "--category", "verbatim", "--expected-failures", str(PYTHON_KNOWN), "-v")
    assert r.returncode == 0, r.stdout[-2000:]
    assert "PASS  verbatim.fidelity.ws-inner" in r.stdout


def test_cli_failure_output_shows_the_first_differing_byte(tmp_path: Path) -> None:
    r = cli("--impl", "naive-json", "--case", "roundtrip.unicode.astral", "--expected-failures", os.devnull)
    assert r.returncode == 1
    assert "FAIL  roundtrip.unicode.astral" in r.stdout and "first difference at byte" in r.stdout
    assert r.stdout.rstrip().endswith("0 passed, 1 failed, 0 skipped, 0 expected failures; level reached: none")


def test_cli_impl_as_a_command_line_without_a_shell(tmp_path: Path) -> None:
    marker = tmp_path / "x"
    r = cli("--impl", f"{sys.executable} -m omnimessage.conformance.testee ; touch {marker}", "--case", FIRST.id)
    assert not marker.exists()  # `;` and `touch` are arguments, never a shell command
    r = cli("--impl", f"'{sys.executable}' -m omnimessage.conformance.testee", "--case", FIRST.id)
    assert r.returncode == 0 and "1 passed, 0 failed" in r.stdout


def test_cli_typescript_without_the_binding_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "conformance"
    suite.mkdir()
    for name in ("manifest.json", "cases"):
        (suite / name).symlink_to(ROOT / "conformance" / name)
    monkeypatch.delenv("OMNIMESSAGE_TS_BIN", raising=False)  # and no `omnimessage-ts` on PATH
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent))
    r = cli("--impl", "typescript", "--suite", str(suite))
    assert r.returncode == 2 and "TypeScript binding is not installed" in r.stderr


def test_cli_update_expected_failures_writes_a_list_that_then_passes(tmp_path: Path) -> None:
    out = tmp_path / "list.txt"
    r = cli(
        "--impl",
        "naive-json",
        "--category",
        "unicode",
        "--expected-failures",
        os.devnull,
        "--update-expected-failures",
        str(out),
    )
    assert r.returncode == 1
    listed = [ln.split()[0] for ln in out.read_text().splitlines() if ln and not ln.startswith("#")]
    assert listed and all(i.startswith(("roundtrip.", "canonicalization.", "verbatim.")) for i in listed)
    r = cli("--impl", "naive-json", "--category", "unicode", "--expected-failures", str(out))
    assert r.returncode == 0, r.stdout[-1500:]


def test_cli_usage_errors() -> None:
    assert cli().returncode == 2
    assert cli("--impl", "python", "--case", "no-such-case").returncode == 2
    assert cli("--impl", "python", "--expected-failures", "/nonexistent").returncode == 2


# --- runner hygiene (issue 13) ------------------------------------------------------


BAD = Path(__file__).resolve().parent / "bad_testees"


def test_cli_a_testee_that_cannot_start_is_reported_once(tmp_path: Path) -> None:
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    impl = f"{sys.executable} -c \"import sys; sys.stderr.write('cannot initialise' + ' its codec'); sys.exit(7)\""
    r = cli("--impl", impl, "--category", "rejection", "--category", "fresh", "--fresh", "20", "--junit", str(junit),
             "--json", str(report))
    assert r.returncode == 1
    assert r.stdout.count("cannot initialise its codec") == 1, r.stdout[:3000]
    assert r.stdout.count("did not start") == 1
    n = len(select_cases(SUITE, ["rejection"])) + 20
    assert f"NOT RUN {n} cases" in r.stdout and f"0 passed, {n} failed" in r.stdout
    root = ET.parse(junit).getroot()
    assert int(root.get("failures", "0")) == n  # still every case failed in CI's eyes
    assert ET.tostring(root, encoding="unicode").count("cannot initialise its codec") == 1
    doc = json.loads(report.read_text())
    assert doc["summary"]["failed"] == n and len(doc["errors"]) == 1 and "cannot initialise" in doc["errors"][0]
    verbose = cli("--impl", impl, "--category", "rejection", "--fresh", "0", "-v")
    assert verbose.stdout.count("cannot initialise its codec") == 1


def test_cli_a_baseline_whose_extra_is_missing_says_which_once() -> None:
    code = (
        "import sys; sys.modules['pydantic'] = None\n"  # as if the extra were not installed
        "from omnimessage.cli.main import main; sys.exit(main(['conformance', '--impl', 'pydantic']))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout[-1000:] + r.stderr[-1000:]
    assert "Traceback" not in r.stderr and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "`pydantic` extra" in lines[0] and "(the 'pydantic' extra's packages)" in lines[0]


def test_cli_update_expected_failures_writes_only_suite_ids_escaped(tmp_path: Path) -> None:
    out = tmp_path / "list.txt"
    args = ["--impl", f"{sys.executable} {BAD / 'inject_entries.py'}", "--category", "roundtrip", "--category",
            "fresh", "--fresh", "15", "--seed", "3"]
    r = cli(*args, "--update-expected-failures", str(out))
    assert r.returncode == 1
    text = out.read_text(encoding="utf-8")
    assert RAW_CONTROL.search(text) is None, repr(text[:500])
    ids = {c.id for c in SUITE.cases}
    entries = [ln.split(None, 1) for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert entries and all(len(e) == 2 for e in entries)
    shipped = [e[0] for e in entries if not e[0].startswith("fresh:")]
    assert set(shipped) <= ids and len(shipped) == len(select_cases(SUITE, ["roundtrip"]))
    fresh = [e for e in entries if e[0].startswith("fresh:")]  # the family of the fresh failures, once:
    assert [e[0] for e in fresh] == ["fresh:*"] and fresh[0][1].startswith("fresh cases fail (in the run of seed 3: ")
    assert all(k.split()[0] in {"canonical", "identical", *REJECTIONS}
               for k in fresh[0][1].split(": ", 1)[1].rstrip(")").split(", "))  # the injected one is no line
    assert not any(e[0].startswith("rejection.") for e in entries)
    r = cli(*args, "--expected-failures", str(out), "-v")  # the list makes the same run green
    assert r.returncode == 0, r.stdout[-2000:]
    assert RAW_CONTROL.search(r.stdout) is None


def test_cli_expected_failure_reasons_are_printed_escaped(tmp_path: Path) -> None:
    listed = tmp_path / "list.txt"
    listed.write_text("roundtrip.unicode.astral  \x1b[2J\x1b]0;pwned\x07 \u202eevil\x85 reason\n", encoding="utf-8")
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    r = cli("--impl", "naive-json", "--case", "roundtrip.unicode.astral", "--expected-failures", str(listed), "-v",
             "--junit", str(junit), "--json", str(report))
    assert r.returncode == 0 and "XFAIL roundtrip.unicode.astral" in r.stdout
    assert "\\x1b[2J" in r.stdout
    for text in (r.stdout, r.stderr, junit.read_text(encoding="utf-8"), report.read_text(encoding="utf-8")):
        assert RAW_CONTROL.search(text) is None, repr(text[:400])
    assert "\\x1b[2J" in json.loads(report.read_text())["cases"][0]["expected_failure_reason"]


REJECTIONS = set(json.loads((ROOT / "schema" / "omnimessage.schema.json").read_text())["x-omnimessage-rejections"])


def _on_a_terminal(args: list[str]) -> tuple[int, bytes, bytes]:
    """Run the CLI with stderr on a pseudo-terminal: (status, stdout, what the terminal got)."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "omnimessage", "conformance", *args], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    seen = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every holder of the terminal has closed it
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.stdout is not None
    out = proc.stdout.read()
    return proc.wait(timeout=120), out, bytes(seen)


def test_progress_is_one_updating_line_on_a_terminal_and_nothing_otherwise() -> None:
    args = ["--impl", "python", "--category", "verbatim", "--category", "fresh", "--fresh", "40", "--seed", "1"]
    n = len(select_cases(SUITE, ["verbatim"])) + 40
    rc, out, tty = _on_a_terminal(args)
    assert rc == 0
    assert b"\r\x1b[Kconformance " in tty and f"/{n} ".encode() in tty
    assert tty.endswith(b"\r\x1b[K")  # erased at the end
    assert b"\n" not in tty.replace(b"\r\n", b"")  # one line, redrawn: never a new one
    assert b"\x1b" not in out  # stdout (the report) has none of it
    r = cli(*args)  # stderr a pipe: nothing
    assert r.returncode == 0 and r.stderr == ""


def test_mutation_check_reports_progress_per_mutant() -> None:
    import io

    from omnimessage.conformance.reports import Progress
    from omnimessage_dev.mutants import MUTANTS, run_mutation_check

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    term = Terminal()
    names = list(MUTANTS)[:2]
    run_mutation_check(SUITE, names=names, cases=THREE, progress=Progress(term, 0, "mutants"))
    assert "mutants 2/2" in term.getvalue()
