"""Untrusted input stays harmless in every output of both command lines.

The same hostile strings (terminal escapes: clear screen, window title, OSC 52 clipboard write,
cursor up and erase line; C1 controls; U+202E and the other bidi controls; U+2028; line breaks
followed by GitHub workflow commands; lone surrogates from undecodable file names) are put into
keys, values, file names, server_event types and a testee's handshake, answers and stderr. Every
output format of `omnimessage validate`, `omnimessage canonicalize` (Python and TypeScript),
`omnimessage conformance` (text, JSON, JUnit) and the pytest plugin must then hold no raw control
character and no line starting with `::` from input; JUnit parses as XML, JSON parses and
re-encodes as UTF-8 strictly. The TypeScript sanitiser escapes exactly like the Python one.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from actions_log import foreign_commands
from conftest import ROOT, needs

from omnimessage.text.sanitize import sanitize, sanitize_lines
from omnimessage.validate.reporting.output import FORMATS, Progress

EVIL = (
    "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[1A\x1b[2K\u202eevil\u2066\u061c\u200f\x85\x9b31m"
    "\r\n::add-mask::x\n::error::forged\u2028::warning::y\u2029\t\x00\x7f"
    "##[add-mask]legacy,x##[stop-commands]tok,###[error]e,#"
)
"""Every kind of hostile character, workflow commands after line breaks, and GitHub's legacy
`##[command]` syntax mid-line (the runner runs it anywhere in a line); it ends with `#`, so a `#[`
after it in a report could form one."""
EVIL_NAME = EVIL.replace("\x00", "").replace("/", "")
"""What of it a file name (or an argument) can hold."""

RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")
"""What no output may hold raw: C0 (but the line feed), DEL, C1, bidi controls, U+2028/9, surrogates."""

TS_BIN = ROOT / "typescript" / "bin" / "omnimessage.mjs"
BAD = Path(__file__).resolve().parent / "bad_testees"
TS = "2026-07-18T03:10:22.531Z"


def harmless(data: bytes, *, workflow_commands: bool = False) -> str:
    """Assert `data` is strict UTF-8 with no raw control character and no line starting with `::`
    (in `--format github`, only our own `::error ` / `::warning ` commands); return the text."""
    text = data.decode("utf-8")  # strict: no lone surrogate encoded, no undecodable byte
    bad = RAW.search(text)
    assert bad is None, f"raw {bad.group()!r} at {bad.start()}: {text[max(0, bad.start() - 80) : bad.end() + 40]!r}"
    forged = foreign_commands(text, ours=r"::(error|warning) " if workflow_commands else None)
    assert not forged, f"lines the Actions runner would run as commands: {forged[:3]!r}"
    return text


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def json_harmless(text: str) -> Any:
    """Parses, re-encodes as strict UTF-8, and no decoded string holds a raw control character."""
    doc = json.loads(text)
    json.dumps(doc, ensure_ascii=False).encode("utf-8")  # strict: a lone surrogate raises
    for s in strings(doc):
        assert RAW.search(s.replace("\n", " ")) is None, repr(s)
    return doc


# ------------------------------------------------------------------ the sanitiser


def test_sanitize_escapes_every_hostile_character() -> None:
    out = sanitize(EVIL)
    assert RAW.search(out) is None and "\n" not in out
    assert out.startswith("\\x1b[2J")
    assert sanitize("::add-mask::x") == "\\x3a:add-mask::x"
    assert sanitize(" \u3000::x") == " \u3000\\x3a:x"
    assert sanitize("a::b") == "a::b"
    assert sanitize("\udcff\u202e\x85\x7f") == "\\udcff\\u202e\\x85\\x7f"
    assert sanitize("caf\u00e9 \U0001f600 \\x") == "caf\u00e9 \U0001f600 \\x"  # kept: printable text, backslash
    assert sanitize(sanitize(EVIL)) == sanitize(EVIL)
    assert sanitize_lines("ok\n::x\n\x1b") == "ok\n\\x3a:x\n\\x1b"
    assert sanitize("a##[add-mask]b ###[x") == "a##\\x5badd-mask]b ###\\x5bx"
    assert sanitize("key##") + "[0]" == "key#\\x23[0]"  # no `##[` forms where it meets the next text
    assert sanitize("#") == "#" and sanitize("a#[b") == "a#[b" and sanitize("##") == "#\\x23"


def _samples() -> list[str]:
    import random

    rnd = random.Random(12)
    pool = [chr(c) for c in range(0x3100)] + [chr(c) for c in range(0xD800, 0xE000, 7)] + ["\ufeff", "\U0001f600", ":"]
    pool += ["#", "#", "#", "[", "["] * 200
    out = [chr(c) for c in range(0x3100)] + [chr(c) for c in range(0xD800, 0xE000)]
    out += ["::x", " ::x", "\u00a0\u2000\u3000::", "\t::x", "\ufeff:", "\udcff::", EVIL, ""]
    out += ["##[x]", "a##[", "###[", "##", "a##", "#\x00#[", "##\udcff[", "[##]"]
    out += ["".join(rnd.choice(pool) for _ in range(rnd.randrange(12))) for _ in range(3000)]
    # A high then a low surrogate are two lone ones in Python, one character in JavaScript: not comparable
    # (Python never holds such a pair: it decodes to the one character).
    return [x for x in out if not re.search("[\ud800-\udbff][\udc00-\udfff]", x)]


@needs("node")
def test_typescript_sanitizer_escapes_exactly_like_python() -> None:
    samples = _samples()
    script = (
        "import { sanitize } from " + json.dumps((ROOT / "typescript/dist/cli/sanitize.js").as_uri()) + ";"
        "let s = ''; process.stdin.on('data', d => s += d); process.stdin.on('end', () => {"
        "process.stdout.write(JSON.stringify(JSON.parse(s).map(sanitize))); });"
    )
    proc = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(samples).encode(),
                          capture_output=True, check=True)
    got = json.loads(proc.stdout)  # sanitised: ASCII escapes only, no lone surrogate left
    want = [sanitize(s) for s in samples]
    diff = [(s, g, w) for s, g, w in zip(samples, got, want, strict=True) if g != w]
    assert not diff, diff[:5]


# ------------------------------------------------------------------ validate


def _line(payload: str) -> str:
    return '{"timestamp":"' + TS + '","type":"model_msg","payload":' + payload + "}\n"


EVIL_JSON = json.dumps(EVIL)  # JSON-escaped C0; bidi and C1 raw in the file
EVIL_RAW = EVIL_JSON.replace("\\u202e", "\u202e").replace("\\u0085", "\x85").replace("\\u2028", "\u2028")
LINES = [
    _line('{"type":"text","role":"user","text":"hi",' + EVIL_RAW + ":1}"),  # an unknown key
    _line('{"type":"text","role":"user","text":"hi","fidelity":{' + EVIL_JSON + ":1," + EVIL_JSON + ":2}}"),
    _line('{"type":"text","role":' + EVIL_JSON + ',"text":' + EVIL_RAW + "}"),  # a bad value
    _line('{"type":"text","role":"user","text":"\\udcff","\\udcff":1}'),  # lone surrogates
    '{"timestamp":' + EVIL_JSON + ',"type":' + EVIL_JSON + "}\n",
]
_META = json.loads((ROOT / "examples" / "trace.jsonl").read_text(encoding="utf-8").split("\n", 1)[0])
META = json.dumps({**_META, "payload": {**_META["payload"], "provider": EVIL, "model_id": EVIL}}) + "\n"
"""A session_meta naming a hostile producer (the `--summary-by producer` table quotes it)."""


@pytest.fixture(scope="module")
def hostile_tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    d = tmp_path_factory.mktemp("hostile")
    names = ["\x1b]0;title\x07\n::add-mask::f\u202e.jsonl", "::warning::x.jsonl", os.fsdecode(b"\xff\xfe\x85.jsonl")]
    paths = []
    for n in names:
        p = d / n
        p.write_text("".join(LINES), encoding="utf-8", errors="surrogateescape")
        paths.append(str(p))
    root = d / "root" / "2026-07-18"
    root.mkdir(parents=True)
    (root / (EVIL_NAME.replace("\n", "") + "_002.jsonl")).write_text("".join(LINES))
    (d / "meta.jsonl").write_text(META + "".join(LINES))
    # entries a trace root does not read (OM806), named and pointing at hostile names
    os.mkfifo(root / ("fifo" + EVIL_NAME + "_001.jsonl"))
    (root / ("zero" + EVIL_NAME + "_001.jsonl")).symlink_to("/dev/zero")
    (root / ("link_001.jsonl")).symlink_to(EVIL_NAME)
    (d / "root" / ("day" + EVIL_NAME)).symlink_to("/etc")
    sse = d / ("sse\x1b[2J\n::error::x.sse")
    sse.write_text(
        "".join(f"event: server_event\ndata: {json.dumps({'type': t})}\n\n" for t in (EVIL, "::" + EVIL, "x" * 500))
        + f"event: message\ndata: {LINES[0]}\n"
        + f"event: {EVIL.replace(chr(10), '').replace(chr(13), '')}\ndata: {{}}\n\n"
    )
    # relative: a name then starts a report line (`::warning::x.jsonl:1: ...` would be a workflow command)
    return d, [os.path.relpath(p, d) for p in (*paths, d / "root", d / ("missing" + EVIL_NAME))] + ["--sse", sse.name]


def _validate(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "omnimessage", "validate", *args], capture_output=True, timeout=120,
                          cwd=cwd)


@pytest.mark.parametrize("fmt", FORMATS)
def test_validate_every_format_is_harmless(fmt: str, hostile_tree: tuple[Path, list[str]]) -> None:
    d, args = hostile_tree
    proc = _validate(["--format", fmt, "--profile", "stream", *args], d)
    assert proc.returncode == 2, proc.stderr  # the missing input is unreadable
    out = harmless(proc.stdout, workflow_commands=fmt == "github")
    err = harmless(proc.stderr)
    assert ("x1b]0;title" in out or fmt == "sarif") and "missing" in out + err  # the hostile names, escaped
    if fmt in ("json", "sarif"):
        doc = json_harmless(out)
        if fmt == "json":
            assert any("\\u202e" in s for s in strings(doc["findings"]))
            assert doc["summary"]["server_events"]["count"] == 3
    elif fmt == "junit":
        ET.fromstring(proc.stdout)
    elif fmt == "text":
        assert "server events (not OmniMessages): 3" in out


def test_validate_trace_profile_is_harmless(hostile_tree: tuple[Path, list[str]]) -> None:
    d, args = hostile_tree
    proc = _validate(["--format", "text", *args[: args.index("--sse")]], d)
    out = harmless(proc.stdout)
    harmless(proc.stderr)
    assert "OM802" in out  # the session with a hostile id, its first file missing
    assert out.count("OM806 error") == 4  # the FIFO, the two links named *.jsonl, the link to a directory


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_summary_by_table_is_harmless(fmt: str, hostile_tree: tuple[Path, list[str]]) -> None:
    d, args = hostile_tree
    proc = _validate(["--format", fmt, "--summary-by", "producer,rule,day", "meta.jsonl",
                      *args[: args.index("--sse")]], d)
    out = harmless(proc.stdout)
    harmless(proc.stderr)
    table = out[out.index("producer"):] if fmt == "text" else json.dumps(json.loads(out)["summary"]["groups"])
    assert "##\\x5badd-mask]" in table.replace("\\\\", "\\"), table[-3000:]  # the producer, escaped
    if fmt == "json":
        json_harmless(out)


def test_progress_line_is_harmless() -> None:
    buf = StringIO()
    ticks = iter(range(0, 100, 1))
    p = Progress(buf, 100, enabled=True, delay=0, clock=lambda: float(next(ticks)))
    p.units = 1
    p.unit("\x1b]52;c;eA==\x07\n::add-mask::p\u202e")
    p.update(10)
    p.close()
    text = buf.getvalue().replace("\r\x1b[2K", "")  # the line's own redraw, not input
    harmless(text.encode())
    assert "\\x1b]52" in text


# ------------------------------------------------------------------ canonicalize, both languages


def _canon_runs(d: Path, hostile_file: Path) -> list[list[str]]:
    missing, name = "::gone" + EVIL_NAME, hostile_file.name  # relative (run in d): names start the lines
    link, fifo = "::link" + EVIL_NAME, "::fifo" + EVIL_NAME  # refused by --in-place, named in the refusal
    if not (d / link).is_symlink():
        (d / link).symlink_to(name)
        os.mkfifo(d / fifo)
    return [[name], ["--check", name], ["--in-place", name], [missing], ["--in-place", link], ["--in-place", fifo]]


@pytest.fixture
def canon_file(tmp_path: Path) -> Path:
    p = tmp_path / ("::c\x1b[1A\x1b[2K\n::add-mask::c\u202e\x85.jsonl")
    p.write_text("".join(LINES) + _line('{"type":"text", "role":"user","text":"not canonical"}'))
    return p


def test_canonicalize_python_is_harmless(canon_file: Path) -> None:
    for args in _canon_runs(canon_file.parent, canon_file):
        proc = subprocess.run([sys.executable, "-m", "omnimessage", "canonicalize", *args], capture_output=True,
                              cwd=canon_file.parent, timeout=60)  # a FIFO among them: must not block
        err = harmless(proc.stderr)
        assert proc.returncode in (1, 2) and err, args
        assert "\\x1b[1A" in err or "gone" in err


def test_canonicalize_undecodable_name_is_harmless(tmp_path: Path) -> None:
    p = tmp_path / os.fsdecode(b"\xff\x1b[2J.jsonl")
    p.write_text("".join(LINES))
    proc = subprocess.run([sys.executable, "-m", "omnimessage", "canonicalize", "--check", str(p)], capture_output=True)
    err = harmless(proc.stderr)
    assert "\\udcff\\x1b[2J" in err


@needs("node")
def test_canonicalize_typescript_is_harmless_and_says_what_python_says(canon_file: Path) -> None:
    for args in _canon_runs(canon_file.parent, canon_file):
        original = canon_file.read_bytes()
        py = subprocess.run([sys.executable, "-m", "omnimessage", "canonicalize", *args], capture_output=True,
                            cwd=canon_file.parent, timeout=60)
        canon_file.write_bytes(original)
        ts = subprocess.run(["node", str(TS_BIN), "canonicalize", *args], capture_output=True, cwd=canon_file.parent,
                            timeout=60)
        canon_file.write_bytes(original)
        assert harmless(ts.stderr) == harmless(py.stderr), args
        assert ts.returncode == py.returncode


# ------------------------------------------------------------------ conformance: a hostile testee

CASES = [
    "roundtrip.request_begin.minimal",
    "rejection.duplicate_key.payload-type",  # refused with a hostile category, pointer and message
    "canonicalization.framing.spec-example",  # a required case skipped with a hostile reason
    "rejection.duplicate_key.envelope-type",  # the testee exits, hostile stderr
    "rejection.duplicate_key.after-unescaping",  # a restarted testee answers
]


def _conformance(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[bytes], Path, Path]:
    junit, report = tmp_path / "c.xml", tmp_path / "c.json"
    impl = f"{sys.executable} {BAD / 'hostile_strings.py'}"
    argv = [sys.executable, "-m", "omnimessage", "conformance", "--impl", impl, "-v", "--junit", str(junit),
            "--json", str(report), "--html", str(tmp_path / "c.html"), "--timeout", "20"]
    for c in CASES:
        argv += ["--case", c]
    proc = subprocess.run(argv, capture_output=True, timeout=120, env={**os.environ, **env})
    return proc, junit, report


@pytest.mark.parametrize("no_hello", [False, True], ids=["answers", "dies-before-handshake"])
def test_conformance_reports_are_harmless(tmp_path: Path, no_hello: bool) -> None:
    proc, junit, report = _conformance(tmp_path, {"HOSTILE_NO_HELLO": "1"} if no_hello else {})
    assert proc.returncode == 1, proc.stderr
    out = harmless(proc.stdout) + harmless(proc.stderr)
    ET.parse(junit)
    harmless(junit.read_bytes())
    doc = json_harmless(harmless(report.read_bytes()))
    page = harmless((tmp_path / "c.html").read_bytes())
    assert "<script" not in page and "\\x1b" in page  # the testee's words, escaped
    assert "\\x1b]52;c;" in out and "  | \\x3a:add-mask::stderr" in out
    if no_hello:
        assert "did not start" in out and doc["errors"]
    else:
        assert "testee: \\x3a:evil \\x1b[2J" in out
        assert "\\x1b[2J" in json.dumps(doc["implementation"])
        assert "exited with status 3" in out and "\\x3a:error::dying" in out


def test_pytest_plugin_output_is_harmless(tmp_path: Path) -> None:
    junit = tmp_path / "p.xml"
    impl = f"{sys.executable} {BAD / 'hostile_strings.py'}"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "-v", "--omnimessage-impl", impl,
         "--omnimessage-category", "truncated", f"--junitxml={junit}", "--omnimessage-timeout", "20"],
        capture_output=True, cwd=tmp_path, timeout=120,
    )
    assert proc.returncode == 1, proc.stdout[-2000:]
    out = harmless(proc.stdout) + harmless(proc.stderr)
    assert "\\x1b]52;c;" in out and "exited with status 3" in out
    ET.parse(junit)
    harmless(junit.read_bytes())


# ------------------------------------------------------------------ long strings from input are clipped

LONG_KEY = "k\x1b[2J" * 200_000  # 1.2 MB of key, escape sequences included
LONG_LINES = [
    _line('{"type":"text","role":"user","text":"hi",' + json.dumps(LONG_KEY) + ":1}"),  # refused: unknown key
    _line('{"type":"text","role":' + json.dumps(LONG_KEY) + ',"text":"hi"}'),  # refused: a bad value
]


@pytest.fixture(scope="module")
def long_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("long") / "long.jsonl"
    p.write_text("".join(LONG_LINES))
    return p


def test_clip_text_keeps_head_and_tail_and_says_the_length() -> None:
    from omnimessage.text.sanitize import MAX_QUOTED_CHARS, clip_text

    assert clip_text("x" * MAX_QUOTED_CHARS) == "x" * MAX_QUOTED_CHARS
    s = "a" * 150 + "b" * 1000 + "c" * 50
    assert clip_text(s) == "a" * 150 + "...(1200 characters)..." + "c" * 50
    assert clip_text("\U0001f600" * 300, 8) == "\U0001f600" * 6 + "...(300 characters)..." + "\U0001f600" * 2


@needs("node")
def test_typescript_clips_exactly_like_python() -> None:
    from omnimessage.text.sanitize import clip_text

    samples = ["", "x" * 200, "x" * 201, "\U0001f600" * 250, "\udcff" * 300 + "tail", LONG_KEY[:5000],
               "a\U0001f600" * 150]
    script = (
        "import { clipText } from " + json.dumps((ROOT / "typescript/dist/cli/sanitize.js").as_uri()) + ";"
        "let s = ''; process.stdin.on('data', d => s += d); process.stdin.on('end', () => {"
        "process.stdout.write(JSON.stringify(JSON.parse(s).map(x => [clipText(x), clipText(x, 9)]))); });"
    )
    proc = subprocess.run(["node", "--input-type=module", "-e", script], input=json.dumps(samples).encode(),
                          capture_output=True, check=True)
    got = json.loads(proc.stdout)
    assert got == [[clip_text(x), clip_text(x, 9)] for x in samples]


MAX_LINE = 3000
"""The longest report line a clipped finding makes (a message and a pointer of at most 1,000
characters each, sanitised: an escape sequence of 4 characters becomes 7)."""


@pytest.mark.parametrize("fmt", FORMATS)
def test_validate_clips_long_pointers_and_keys(fmt: str, long_file: Path) -> None:
    proc = _validate(["--format", fmt, "--no-progress", long_file.name], long_file.parent)
    assert proc.returncode == 1, proc.stderr
    out = harmless(proc.stdout, workflow_commands=fmt == "github")
    short = long_file.parent / "short.jsonl"
    short.write_text(long_file.read_text().replace(LONG_KEY, "k"))
    base = _validate(["--format", fmt, "--no-progress", short.name], long_file.parent)
    grown = len(proc.stdout) - len(base.stdout)
    assert grown < 4 * MAX_LINE, grown  # was over 4 MB: the key, twice, in message and pointer
    assert "characters)..." in out
    if fmt == "json":
        findings = json_harmless(out)["findings"]
        assert {f["rule"] for f in findings} >= {"OM111", "OM113"}, findings  # the key, the value: both clipped
        assert all(len(f.get("pointer", "")) <= MAX_LINE and len(f["message"]) <= MAX_LINE for f in findings)


def _canon_long(cli: list[str], long_file: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*cli, "canonicalize", long_file.name], capture_output=True, cwd=long_file.parent,
                          timeout=120)


def test_canonicalize_clips_long_pointers_and_details(long_file: Path) -> None:
    py = _canon_long([sys.executable, "-m", "omnimessage"], long_file)
    err = harmless(py.stderr)
    assert py.returncode == 1 and err.count("\n") == 2
    assert all(len(line) < 1000 for line in err.splitlines()), [len(x) for x in err.splitlines()]
    assert "characters)..." in err


@needs("node")
def test_canonicalize_typescript_clips_like_python(long_file: Path) -> None:
    py = _canon_long([sys.executable, "-m", "omnimessage"], long_file)
    ts = _canon_long(["node", str(TS_BIN)], long_file)
    assert harmless(ts.stderr) == harmless(py.stderr)
    assert ts.returncode == py.returncode == 1


# ------------------------------------------------------------------ usage errors echo arguments


PY_USAGE = [
    [EVIL_NAME],
    ["validate", "--profile", EVIL_NAME, "x"],
    ["validate", "--format", EVIL_NAME, "x"],
    ["validate", "--jobs", EVIL_NAME, "x"],
    ["validate", "--" + EVIL_NAME],
    ["canonicalize", "--" + EVIL_NAME],
    ["canonicalize", "x", "-" + EVIL_NAME * 500],  # a 90 KB argument: clipped too
    ["schema", EVIL_NAME],
    ["conformance", "--" + EVIL_NAME],
]


@pytest.mark.parametrize("argv", PY_USAGE, ids=range(len(PY_USAGE)))
def test_python_usage_errors_are_harmless(argv: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "omnimessage", *argv], capture_output=True, timeout=60)
    assert proc.returncode == 2
    err = harmless(proc.stderr)
    assert "error:" in err and len(err) < 5000, err[-500:]
    assert "\\x1b" in err, err[-500:]


TS_USAGE = [[EVIL_NAME], ["canonicalize", "--" + EVIL_NAME], ["canonicalize", "-" + EVIL_NAME * 500]]


@needs("node")
@pytest.mark.parametrize("argv", TS_USAGE, ids=range(len(TS_USAGE)))
def test_typescript_usage_errors_are_harmless(argv: list[str]) -> None:
    proc = subprocess.run(["node", str(TS_BIN), *argv], capture_output=True, timeout=60)
    assert proc.returncode == 2
    err = harmless(proc.stderr)
    assert "error:" in err and len(err) < 5000 and "\\x1b" in err, err[-500:]
