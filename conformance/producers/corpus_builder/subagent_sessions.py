"""A parent, its child and its grandchild: origin chains on the stream, pointers in the traces."""

from __future__ import annotations

from .material import PROMPT, RUN_SUBAGENT, TOOLS, WORKSPACE
from .payloads import counts
from .session import Clock, Session


def subagent_sessions() -> tuple[Session, Session, Session]:
    """A parent spawns a child, which spawns a grandchild. Forwarded messages carry origin, each
    hop prepending its id; a child stream opens with the child's session_meta; each trace holds a
    `subagent` pointer to its direct child only; each child has its own trace."""
    clock = Clock("2026-09-14T10:20:33.015Z")
    p = Session("session-2026-09-14-18-20-33-e2b7a4c9", clock, provider="anthropic", model_id="claude-opus-5",
                window=1000000, system_prompt=PROMPT, workspace=WORKSPACE)
    p.write_meta()
    p.user_input("Have a helper audit the stations table while you look at the tide parser.", 2050)
    p.tool_list([*TOOLS, RUN_SUBAGENT], 30)
    p.begin(4)
    p.stream_text(["I'll hand the stations audit to a subagent."], gap=60)
    k = "toolu_01RsU8wHc5NpQ2kXz7LbTm4E"
    p.stream_tool_call("run_subagent", k, ['{"prompt":"Audit the stations table: ', 'list rows with no timezone."}'])
    p.approve(k, "allow", 9)
    p.output_start(k, 5)
    p.usage(counts(12032, 800, 61, 12893), 140)
    p.end(2)
    c = Session("session-2026-09-14-18-20-35-41fe0c8b", clock, provider="anthropic", model_id="claude-sonnet-5",
                window=1000000, system_prompt=PROMPT.replace("a software engineering agent", "a subagent"),
                workspace=WORKSPACE, source="subagent", meta_dt=180)
    p.adopt(c)
    c.write_meta()
    p.receive({**c.meta, "origin": [c.sid]})             # the handle yields the child's meta first
    c_input = c.user_input("Audit the stations table: list rows with no timezone.", 3, sender="parent_agent")
    p.receive({**c_input, "origin": [c.sid]})            # then the child's input, origin-tagged
    c.tool_list([*TOOLS, RUN_SUBAGENT], 24)
    c.begin(4)
    g = "toolu_01HkV4yNq7TcB2sWm9ReZf3D"
    c.stream_tool_call("run_subagent", g, ['{"prompt":"Run: SELECT id FROM stations ', 'WHERE tz IS NULL"}'])
    c.approve(g, "allow", 7)
    c.output_start(g, 5)
    c.usage(counts(10240, 1100, 44, 11384), 120)
    c.end(2)
    gg = Session("session-2026-09-14-18-20-36-9a03d5f2", clock, provider="anthropic", model_id="claude-haiku-5",
                 window=200000, system_prompt="You are a subagent. Answer tersely.\n", workspace=WORKSPACE,
                 source="subagent", meta_dt=150)
    c.adopt(gg)
    gg.write_meta()
    c.receive({**gg.meta, "origin": [gg.sid]})
    g_input = gg.user_input("Run: SELECT id FROM stations WHERE tz IS NULL", 2, sender="parent_agent")
    c.receive({**g_input, "origin": [gg.sid]})
    gg.tool_list(TOOLS, 20)
    gg.begin(3)
    gg.stream_text(["3 rows: ", "`KEL-04`, `KEL-09`, `PTH-12`."], gap=110)
    gg.usage(counts(0, 2900, 14, 2914), 90)
    gg.end(2)
    c.output_delta(g, "3 rows: `KEL-04`, `KEL-09`, `PTH-12`.", 3)
    c.output_end(g, "3 rows: `KEL-04`, `KEL-09`, `PTH-12`.", 2)   # a completed exit has no note
    c.begin(20)
    c.stream_text(["Stations without a timezone: KEL-04, KEL-09, PTH-12."], gap=80)
    c.usage(counts(11264, 300, 19, 11583), 100)
    c.end(2)
    p.output_delta(k, "Stations without a timezone: KEL-04, KEL-09, PTH-12.", 4)
    p.output_end(k, "Stations without a timezone: KEL-04, KEL-09, PTH-12.", 2)
    p.begin(25)
    p.stream_text(["The helper found three stations without a timezone: KEL-04, KEL-09 and PTH-12."], gap=70)
    p.usage(counts(12800, 290, 27, 13117), 110)
    p.end(2)
    return p, c, gg
