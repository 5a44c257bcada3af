"""The schema as the generator reads it: definitions, rejection categories, key order, and the
fixed values (timestamp, session ids) every case uses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from omnimessage.conformance.coverage import SchemaWalker

SUITE = Path(__file__).resolve().parents[2]
"""The suite folder, `conformance/`: the generator writes `cases/` and `manifest.json` here."""
REPO = SUITE.parent
SCHEMA: dict[str, Any] = json.loads((REPO / "schema" / "omnimessage.schema.json").read_text(encoding="utf-8"))
DEFS: dict[str, dict[str, Any]] = SCHEMA["$defs"]
REJECTIONS: dict[str, dict[str, Any]] = SCHEMA["x-omnimessage-rejections"]
WALKER = SchemaWalker(SCHEMA)
SUITE_VERSION = "3.0.0"
MAX_SAFE = 2**53 - 1
TS = "2026-07-18T03:10:22.531Z"
SID = "session-2026-07-18-03-10-22-1a2b3c4d"
CHILD = [
    "session-2026-07-18-03-11-02-9f8e7d6c",
    "session-2026-07-18-03-12-40-00ff00ff",
    "session-2026-07-18-03-13-07-abcdef01",
]


def props(defname: str) -> list[str]:
    return list(DEFS[defname]["properties"])


def obj(defname: str, **fields: Any) -> dict[str, Any]:
    """An object of a struct `$def`, keys in schema order (the `type` const filled in)."""
    p = DEFS[defname]["properties"]
    unknown = set(fields) - set(p)
    assert not unknown, (defname, unknown)
    if "type" in p and "const" in p["type"]:
        fields = {"type": p["type"]["const"], **fields}
    return {k: fields[k] for k in p if k in fields}


def envelope_of(defname: str) -> str:
    if defname == "SessionMetaPayload":
        return "session_meta"
    model = {
        r["$ref"].rsplit("/", 1)[1] for u in ("CompleteModelPayload", "PartialModelPayload") for r in DEFS[u]["oneOf"]
    }
    return "model_msg" if defname in model else "event_msg"



def required(defname: str) -> list[str]:
    return [p for p in DEFS[defname].get("required", []) if p != "type"]


def slug(name: str) -> str:
    out = []
    for i, ch in enumerate(name.removesuffix("Payload")):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


# ---------------------------------------------------------------------------


# Streaming partial -> its fragment field (`x-omnimessage-fragment-of`): the one string where a
# lone surrogate escape is accepted (spec 4.1).
FRAGMENT_FIELD: dict[str, str] = {
    name: d["x-omnimessage-fragment-of"]["field"] for name, d in DEFS.items() if "x-omnimessage-fragment-of" in d
}
