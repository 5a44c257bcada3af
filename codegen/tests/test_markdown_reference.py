"""The generated protocol reference (docs/protocol.md) documents every definition of the schema,
and every link inside it lands on a heading that exists."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from omnimessage_codegen import load_schema, schema_path
from omnimessage_codegen.loader import build_model
from omnimessage_codegen.targets import markdown, render

DOC: dict[str, Any] = json.loads(schema_path().read_text())
COMMITTED = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ANCHOR = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']""")
_LINK = re.compile(r"\]\(#([^)\s]*)\)")


def _slug(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped (`_` and `-` kept), spaces to `-`."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def _prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return out


def anchors(text: str) -> tuple[list[str], set[str]]:
    """(heading texts, every anchor the document defines), duplicates numbered as GitHub does."""
    headings: list[str] = []
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in _prose_lines(text):
        found.update(_HTML_ANCHOR.findall(line))
        m = _HEADING.match(line)
        if not m:
            continue
        headings.append(m.group(2))
        base = _slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return headings, found


def links(text: str) -> list[str]:
    return [a for line in _prose_lines(text) for a in _LINK.findall(line)]


def assert_complete(text: str, doc: dict[str, Any]) -> None:
    headings, defined = anchors(text)
    missing = [name for name in doc["$defs"] if name not in headings or _slug(name) not in defined]
    assert not missing, f"definitions without their own heading in the protocol reference: {missing}"
    dead = sorted({a for a in links(text) if a not in defined})
    assert not dead, f"links to anchors that do not exist: {dead}"
    assert len(headings) == len(set(headings)), "a heading is repeated (its second anchor would be numbered)"


def _rendered(doc: dict[str, Any]) -> str:
    return render("markdown", build_model(doc))["protocol.md"]


def test_every_definition_has_a_heading_and_every_link_resolves() -> None:
    assert_complete(render("markdown", load_schema())["protocol.md"], DOC)


def test_the_committed_reference_is_complete() -> None:
    assert_complete(COMMITTED.read_text(encoding="utf-8"), DOC)


def test_every_payload_kind_is_in_its_envelopes_section() -> None:
    """The three payload families, each under the union that carries it, with an example line."""
    m = load_schema()
    text = render("markdown", m)["protocol.md"]
    headings = [h for h in (_HEADING.match(ln) for ln in _prose_lines(text)) if h]
    order = [h.group(2) for h in headings]
    for union in ("CompleteModelPayload", "PartialModelPayload", "EventPayload"):
        start = order.index(union)
        for member in m.unions[union].members:
            assert order.index(member) > start, f"{member} is not after its union {union}"
            tag = m.structs[member].tag
            assert f'"type":"{tag}"' in text, f"no example line of {member}"
    assert order.index("SessionMetaPayload") < order.index("ModelPayload") < order.index("EventPayload")


def _split_events(doc: dict[str, Any]) -> None:
    """EventPayload as a mix: two struct parts and a nested union of the rest (as ModelPayload nests)."""
    parts = doc["$defs"]["EventPayload"]["oneOf"]
    doc["$defs"]["LifecycleEventPayload"] = {"description": "The other events.", "oneOf": parts[2:]}
    doc["$defs"]["EventPayload"]["oneOf"] = [*parts[:2], {"$ref": "#/$defs/LifecycleEventPayload"}]


def _unreachable_union(doc: dict[str, Any]) -> None:
    """A union no envelope carries (only a field refers to it)."""
    doc["$defs"]["RequestEvent"] = {
        "description": "A request boundary.",
        "oneOf": [{"$ref": "#/$defs/RequestBeginPayload"}, {"$ref": "#/$defs/RequestEndPayload"}],
    }


@pytest.mark.parametrize("mutate", [_split_events, _unreachable_union])
def test_other_payload_shapes_are_documented_too(mutate: Any) -> None:
    doc = copy.deepcopy(DOC)
    mutate(doc)
    assert_complete(_rendered(doc), doc)


def test_the_generator_refuses_to_leave_a_definition_out() -> None:
    model = load_schema()
    model.order = (*model.order, "Ghost")  # a definition of a kind no section of the document takes
    with pytest.raises(ValueError, match="would leave out Ghost"):
        markdown.render(model)


def test_the_checker_sees_a_missing_kind_and_a_dead_link() -> None:
    m = load_schema()
    text = render("markdown", m)["protocol.md"]
    events = set(m.unions["EventPayload"].members)
    without_events = "\n".join(ln for ln in text.splitlines() if not (ln.startswith("### ") and ln[4:] in events))
    with pytest.raises(AssertionError, match=r"without their own heading.*ToolListReadyPayload"):
        assert_complete(without_events, DOC)
    with pytest.raises(AssertionError, match=r"do not exist.*nowhere"):
        assert_complete(text + "\nSee [Nowhere](#nowhere).\n", DOC)
