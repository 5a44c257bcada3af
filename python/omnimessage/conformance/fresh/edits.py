"""Hostile edits of a message's tree, before it is written."""

from __future__ import annotations

import random

import msgspec.inspect as mi

from ..._generated import models
from .draft import Edit, _become, _Draft, _objects, _values, _walk
from .tree import _J, _quote
from .values import _Gen


def _drop_field(rng: random.Random, d: _Draft) -> bool:
    objs = [o for o in _objects(d) if o.members]
    if not objs:
        return False
    o = rng.choice(objs)
    del o.members[rng.randrange(len(o.members))]
    o.key_spellings = {}
    return True


def _add_field(rng: random.Random, d: _Draft) -> bool:
    o = rng.choice(_objects(d))
    key = rng.choice(["extra", "Type", "__proto__", "payload ", "stop_reason2", _Gen(rng).text() or "k"])
    o.members.insert(rng.randint(0, len(o.members)), (key, _J("str", text="x")))
    o.key_spellings = {}
    return True


def _duplicate_key(rng: random.Random, d: _Draft) -> bool:
    objs = [o for o in _objects(d) if o.members]
    if not objs:
        return False
    o = rng.choice(objs)
    k, v = rng.choice(o.members)
    at = rng.randint(0, len(o.members))
    o.members.insert(at, (k, v))
    o.key_spellings = {}
    if k and rng.random() < 0.4:  # the copy spelt with an escape: the same key after unescaping
        i = rng.randrange(len(k))
        if ord(k[i]) < 0x10000:
            o.key_spellings[at] = _quote(k[:i], None)[:-1] + f"\\u{ord(k[i]):04x}" + _quote(k[i + 1 :], None)[1:]
    return True


def _wrong_type(rng: random.Random, d: _Draft) -> bool:
    values = _values(d)
    v = rng.choice(values)
    others = {"str": _J("str", text="1"), "num": _J("num", text="1"), "lit": _J("lit", text="null"),
              "bool": _J("lit", text="true"), "arr": _J("arr"), "obj": _J("obj")}
    kind = "bool" if v.text in ("true", "false") and v.kind == "lit" else v.kind
    choices = [x for k, x in others.items() if k != kind and not (k == "obj" and v.kind == "raw")]
    _become(v, rng.choice(choices))
    return True


def _bad_value(rng: random.Random, d: _Draft) -> bool:
    strs = [v for v in _values(d) if v.kind == "str" and isinstance(v.typ, mi.LiteralType)]
    if not strs:
        return False
    v = rng.choice(strs)
    v.text = rng.choice(["failed", "benchmark", "bot", "", "Completed", "text", "request_begin", "model_msg", "nope"])
    return True


def _respell_number(rng: random.Random, d: _Draft) -> bool:
    nums = [v for v in _values(d) if v.kind == "num"]
    if not nums:
        return False
    v = rng.choice(nums)
    if isinstance(v.typ, mi.IntType):
        v.text = rng.choice([v.text + ".0", v.text + "e0", v.text + "E+0", "1e2", "-0", "-1", str(2**53), "1" * 310,
                             v.text + ".5"])
    else:
        v.text = rng.choice([v.text + "0" if "." in v.text else v.text + ".0", v.text + "e0", "1e400", "-1e400",
                             "0.1e1", "1" * 320, "4.9e-324", "1.7976931348623157e308", "2E-7"])
    return True


def _escape_string(rng: random.Random, d: _Draft) -> bool:
    d.odd = True
    return True


def _lone_surrogate(rng: random.Random, d: _Draft) -> bool:
    strs = [v for v in _values(d) if v.kind == "str"]
    if strs and rng.random() < 0.85:
        v = rng.choice(strs)
        at = rng.randint(0, len(v.text))
        v.text = v.text[:at] + chr(rng.choice([0xD800, 0xDBFF, 0xDC00, 0xDFFF])) + v.text[at:]
        return True
    objs = [o for o in _objects(d) if o.members]
    if not objs:
        return False
    o = rng.choice(objs)
    i = rng.randrange(len(o.members))
    k, v = o.members[i]
    o.members[i] = (k + "\udc00", v)
    o.key_spellings = {}
    return True


def _nest(rng: random.Random, d: _Draft) -> bool:
    """Nesting around the depth limit, in a verbatim value or where the schema wants something else."""
    raws = [(v, depth) for v, depth in _walk(d.tree) if v.kind == "raw"]
    n = rng.randint(models.MAX_DEPTH - 8, models.MAX_DEPTH + 8)
    if raws and rng.random() < 0.6:
        v, depth = rng.choice(raws)
        k = max(1, n - depth - 1)
        v.text = '{"d":' + "[" * k + "1" + "]" * k + "}"
        return True
    objs = [(o, depth) for o, depth in _walk(d.tree) if o.kind == "obj"]
    o, depth = rng.choice(objs)
    k = max(1, n - depth - 1)
    o.members.append(("deep", _J("raw", text="[" * k + "]" * k)))
    o.key_spellings = {}
    return True


TREE_EDITS: dict[str, tuple[Edit, bool]] = {
    # name: (edit, whether it makes a schema defect, which the contract lets implementations order freely)
    "drop-field": (_drop_field, True),
    "add-field": (_add_field, True),
    "wrong-type": (_wrong_type, True),
    "bad-value": (_bad_value, True),
    "respell-number": (_respell_number, True),
    "escapes": (_escape_string, False),
    "duplicate-key": (_duplicate_key, False),
    "lone-surrogate": (_lone_surrogate, False),
    "nest": (_nest, True),
}
