"""`validate --format html` without a browser: one self-contained page, input escaped, size bounded.

(The browser test, python/tests/test_html_browser.py, checks what a person sees; the hostile
strings of the output tests go through every format, html included, in test_hostile_output.py.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import html_fixture
import pytest

from omnimessage.cli import validate as command
from omnimessage.validate.reporting import html as html_report

TS = "2026-07-18T03:10:22.531Z"


def _run(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "r.html"
    rc = command.main(["--no-progress", "--format", "html", "-o", str(out), *args])
    assert rc in (0, 1)
    return out.read_text("utf-8")


def test_page_is_self_contained_and_lays_the_session_out(tmp_path: Path) -> None:
    src = html_fixture.write(tmp_path / "s.jsonl")
    page = _run(tmp_path, "--profile", "stream", str(src))
    assert page.startswith("<!DOCTYPE html>")
    assert "default-src 'none'" in page  # the browser may fetch nothing
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # no CDN, no remote asset
    assert page.count("<script>") == 1 and page.count("<style>") == 1
    assert page.count('class="card turn"') == 2 and page.count('class="card child"') == 1
    assert 'data-rule="OM401"' in page and 'href="#rule-om401"' in page and 'id="rule-om401"' in page


def test_markup_from_input_is_text(tmp_path: Path) -> None:
    evil = '</script><script>alert(1)</script><img src=x onerror=alert(2)>"\'&'
    line = {"timestamp": TS, "type": "model_msg",
            "payload": {"type": "text", "role": "user", "text": evil, evil: 1}}
    src = tmp_path / "e.jsonl"
    src.write_text(json.dumps(line) + "\n")
    page = _run(tmp_path, str(src))
    assert page.count("<script") == 1 and "<img" not in page and "onerror=alert(2)>" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page


def test_huge_inputs_show_the_first_findings_then_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(html_report, "MAX_FINDINGS_SHOWN", 5)
    monkeypatch.setattr(html_report, "MAX_LINES_PER_INPUT", 10)
    src = tmp_path / "big.jsonl"
    src.write_text("not json\n" * 40)
    page = _run(tmp_path, str(src))
    assert page.count('<div class="f ') == 5
    assert "5 finding(s) shown in full; 35 more counted in the table" in page
    assert page.count('<div class="row') <= 10 + 5
    assert "the first 10 lines are laid out" in page
    assert re.search(r'<td class="n">40</td>', page)  # the summary counts them all
