"""`omnimessage.restore` and `omnimessage restore`: a session's model context from its trace.

Every expected context below is worked out by hand from the reference's replay (PenguinHarness
`packages/core/src/trace/resume.ts`, `resumeTrace`; file choice `findLatestTraceFile`; meta and
errors `Agent.resumeSession` in `packages/core/src/agent.ts`), on the producer corpus
(`conformance/producers/`), with the reason written next to it. Numbers are 1-based line numbers
of the newest trace file; `None` is the reference's pairing placeholder. The legacy sessions'
expectations (legacy-0.1.1, legacy-0.2.0, legacy-source-benchmark) were also checked by running the
reference's own `resumeTrace` (resume.ts and its omnimessage/ imports compiled from the mirror into
/tmp, never committed): all 18 corpus sessions agree byte for byte, placeholder timestamps aside.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

import omnimessage as om
from omnimessage.model_context.replay import PLACEHOLDER_OUTPUT

PRODUCERS = ROOT / "conformance" / "producers"

# trace roots of the corpus: (root, session id, expected history, expected carry-over, why)
ROOTS = [
    ("newest-model-switch", "session-2026-10-12-11-30-02-9c41d7e0", [3, 4, 6], [],
     "a model switch rotates: only _002 is read; the summary (3) and the input (4) are the input of "
     "the request 5..8, which completes with the output 6"),
    ("newest-rotation", "session-2026-10-12-10-04-31-5be07a3c", [5, 6, 8], [],
     "after a compaction only _002 counts: summary and prompt, then the committed answer"),
    ("rotation-no-tools", "session-2026-09-14-17-45-09-7d21f08a", [2, 4], [],
     "a discard compaction: _002 opens with session_meta alone, then one committed turn"),
    ("legacy-0.2.4", "session-2026-08-22-09-15-48-f03b7c2a", [], [3, 4],
     "the only request of _002 ends aborted: its input (summary 3, prompt 4) is carry-over, its "
     "partial answer 6 is lost"),
    ("legacy-0.1.1", "session-2026-07-22-15-04-10-2ab94c7e", [2, 3, 5], [9],
     "a legacy meta (`tools`, `thinking_level`) read as its successor: the request 4..8 commits the "
     "summary 2, the prompt 3 and the call 5; the output 9 lands after it and is the input of the "
     "aborted request 10..12 (its partial text 11 is lost): carry-over, it answers the committed call"),
    ("legacy-0.2.0", "session-2026-08-03-18-44-02-6c0f1a93", [], [2, 3],
     "a legacy meta; the only request ends with the retired status `auth` (read as `fatal`, never "
     "`completed`): its input, summary 2 and prompt 3, is carry-over"),
    ("subagent-traces", "session-2026-09-14-18-20-33-e2b7a4c9", [2, 5, 6, 11, 13], [],
     "the parent: its `subagent` pointer event is no message; the child's work is in its own trace"),
    ("subagent-traces", "session-2026-09-14-18-20-35-41fe0c8b", [2, 5, 10, 12], [],
     "a child restored by its own session id, from the same trace root"),
]

# single trace files of the corpus, put into a trace root as `_001`
FILES = [
    ("plain-turn", [2, 5, 6], [], "one committed turn: input, thinking, text"),
    ("tools-approvals", [2, 5, 6, 7, 9, 11, 15, 12, 14, 17, 20, 22], [],
     "outputs 12, 14, 17 land inside the first request and 20 after it: all four are the second "
     "request's input (user-side messages count toward the next request), after the first "
     "request's calls"),
    ("retries", [2, 10], [13],
     "two retryable ends drop their turns (the partial text 5 is lost, the input 2 is resent); the "
     "third completes; the fatal end of the last request leaves its input 13 as carry-over"),
    ("abort", [2, 8, 12, 14, 18, 20, 22], [24],
     "the aborted and retryable turns put their input back (2, 8 are resent with 12); the aborted "
     "compaction drops its prompt 28, keeps the tool output 24 that landed in its span (it answers "
     "the committed call 22) as carry-over; the last record is `abort`, so no closure"),
    ("legacy-source-benchmark", [2, 5], [],
     "a meta with the retired `source: \"benchmark\"` (read as `cli`): one committed turn, input 2 "
     "and answer 5; the `tool_list_ready` event 3 is no message"),
    ("crash-healed", [2, 5, None, 10, 13, 17, 19], [],
     "the output of call 5 was torn by the crash (line 9, skipped): the request 12..15 commits with "
     "the call unanswered, so the reference puts a placeholder before that request's input 10; "
     "the blank line 16 is a spurious heal, skipped"),
]


def file_root(tmp_path: Path, name: str) -> tuple[Path, str]:
    src = PRODUCERS / f"{name}.trace.jsonl"
    sid = json.loads(src.read_bytes().split(b"\n", 1)[0])["payload"]["session_id"]
    (tmp_path / "2026-09-14").mkdir(parents=True)
    shutil.copy(src, tmp_path / "2026-09-14" / f"{sid}_001.jsonl")
    return tmp_path, sid


def check(ctx: om.Restored, history: list[int | None], carry: list[int]) -> None:
    assert [m.line for m in ctx.history] == history
    assert [m.line for m in ctx.carry_over] == carry
    lines = Path(ctx.path).read_bytes().split(b"\n")
    for item in ctx.messages:
        if item.line is not None:  # byte for byte the trace's line, fidelity included
            assert item.raw == lines[item.line - 1] and item.path == ctx.path
            assert om.encode(item.message) == item.raw
    assert ctx.meta.raw == lines[ctx.meta.line - 1] and ctx.config.session_id == ctx.session_id


@pytest.mark.parametrize(("root", "sid", "history", "carry", "why"), ROOTS, ids=[f"{r[0]}-{r[1][-8:]}" for r in ROOTS])
def test_corpus_roots(root: str, sid: str, history: list[int | None], carry: list[int], why: str) -> None:
    ctx = om.restore(PRODUCERS / root, sid)
    assert not ctx.context_closed and ctx.skipped == (), why
    check(ctx, history, carry)
    newest = sorted((PRODUCERS / root).rglob(f"{sid}_*.jsonl"))[-1]
    assert ctx.path == str(newest)


def test_model_switch_config_is_the_new_model() -> None:
    """The newest file's session_meta is the configuration: the switch went deepseek -> anthropic."""
    ctx = om.restore(PRODUCERS / "newest-model-switch", "session-2026-10-12-11-30-02-9c41d7e0")
    assert (ctx.config.provider, ctx.config.model_id) == ("anthropic", "claude-opus-5")
    assert ctx.meta.line == 1


@pytest.mark.parametrize(("name", "history", "carry", "why"), FILES, ids=[f[0] for f in FILES])
def test_corpus_files(tmp_path: Path, name: str, history: list[int | None], carry: list[int], why: str) -> None:
    root, sid = file_root(tmp_path, name)
    ctx = om.restore(root, sid)
    assert not ctx.context_closed, why
    check(ctx, history, carry)
    assert ctx.skipped == ((9, 16) if name == "crash-healed" else ())


def test_placeholder_is_the_references() -> None:
    """The crash-healed placeholder: the reference's text, `aborted`, the unanswered call's id, and the
    timestamp of the `request_end` that committed past it (line 15)."""
    root = PRODUCERS / "crash-healed.trace.jsonl"
    lines = root.read_bytes().split(b"\n")
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        r, sid = file_root(Path(d), "crash-healed")
        (item,) = [m for m in om.restore(r, sid).messages if m.line is None]
    msg = om.decode(item.raw)
    assert isinstance(msg, om.ModelMessage) and isinstance(msg.payload, om.ToolCallOutputPayload)
    assert msg.payload.output == PLACEHOLDER_OUTPUT and msg.payload.stop_reason == "aborted"
    assert msg.payload.tool_call_id == json.loads(lines[4])["payload"]["tool_call_id"]
    assert msg.timestamp == json.loads(lines[14])["timestamp"]


def test_compaction_closure() -> None:
    """compaction-rotation's _002 ends with a completed summarize compaction_end and no _003: the
    reference resumes an empty context (contextClosed) and writes the next one's summary from the
    last completed request's assistant text (line 20)."""
    ctx = om.restore(PRODUCERS / "compaction-rotation", "session-2026-09-14-16-12-40-0c9d2b6e")
    assert ctx.context_closed and ctx.messages == () and ctx.path.endswith("_002.jsonl")
    assert [m.line for m in ctx.summary_from] == [20]


def test_void_closure_replays(tmp_path: Path) -> None:
    """A completed summarize compaction whose output holds no summary voids the closure (pre-#83
    traces): the file is replayed, the compaction turn committed like any other."""
    src = (PRODUCERS / "compaction-rotation").rglob("*_002.jsonl")
    (f,) = list(src)
    lines = f.read_bytes().split(b"\n")
    lines[19] = lines[19].replace(b"[summary]\\nparseTide fixed for #41/#44; stations table not checked yet.\\n"
                                  b"[/summary]", b"[summary] [/summary]")
    day = tmp_path / "2026-09-14"
    day.mkdir()
    (day / f.name).write_bytes(b"\n".join(lines))
    ctx = om.restore(tmp_path, f.name.rsplit("_", 1)[0])
    assert not ctx.context_closed
    assert [m.line for m in ctx.history] == [5, 6, 8, 10, 14, 18, 20]


# -- hostile inputs -------------------------------------------------------------------------------

def meta_line(sid: str, **change: object) -> bytes:
    payload = {"session_id": sid, "provider": "p", "model_id": "m", "model_context_window": 1000,
               "system_prompt": "s", "agent_state": "/a", "workspace": "/w", **change}
    return json.dumps({"timestamp": "2026-09-14T00:00:00.000Z", "type": "session_meta", "payload": payload},
                      separators=(",", ":")).encode()


USER = b'{"timestamp":"2026-09-14T00:00:01.000Z","type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}'
SID = "session-2026-09-14-00-00-00-00000000"


def write_root(tmp_path: Path, *lines: bytes, index: str = "001", day: str = "2026-09-14") -> Path:
    (tmp_path / day).mkdir(parents=True, exist_ok=True)
    (tmp_path / day / f"{SID}_{index}.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
    return tmp_path


def refused(root: Path, line: int | None, pattern: str, **kw: int) -> None:
    with pytest.raises(om.RestoreError) as exc:
        om.restore(root, SID, **kw)
    assert exc.value.line == line and re.search(pattern, exc.value.detail), str(exc.value)
    if line is not None:
        assert str(exc.value).startswith(f"{exc.value.path}:{line}: ")


def test_missing_session(tmp_path: Path) -> None:
    write_root(tmp_path, meta_line(SID), USER)
    with pytest.raises(om.RestoreError, match="no trace file of session 'nope'"):
        om.restore(tmp_path, "nope")
    with pytest.raises(FileNotFoundError):
        om.restore(tmp_path / "absent", SID)


def test_spliced_line_mid_file_is_an_error(tmp_path: Path) -> None:
    """Two records spliced into one line (what concurrent writers leave) is no crash heal: the
    reference would skip it and resume a shorter context; restore refuses, naming the line."""
    refused(write_root(tmp_path, meta_line(SID), USER[:50] + USER, USER), 2, "invalid_json")


def test_torn_tail_and_heal_are_skipped(tmp_path: Path) -> None:
    root = write_root(tmp_path, meta_line(SID), USER[:40], USER)
    (root / "2026-09-14" / f"{SID}_001.jsonl").open("ab").write(USER[:30])  # a torn last line, no LF
    ctx = om.restore(root, SID)
    assert ctx.skipped == (2, 4) and [m.line for m in ctx.carry_over] == [3]


def test_bad_session_meta(tmp_path: Path) -> None:
    refused(write_root(tmp_path, meta_line(SID, provider=7), USER), 1, "provider|schema|type")


def test_no_session_meta(tmp_path: Path) -> None:
    refused(write_root(tmp_path, USER), None, "no session_meta")


def test_foreign_session_meta(tmp_path: Path) -> None:
    refused(write_root(tmp_path, meta_line("session-other"), USER), 1, "names session 'session-other'")


def test_two_newest_files(tmp_path: Path) -> None:
    write_root(tmp_path, meta_line(SID), USER, index="002")
    refused(write_root(tmp_path, meta_line(SID), USER, index="002", day="2026-09-15"), None, "highest index 002")


def test_caps(tmp_path: Path) -> None:
    root = write_root(tmp_path, meta_line(SID), USER, USER)
    refused(root, 3, "exceeds", max_context_bytes=len(USER) + 1)
    long_user = USER.replace(b'"hi"', b'"' + b"h" * 500 + b'"')
    refused(write_root(tmp_path, meta_line(SID), long_user), 2, "too_large", max_line_bytes=len(meta_line(SID)) + 1)


def test_newer_versions_lenient(tmp_path: Path) -> None:
    """Lenient reading keeps records of a newer protocol version: an opaque request event still
    drives the replay, an opaque model message with a role is context byte for byte; one without a
    role, or an opaque session_meta, cannot be placed and is an error."""
    newer_event = b'{"timestamp":"2026-09-14T00:00:01.000Z","type":"event_msg","payload":{"type":"brand_new"}}'
    newer_model = b'{"timestamp":"2026-09-14T00:00:01.000Z","type":"model_msg","payload":{"type":"hologram","role":"user"}}'
    no_role = b'{"timestamp":"2026-09-14T00:00:01.000Z","type":"model_msg","payload":{"type":"hologram"}}'
    ctx = om.restore(write_root(tmp_path, meta_line(SID), newer_event, newer_model, USER), SID, lenient=True)
    assert [(m.line, m.raw) for m in ctx.messages] == [(3, newer_model), (4, USER)]
    with pytest.raises(om.RestoreError, match=":2: unknown_type"):
        om.restore(tmp_path, SID)  # strict: a newer record is an error
    refused(write_root(tmp_path, meta_line(SID), no_role, USER), 2, "model_msg this protocol version cannot read", lenient=True)
    refused(write_root(tmp_path, meta_line(SID, new_field=1), USER), 1, "session_meta this protocol version cannot read", lenient=True)


LEGACY = [("legacy-0.1.1", "session-2026-07-22-15-04-10-2ab94c7e", (1,)),
          ("legacy-0.2.0", "session-2026-08-03-18-44-02-6c0f1a93", (1, 5))]


@pytest.mark.parametrize(("root", "sid", "retired"), LEGACY, ids=[r[0] for r in LEGACY])
def test_legacy_meta_config(root: str, sid: str, retired: tuple[int, ...]) -> None:
    """Releases up to 0.2.0 wrote `tools` and `thinking_level` in session_meta: the configuration is
    the meta's successor without them (`Agent.resumeSession` ignores both: tools come from the
    current agent state, the thinking level from the current configuration), the rest as written.
    The meta's and the `auth` request_end's lines (legacy-0.2.0 line 5) are listed as retired."""
    for lenient in (False, True):
        ctx = om.restore(PRODUCERS / root, sid, lenient=lenient)
        assert ctx.retired == retired
        written = json.loads(ctx.meta.raw)["payload"]
        assert "tools" in written
        kept = {k: v for k, v in written.items() if k not in ("tools", "thinking_level")}
        assert json.loads(om.encode(ctx.meta.message))["payload"] == kept
        assert (ctx.config.provider, ctx.config.model_id, ctx.config.workspace) == (
            written["provider"], written["model_id"], written["workspace"])


def test_legacy_source_benchmark_config(tmp_path: Path) -> None:
    """`source: "benchmark"` reads as `cli`; the reference carries over only `subagent` and
    `schedule`, so a resumed session has no origin either way."""
    root, sid = file_root(tmp_path, "legacy-source-benchmark")
    ctx = om.restore(root, sid)
    assert ctx.config.source == "cli" and b'"source":"benchmark"' in ctx.meta.raw and ctx.retired == (1,)


_CALL = (b'{"timestamp":"2026-09-14T00:00:02.000Z","type":"model_msg","payload":{"type":"tool_call",'
        b'"role":"assistant","name":"f","arguments":"{}","tool_call_id":"c1","stop_reason":"completed"}}')
_OUT = (b'{"timestamp":"2026-09-14T00:00:03.000Z","type":"model_msg","payload":{"type":"tool_call_output",'
       b'"role":"user","output":"no","tool_call_id":"c1","stop_reason":"failed"}}')
_BEGIN = b'{"timestamp":"2026-09-14T00:00:02.000Z","type":"event_msg","payload":{"type":"request_begin"}}'
_END = b'{"timestamp":"2026-09-14T00:00:02.000Z","type":"event_msg","payload":{"type":"request_end","status":"%s"%s}}'
_GOAL = (b'{"timestamp":"2026-09-14T00:00:04.000Z","type":"event_msg","payload":{"type":"goal_finished",'
        b'"outcome":"complete","rounds":1,"tokens_used":5}}')
_MCP = (b'{"timestamp":"2026-09-14T00:00:00.500Z","type":"event_msg","payload":{"type":"mcp_connect_end",'
       b'"status":"failed","results":[{"server":"s","transport":"http","status":"failed","duration_ms":3,'
       b'"error":"down"}]}}')
RETIRED = (meta_line(SID, tools=[], thinking_level="high"), _MCP, USER, _BEGIN, _CALL, _END % (b"completed", b""), _OUT,
           _BEGIN, _END % (b"auth", b',"message":"401"'), _GOAL)
"""A trace root's lines in retired spellings (meta, MCP result, a tool output's stop reason, request status and
message, goal_finished)."""


def test_retired_spellings_in_context(tmp_path: Path) -> None:
    """Retired spellings past the meta: a model message keeps its bytes (`raw`) and reads as its
    successor (`message`: `failed` -> `fatal`); a retired request status is no commit; a
    `goal_finished` event has no successor and is passed over; an MCP `error` moves to
    `error_message`. A retired meta that also holds a newer field is still refused."""
    ctx = om.restore(write_root(tmp_path, *RETIRED), SID)
    assert [m.line for m in ctx.history] == [3, 5] and [m.line for m in ctx.carry_over] == [7]
    assert ctx.retired == (1, 2, 7, 9, 10)
    (item,) = ctx.carry_over
    assert item.raw == _OUT and isinstance(item.message, om.ModelMessage)
    assert isinstance(item.message.payload, om.ToolCallOutputPayload) and item.message.payload.stop_reason == "fatal"
    refused(write_root(tmp_path, meta_line(SID, tools=[], new_field=1), USER), 1,
            "session_meta this protocol version cannot read", lenient=True)
    refused(write_root(tmp_path, meta_line(SID, tools=[], new_field=1), USER), 1, "unexpected_field")


def test_newer_producer_lenient(tmp_path: Path) -> None:
    """newer-producer.trace.jsonl: its request events carry fields this version does not know
    (opaque under --lenient); they still delimit the two committed turns."""
    root, sid = file_root(tmp_path, "newer-producer")
    ctx = om.restore(root, sid, lenient=True)
    check(ctx, [2, 5, 9, 11], [])


# -- command line ---------------------------------------------------------------------------------

def run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "omnimessage", "restore", *args], capture_output=True,
                          timeout=120, check=False)


def test_cli_prints_exact_bytes(tmp_path: Path) -> None:
    root, sid = file_root(tmp_path, "crash-healed")
    ctx = om.restore(root, sid)
    r = run(str(root), sid)
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"".join(m.raw + b"\n" for m in ctx.messages)
    assert r.stderr.count(b"skipped") == 2 and b"placeholder" in r.stderr


def test_cli_closed_context() -> None:
    r = run(str(PRODUCERS / "compaction-rotation"), "session-2026-09-14-16-12-40-0c9d2b6e")
    assert r.returncode == 0 and r.stdout == b"" and b"closed by a completed compaction" in r.stderr


def test_cli_error_is_one_sanitised_line(tmp_path: Path) -> None:
    root = tmp_path / "evil\x1b]0;x\x07"
    root.mkdir()
    write_root(root, USER[:50] + USER)
    r = run(str(root), SID)
    assert r.returncode == 1 and r.stdout == b""
    assert r.stderr.count(b"\n") == 1 and b"\x1b" not in r.stderr and b"\x07" not in r.stderr
    assert re.search(rb"_001\.jsonl:1: invalid_json", r.stderr), r.stderr


def test_cli_help_lists_restore() -> None:
    r = subprocess.run([sys.executable, "-m", "omnimessage", "--help"], capture_output=True, timeout=120, check=False)
    assert b"restore" in r.stdout


# -- docs/model.md ---------------------------------------------------------------------------------

DOC = ROOT / "docs" / "model.md"


def doc_block(lang: str, section: str = "Restore") -> str:
    """The one `lang` block of the page's `## section`."""
    text = DOC.read_text(encoding="utf-8").split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(rf"^```{lang}\n(.*?)^```$", text, re.S | re.M)
    return block


def test_docs_python_block_prints_what_the_page_says() -> None:
    r = subprocess.run([sys.executable, "-c", doc_block("python")], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout == doc_block("text")


def test_docs_sh_block_prints_the_context() -> None:
    exe = str(Path(sys.executable).parent)
    r = subprocess.run(["sh", "-c", doc_block("sh")], cwd=ROOT, capture_output=True, timeout=120, check=False,
                       env={"PATH": f"{exe}:/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    ctx = om.restore(PRODUCERS / "newest-model-switch", "session-2026-10-12-11-30-02-9c41d7e0")
    assert r.stdout == b"".join(m.raw + b"\n" for m in ctx.messages) and len(ctx.messages) == 3


def test_orphan_tool_outputs_are_dropped(tmp_path: Path) -> None:
    """A tool output whose call was in a dropped turn would be an orphan tool_result: the reference
    filters it out of the next committed input (line 6) and out of the carry-over (line 10);
    the user input of the dropped turn (2) is resent."""
    ts = '"timestamp":"2026-09-14T00:00:0{}.000Z"'

    def rec(n: int, kind: str, payload: str) -> bytes:
        return ("{" + ts.format(n) + f',"type":"{kind}","payload":{{{payload}}}}}').encode()

    call = '"type":"tool_call","role":"assistant","name":"f","arguments":"{}","tool_call_id":"c1","stop_reason":"completed"'
    out = '"type":"tool_call_output","role":"user","output":"o","tool_call_id":"c1"'
    root = write_root(
        tmp_path, meta_line(SID), USER, rec(2, "event_msg", '"type":"request_begin"'), rec(3, "model_msg", call),
        rec(4, "event_msg", '"type":"request_end","status":"aborted"'), rec(5, "model_msg", out),
        rec(6, "event_msg", '"type":"request_begin"'),
        rec(7, "model_msg", '"type":"text","role":"assistant","text":"a"'),
        rec(8, "event_msg", '"type":"request_end","status":"completed"'), rec(9, "model_msg", out))
    ctx = om.restore(root, SID)
    assert [m.line for m in ctx.history] == [2, 8] and ctx.carry_over == ()
