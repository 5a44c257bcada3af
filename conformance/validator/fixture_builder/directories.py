# ruff: noqa: E501  (fixture descriptions are long literals)
"""OM8xx: trace roots, `<yyyy-mm-dd>/<session_id>_<NNN>.jsonl` (a fixture is a directory)."""

from __future__ import annotations

from .fixture import FIXTURES, Fx


class Dir(Fx):
    """A trace root: files by relative path."""

    def __init__(self, rule: str, name: str, about: str) -> None:
        super().__init__(rule, name, "trace", about)
        self.files: dict[str, list[bytes]] = {}
        self.links: dict[str, str] = {}
        """Symbolic links by relative path: their target (OM806: never followed under a root)."""
        self.current: Fx | None = None

    def file(self, rel: str) -> Fx:
        """A file; its clock goes on from the previous file's (rotated files follow each other)."""
        if self.current is not None:
            self.ms = self.current.ms
        f = self.current = Fx(self.rule, rel, "trace", "")
        f.ms = self.ms
        self.files[rel] = f.lines
        return f


def dfx(rule: str, name: str, about: str) -> Dir:
    d = Dir(rule, name, about)
    FIXTURES.append(d)
    return d


def session_file(d: Dir, rel: str, sid: str = "sess-a", *, rotated: bool = False) -> Fx:
    f = d.file(rel)
    f.meta(sid=sid)
    f.tools()
    f.turn(f"toolu_{rel.replace('/', '_')}")  # call ids stay unique across a session's files
    return f


def declare() -> None:
    """Declare the OM8xx fixtures."""
    d = dfx("OM801", "pass-laid-out", "every file under <yyyy-mm-dd>/<session_id>_<NNN>.jsonl")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    d = dfx("OM801", "fail-stray-file", "a .jsonl file outside the layout")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    session_file(d, "notes/sess-b.jsonl", "sess-b")
    d.expect("OM801", 0, path="notes/sess-b.jsonl")

    d = dfx("OM802", "pass-contiguous", "indexes 001, 002, 003")
    for i in (1, 2, 3):
        session_file(d, f"2026-07-18/sess-a_{i:03d}.jsonl")
    d = dfx("OM802", "fail-gap", "index 002 is missing")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    session_file(d, "2026-07-18/sess-a_003.jsonl")
    d.expect("OM802", 0, path="2026-07-18/sess-a_003.jsonl")
    d = dfx("OM802", "fail-duplicate-index", "index 001 in two date directories")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    session_file(d, "2026-07-19/sess-a_001.jsonl")
    d.expect("OM802", 0, path="2026-07-19/sess-a_001.jsonl")

    d = dfx("OM803", "pass-rotated-opening", "the rotated file opens with session_meta then tool_list_ready")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    session_file(d, "2026-07-18/sess-a_002.jsonl")
    d = dfx("OM803", "pass-rotated-with-mcp", "the newest head: session_meta, the new context's MCP connect pair, then "
            "tool_list_ready; releases up to 0.2.4 rewrite the first file's messages with their old timestamps")
    f = session_file(d, "2026-07-18/sess-a_001.jsonl")
    old_meta, old_tools = f.lines[0], f.lines[1]
    f = d.file("2026-07-18/sess-a_002.jsonl")
    f.raw(old_meta)
    f.ev({"type": "mcp_connect_begin", "servers": ["fs"]})
    f.ev({"type": "mcp_connect_end", "status": "completed", "results": [
        {"server": "fs", "transport": "stdio", "status": "completed", "duration_ms": 41}]})
    f.raw(old_tools)
    f.user("[context_summary] earlier we read a.txt")
    d = dfx("OM803", "pass-rotated-without-tools", "an agent without tools: a rotated file opens with session_meta alone")
    f = d.file("2026-07-18/sess-a_001.jsonl")
    f.meta(sid="sess-a")
    f.user()
    f.begin()
    f.say()
    f.usage()
    f.end()
    f = d.file("2026-07-18/sess-a_002.jsonl")
    f.meta(sid="sess-a")
    f.user("[context_summary] we said hello")
    d = dfx("OM803", "fail-rotated-without-tool-list", "a session with tools: its rotated file goes on without "
            "announcing them again")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    f = d.file("2026-07-18/sess-a_002.jsonl")
    f.meta(sid="sess-a")
    n = f.user()
    d.expect("OM803", n, path="2026-07-18/sess-a_002.jsonl")
    d = dfx("OM803", "fail-rotated-file-ends-in-its-head", "a session with tools: its rotated file holds only its "
            "session_meta and MCP connect pair")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    f = d.file("2026-07-18/sess-a_002.jsonl")
    f.meta(sid="sess-a")
    f.ev({"type": "mcp_connect_begin", "servers": ["fs"]})
    n = f.ev({"type": "mcp_connect_end", "status": "completed", "results": [
        {"server": "fs", "transport": "stdio", "status": "completed", "duration_ms": 41}]})
    d.expect("OM803", n, path="2026-07-18/sess-a_002.jsonl")

    d = dfx("OM804", "pass-names-match", "session_meta.session_id equals the file name's id")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    d = dfx("OM804", "fail-other-session-id", "the file of sess-a holds sess-b's session_meta")
    session_file(d, "2026-07-18/sess-a_001.jsonl", "sess-b")
    d.expect("OM804", 1, path="2026-07-18/sess-a_001.jsonl")

    d = dfx("OM805", "pass-child-present", "the subagent's trace is under the root")
    f = session_file(d, "2026-07-18/sess-a_001.jsonl")
    f.ev({"type": "subagent", "session_id": "sess-c"})
    session_file(d, "2026-07-18/sess-c_001.jsonl", "sess-c")
    d = dfx("OM805", "fail-child-missing", "the subagent's trace is not under the root")
    f = session_file(d, "2026-07-18/sess-a_001.jsonl")
    n = f.ev({"type": "subagent", "session_id": "sess-c"})
    d.expect("OM805", n, path="2026-07-18/sess-a_001.jsonl")

    d = dfx("OM806", "pass-regular-files", "regular files in real directories; names that are not .jsonl are ignored")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    d.links["2026-07-18/README"] = "sess-a_001.jsonl"
    d = dfx("OM806", "fail-symlinks", "a .jsonl symbolic link, even to a file inside the root: reported, not "
            "followed (links to directories, devices and FIFOs: python/tests/test_untrusted_files.py)")
    session_file(d, "2026-07-18/sess-a_001.jsonl")
    d.links["2026-07-18/sess-b_001.jsonl"] = "sess-a_001.jsonl"
    d.expect("OM806", 0, path="2026-07-18/sess-b_001.jsonl")
