# ruff: noqa: RUF001  (long and non-ASCII data literals are the point of this corpus)
"""A crash-healed trace, and fragments cut inside surrogate pairs."""

from __future__ import annotations

from .js_json import record
from .material import TOOLS, new_session
from .payloads import chunks, counts, tool_output
from .session import Session


def crash_session() -> Session:
    """A crash while a large tool output was being appended leaves its first bytes, unterminated,
    mid-file; the resumed process prefixes its first record with a line feed. A later spurious
    heal leaves one blank line."""
    s = new_session("session-2026-09-14-19-03-27-b85e1c40", "2026-09-14T11:03:27.662Z")
    s.write_meta()
    s.user_input("Dump the station list as CSV.", 1800)
    s.tool_list(TOOLS, 28)
    s.begin(4)
    x = "toolu_01Gd2pLc8VnX5RqHt3MwZb6K"
    s.stream_tool_call("exec_command", x, ['{"cmd":"pnpm stations --csv"}'])
    s.approve(x, "allow", 8)
    s.usage(counts(10496, 256, 30, 10782), 150)
    s.end(2)
    rows = "".join(f"KEL-{n:02d},Kelpie Point {n},-45.{n:02d},170.{n:02d}\n" for n in range(1, 40))
    whole = record(s.msg("model_msg", tool_output("id,name,lat,lon\n" + rows, x), 8121))
    s.torn(whole[:731])                      # the process died mid-write: no line feed
    s.clock.tick(251000)                     # restart; the resumed Session appends again
    s.heal()
    s.user_input("The app crashed. Try again, but only the first ten rows.", 1)
    s.tool_list(TOOLS, 40)                   # a resumed Session's first run announces its toolset
    s.begin(5)
    s.stream_text(["Here are the first ten rows:\n\n", "KEL-01 … KEL-10 (Kelpie Point 1–10)."], gap=90)
    s.usage(counts(10782, 400, 24, 11206), 120)
    s.end(2)
    s.clock.tick(96000)
    s.heal()                                 # spurious: the file already ended with a line feed
    s.user_input("Thanks!", 1)
    s.begin(5)
    s.stream_text(["You're welcome."], gap=70)
    s.usage(counts(11206, 40, 6, 11290), 90)
    s.end(2)
    return s


def split_tool_output_session() -> Session:
    """Tool output cut at UTF-16 offsets: a delta ends with the high half of a pair and the next
    begins with the low half (JSON.stringify writes each lone half as \\udXXX); the complete
    output carries the joined, valid characters."""
    s = new_session("session-2026-09-14-20-11-52-6f4a9d13", "2026-09-14T12:11:52.207Z")
    s.begin(1200)
    t = "toolu_01Wm5bK8xQ2pNc7LhT4rVz9J"
    s.stream_tool_call("mcp__github__get_issue", t, ['{"owner":"mira","repo":"tidepool","number":41}'])
    s.approve(t, "allow", 6)
    body = "#41 HW rows dropped 🌊🐧\nReporter: 海野 🧭 — “HW rows vanish after the first”.\n"
    parts = chunks(body, 21, 3, 15)          # offsets 21 and 39 fall inside 🌊 and 🧭
    s.run_tool(t, parts, gap=15)
    s.usage(counts(9728, 200, 40, 9968), 100)
    s.end(2)
    return s


def split_text_session() -> Session:
    """Text and thinking deltas are forwarded verbatim from the LLM client; when an upstream cuts
    a JavaScript string inside a pair, the halves travel in consecutive deltas."""
    s = new_session("session-2026-09-14-20-40-03-d9c17be2", "2026-09-14T12:40:03.551Z",
                    provider="openrouter", model_id="z-ai/glm-5.3-flash", window=200000)
    s.begin(900)
    s.stream_thinking(chunks("Answer with the emoji 🌊 first, then 😀.", 23, 15), gap=50)
    s.stream_text(chunks("🌊 Tide is in. 😀", 1, 15), gap=60)
    s.usage(counts(0, 1900, 15, 1915), 90)
    s.end(2)
    return s


# -- legacy release shapes ---------------------------------------------------------------------
