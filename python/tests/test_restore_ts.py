"""The TypeScript binding's `restore` against the Python one: the same bytes.

Both command lines (`omnimessage restore` and `omnimessage-ts restore`, typescript/bin/omnimessage.mjs)
run on every session of the producer corpus (`conformance/producers/`: each trace root, every
session in it; each single trace or stream file put into a trace root as `_001`, strict and
`--lenient`) and on the hostile trace roots `test_restore.py` builds (rotation, compaction,
model switch, crash heal, subagents; spliced, torn, foreign, missing, newer and retired records). Standard
output (the context's exact bytes), standard error (the notes and the error naming file and
line) and the exit code must be equal. The TypeScript library's own tests are
typescript/test/restore.test.mjs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, needs
from test_restore import RETIRED, SID, USER, meta_line, write_root

from omnimessage.cli import main as cli

PRODUCERS = ROOT / "conformance" / "producers"
TS_BIN = ROOT / "typescript" / "bin" / "omnimessage.mjs"

pytestmark = needs("node")

def node(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([shutil.which("node") or "node", str(TS_BIN), "restore", *args], capture_output=True,
                          timeout=120, check=False)


def python(capfd: pytest.CaptureFixture[bytes], *args: str) -> subprocess.CompletedProcess[bytes]:
    """`omnimessage restore ARGS`, the Python command line run in this process (its `main`, with
    file descriptors 1 and 2 captured: the bytes it writes, without a second interpreter's start-up)."""
    capfd.readouterr()
    code = cli.main(["restore", *args])
    sys.stdout.flush()
    sys.stderr.flush()
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess(args, code, out, err)


def both(*args: str) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes]]:
    """Both command lines as separate processes (for usage errors: argparse exits)."""
    py = subprocess.run([sys.executable, "-m", "omnimessage", "restore", *args], capture_output=True,
                        timeout=120, check=False)
    return py, node(*args)


class Same:
    """Run both command lines on the same arguments; stdout, stderr and the exit code must agree."""

    def __init__(self, capfd: pytest.CaptureFixture[bytes]) -> None:
        self.capfd = capfd

    def __call__(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        py, ts = python(self.capfd, *args), node(*args)
        assert (ts.returncode, ts.stdout) == (py.returncode, py.stdout), (args, py.stderr, ts.stderr)
        assert ts.stderr == py.stderr, args
        return py

    def strict_and_lenient(self, *args: str, lenient: bool = False) -> None:
        """Strict, then `--lenient` where it can change anything: after a refusal, or when asked."""
        if self(*args).returncode != 0 or lenient:
            self(*args, "--lenient")


@pytest.fixture
def same(capfdbinary: pytest.CaptureFixture[bytes]) -> Same:
    return Same(capfdbinary)


def trace_roots() -> list[tuple[str, str]]:
    out = []
    for root in sorted(p for p in PRODUCERS.iterdir() if p.is_dir() and any(d.name[:2] == "20" for d in p.iterdir())):
        for sid in sorted({f.name.rsplit("_", 1)[0] for f in root.rglob("*.jsonl")}):
            out.append((root.name, sid))
    return out


ROOTS = trace_roots()
FILES = sorted(p.name for p in PRODUCERS.glob("*.jsonl"))


def test_the_corpus_is_all_here() -> None:
    """The parametrisations below cover every trace root and file of the corpus (a new one is
    picked up by itself; this guards against the listing going empty)."""
    assert len(ROOTS) >= 10 and len(FILES) >= 15
    assert {"compaction-rotation", "newest-model-switch", "subagent-traces", "legacy-0.2.0"} <= {r for r, _ in ROOTS}


@pytest.mark.parametrize(("root", "sid"), ROOTS, ids=[f"{r}-{s[-8:]}" for r, s in ROOTS])
def test_corpus_roots(same: Same, root: str, sid: str) -> None:
    same.strict_and_lenient(str(PRODUCERS / root), sid)


@pytest.mark.parametrize("name", FILES)
def test_corpus_files(same: Same, tmp_path: Path, name: str) -> None:
    src = PRODUCERS / name
    first = src.read_bytes().split(b"\n", 1)[0]
    try:
        sid = str(json.loads(first)["payload"]["session_id"])
    except (ValueError, KeyError, TypeError):
        sid = SID  # a stream without session_meta: restore refuses it, both alike
    (tmp_path / "2026-09-14").mkdir()
    shutil.copy(src, tmp_path / "2026-09-14" / f"{sid}_001.jsonl")
    same.strict_and_lenient(str(tmp_path), sid, lenient="newer" in name)


LEGACY = [("legacy-0.1.1", "session-2026-07-22-15-04-10-2ab94c7e", 4), ("legacy-0.2.0", "session-2026-08-03-18-44-02-6c0f1a93", 2),
          ("legacy-source-benchmark.trace.jsonl", "session-2026-09-02-08-30-00-81d4e6b2", 2)]


@pytest.mark.parametrize(("name", "sid", "count"), LEGACY, ids=[n for n, _, _ in LEGACY])
def test_legacy_sessions_restore(same: Same, tmp_path: Path, name: str, sid: str, count: int) -> None:
    """The corpus's legacy sessions (a meta with `tools`/`thinking_level`, or `source: "benchmark"`)
    restore in both bindings, strict and lenient alike: the same messages, each retired line named."""
    root = PRODUCERS / name
    if root.is_file():
        (tmp_path / "2026-09-02").mkdir()
        shutil.copy(root, tmp_path / "2026-09-02" / f"{sid}_001.jsonl")
        root = tmp_path
    for lenient in ((), ("--lenient",)):
        r = same(str(root), sid, *lenient)
        assert r.returncode == 0 and r.stdout.count(b"\n") == count
        assert b":1: a retired spelling, read as its successor" in r.stderr


def test_closed_context_and_void_closure(same: Same, tmp_path: Path) -> None:
    """The cases whose notes matter: a closed context, a void closure, placeholders and skipped lines."""
    r = same(str(PRODUCERS / "compaction-rotation"), "session-2026-09-14-16-12-40-0c9d2b6e")
    assert b"closed by a completed compaction" in r.stderr and r.stdout == b""
    (f,) = list((PRODUCERS / "compaction-rotation").rglob("*_002.jsonl"))
    lines = f.read_bytes().split(b"\n")
    lines[19] = lines[19].replace(b"[summary]\\nparseTide fixed for #41/#44; stations table not checked yet.\\n"
                                  b"[/summary]", b"[summary] [/summary]")
    (tmp_path / "2026-09-14").mkdir()
    (tmp_path / "2026-09-14" / f.name).write_bytes(b"\n".join(lines))
    r = same(str(tmp_path), f.name.rsplit("_", 1)[0])
    assert r.stdout.count(b"\n") == 7


NEWER_EVENT = b'{"timestamp":"2026-09-14T00:00:01.000Z","type":"event_msg","payload":{"type":"brand_new"}}'
NEWER_MODEL = b'{"timestamp":"2026-09-14T00:00:01.000Z","type":"model_msg","payload":{"type":"hologram","role":"user"}}'
NO_ROLE = b'{"timestamp":"2026-09-14T00:00:01.000Z","type":"model_msg","payload":{"type":"hologram"}}'
CALL = (b'{"timestamp":"2026-09-14T00:00:02.000Z","type":"model_msg","payload":{"type":"tool_call","role":"assistant",'
        b'"name":"f","arguments":"{}","tool_call_id":"c1","stop_reason":"completed"}}')
BEGIN = b'{"timestamp":"2026-09-14T00:00:03.000Z","type":"event_msg","payload":{"type":"request_begin"}}'
END = b'{"timestamp":"2026-09-14T00:00:04.000Z","type":"event_msg","payload":{"type":"request_end","status":"completed"}}'

HOSTILE: dict[str, tuple[bytes, ...]] = {
    "spliced": (meta_line(SID), USER[:50] + USER, USER),
    "torn-and-heal": (meta_line(SID), USER[:40], b"", b"  \t", USER, USER[:30] + b"\xe2\x82"),
    "torn-escape": (meta_line(SID), USER[:-20] + b"\\u00", USER),
    "bad-meta": (meta_line(SID, provider=7), USER),
    "no-meta": (USER,),
    "foreign-meta": (meta_line("session-o'ther\x1b"), USER),
    "newer": (meta_line(SID), NEWER_EVENT, NEWER_MODEL, USER),
    "no-role": (meta_line(SID), NO_ROLE, USER),
    "newer-meta": (meta_line(SID, new_field=1), USER),
    "unanswered-call": (meta_line(SID), USER, BEGIN, CALL, END),
    "stray-byte": (meta_line(SID), b"{\"a\":1}x", USER),
    "utf8": (meta_line(SID), b'{"timestamp":"\xff', USER),
    "empty-file": (),
    "retired": RETIRED,
    "retired-and-newer-meta": (meta_line(SID, tools=[], new_field=1), USER),
    # a lone surrogate escape (msgspec's generic reader refuses it, JSON.parse takes it) and a float count
    "retired-meta-lone-surrogate": (meta_line(SID, tools=[], system_prompt="x").replace(b'"x"', b'"\\ud800"'), USER),
    "retired-text-lone-surrogate": (meta_line(SID), USER.replace(b'"hi"', b'"\\udc00","stop_reason":"timeout"')),
    "retired-meta-float": (meta_line(SID, tools=[], model_context_window=1000.0), USER),
    "retired-unreadable": (meta_line(SID), USER, b'{"timestamp":"2026-09-14T00:00:02.000Z","type":"model_msg",'
                           b'"payload":{"type":"text","role":"user","text":7,"stop_reason":"timeout"}}'),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile(same: Same, tmp_path: Path, name: str) -> None:
    root = write_root(tmp_path, *HOSTILE[name])
    same.strict_and_lenient(str(root), SID, lenient=name == "newer")


def test_hostile_roots(same: Same, tmp_path: Path) -> None:
    write_root(tmp_path, meta_line(SID), USER, index="002")
    write_root(tmp_path, meta_line(SID), USER, index="002", day="2026-09-15")
    assert same(str(tmp_path), SID).returncode == 1  # two newest files
    assert same(str(tmp_path), "nope'\"\x07\u00e9\u200b").returncode == 1  # no such session (its repr)
    assert same(str(tmp_path / "absent"), SID).returncode == 2
    assert same(str(ROOT / "README.md"), SID).returncode == 2
    evil = tmp_path / "evil\x1b]0;x\x07"
    evil.mkdir()
    write_root(evil, USER[:50] + USER)
    assert same(str(evil) + "/", SID).returncode == 1
    (tmp_path / "2026-13-01").mkdir()  # no date: not searched
    (tmp_path / "2026-13-01" / f"{SID}_009.jsonl").write_bytes(meta_line(SID) + b"\n")
    (tmp_path / "2026-09-16").mkdir()
    (tmp_path / "2026-09-16" / f"{SID}_0003.jsonl").symlink_to(tmp_path / "2026-09-14" / f"{SID}_002.jsonl")
    (tmp_path / "2026-09-16" / f".{SID}_004.jsonl").write_bytes(meta_line(SID) + b"\n")
    assert same(str(tmp_path), SID).returncode == 1  # still the two _002 files


def test_a_file_longer_than_a_read_chunk(same: Same, tmp_path: Path) -> None:
    """The context's lines outlive the 64 KiB buffer the file is read in (typescript/src/restore/
    restore.ts keeps a copy of each line: a view of the buffer was overwritten by the next chunk)."""
    answers = [b'{"timestamp":"2026-09-14T00:00:02.000Z","type":"model_msg","payload":{"type":"text",'
               b'"role":"assistant","text":"' + bytes([97 + n % 26]) * 30_000 + b'"}}' for n in range(8)]
    begin, end = (b'{"timestamp":"2026-09-14T00:00:02.000Z","type":"event_msg","payload":{"type":"request_' + x + b"}}"
                  for x in (b'begin"', b'end","status":"completed"'))
    r = same(str(write_root(tmp_path, meta_line(SID), USER, begin, *answers, end)), SID)
    assert r.stdout == USER + b"\n" + b"".join(a + b"\n" for a in answers)


@pytest.mark.parametrize("args", [[], ["root"], ["a", "b", "c"], ["a", "b", "--nope"]], ids=str)
def test_usage_errors(args: list[str]) -> None:
    py, ts = both(*args)
    assert py.returncode == ts.returncode == 2 and py.stdout == ts.stdout == b""
    # the error line itself (the usage line above it lists --to, which only one binding may know yet)
    assert ts.stderr.replace(b"omnimessage-ts", b"omnimessage").splitlines()[-1] == py.stderr.splitlines()[-1]
