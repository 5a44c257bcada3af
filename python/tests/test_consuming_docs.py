"""docs/consuming.md, section Python: each block runs as written. The two client blocks read the
scripted session served live on loopback (a subprocess, subscribed before the session runs); the
render-model block runs alone. Their output is checked against what the same stream gives here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from conftest import ROOT
from produce_script import CHILD, build_script, run_script
from test_produce_session import _Server

from omnimessage import produce
from omnimessage.consume import RenderModel

DOC = ROOT / "docs" / "consuming.md"


def python_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^```python\n(.*?)^```$", section, re.S | re.M)


def serve_to(code: str, tmp: Path) -> tuple[str, bytes]:
    """Run `code` as a subscriber of a served channel, then the scripted session, then the server's
    `task_state`: (the block's stdout, the main session's stream)."""
    channel = produce.SseChannel()
    server = _Server(channel)
    try:
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=dict(os.environ, EVENTS_URL=f"http://127.0.0.1:{server.port}/events"))
        for _ in range(60_000):  # bounded: until the block has subscribed
            if channel.subscriber_count or proc.poll() is not None:
                break
            threading.Event().wait(0.001)
        stream = run_script(build_script(), tmp, sse=channel)
        channel.publish(b'{"type":"task_state","state":"idle"}', "server_event")
        out, err = proc.communicate(timeout=60)
    finally:
        server.close()
    assert proc.returncode == 0, err.decode()
    return out.decode(), stream


def test_three_python_blocks() -> None:
    assert len(python_blocks()) == 3


def test_sync_client_block(tmp_path: Path) -> None:
    out, stream = serve_to(python_blocks()[0], tmp_path)
    model = RenderModel()
    for line in stream.splitlines():
        model.apply(line)
    kinds, first_child = out.splitlines()
    assert kinds == str([next(iter(x)) for x in model.snapshot()["items"]][:6])
    child = model.card([CHILD])
    assert child is not None and first_child == str(child.arrived[0][:60])
    assert b'"type":"session_meta"' in child.arrived[0]


def test_async_client_block(tmp_path: Path) -> None:
    out, stream = serve_to(python_blocks()[1], tmp_path)
    assert json.loads(out.replace("'", '"')) == {"message": len(stream.splitlines())}


def test_render_model_block() -> None:
    res = subprocess.run([sys.executable, "-c", python_blocks()[2]], capture_output=True, text=True, timeout=60,
                         check=True)
    seg, snap = res.stdout.splitlines()
    assert json.loads(seg) == {"segment": {"type": "partial_text", "tool_call_id": None, "text": "Hello",
                                           "open": True}}
    assert snap.startswith('{"origin": [], "items": [{"message": "{\\"timestamp\\":\\"2026-07-18T03:10:22.531Z\\",'
                           '\\"type\\":\\"model_msg\\"')
