"""The HTML report in a real browser: Debian's Chromium (/usr/bin/chromium) driven by Playwright.

What a person sees on a stream with findings: a session timeline (turns, a retried request,
folded streaming segments, a tool call with its approval and output, a subagent card, token
usage), the finding's line highlighted with the rule's text, and filters that change what is
shown. The page makes no request but its own file. The screenshot is kept as a test artefact in
.artifacts/ (gitignored); its path is printed. Under OMNIMESSAGE_REQUIRE_TOOLS=1 (`make test`) a
missing browser or Playwright fails, never skips. Playwright never downloads a browser here
(`playwright install` is not used): it drives the system's Chromium through `executable_path`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import html_fixture
import pytest
from conftest import REQUIRE_TOOLS, ROOT

CHROMIUM = os.environ.get("OMNIMESSAGE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
ARTEFACTS = ROOT / ".artifacts"
HIGHLIGHT = "rgb(255, 227, 227)"  # .row.hl in validate/reporting/html/page.css


def _browser_or_skip() -> None:
    missing = []
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        missing.append(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the Python package playwright is not installed (the dev extra)")
    if missing:
        if REQUIRE_TOOLS:
            pytest.fail("; ".join(missing) + "; OMNIMESSAGE_REQUIRE_TOOLS=1 requires them")
        pytest.skip("; ".join(missing))


@contextlib.contextmanager
def browser_page(width: int, height: int = 900) -> Iterator[tuple[Any, list[str], list[str]]]:
    """A page in headless Chromium with a fresh profile; the URLs it requests and the errors it raises."""
    from playwright.sync_api import sync_playwright

    requests: list[str] = []
    errors: list[str] = []
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                                                    viewport={"width": width, "height": height})
        try:
            page = ctx.new_page()
            page.on("request", lambda r: requests.append(r.url))
            page.on("pageerror", lambda e: errors.append(str(e)))
            yield page, requests, errors
        finally:
            ctx.close()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("html")
    src = html_fixture.write(d / "producer-stream.jsonl")
    out = d / "report.html"
    proc = subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--profile", "stream", "--format", "html",
                           "-o", str(out), src.name], cwd=d, capture_output=True, timeout=120)
    assert proc.returncode == 1, proc.stderr  # errors found
    return out


def test_a_person_sees_the_timeline_the_findings_and_the_filters(report: Path) -> None:
    _browser_or_skip()
    from playwright.sync_api import expect

    with browser_page(1280) as (page, requests, errors):
        page.goto(report.as_uri())

        # the timeline: two turns, a retried request, folded segments, the tool call's card, the subagent
        expect(page.locator(".card.turn")).to_have_count(2)
        expect(page.locator(".card.request .hd").first).to_contain_text("retryable")
        expect(page.locator(".card.request .hd").nth(1)).to_contain_text("request · attempt 2")
        expect(page.locator("details.fold > summary").first).to_contain_text("streamed as")
        call = page.locator(".card.call").first
        expect(call).to_contain_text("run_subagent")
        expect(call).to_contain_text("approval_decision")
        expect(call).to_contain_text("tool_call_output")
        child = page.locator(".card.child")
        expect(child).to_contain_text(html_fixture.CHILD)
        expect(child.locator(".card.request")).to_have_count(1)
        expect(page.locator(".usage svg rect").first).to_be_visible()

        # the finding on its line, highlighted, with the rule's text and a link to it
        row = page.locator(f'.row.has-f:has(a.ln:text-is("{html_fixture.ERROR_LINE}"))')
        expect(row).to_have_count(1)
        expect(row).to_have_class("row hl has-f")
        assert row.evaluate("r => getComputedStyle(r).backgroundColor") == HIGHLIGHT
        finding = row.locator('.f[data-rule="OM401"]')
        expect(finding).to_be_visible()
        expect(finding).to_contain_text("output-without-call")
        expect(finding.locator(".rtext")).to_contain_text("answers no earlier")
        assert finding.locator("a.rid").get_attribute("href") == "#rule-om401"
        expect(page.locator("#rule-om401")).to_contain_text("OM401 output-without-call")
        plain = page.locator('.row:has(a.ln:text-is("1"))').first
        assert plain.evaluate("r => getComputedStyle(r).backgroundColor") != HIGHLIGHT
        expect(page.locator("#visible")).to_have_text("4 finding(s) shown")

        ARTEFACTS.mkdir(exist_ok=True)
        shot = ARTEFACTS / "html-report.png"
        page.screenshot(path=str(shot), full_page=True)
        shutil.copy(report, ARTEFACTS / "html-report.html")
        print(f"\nscreenshot of the HTML report: {shot}")

        # filters: errors off hides the error and its line's highlight, the warning stays
        page.locator('input.fsev[value="error"]').uncheck()
        expect(finding).to_be_hidden()
        expect(row).not_to_have_class("row hl has-f")
        warn = page.locator(f'.row.has-f:has(a.ln:text-is("{html_fixture.WARNING_LINE}")) .f[data-rule="OM702"]')
        expect(warn).to_be_visible()
        expect(page.locator("#visible")).to_have_text("2 finding(s) shown")
        # only the lines with findings: the first user text disappears, the warning's line stays
        page.locator("#only").check()
        expect(plain).to_be_hidden()
        expect(warn).to_be_visible()
        expect(row).to_be_hidden()  # its only finding is filtered out
        # one rule off
        page.locator('input.frule[value="OM702"]').uncheck()
        expect(warn).to_be_hidden()
        page.locator("#only").uncheck()
        page.locator('input.fsev[value="error"]').check()
        page.locator("#none").click()
        expect(page.locator("#visible")).to_have_text("0 finding(s) shown")
        page.locator("#all").click()
        expect(page.locator("#visible")).to_have_text("4 finding(s) shown")
        expect(finding).to_be_visible()
        assert not errors, errors
    assert requests == [report.as_uri()], requests  # nothing fetched: no network, no CDN
