"""The TypeScript client in a real browser (issue 31): Debian's Chromium, driven by Playwright as
test_html_browser.py does, opens examples/consume/index.html served by examples/consume/live_cards.py
(the Python `sse_app` under `omnimessage.produce.serve` on 127.0.0.1, one origin). The page imports
the built `omnimessage/consume` ESM, subscribes, and draws the render model as nested cards while
the session streams live; the server drops the page's connection twice mid-stream (`--cut-after`)
and the page resumes with `Last-Event-ID`. The DOM is compared with the traces the session wrote: every card's
messages (their exact text, kept in `data-raw`), in arrival order (`data-seq`: a complete message
is drawn where its segment started), equal its session's trace lines, the subagent's card
sits inside the main card, and the final answer reads as the trace has it. A screenshot goes to
.artifacts/consume-cards.png (docs/consume-cards.png is one of these, committed by hand).
"""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from conftest import ROOT
from test_html_browser import ARTEFACTS, _browser_or_skip, browser_page

EXAMPLE = ROOT / "examples" / "consume" / "live_cards.py"
DIST = ROOT / "typescript" / "dist" / "consume" / "index.js"


def _trace(traces: Path, sid: str) -> list[str]:
    files = sorted(traces.rglob(f"{sid}_*.jsonl"))
    return [line for f in files for line in f.read_text(encoding="utf-8").splitlines()]


def _kind(line: str) -> str:
    msg = json.loads(line)
    return str(msg["type"] if msg["type"] == "session_meta" else msg["payload"]["type"])


@pytest.fixture
def live(tmp_path: Path):  # type: ignore[no-untyped-def]
    if not DIST.exists():
        pytest.fail(f"{DIST} is missing: run `make setup` (the TypeScript build)")
    traces = tmp_path / "traces"
    proc = subprocess.Popen([sys.executable, str(EXAMPLE), "--port", "0", "--delay", "0.01", "--traces", str(traces),
                             "--cut-after", "10,30"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
    try:
        first = lines.get(timeout=60)
        assert first.startswith("serving http://127.0.0.1:"), first + proc.stderr.read()  # type: ignore[union-attr]
        yield first.split()[1], traces, lines
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_the_page_draws_the_live_session_as_nested_cards(live) -> None:  # type: ignore[no-untyped-def]
    _browser_or_skip()
    from playwright.sync_api import expect

    url, traces, out = live
    with browser_page(1100) as (page, requests, errors):
        page.goto(url)
        assert out.get(timeout=60).startswith("traces under")
        assert out.get(timeout=120) == "session done\n"  # the page listened from the first event

        sids = {p.name.split("_")[0] for p in traces.rglob("*.jsonl")}
        (main_id,) = [s for s in sids if "subagent" in map(_kind, _trace(traces, s))]  # it points to its child
        (child_id,) = sids - {main_id}
        main_trace, child_trace = _trace(traces, main_id), _trace(traces, child_id)
        # the main card: the trace less its session_meta (not announced) and the subagent pointer
        want_main = [x for x in main_trace if _kind(x) not in ("session_meta", "subagent")]
        suffix = f',"origin":{json.dumps([child_id])}}}'
        want_child = [x[:-1] + suffix for x in child_trace]  # every line: the child announced its meta

        root = page.locator('section.card.root[data-origin="[]"]')
        msgs = root.locator(":scope > .items > [data-raw]")
        expect(msgs).to_have_count(len(want_main), timeout=30_000)
        child = root.locator(f":scope > .items > section.card[data-origin='{json.dumps([child_id])}']")
        expect(child).to_have_count(1)
        child_msgs = child.locator(":scope > .items > [data-raw]")
        expect(child_msgs).to_have_count(len(want_child))
        # in arrival order (data-seq), each card's messages are its trace's lines, byte for byte
        arrival = "els => els.map(e => [Number(e.dataset.seq), e.dataset.raw]).sort((a, b) => a[0] - b[0]).map(x => x[1])"
        assert msgs.evaluate_all(arrival) == want_main
        assert child_msgs.evaluate_all(arrival) == want_child
        expect(page.locator(".seg")).to_have_count(0)  # every segment replaced by its complete message
        # the subagent's card sits where its first message arrived, after the main session's request_end
        kinds = root.locator(":scope > .items > *").evaluate_all(
            "els => els.map(e => e.dataset.type || (e.matches('section.card') ? 'card' : '?'))")
        # (the tool output, complete only after the subagent's card, replaced its segment in place)
        assert kinds[kinds.index("card") - 3:kinds.index("card")] == ["tool_call_output", "token_usage", "request_end"], kinds
        # the final answer as a person reads it, equal to the trace's text
        final = json.loads([x for x in main_trace if _kind(x) == "text"][-1])["payload"]["text"]
        expect(msgs.filter(has_text="Two stations").locator(".body")).to_have_text(final)
        assert final.endswith("✓")
        expect(child.locator('[data-type="tool_call"] .body')).to_have_text('{"path":"data/stations.csv"}')
        expect(page.locator("#status")).to_have_text(re.compile(r"live · \d+ events · 2 reconnects · 0 resyncs"))

        ARTEFACTS.mkdir(exist_ok=True)
        shot = ARTEFACTS / "consume-cards.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"\nscreenshot of the live cards: {shot}")
        assert not errors, errors
    assert requests and all(r.startswith(url) for r in requests), requests  # one origin: no CDN, no other host


def test_the_documented_example_serves_one_origin() -> None:
    """docs/consuming.md's command, as written, serves the page, the built package and nothing else;
    the import map the doc shows is the page's."""
    import shlex
    import urllib.error
    import urllib.request

    doc = (ROOT / "docs" / "consuming.md").read_text(encoding="utf-8")
    (html,) = re.findall(r"^```html\n(.*?)^```$", doc, re.S | re.M)
    assert html in (ROOT / "examples" / "consume" / "index.html").read_text(encoding="utf-8")
    (cmd,) = [b for b in re.findall(r"^```sh\n(.*?)^```$", doc, re.S | re.M) if "examples/consume" in b]
    argv = shlex.split(cmd)
    assert argv[0] == "python"
    with tempfile.TemporaryDirectory() as traces:
        proc = subprocess.Popen([sys.executable, *argv[1:], "--traces", traces], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().split()[1]
            assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url), url

            def get(path: str) -> tuple[int, str, bytes]:
                try:
                    with urllib.request.urlopen(url + path, timeout=30) as res:
                        return res.status, res.headers["content-type"], res.read()
                except urllib.error.HTTPError as e:
                    return e.code, e.headers["content-type"], e.read()

            status, kind, body = get("")
            assert (status, kind) == (200, "text/html; charset=utf-8") and b'type="importmap"' in body
            status, kind, body = get("dist/consume/index.js")
            assert (status, kind) == (200, "text/javascript; charset=utf-8") and b"subscribe" in body
            for hostile in ("dist/../../README.md", "dist/%2e%2e/%2e%2e/pyproject.toml", "dist/index.d.ts", "cards.js/x", "../etc/passwd"):
                assert get(hostile)[0] == 404, hostile
        finally:
            proc.kill()
            proc.wait(timeout=30)
