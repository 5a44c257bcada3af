#!/usr/bin/env python3
"""Baseline testee `pydantic`: the pydantic v2 models of `omnimessage generate --target pydantic`.

Tuned the way a careful user would: validate the line with the generated root model,
dump it back with `exclude_unset=True` (absent fields stay absent; `null` stays `null`),
map pydantic's error types to the rejection categories, and frame lines like a reader.
What still breaks is what a model-based re-serialiser cannot keep: the exact bytes of
verbatim values, escapes and number spellings, duplicate keys, lone surrogates.
"""

import base64
import json
import sys

import models  # beside this script: `python testee.py` has the script's folder on sys.path
import pydantic
from models import OmniMessage

HELLO = "omnimessage-conformance"

CATEGORIES = {  # pydantic error type -> rejection category
    "json_invalid": "invalid_json",
    "missing": "missing_field",
    "extra_forbidden": "unexpected_field",
    "union_tag_invalid": "unknown_type",
    "literal_error": "invalid_value",
    "enum": "invalid_value",
    "greater_than_equal": "invalid_value",
    "less_than_equal": "invalid_value",
    "greater_than": "invalid_value",
    "too_short": "invalid_value",
    "int_from_float": "invalid_number",
    "finite_number": "invalid_number",
}


TAGS = {  # every envelope and payload `type` value: the discriminated unions' branch names
    f.default
    for cls in vars(models).values()
    if isinstance(cls, type) and issubclass(cls, pydantic.BaseModel) and cls is not pydantic.BaseModel
    for name, f in cls.model_fields.items()
    if name == "type" and isinstance(f.default, str)
} | {
    a
    for cls in vars(models).values()
    if isinstance(cls, type) and issubclass(cls, pydantic.BaseModel) and "type" in getattr(cls, "model_fields", {})
    for a in getattr(cls.model_fields["type"].annotation, "__args__", ())
    if isinstance(a, str)
}

# Tuning: keep fidelity's members (the generated empty model would drop them all).
models.Fidelity.model_config["extra"] = "allow"
for _cls in vars(models).values():
    if isinstance(_cls, type) and issubclass(_cls, pydantic.BaseModel) and _cls is not pydantic.BaseModel:
        _cls.model_rebuild(force=True)


def _loc(e):
    # Drop union branch names: a class name (plain unions) or, for the discriminated unions,
    # the tag value pydantic inserts after the union's position (first, or after `payload`).
    loc = e["loc"]
    return [
        p
        for i, p in enumerate(loc)
        if not (isinstance(p, str) and (p[:1].isupper() or (p in TAGS and (i == 0 or loc[i - 1] == "payload"))))
    ]


def _branch(e):
    return tuple(p for p in e["loc"] if isinstance(p, str) and p[:1].isupper())


def refusal(err):
    errors = err.errors()
    # Without a discriminator pydantic tries every union branch; the branches whose `type`
    # did not match explain nothing, unless no branch matched at all.
    mismatch = [e for e in errors if e["type"] == "literal_error" and _loc(e)[-1:] == ["type"]]
    wrong = {_branch(e) for e in mismatch}
    rest = [e for e in errors if not any(_branch(e)[: len(w)] == w for w in wrong)] or mismatch
    first = min(rest, key=lambda e: len(_loc(e)))
    kind, loc = first["type"], _loc(first)
    category = CATEGORIES.get(kind, "wrong_type" if kind.endswith("_type") else "invalid_value")
    if first in mismatch:
        category = "unknown_type"
    if kind in ("union_tag_invalid", "union_tag_not_found"):  # a discriminated union's tag: at `type`
        loc = [*loc, "type"]
        category = "unknown_type" if kind == "union_tag_invalid" else "missing_field"
    pointer = "".join(f"/{p}" for p in loc)
    return {"result": "refused", "category": category, "pointer": pointer, "message": first["msg"]}


def answer(req):
    if req.get("mode") == "lenient":
        return {"result": "skipped", "reason": "pydantic models have no lenient mode"}
    data = base64.b64decode(req["input"])
    terminated = data.endswith(b"\n")
    line = data[:-1] if terminated else data
    if len(line) > req.get("max_line_bytes", 1 << 28):
        return {"result": "refused", "category": "too_large", "pointer": ""}
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return {"result": "refused", "category": "invalid_utf8" if terminated else "truncated", "pointer": ""}
    try:
        msg = OmniMessage.model_validate_json(line)
    except pydantic.ValidationError as err:
        out = refusal(err)
        if not terminated:
            out["category"] = "truncated"
        return out
    except RecursionError:
        return {"result": "refused", "category": "too_deep", "pointer": ""}
    out = msg.model_dump_json(exclude_unset=True, by_alias=True).encode()
    return {"result": "encoded", "output": base64.b64encode(out).decode()}


def main():
    hello = json.loads(sys.stdin.readline())
    assert hello["hello"] == HELLO and hello["protocol"] == 1, hello
    reply = {"hello": HELLO, "protocol": 1, "implementation": "pydantic", "version": pydantic.VERSION}
    print(json.dumps(reply), flush=True)
    for raw in sys.stdin:
        req = json.loads(raw)
        print(json.dumps({"id": req["id"], **answer(req)}), flush=True)


if __name__ == "__main__":
    main()
