"""HTML fragments of the validation report: a session's timeline with its findings on their lines.

Every string from input passes through the one sanitiser (:func:`omnimessage.text.sanitize.sanitize`,
or `sanitize_lines` for a message's text, whose line feeds are kept) and then `html.escape`; ids
and anchors are made from hashes, never from input.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Iterable
from typing import Any, Final

from omnimessage.text.sanitize import clip_text, sanitize, sanitize_lines
from omnimessage.validate.engine.finding import Finding
from omnimessage.validate.engine.rules import RULES
from omnimessage.validate.reporting.html.timeline import MAX_NESTING, MAX_TEXT_CHARS, Ctx, Entry, Node

__all__ = ["esc", "finding_html", "rule_anchor", "session_anchor", "timeline_html", "usage_svg"]

MAX_BODY_CHARS: Final = MAX_TEXT_CHARS
"""The longest text of a message shown (head and tail kept around the count, `clip_text`): strings
come cut to it from the timeline's summary of the line, other values are cut here."""

FindingsAt = dict[tuple[str, int], list[Finding]]


def esc(s: object) -> str:
    """One harmless line of HTML text (sanitised, then escaped, quotes included)."""
    return html.escape(sanitize(str(s)), quote=True)


def _body(s: object) -> str:
    text = s if isinstance(s, str) else clip_text(json.dumps(s, ensure_ascii=False), MAX_BODY_CHARS)
    return html.escape(sanitize_lines(text), quote=True)


def rule_anchor(rule: str) -> str:
    return f"rule-{rule.lower()}"


def session_anchor(session_id: str) -> str:
    return "sid-" + hashlib.sha1(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def finding_html(f: Finding, rules_url: str) -> str:
    r = RULES[f.rule]
    ext = (f' <a class="doc" href="{esc(rules_url)}#{r.id.lower()}">docs</a>' if rules_url else "")
    ptr = f' <code class="ptr">{esc(f.pointer)}</code>' if f.pointer else ""
    return (
        f'<div class="f sev-{f.severity}" data-rule="{r.id}" data-sev="{f.severity}">'
        f'<a class="rid" href="#{rule_anchor(r.id)}">{r.id}</a> <b>{f.severity}</b> '
        f'<span class="rname">{r.name}</span>: <span class="msg">{esc(f.message)}</span>{ptr}'
        f'<div class="rtext">{html.escape(r.summary)}. Fix: {html.escape(r.hint)}{ext}</div></div>'
    )


def _ts(e: Entry) -> str:
    t = e.obj.get("timestamp") if e.obj else None
    if not isinstance(t, str):
        return ""
    return esc(t[11:23] if len(t) >= 23 and t[10:11] == "T" else t[:30])


def describe(e: Entry) -> tuple[str, str]:
    """(a short label, the HTML of the line's content) for one entry."""
    p, k = e.payload, e.kind
    if e.too_long:
        return k, f"<i>a line of {e.size} bytes, not shown</i>"
    if e.obj is None:
        return k, f"<i>not JSON ({e.size} bytes): the findings say why</i>"
    if k == "session_meta":
        return k, (f'<b>{esc(p.get("session_id", "?"))}</b> {esc(p.get("provider", ""))}/'
                   f'{esc(p.get("model_id", ""))} source {esc(p.get("source", "user"))}')
    if k in ("text", "thinking", "partial_text", "partial_thinking"):
        who = esc(p.get("role", "")) + (f' ({esc(p["sender"])})' if "sender" in p else "")
        ev = f'<span class="ev">{esc(p["event_type"])}</span> ' if "event_type" in p else ""
        text = _body(p.get(k.removeprefix("partial_"), ""))
        return k, f'{ev}<span class="who">{who}</span> <span class="txt">{text}</span>'
    if k in ("tool_call", "partial_tool_call"):
        ev = f'<span class="ev">{esc(p["event_type"])}</span> ' if "event_type" in p else ""
        return k, (f'{ev}<b>{esc(p.get("name", ""))}</b>(<span class="txt">{_body(p.get("arguments", ""))}</span>) '
                   f'<code>{esc(p.get("tool_call_id", ""))}</code>')
    if k in ("tool_call_output", "partial_tool_call_output"):
        ev = f'<span class="ev">{esc(p["event_type"])}</span> ' if "event_type" in p else ""
        imgs = p.get("images")  # the count (timeline.summary)
        extra = f" +{imgs} image(s)" if isinstance(imgs, int) and not isinstance(imgs, bool) and imgs else ""
        return k, f'{ev}<span class="txt">{_body(p.get("output", ""))}</span>{extra}'
    if k == "subagent":
        sid = str(p.get("session_id", ""))
        return k, f'child session <a href="#{session_anchor(sid)}">{esc(sid)}</a>'
    if k == "token_usage":
        req, ses = p.get("request"), p.get("session")
        r = req.get("total", "?") if isinstance(req, dict) else "?"
        s = ses.get("total", "?") if isinstance(ses, dict) else "?"
        return k, f"request {esc(r)} tokens, session {esc(s)}"
    rest = {key: v for key, v in p.items() if key != "type"}
    return k, " ".join(f"{esc(key)}=<b>{_body(v)}</b>" for key, v in rest.items())


class Page:
    """Renders timelines for one report, given the findings to place and where the rules live."""

    def __init__(self, rules_url: str) -> None:
        self.rules_url = rules_url

    def row(self, e: Entry, at: FindingsAt, placed: set[tuple[str, int]], row_id: str) -> str:
        found = at.get((e.path, e.line), [])
        if found:
            placed.add((e.path, e.line))
        label, content = describe(e)
        rules = " ".join(sorted({f.rule for f in found}))
        cls = "row hl has-f" if found else "row"
        return (
            f'<div class="{cls}" id="{row_id}" data-rules="{rules}"><a class="ln" href="#{row_id}">{e.line}</a>'
            f'<span class="ts">{_ts(e)}</span><span class="k k-{esc(label)}">{esc(label)}</span>'
            f'<span class="c">{content}</span>{"".join(finding_html(f, self.rules_url) for f in found)}</div>'
        )

    def nodes(self, items: Iterable[Node], ctx: Ctx, at: FindingsAt, placed: set[tuple[str, int]], sec: str) -> str:
        out: list[str] = []
        for n in items:
            if n.kind == "entry" and n.entry is not None:
                e = n.entry
                rid = f"{sec}-{_fid(e.path)}-{e.line}"
                html_row = self.row(e, at, placed, rid)
                if n.fold is not None:
                    html_row += self.fold(n.fold, ctx, at, placed, sec, folded=True)
                out.append(html_row)
            elif n.kind == "fold":
                out.append(self.fold(n, ctx, at, placed, sec, folded=False))
            elif n.kind == "child" and n.ctx is not None:
                child = n.ctx
                deeper = (f" (and deeper hops, chains of up to {child.depth} ids: shown here)"
                          if child.depth > MAX_NESTING and len(child.chain) == MAX_NESTING else "")
                out.append(f'<div class="card child"><div class="hd">subagent <b>{esc(n.label)}</b> '
                           f'<span class="dim">origin {esc(" > ".join(n.chain))}{esc(deeper)}</span></div>'
                           f'{usage_svg(child.usage)}{self.nodes(child.root, child, at, placed, sec)}</div>')
            else:
                head = n.label if n.kind != "call" else f"tool call {n.label}"
                out.append(f'<div class="card {n.kind}"><div class="hd">{esc(head)}</div>'
                           f"{self.nodes(n.items, ctx, at, placed, sec)}</div>")
        return "".join(out)

    def fold(self, n: Node, ctx: Ctx, at: FindingsAt, placed: set[tuple[str, int]], sec: str, *, folded: bool) -> str:
        rows = [x.entry for x in n.items if x.entry is not None]
        hit = any((e.path, e.line) in at for e in rows)
        what = "streamed as" if folded else "streaming segment, no complete message after it:"
        first, last = rows[0].line if rows else 0, rows[-1].line if rows else 0
        inner = self.nodes(n.items, ctx, at, placed, sec)
        return (f'<details class="fold{" unfolded" if not folded else ""}"{" open" if hit or not folded else ""}>'
                f'<summary>{what} {len(rows)} fragment(s), lines {first}-{last}</summary>{inner}</details>')


def _fid(path: str) -> str:
    return hashlib.sha1(path.encode("utf-8", "surrogatepass")).hexdigest()[:6]


def timeline_html(ctx: Ctx, at: FindingsAt, rules_url: str, sec: str) -> tuple[str, set[tuple[str, int]]]:
    """The timeline of a session and the (path, line) keys whose findings it placed."""
    placed: set[tuple[str, int]] = set()
    page = Page(rules_url)
    body = page.nodes(ctx.root, ctx, at, placed, sec)
    return usage_svg(ctx.usage) + body, placed


def _total(x: Any) -> int:
    v = x.get("total") if isinstance(x, dict) else None
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else 0


def usage_svg(usage: list[Entry]) -> str:
    """Token usage over a session: a bar per `token_usage` (the request's total), the session's
    running total as a line; each point titled with its line and numbers."""
    if not usage:
        return ""
    w, h, pad = 640, 60, 4
    req = [_total(e.payload.get("request")) for e in usage]
    ses = [_total(e.payload.get("session")) for e in usage]
    top = max([*req, *ses, 1])
    step = (w - 2 * pad) / len(usage)
    bars, pts = [], []
    for i, e in enumerate(usage):
        x = pad + i * step
        bh = req[i] / top * (h - 2 * pad)
        title = f"line {e.line}: request {req[i]} tokens, session {ses[i]}"
        bw = min(max(step * 0.7, 1), 24)
        bars.append(f'<rect x="{x + (step - bw) / 2:.1f}" y="{h - pad - bh:.1f}" width="{bw:.1f}" '
                    f'height="{bh:.1f}"><title>{title}</title></rect>')
        pts.append(f"{x + step / 2:.1f},{h - pad - ses[i] / top * (h - 2 * pad):.1f}")
    return (f'<div class="usage"><span class="dim">token usage: {len(usage)} report(s), session total '
            f'{ses[-1]} (bars: per request; line: session)</span><svg viewBox="0 0 {w} {h}" width="{w}" '
            f'height="{h}" role="img" aria-label="token usage">{"".join(bars)}'
            f'<polyline points="{" ".join(pts)}"/></svg></div>')
