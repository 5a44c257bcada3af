"""Every file of the corpus, by path: sessions laid out as traces, streams and captures."""

from __future__ import annotations

from typing import Any

from .compaction_sessions import compaction_session, no_tools_session
from .crash_and_split_sessions import crash_session, split_text_session, split_tool_output_session
from .js_json import record
from .newest_sessions import model_switch_session, newest_session
from .release_sessions import legacy_0_1_1, legacy_0_2_0, legacy_0_2_4, legacy_source_benchmark, newer_producer
from .session import Session
from .sse_capture import amsp_capture, sse_capture
from .subagent_sessions import subagent_sessions
from .turn_sessions import abort_session, hooks_session, plain_turn, retries_session, tools_session

# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------


def lines(items: list[Any]) -> bytes:
    out = bytearray()
    for item in items:
        out += item[1] if isinstance(item, tuple) else record(item)
    return bytes(out)


def trace_files(s: Session, date: str) -> dict[str, bytes]:
    return {f"{date}/{s.sid}_{i:03d}.jsonl": lines(f) for i, f in enumerate(s.files, 1)}


def corpus() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    plain = plain_turn()
    files["plain-turn.trace.jsonl"] = lines(plain.files[0])
    files["plain-turn.stream.jsonl"] = lines(plain.stream)
    tools = tools_session()
    files["tools-approvals.trace.jsonl"] = lines(tools.files[0])
    files["tools-approvals.stream.jsonl"] = lines(tools.stream)
    retries = retries_session()
    files["retries.trace.jsonl"] = lines(retries.files[0])
    files["retries.stream.jsonl"] = lines(retries.stream)
    abort = abort_session()
    files["abort.trace.jsonl"] = lines(abort.files[0])
    files["abort.stream.jsonl"] = lines(abort.stream)
    hooks = hooks_session()
    files["hooks.trace.jsonl"] = lines(hooks.files[0])
    files["hooks.stream.jsonl"] = lines(hooks.stream)
    comp = compaction_session()
    for name, data in trace_files(comp, "2026-09-14").items():
        files[f"compaction-rotation/{name}"] = data
    files["compaction.stream.jsonl"] = lines(comp.stream)
    for name, data in trace_files(no_tools_session(), "2026-09-14").items():
        files[f"rotation-no-tools/{name}"] = data
    parent, child, grandchild = subagent_sessions()
    files["subagent.stream.jsonl"] = lines(parent.stream)
    for sess in (parent, child, grandchild):
        for name, data in trace_files(sess, "2026-09-14").items():
            files[f"subagent-traces/{name}"] = data
    files["crash-healed.trace.jsonl"] = lines(crash_session().files[0])
    files["split-surrogates-tool-output.stream.jsonl"] = lines(split_tool_output_session().stream)
    files["split-surrogates-text.stream.jsonl"] = lines(split_text_session().stream)
    files["session-channel.sse"] = sse_capture()
    for name, data in trace_files(legacy_0_1_1(), "2026-07-22").items():
        files[f"legacy-0.1.1/{name}"] = data
    for name, data in trace_files(legacy_0_2_0(), "2026-08-03").items():
        files[f"legacy-0.2.0/{name}"] = data
    for name, data in trace_files(legacy_0_2_4(), "2026-08-22").items():
        files[f"legacy-0.2.4/{name}"] = data
    files["legacy-source-benchmark.trace.jsonl"] = lines(legacy_source_benchmark().files[0])
    files["newer-producer.trace.jsonl"] = lines(newer_producer().files[0])
    newest = newest_session()
    for name, data in trace_files(newest, "2026-10-12").items():
        files[f"newest-rotation/{name}"] = data
    files["newest.stream.jsonl"] = lines(newest.stream)
    switch = model_switch_session()
    for name, data in trace_files(switch, "2026-10-12").items():
        files[f"newest-model-switch/{name}"] = data
    files["newest-model-switch.stream.jsonl"] = lines(switch.stream)
    files["newest-amsp-v1.sse"] = amsp_capture()
    return files
