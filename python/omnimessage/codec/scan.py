"""Strict JSON scanner for the slow path of `decode`.

It builds a small tree that remembers where every value starts and ends, so that the
decoder can (1) copy verbatim values as their exact source bytes, (2) refuse what JSON
Schema cannot see (duplicate keys, lone surrogate escapes, number spelling) only outside
verbatim values, and (3) name the byte offset of every error. Recursion is bounded by the
schema's depth limit, and the scanner keeps its own stack (no recursion).

Memory stays a small multiple of the line: an object at a place where some payload keeps a
verbatim value (`SKIP_PATHS`) is checked but not built (one `RAW` node holding its span); the
decoder expands it with `expand` if this payload does not keep a verbatim value there. Only
containers get a `Node`: a scalar is stored as its plain value (a string, a number converted as
the decoder converts it, True/False/None) in its container's list, so a line of many small
values costs a pointer per value, not an object each; where a plain scalar starts is found again
in the text, on a refusal only. The rare scalars the decoder must refuse or allow by place (a
string or key escaping a lone surrogate, a number beyond the double range) stay `Node`s. Short
keys and short strings are interned (at most `INTERN_CAP` distinct ones a scan).
"""

from __future__ import annotations

import re

from omnimessage._generated.models import MAX_DEPTH, VERBATIM_LOCATIONS

OBJ, ARR, STR, NUM, LIT, RAW = range(6)

# Paths from the payload where some payload class keeps a verbatim value (`*`: any array item).
SKIP_PATHS: frozenset[tuple[str, ...]] = frozenset(path for locs in VERBATIM_LOCATIONS.values() for path, _ in locs)
_SKIP_LEVELS = range(2, 2 + max((len(p) for p in SKIP_PATHS), default=0))  # open containers above such a value

_WS = re.compile(r"[ \t\n\r]*")
# Possessive quantifiers: the classes never overlap what follows them, so giving back is never
# needed, and a string that does not close fails in one pass (a 100 MB one in 0.3 s, not 3.5 s).
_STR = re.compile(r'"([^"\\\x00-\x1f]*+(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+)"')
_NUM = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_ESC = re.compile(r"\\(?:u([0-9a-fA-F]{4})|(.))", re.S)
_SIMPLE = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_SURROGATE = re.compile("[\ud800-\udfff]")


class ScanError(Exception):
    def __init__(self, category: str, detail: str, pos: int) -> None:
        super().__init__(detail)
        self.category = category
        self.detail = detail
        self.pos = pos  # character offset in the text


class Node:
    """One JSON container, or a scalar the decoder must look at twice. `start` and `end` are
    known (else -1) for the outermost value, RAW values and scalars. `value` is, by kind:
    OBJ the flat list [key, child, key, child, ...] (a key is a str, or a lone STR node when it
    escapes a lone surrogate); ARR the list of children; a child is a `Node` or a plain scalar
    (see the module). STR the unescaped string; NUM the source spelling; LIT True/False/None;
    RAW (an object checked but not built) None, or (key, start) of its first member whose value
    is not a string, number or boolean. `lone` marks a string (STR) that escapes a lone surrogate."""

    __slots__ = ("end", "kind", "lone", "start", "value")

    def __init__(self, kind: int, start: int, end: int, value: object, lone: bool = False) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.value = value
        self.lone = lone

    def member(self, key: str) -> object:
        """The value of the first member named `key` of an object node (a `Node` or a plain
        scalar), or `_MISSING`."""
        if self.kind == OBJ:
            members: list[object] = self.value  # type: ignore[assignment]
            for j in range(0, len(members), 2):
                if members[j] == key:
                    return members[j + 1]
        return MISSING


MISSING: object = object()
"""What `Node.member` returns for a key the object does not have."""

INTERN_CAP = 4096  # distinct keys and short strings interned by one scan
INTERN_LEN = 32  # strings longer than this are not interned
# Integers at or beyond this round to infinity as IEEE 754 doubles (round to nearest, ties to even:
# the midpoint between the largest double and 2^1024 rounds to 2^1024; schema/README.md section 6).
_DOUBLE_LIMIT = 2**1024 - 2**970
_INF = (float("inf"), float("-inf"))


def kind_of(value: object) -> int:
    """The kind of a child: a `Node`'s own, or that of a plain scalar."""
    if type(value) is Node:
        return value.kind
    if type(value) is str:
        return STR
    if value is None or type(value) is bool:
        return LIT
    return NUM


def number(spelling: str) -> int | float | None:
    """The value of a number as the decoder converts it (an int when written without fraction
    or exponent and within the double range, else a float); None beyond the double range."""
    if len(spelling) <= 400 and not any(c in spelling for c in ".eE"):
        value = int(spelling)
        if -_DOUBLE_LIMIT < value < _DOUBLE_LIMIT:
            return value
    f = float(spelling)
    return None if f in _INF else f


def _unescape(body: str) -> tuple[str, bool]:
    """Apply JSON escapes; returns the string and whether it escapes a lone surrogate."""
    surrogates = False

    def sub(m: re.Match[str]) -> str:
        nonlocal surrogates
        if m.group(1) is not None:
            ch = chr(int(m.group(1), 16))
            if "\ud800" <= ch <= "\udfff":
                surrogates = True
            return ch
        return _SIMPLE[m.group(2)]

    s = _ESC.sub(sub, body)
    if not surrogates:
        return s, False
    # Join escaped pairs into astral characters; what stays a surrogate is lone.
    s = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return s, _SURROGATE.search(s) is not None


_STRING_STOP = re.compile(r'["\\\x00-\x1f]')


def _string_error(text: str, i: int) -> ScanError:
    """Explain why the string starting at `i` did not match."""
    j = i + 1
    n = len(text)
    while j < n:
        stop = _STRING_STOP.search(text, j)  # skip plain characters in C: a 100 MB string stays fast
        if stop is None:
            break
        j = stop.start()
        c = text[j]
        if c == '"':
            break
        if c == "\\":
            nxt = text[j + 1 : j + 2]
            if nxt == "u":
                hexs = text[j + 2 : j + 6]
                if len(hexs) < 4 or any(h not in "0123456789abcdefABCDEF" for h in hexs):
                    return ScanError("invalid_json", "invalid \\u escape (four hex digits expected)", j)
                j += 6
                continue
            if nxt not in _SIMPLE:
                esc = "\\" + nxt
                return ScanError("invalid_json", f"invalid escape {esc!r}", j)
            j += 2
            continue
        if c < " ":
            return ScanError("invalid_json", f"raw control character U+{ord(c):04X} inside a string", j)
        j += 1
    return ScanError("invalid_json", "unterminated string", i)


_CLOSE = {"{": "}", "[": "]"}
# Stand-ins for the open containers inside a RAW value: checked, never built.
_SKIP_OBJ = Node(OBJ, -1, -1, None)
_SKIP_ARR = Node(ARR, -1, -1, None)


class Scanner:
    """Iterative (an explicit stack, no recursion), so depth is limited only by MAX_DEPTH."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.interned: dict[str, str] = {}

    def document(self) -> Node:
        text = self.text
        if text.startswith("\ufeff"):
            raise ScanError("invalid_json", "byte order mark (U+FEFF) before the message", 0)
        i = _WS.match(text, 0).end()  # type: ignore[union-attr]
        if i == len(text):
            raise ScanError("invalid_json", "empty line: no JSON value", i)
        return self.parse(i, 0, True)

    def parse(self, i: int, above: int, document: bool) -> Node:
        """The value at `i`, nested in `above` containers. A document (the whole text, whose
        verbatim places are skipped) must be followed by nothing but whitespace."""
        text = self.text
        n = len(text)
        root: Node | None = None
        stack: list[Node] = []  # open containers
        keys: list[tuple[str, int, bool] | None] = []  # per open container: the key awaiting its value
        names: list[str] = []  # per open container: its key, or "*" for an array item
        raw: Node | None = None  # the RAW value being skipped, open at level `raw_level`
        raw_level = 0
        expect_key = False
        while True:
            if expect_key:  # inside an object, at a key
                if text[i : i + 1] != '"':
                    if text[i : i + 1] == "}":  # after a comma (an empty object closed when it opened)
                        raise ScanError("invalid_json", "trailing comma in object", i)
                    raise ScanError("invalid_json", "object key expected (a double-quoted string)", i)
                key_start = i
                key, lone, i = self.string(i)
                i = _WS.match(text, i).end()  # type: ignore[union-attr]
                if text[i : i + 1] != ":":
                    raise ScanError("invalid_json", "':' expected after object key", i)
                keys[-1] = (key, key_start, lone)
                i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
                expect_key = False
            # a value at i
            c = text[i : i + 1]
            level = len(stack)
            if raw is not None:  # inside a value being skipped: check, build nothing
                if level == raw_level and raw.value is None:  # a member of the RAW object: a scalar?
                    member = keys[-1]
                    assert member is not None
                    if c == "{" or c == "[" or text.startswith("null", i):
                        raw.value = (member[0], i)
                    keys[-1] = None
                if c == "{" or c == "[":
                    if above + level + 1 > MAX_DEPTH:
                        raise ScanError("too_deep", f"nesting deeper than {MAX_DEPTH} levels", i)
                    j = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
                    if text[j : j + 1] == _CLOSE[c]:
                        i = j + 1
                    else:
                        stack.append(_SKIP_OBJ if c == "{" else _SKIP_ARR)
                        keys.append(None)
                        i = j
                        expect_key = c == "{"
                        continue
                else:
                    i = self.scalar(i, False)[1]
            elif c == "{" or c == "[":
                if above + level + 1 > MAX_DEPTH:
                    raise ScanError("too_deep", f"nesting deeper than {MAX_DEPTH} levels", i)
                name = "*" if level and stack[-1].kind == ARR else (keys[-1][0] if level else "")  # type: ignore[index]
                if (
                    c == "{"
                    and document
                    and level in _SKIP_LEVELS
                    and names[1] == "payload"
                    and (*names[2:], name) in SKIP_PATHS
                ):
                    container = Node(RAW, i, -1, None)
                    raw, raw_level = container, level + 1
                else:
                    # Only the outermost container and RAW values keep their span: a position is
                    # a 32-byte int, and the decoder finds the others in the text when it refuses.
                    container = Node(OBJ if c == "{" else ARR, -1 if stack else i, -1, [])
                self.attach(container, stack, keys)
                if root is None:
                    root = container
                j = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
                if text[j : j + 1] == _CLOSE[c]:
                    i = j + 1
                    if container is raw or not stack:
                        container.end = i
                    raw = None
                else:
                    stack.append(container)
                    keys.append(None)
                    names.append(name)
                    i = j
                    expect_key = c == "{"
                    continue
            else:
                value, end = self.scalar(i, True)
                if stack:
                    self.attach(value, stack, keys)
                else:  # the whole text is a scalar
                    root = value if type(value) is Node else Node(kind_of(value), i, end, value)
                i = end
            # after a value: close containers, or move to the next member/item
            while True:
                if not stack:
                    assert root is not None
                    if not document:
                        return root
                    i = _WS.match(text, i).end()  # type: ignore[union-attr]
                    if i != n:
                        raise ScanError("trailing_data", "data after the message object", i)
                    return root
                i = _WS.match(text, i).end()  # type: ignore[union-attr]
                c = text[i : i + 1]
                top = stack[-1]
                in_object = top.kind != ARR  # OBJ, or a RAW object being skipped
                closing = "}" if in_object else "]"
                if c == ",":
                    i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
                    if in_object:
                        expect_key = True
                    elif text[i : i + 1] == "]":
                        raise ScanError("invalid_json", "trailing comma in array", i)
                    break
                if c == closing:
                    i += 1
                    stack.pop()
                    keys.pop()
                    if raw is None or top is raw:
                        if top is raw or not stack:
                            top.end = i
                        raw = None
                        names.pop()
                    continue
                what = "',' or '}'" if in_object else "',' or ']'"
                raise ScanError("invalid_json", f"{what} expected in {'object' if in_object else 'array'}", i)

    def attach(self, value: object, stack: list[Node], keys: list[tuple[str, int, bool] | None]) -> None:
        """Append `value` (a `Node` or a plain scalar) to the open container."""
        if not stack:
            return
        parent = stack[-1]
        members: list[object] = parent.value  # type: ignore[assignment]
        if parent.kind == OBJ:
            key = keys[-1]
            assert key is not None
            members.append(Node(STR, key[1], -1, key[0], True) if key[2] else key[0])
            members.append(value)
            keys[-1] = None
        else:
            members.append(value)

    def scalar(self, i: int, build: bool) -> tuple[object, int]:
        """The scalar at `i` (its plain value, or a `Node` for a string escaping a lone
        surrogate or a number beyond the double range; None when not `build`ing) and its end."""
        text = self.text
        c = text[i : i + 1]
        if c == '"':
            if not build:
                m = _STR.match(text, i)
                if m is None:
                    raise _string_error(text, i)
                return None, m.end()
            s, lone, end = self.string(i)
            return (Node(STR, i, end, s, True) if lone else s), end
        if c == "-" or "0" <= c <= "9":
            m = _NUM.match(text, i)
            if m is None:
                raise ScanError("invalid_json", "invalid number", i)
            end = m.end()
            nxt = text[end : end + 1]
            # what belongs to the number token: digits, . e E + - and ASCII letters only (section 1.3)
            if nxt and (nxt in "0123456789.eE+-" or (nxt.isascii() and nxt.isalpha())):
                what = "leading zero" if text[i:end].lstrip("-") == "0" and nxt.isdigit() else "invalid number"
                raise ScanError("invalid_json", what, i)
            if not build:
                return None, end
            spelling = text[i:end]
            value = number(spelling)
            return (Node(NUM, i, end, spelling) if value is None else value), end
        for word, val in (("true", True), ("false", False), ("null", None)):
            if text.startswith(word, i):
                return val, i + len(word)
        if not c:
            raise ScanError("invalid_json", "unexpected end of line", i)
        for word in ("NaN", "Infinity", "-Infinity"):
            if text.startswith(word, i):
                raise ScanError("invalid_json", f"{word} is not JSON", i)
        if c in "]}":
            raise ScanError("invalid_json", "a value expected", i)
        raise ScanError("invalid_json", f"unexpected character {c!r}", i)

    def string(self, i: int) -> tuple[str, bool, int]:
        """The string at `i`: its value (short ones interned), whether it escapes a lone
        surrogate, and its end."""
        m = _STR.match(self.text, i)
        if m is None:
            raise _string_error(self.text, i)
        body = m.group(1)
        lone = False
        if "\\" in body:
            body, lone = _unescape(body)
        if len(body) <= INTERN_LEN:
            seen = self.interned.get(body)
            if seen is not None:
                body = seen
            elif len(self.interned) < INTERN_CAP:
                self.interned[body] = body
        return body, lone, m.end()


def scan(text: str) -> Node:
    """Parse one JSON text strictly (RFC 8259 grammar) into a position-aware tree, with the
    objects at `SKIP_PATHS` checked but kept as RAW spans."""
    return Scanner(text).document()


def expand(text: str, node: Node, above: int) -> None:
    """Turn a RAW node of `scan(text)`, nested in `above` containers, into the OBJ tree it
    spans (in place: the tree keeps pointing at it)."""
    full = Scanner(text).parse(node.start, above, False)
    node.kind, node.value = full.kind, full.value
