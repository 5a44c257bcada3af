"""The TypeScript binding's provider projections against the Python ones: the same bytes.

`omnimessage restore ROOT SID --to P` (Python, run in this process) and `omnimessage-ts restore
ROOT SID --to P` (typescript/bin/omnimessage.mjs) on every session of the producer corpus (each
trace root, every session in it; each single trace or stream file put into a trace root) and on
the fidelity-rich and hostile contexts the Python provider tests build (test_providers.py's
synthetic context: images, inline data, redacted and unsigned thinking, suffixed ids, respelled
arguments; plus reasoning ids and channels, phases, bad signatures, numbers JSON spells two ways,
lone surrogates, a megabyte-class fidelity key holding escapes), for every provider. Standard
output (the body), standard error (the loss lines) and the exit code must be equal. The Python
binding is the spec (docs/model.md, "Providers").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import needs
from test_providers import TS, synthetic
from test_restore import SID, meta_line, write_root
from test_restore_ts import FILES, PRODUCERS, ROOTS, Same

import omnimessage as om
from omnimessage.providers import PROVIDERS

pytestmark = needs("node")


@pytest.fixture
def same(capfdbinary: pytest.CaptureFixture[bytes]) -> Same:
    return Same(capfdbinary)


def run_both(same: Same, root: str, sid: str) -> None:
    """Every provider; the body is one line and, on the corpus, never empty."""
    for provider in PROVIDERS:
        r = same(root, sid, "--to", provider)
        assert r.returncode != 0 or r.stdout.count(b"\n") == 1, (provider, r.stdout[:200])


@pytest.mark.parametrize(("root", "sid"), ROOTS, ids=[f"{r}-{s[-8:]}" for r, s in ROOTS])
def test_corpus_roots(same: Same, root: str, sid: str) -> None:
    run_both(same, str(PRODUCERS / root), sid)


@pytest.mark.parametrize("name", FILES)
def test_corpus_files(same: Same, tmp_path: Path, name: str) -> None:
    first = (PRODUCERS / name).read_bytes().split(b"\n", 1)[0]
    try:
        sid = str(json.loads(first)["payload"]["session_id"])
    except (ValueError, KeyError, TypeError):
        sid = SID  # a stream without session_meta: restore refuses it, both alike
    (tmp_path / "2026-09-14").mkdir()
    (tmp_path / "2026-09-14" / f"{sid}_001.jsonl").write_bytes((PRODUCERS / name).read_bytes())
    run_both(same, str(tmp_path), sid)


def enc(msg: om.Message) -> bytes:
    return om.encode(msg)


def thinking(text: str, **fidelity: object) -> bytes:
    return enc(om.thinking(text, fidelity=fidelity, timestamp=TS))


def raw(payload: str) -> bytes:
    """A model message line written by hand: what no builder writes (numbers, key orders, depth)."""
    return b'{"timestamp":"2026-10-12T03:40:00.000Z","type":"model_msg","payload":' + payload.encode() + b"}"


USER = enc(om.user_text("q", timestamp=TS))
BEGIN = enc(om.request_begin(timestamp=TS))
END = enc(om.request_end("completed", timestamp=TS))

# each a turn's assistant side (the user's question before it, the request's events around it)
TURNS: dict[str, list[bytes]] = {
    "reasoning": [thinking("r", id="rs_1", encrypted_content="gAAA", format="openai-responses-v1"),
                  thinking("s", id="rs_2", channel="summary", signature="sig", extra=[1, {"b": 2}]),
                  thinking("", id="rs_3"), thinking("x", id=7), thinking("y", encrypted_content={"n": 1.5})],
    "phases": [enc(om.assistant_text(t, fidelity={"phase": p}, timestamp=TS))
               for t, p in (("a", "commentary"), ("b", "final_answer"), ("c", "later"), ("d", 3))],
    "signatures": [thinking("t", signature="not base64!"), thinking("u", signature="QUJD"),
                   thinking("", signature=""), thinking("", signature=None), thinking("v", signature=5),
                   enc(om.assistant_text("w", fidelity={"signature": "QUI="}, timestamp=TS))],
    "reasoning-fields": [thinking("a", reasoning_field="reasoning_content"), thinking("b", reasoning_field=["x"]),
                         thinking("c", reasoning_field={"k": 1})],
    "numbers": [enc(om.tool_call("f", '{"a":1.0,"b":1e400,"c":12345678901234567891,"d":-0.0,"e":1E-7}', "c1",
                                 timestamp=TS)),
                enc(om.tool_call("g", '{"z": [1, 2.50, {"y": "\\u00e9\\ud800"}]}', "c2", timestamp=TS)),
                enc(om.tool_call("h", "NaN", "c3", timestamp=TS)), enc(om.tool_call("i", "", "f#7", timestamp=TS)),
                enc(om.tool_call("j", "{}", "c#\u0663", timestamp=TS))],
    "text": [enc(om.assistant_text("\u2028, \x1b, \u00e9, \U0001f600", timestamp=TS))],
    # JavaScript puts an object's array-index keys first: Python spells bodies and losses that way too
    "index-keys": [raw('{"type":"thinking","role":"assistant","thinking":"t","fidelity":{"id":"rs","b":1,"0":2,'
                       '"4294967295":0,"4294967294":1,"01":3,"encrypted_content":{"z":1,"5":{"y":1,"2":2}}}}'),
                   enc(om.tool_call("f", '{"b":1,"0":2}', "c1", timestamp=TS)),
                   # duplicate keys (the last value, the first place) and names an object inherits
                   raw('{"type":"thinking","role":"assistant","thinking":"t","fidelity":{"id":"a","__proto__":1,'
                       '"id":"b","constructor":2,"toString":{"1":1,"0":0}}}'),
                   enc(om.tool_call("g", '{"__proto__":{"x":1},"a":1,"a":2}', "c#01", timestamp=TS))],
    # past the double range: JSON.parse makes it Infinity, which JSON cannot spell (not-json, both)
    "beyond-double": [raw('{"type":"thinking","role":"assistant","thinking":"t","fidelity":{"id":"r","x":1e400}}'),
                      raw('{"type":"thinking","role":"assistant","thinking":"t","fidelity":{"id":"r","x":1' + "0" * 400
                          + '}}'),
                      enc(om.tool_call("f", "[1" + "0" * 400 + "]", "c1", timestamp=TS))],
    # the trace's depth limit: arguments at it and past it; a fidelity value as deep as a line may nest
    "deep": [enc(om.tool_call("f", "[" * 512 + "]" * 512, "c1", timestamp=TS)),
             enc(om.tool_call("g", '{"a":"[[' + "[" * 600 + '"}', "c2", timestamp=TS)),
             enc(om.tool_call("h", "{" * 513, "c3", timestamp=TS)),
             raw('{"type":"thinking","role":"assistant","thinking":"t","fidelity":{"id":"r","encrypted_content":'
                 + "[" * 509 + "]" * 509 + "}}")],
    "huge": [enc(om.assistant_text("\u00e9\"\x01\U0001f600" * 250_000, timestamp=TS)),
             enc(om.tool_call("f", '{"s":"' + "x\\\"" * 100_000 + '"}', "c1", timestamp=TS))],
    "evil-key": [enc(om.assistant_text("x", fidelity={"\x1b]0;x\x07" * 700 + "/~": 1, "::k": 2}, timestamp=TS)),
                 # clipped by code points, not UTF-16 units
                 enc(om.assistant_text("y", fidelity={"\U0001f600" * 150 + "\x85\u2028\u200b" + "\u00e9" * 100: 1},
                                       timestamp=TS))],
}


def root_of(tmp_path: Path, *lines: bytes) -> Path:
    return write_root(tmp_path, meta_line(SID), *lines)


@pytest.mark.parametrize("name", sorted(TURNS))
def test_fidelity_rich_turns(same: Same, tmp_path: Path, name: str) -> None:
    root = root_of(tmp_path, USER, BEGIN, *TURNS[name], END)
    assert len(om.restore(root, SID).messages) >= 1 + len(TURNS[name])  # all of it is context (calls: outputs too)
    run_both(same, str(root), SID)


def test_synthetic_context(same: Same, tmp_path: Path) -> None:
    """test_providers.py's synthetic context (images, inline data, redacted and merged thinking,
    suffixed ids, an output with a web image): its user and assistant runs as turns of a trace."""
    user, *assistant, output = synthetic()
    first, second, web = user, assistant[0], assistant[1]
    root = root_of(tmp_path, first, second, web, BEGIN, *assistant[2:], END, output, BEGIN,
                   enc(om.assistant_text("done", timestamp=TS)), END)
    assert len(om.restore(root, SID).messages) == 10
    run_both(same, str(root), SID)


def test_empty_system_prompt_and_output_images(same: Same, tmp_path: Path) -> None:
    png = "data:image/png;base64,iVBORw0KGgo="
    root = write_root(tmp_path, meta_line(SID, system_prompt=""), USER, BEGIN,
                      enc(om.tool_call("read", '{"p":1}', "c1", timestamp=TS)), END,
                      enc(om.tool_call_output("ok", "c1", images=[png, "data:;base64,x", "https://x.invalid/i.png",
                                                                  "data:image/png;base64,"], timestamp=TS)),
                      enc(om.image_url("data:image/png,raw", timestamp=TS)))
    run_both(same, str(root), SID)


def test_refusals_are_alike(same: Same, tmp_path: Path) -> None:
    """A session restore refuses: the same error with --to as without, nothing on standard output."""
    write_root(tmp_path, USER)
    r = same(str(tmp_path), SID, "--to", "gemini")
    assert r.returncode == 1 and r.stdout == b"" and r.stderr
