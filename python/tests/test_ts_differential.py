"""Cross-language differential test: the TypeScript binding against the Python one.

Both bindings are fed the same generated lines: every payload kind with random subsets of its
optional fields, random unicode (astral characters, U+2028/U+2029, control characters, quotes
and backslashes), origin chains, verbatim values written every odd way (whitespace, key order,
duplicate keys, escapes, number spellings, nesting), non-canonical spellings of the rest, and
defects of every rejection category (schema-level, lexical and byte-level, sometimes two at
once). They must agree on every line: the same canonical bytes, or the same refusal (category,
JSON pointer and byte offset; the detail text is for people and not compared). Canonical outputs are fed back in, so the TypeScript
fast path (canonical lines) is compared as much as its strict path.
"""

from __future__ import annotations

import base64
import json
import random
import shutil
import subprocess
import sys
from typing import Any

import pytest
from conftest import ROOT, needs

import omnimessage as om
from omnimessage_dev.synth.defects import generate, split_surrogate_lines
from omnimessage_dev.synth.random_lines import Gen

TS_DIR = ROOT / "typescript"
HARNESS = TS_DIR / "test" / "differential-harness.mjs"
NODE = shutil.which("node")
SEED = 20260718
N_MESSAGES = 10_000

pytestmark = needs("node")  # the TypeScript binding runs in node

Result = tuple[Any, ...]


# ---------------------------------------------------------------------------
# Running both bindings
# ---------------------------------------------------------------------------


def python_result(data: bytes, lenient: bool) -> Result:
    try:
        msg = om.decode(data, lenient=lenient)
    except om.DecodeError as err:
        return ("err", err.category, err.pointer, err.offset)  # the detail is for people, not compared
    return ("out", om.encode(msg), isinstance(msg, om.OpaqueMessage))


def ensure_built() -> None:
    if (TS_DIR / "dist" / "index.js").is_file():
        return
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("typescript/dist is not built and npm is missing: run `make setup`")
    if not (TS_DIR / "node_modules").is_dir():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=TS_DIR, check=True)
    subprocess.run([npm, "run", "--silent", "build"], cwd=TS_DIR, check=True)


def typescript_results(lines: list[bytes], *modes: str) -> list[Result]:
    ensure_built()
    assert NODE is not None
    inp = "".join(base64.b64encode(x).decode("ascii") + "\n" for x in lines)
    proc = subprocess.run(
        [NODE, str(HARNESS), *modes], input=inp.encode(), capture_output=True, check=False, timeout=600
    )
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    out: list[Result] = []
    for raw in proc.stdout.splitlines():
        r = json.loads(raw)
        if "crash" in r:
            out.append(("crash", r["crash"]))
        elif "err" in r:
            category, pointer, offset, _detail = r["err"]
            out.append(("err", category, pointer, offset))
        else:
            out.append(("out", base64.b64decode(r["out"]), r["opaque"]))
    assert len(out) == len(lines), proc.stderr.decode(errors="replace")
    return out


def compare(lines: list[bytes], lenient: bool, *modes: str) -> tuple[int, list[str]]:
    ts = typescript_results(lines, *modes)
    diffs: list[str] = []
    for data, t in zip(lines, ts, strict=True):
        p = python_result(data, lenient)
        if p != t:
            diffs.append(f"{data[:300]!r}\n    python:     {str(p)[:300]}\n    typescript: {str(t)[:300]}")
    return len(lines), diffs


def _fail_on(diffs: list[str], n: int) -> None:
    if diffs:
        shown = "\n".join(diffs[:15])
        pytest.fail(f"{len(diffs)} of {n} lines differ between Python and TypeScript:\n{shown}")


@pytest.fixture(scope="module")
def corpus() -> list[bytes]:
    return generate(Gen(SEED), N_MESSAGES)


def test_strict_decode_and_encode_agree(corpus: list[bytes]) -> None:
    n, diffs = compare(corpus, False)
    _fail_on(diffs, n)
    # Feed the canonical outputs back: the TypeScript fast path must agree too.
    canon = [r[1] for r in (python_result(x, False) for x in corpus) if r[0] == "out"]
    assert len(canon) > N_MESSAGES // 3, f"only {len(canon)} valid lines: the generator is off"
    verdicts = {python_result(x, False)[1] for x in corpus if python_result(x, False)[0] == "err"}
    assert len(verdicts) >= 12, f"categories covered: {sorted(verdicts)}"
    n2, diffs2 = compare(canon, False)
    _fail_on(diffs2, n2)
    assert n + n2 >= 10_000


def test_lenient_and_string_input_agree(corpus: list[bytes]) -> None:
    sample = corpus[: N_MESSAGES // 4]
    n, diffs = compare(sample, True, "lenient")
    _fail_on(diffs, n)
    # Lines handed to the TypeScript decoder as JS strings instead of bytes.
    text = [x for x in sample if _is_utf8(x)]
    n, diffs = compare(text, False, "strict", "string")
    _fail_on(diffs, n)


def test_split_surrogates_in_fragments_agree() -> None:
    """Lone halves in a partial's fragment field: accepted alike, re-encoded to the same bytes;
    elsewhere refused alike (strict and lenient, bytes and JS strings, canonical outputs fed back)."""
    lines = split_surrogate_lines(Gen(SEED + 1), 2000)
    n, diffs = compare(lines, False)
    _fail_on(diffs, n)
    results = [python_result(x, False) for x in lines]
    accepted = [r[1] for r in results if r[0] == "out"]
    refused = {r[1] for r in results if r[0] == "err"}
    assert len(accepted) > len(lines) // 2, f"only {len(accepted)} accepted: the generator is off"
    assert sum(b"\\ud" in x for x in accepted) > len(lines) // 3  # lone halves written as \\udXXX
    assert "lone_surrogate" in refused, sorted(refused)
    n, diffs = compare(accepted, False)  # canonical lines, the TypeScript fast path's turn
    _fail_on(diffs, n)
    n, diffs = compare(lines, True, "lenient")
    _fail_on(diffs, n)
    n, diffs = compare(lines, False, "strict", "string")
    _fail_on(diffs, n)


def test_lone_surrogates_in_js_strings_are_refused_where_python_refuses_their_bytes(corpus: list[bytes]) -> None:
    """A JS string can hold a lone surrogate, which UTF-8 cannot carry: the same line as bytes
    (`surrogatepass`: ED A0 80 ...) is what Python refuses, as invalid_utf8 at its offset. TypeScript
    refuses the string alike on every path, the one-pass reader's too (it proves the absence in the
    searches it makes anyway, canonical.ts): canonical lines, one lone half or a reversed pair put
    anywhere, mostly where a character fits (a string of free text: the one-pass reader reads the line
    with an é there)."""
    rng = random.Random(SEED + 2)
    canon = [r[1].decode() for r in (python_result(x, False) for x in corpus[:3000]) if r[0] == "out"]
    texts, inside = [], 0
    for line in canon:
        for _ in range(8):  # the first of a few random places where an é keeps the line valid, else the last
            i = rng.randrange(len(line) + 1)
            fits = python_result((line[:i] + "\u00e9" + line[i:]).encode(), False)[0] == "out"
            if fits:
                break
        inside += fits
        texts.append(line[:i] + rng.choice(["\ud83d", "\ude00", "\ude00\ud83d"]) + line[i:])
    assert len(texts) > 1000 and inside > len(texts) * 3 // 4, (len(texts), inside)
    got = typescript_results([json.dumps(t).encode() for t in texts], "strict", "json")
    diffs = []
    for text, t in zip(texts, got, strict=True):
        p = python_result(text.encode("utf-8", "surrogatepass"), False)
        if p != t or p[:2] != ("err", "invalid_utf8"):
            diffs.append(f"{text[:300]!r}\n    python:     {p}\n    typescript: {t}")
    _fail_on(diffs, len(texts))


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@pytest.mark.parametrize(
    "flags", [[], ["--check"], ["--keep-invalid"], ["--lenient"]], ids=lambda f: " ".join(f) or "plain"
)
def test_cli_canonicalize_agrees(corpus: list[bytes], flags: list[str]) -> None:
    ensure_built()
    assert NODE is not None
    lines = [x.rstrip(b"\n") for x in corpus[:800] if b"\n" not in x.rstrip(b"\n") and b"\r" not in x]
    data = b"\n".join(lines) + b'\n{"timestamp":"2026-07-18T03:10:22.531Z","type":"ev'

    def run(argv: list[str]) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [*argv, "canonicalize", *flags], input=data, capture_output=True, check=False, timeout=300
        )

    py = run([sys.executable, "-m", "omnimessage"])
    ts = run([NODE, str(TS_DIR / "bin" / "omnimessage.mjs")])
    assert (ts.returncode, ts.stderr.decode(errors="replace")) == (py.returncode, py.stderr.decode(errors="replace"))
    assert ts.stdout == py.stdout


def test_huge_keys_and_values_are_quoted_alike() -> None:
    """Huge keys and values: the same refusals, and details quote at most 200 characters."""
    head = b'{"timestamp":"t","type":"event_msg","payload":'
    big = "é😀\U0001f600" + "k" * 300 + "😀" * 300
    lines = [
        head + f'{{"type":"request_begin","{big}":1}}}}'.encode(),
        head + f'{{"type":"request_begin","{big}":1,"{big}":2}}}}'.encode(),
        head + f'{{"type":"{big}"}}}}'.encode(),
        head + f'{{"type":"request_end","status":"{big}"}}}}'.encode(),
        head + f'{{"type":"request_end","status":"{big[:199]}\\ud83d\\ude00x"}}}}'.encode(),
        head + b'{"type":"request_end","status":"completed","attempt":1.' + b"0" * 500 + b"}}",
        head + b'{"type":"request_end","status":"completed","attempt":1.' + b"5" * 500 + b"}}",
    ]
    n, diffs = compare(lines, False)
    _fail_on(diffs, n)
    for x in lines:  # details are not compared, but stay short: a huge key never floods a report
        with pytest.raises(om.DecodeError) as caught:
            om.decode(x)
        assert len(caught.value.detail) < 300
