"""Defects and odd lines for differential testing: edits of generated messages into every
rejection category (`mutate`), byte-level corruption (`corrupt`), whole batches (`generate`) and
streaming partials whose fragment field holds lone surrogates (`split_surrogate_lines`)."""

from __future__ import annotations

from collections.abc import Iterator

from .random_lines import MODEL, Gen, J, Style, num, obj, s, write

__all__ = ["corrupt", "generate", "mutate", "split_surrogate_lines"]


def _objects(v: J, path: tuple[str, ...] = ()) -> Iterator[tuple[J, tuple[str, ...]]]:
    if v.kind == "obj":
        yield v, path
        for k, x in v.members:
            yield from _objects(x, (*path, k))
    elif v.kind == "arr":
        for i, x in enumerate(v.items):
            yield from _objects(x, (*path, str(i)))


def _values(v: J) -> Iterator[J]:
    yield v
    for _, x in v.members:
        yield from _values(x)
    for x in v.items:
        yield from _values(x)


def mutate(g: Gen, msg: J) -> None:
    """Apply one defect to the tree, in place."""
    rng = g.rng
    objs = list(_objects(msg))
    target, _ = rng.choice(objs)
    values = [v for v in _values(msg) if v is not msg]
    kind = rng.randrange(12)
    if kind == 0 and target.members:  # missing_field
        del target.members[rng.randrange(len(target.members))]
    elif kind == 1:  # unexpected_field
        key = rng.choice(["extra", "__proto__", "constructor", "Type", g.text(short=True)])
        target.members.insert(rng.randrange(len(target.members) + 1), (key, s("x")))
    elif kind == 2 and values:  # wrong_type
        v = rng.choice(values)
        repl = rng.choice([s("1"), num("1"), J("lit", text="null"), J("lit", text="true"), J("arr"), obj()])
        v.kind, v.members, v.items, v.text = repl.kind, repl.members, repl.items, repl.text
    elif kind == 3:  # invalid_value / unknown_type: a string value replaced
        strs = [v for v in values if v.kind == "str"]
        if strs:
            rng.choice(strs).text = rng.choice(
                ["failed", "benchmark", "bot", "", "request_begin", "text", g.text(short=True)]
            )
    elif kind == 4 and target.members:  # duplicate_key (sometimes spelled with an escape)
        k, v = rng.choice(target.members)
        target.members.append((k, v))
    elif kind == 5:  # lone surrogate in a string or a key
        strs = [v for v in values if v.kind == "str"]
        if strs and rng.random() < 0.8:
            v = rng.choice(strs)
            at = rng.randrange(len(v.text) + 1)
            v.text = v.text[:at] + rng.choice(["\ud800", "\udc00", "\udbff"]) + v.text[at:]
        elif target.members:
            i = rng.randrange(len(target.members))
            k, v = target.members[i]
            target.members[i] = (k + "\udfff", v)
    elif kind == 6:  # numbers: beyond the double range, or integers written with a fraction
        nums = [v for v in values if v.kind == "num"]
        if nums:
            rng.choice(nums).text = rng.choice(
                ["1e400", "-1e400", "1.0", "1e2", "1.5", "-1", "9007199254740992", "1" * 401, "9" * 309, "1" * 350]
            )
    elif kind == 7:  # empty origin, or origin items of the wrong type
        msg.members.append(("origin", J("arr", items=[] if rng.random() < 0.5 else [num("1")])))
    elif kind == 8:  # a verbatim value that is not an object, or a hook output member of the wrong type
        raws = [v for v in values if v.kind == "raw"]
        if raws:
            rng.choice(raws).text = rng.choice(["[]", '"x"', "null", "1", '{"a":null}', '{"a":[1]}', '{"a":{}}'])
    elif kind == 9:  # deep nesting beyond max_depth, in a verbatim value or not
        n = rng.randrange(480, 900)
        target.members.append(("deep", J("raw", text="[" * n + "]" * n)))
    elif kind == 10:  # payload or envelope type of another kind
        p = msg.get("payload")
        dest = p if p is not None and p.kind == "obj" and rng.random() < 0.7 else msg
        t = dest.get("type")
        if t is not None:
            t.kind, t.text = (
                "str",
                rng.choice(["request_begin", "text", "model_msg", "event_msg", "session_meta", "nope"]),
            )
    else:  # a value where an object belongs
        p = msg.get("payload")
        if p is not None:
            p.kind, p.members, p.items, p.text = rng.choice(
                [("arr", [], [], ""), ("str", [], [], "p"), ("lit", [], [], "null")]
            )


def corrupt(g: Gen, line: bytes) -> bytes:
    """A byte-level defect: invalid UTF-8, torn line, trailing data, BOM, broken grammar."""
    rng = g.rng
    at = rng.randrange(len(line) + 1)
    kind = rng.randrange(8)
    if kind == 0:
        return (
            line[:at]
            + rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80"])
            + line[at:]
        )
    if kind == 1:
        return line[: rng.randrange(len(line))]
    if kind == 2:
        return line + rng.choice([b" x", b"{}", b",", b"\x00", b" \n"])
    if kind == 3:
        return b"\xef\xbb\xbf" + line
    if kind == 4:
        return line.replace(b"}", b",}", 1)
    if kind == 5 and line:
        return line[:at] + line[at + 1 :]
    if kind == 6:
        junk = [
            b'"',
            b"{",
            b"]",
            b":",
            b"01",
            b"NaN",
            b"'",
            b"//",
            b"\x01",
            b"\t",
            b"\x00",
            b"\\",
            b"\\x",
            b"\\u12",
            b"\\uZZZZ",
        ]
        return line[:at] + rng.choice(junk) + line[at:]
    return line.replace(b":", b": -", 1)


def generate(g: Gen, n: int) -> list[bytes]:
    lines: list[bytes] = []
    for i in range(n):
        msg = g.message()
        r = g.rng.random()
        if r < 0.3:
            for _ in range(1 + (g.rng.random() < 0.25)):
                mutate(g, msg)
        canonical = g.rng.random() < 0.5
        data = write(msg, Style(g.rng, canonical)).encode("utf-8", "surrogatepass")
        if g.rng.random() < 0.08:
            data = corrupt(g, data)
        if i % 7 == 0:
            data += b"\n"
        lines.append(data)
    return lines


_PARTIALS = [st for st in MODEL.structs.values() if st.fragment_of is not None]
_HIGH = [0xD800, 0xD83D, 0xDBFF]
_LOW = [0xDC00, 0xDE00, 0xDFFF]


def split_surrogate_lines(g: Gen, n: int) -> list[bytes]:
    """Streaming partials whose fragment field holds lone surrogates (a pair split between two
    deltas, wire contract 4.1), written canonically or not; some with a lone half elsewhere too
    (another field, a key, the origin), under another envelope, or with another defect."""
    lines: list[bytes] = []
    rng = g.rng
    for i in range(n):
        st = rng.choice(_PARTIALS)
        assert st.fragment_of is not None
        payload = g.struct(st.name, 2)
        frag = payload.get(st.fragment_of[1])
        assert frag is not None and frag.kind == "str"
        high, low = chr(rng.choice(_HIGH)), chr(rng.choice(_LOW))
        r = rng.random()
        if r < 0.35:
            frag.text += high  # the high half ends this delta
        elif r < 0.6:
            frag.text = low + frag.text  # the low half starts the next
        elif r < 0.8:
            frag.text = low + frag.text + high
        else:
            at = rng.randrange(len(frag.text) + 1)
            frag.text = frag.text[:at] + rng.choice([high, low, low + high]) + frag.text[at:]
        env = "model_msg" if rng.random() < 0.95 else "event_msg"
        msg = obj(("timestamp", s("2026-07-18T03:10:22.531Z")), ("type", s(env)), ("payload", payload))
        if rng.random() < 0.2:
            msg.members.append(("origin", J("arr", items=[s(g.text(short=True))])))
        r = rng.random()
        if r < 0.1:  # a lone half in another string of the line (refused there)
            others = [v for v in _values(msg) if v.kind == "str" and v is not frag]
            rng.choice(others).text += rng.choice([high, low])
        elif r < 0.15:  # in a key
            k, v = payload.members[-1]
            payload.members[-1] = (k + low, v)
        elif r < 0.3:
            mutate(g, msg)
        data = write(msg, Style(rng, rng.random() < 0.5)).encode("utf-8", "surrogatepass")
        if i % 5 == 0:
            data += b"\n"
        lines.append(data)
    return lines
