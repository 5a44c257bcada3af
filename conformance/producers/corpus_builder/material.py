"""Material the sessions share: the prompt, tool definitions, signature, workspace, `new_session`."""

from __future__ import annotations

from typing import Any

from .session import Clock, Session

# ---------------------------------------------------------------------------------------------
# Shared material
# ---------------------------------------------------------------------------------------------

PROMPT = (
    "You are Penguin, a software engineering agent working in the user's Workspace.\n"
    "Workspace: /home/mira/work/tidepool — current date: 2026-09-14 (Monday).\n\n"
    "## Tools\nUse exec_command for shell work; read files before editing them.\n\n"
    "## Memory\n- user: prefers pnpm over npm\n- workspace: \"tidepool\" is a Vite + TypeScript app\n"
)

READ_FILE = {"name": "read_file",
             "description": "Read a text file (or an image) in the Workspace.",
             "parameters": {"type": "object",
                            "properties": {"path": {"type": "string", "description": "Path relative to the Workspace"},
                                           "offset": {"type": "integer", "minimum": 1},
                                           "limit": {"type": "integer", "minimum": 1}},
                            "required": ["path"]}}
EXEC_COMMAND = {"name": "exec_command",
                "description": "Run a shell command in the Workspace and return its output.",
                "parameters": {"type": "object",
                               "properties": {"cmd": {"type": "string"},
                                              "yield_time_ms": {"type": "integer", "minimum": 0}},
                               "required": ["cmd"]}}
EDIT_FILE = {"name": "edit_file", "description": "Replace an exact string in a file.",
             "parameters": {"type": "object",
                            "properties": {"path": {"type": "string"}, "old_string": {"type": "string"},
                                           "new_string": {"type": "string"}},
                            "required": ["path", "old_string", "new_string"]}}
RUN_SUBAGENT = {"name": "run_subagent",
                "description": "Start a child Session on a self-contained task and collect its answer.",
                "parameters": {"type": "object",
                               "properties": {"prompt": {"type": "string"}, "agent_id": {"type": "string"},
                                              "yield_time_ms": {"type": "integer"}},
                               "required": ["prompt"]}}
TOOLS = [READ_FILE, EXEC_COMMAND, EDIT_FILE]
MCP_TOOLS = [
    {"name": "mcp__github__search_issues", "description": "Search issues and pull requests.",
     "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
    {"name": "mcp__github__get_issue", "description": "Fetch one issue with its comments.",
     "parameters": {"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"},
                                                      "number": {"type": "number"}},
                    "required": ["owner", "repo", "number"]}},
    {"name": "mcp__pg__query", "description": "Run a read-only SQL query.",
     "parameters": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]}},
]
SIGNATURE = {"signature": "EqQBCkYIBxgCKkBq3hF0tW1xZ9yPm2Lr8vJdN4cUo7sAeGiKb6T5pQwXfRzYhC1nDgE0aVjMuSIt"}
WORKSPACE = "/home/mira/work/tidepool"


def new_session(sid: str, start: str, **kw: Any) -> Session:
    opts: dict[str, Any] = dict(provider="anthropic", model_id="claude-opus-5", window=1000000,
                                system_prompt=PROMPT, workspace=WORKSPACE)
    opts.update(kw)
    return Session(sid, Clock(start), **opts)
