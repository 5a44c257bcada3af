"""The typed Python API, checked the way users check their code: the example files of
`python/tests/typing/` and the README's Python examples pass `mypy --strict` and pyright (strict),
and `assert_type` in them bites (probes that must fail do fail, in both checkers).

The checkers are Python packages of the `dev` extra (mypy; pyright, whose PyPI wheel bundles
pyright itself and, through `pyright[nodejs]`, a Node.js wheel: no npm download at run time). A
missing checker skips, and fails under OMNIMESSAGE_REQUIRE_TOOLS=1 (`make test`)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REQUIRE_TOOLS, ROOT

TYPING = ROOT / "python" / "tests" / "typing"
EXAMPLES = sorted(TYPING.glob("*.py"))
CHECKERS = ["mypy", "pyright"]


def _checker(name: str) -> None:
    if importlib.util.find_spec(name) is None:
        if REQUIRE_TOOLS:  # make test: a gate never passes for want of its tool
            pytest.fail(f"{name} is not installed (the `dev` extra installs it)")
        pytest.skip(f"{name} is not installed")


def _readme_python() -> list[str]:
    """Every ```python block of README.md (the first is the five-line example)."""
    blocks = re.findall(r"^```python\n(.*?)^```$", (ROOT / "README.md").read_text(encoding="utf-8"), re.S | re.M)
    assert blocks, "README.md has no python block"
    return [str(b) for b in blocks]


def check(checker: str, files: list[Path], cwd: Path) -> list[tuple[str, int, str]]:
    """Run `checker` in its strict mode over `files`: (file name, 1-based line, message) per error."""
    _checker(checker)
    env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}  # no PyPI look-up for a newer pyright
    if checker == "mypy":
        cmd = [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.11", "--no-incremental",
               "--config-file", os.devnull, "--show-error-codes", "--no-error-summary", "--hide-error-context",
               *map(str, files)]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=600)
        errors = []
        for line in r.stdout.splitlines():
            m = re.match(r"^(.*?):(\d+): error: (.*)$", line)
            if m:
                errors.append((Path(m[1]).name, int(m[2]), m[3]))
        assert r.returncode in (0, 1) and (r.returncode == 0) == (not errors), r.stdout + r.stderr
        return errors
    cmd = [sys.executable, "-m", "pyright", "--outputjson", "--project", str(TYPING / "pyrightconfig.json"),
           "--pythonpath", sys.executable, *map(str, files)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=600)
    try:
        report = json.loads(r.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"pyright gave no report (exit {r.returncode}): {r.stdout[-2000:]}{r.stderr[-2000:]}")
    assert report["summary"]["filesAnalyzed"] == len(files), report["summary"]
    return [
        (Path(d["file"]).name, d["range"]["start"]["line"] + 1, d["message"])
        for d in report["generalDiagnostics"]
        if d["severity"] == "error"
    ]


def test_there_are_typing_examples() -> None:
    names = {p.name for p in EXAMPLES}
    assert {"decode_overloads.py", "reader_lines.py", "guards_narrowing.py", "payload_narrowing.py",
            "builders_surface.py", "aggregate_and_validate.py"} <= names, names
    for p in EXAMPLES:
        assert "assert_type(" in p.read_text(encoding="utf-8"), p


@pytest.mark.parametrize("checker", CHECKERS)
def test_examples_and_readme_pass_strict_checking(checker: str, tmp_path: Path) -> None:
    readme = [tmp_path / f"readme_example_{n}.py" for n in range(len(_readme_python()))]
    for path, block in zip(readme, _readme_python(), strict=True):
        path.write_text(block, encoding="utf-8")
    errors = check(checker, [*EXAMPLES, *readme], cwd=tmp_path)
    assert not errors, "\n".join(f"{f}:{n}: {msg}" for f, n, msg in errors)


# Each line marked `# FAILS` must be an error (and no other line may be): a wrong overload, a guard
# that narrows too much or too little, a tag that does not narrow turns one of these silent.
PROBES = '''\
from pathlib import Path
from typing import assert_type

import omnimessage as om
from omnimessage import EventMessage, Message, ModelMessage, OpaqueMessage, SessionMetaMessage

L = b""


def probes(p: Path, msg: Message, any_msg: Message | OpaqueMessage, flag: bool) -> None:
    assert_type(om.decode(L), Message | OpaqueMessage)  # FAILS: strict decoding is a Message
    assert_type(om.decode(L, lenient=True), Message)  # FAILS: lenient adds OpaqueMessage
    assert_type(om.decode(L, lenient=flag), Message)  # FAILS: so does a bool
    for line in om.iter_messages(p):
        assert_type(line.message, Message | OpaqueMessage | None)  # FAILS: strict lines hold Messages
    for line2 in om.iter_messages(p, lenient=True):
        assert_type(line2.message, Message | None)  # FAILS: lenient lines may be opaque
    if om.is_model(any_msg):
        assert_type(any_msg, Message | OpaqueMessage)  # FAILS: the guard narrows
    else:
        assert_type(any_msg, Message | OpaqueMessage)  # FAILS: and so does its other branch (TypeIs)
    if not om.is_complete_model(msg):
        assert_type(msg, SessionMetaMessage | EventMessage)  # FAILS: a partial model_msg is not complete
    if msg.type == "event_msg":
        assert_type(msg, Message)  # FAILS: the envelope tag narrows
    if om.is_model(msg) and msg.payload.type == "text":
        assert_type(msg.payload, om.ModelPayload)  # FAILS: the payload tag narrows
    if om.is_model(msg):
        print(msg.payload.text)  # FAILS: not every model payload has text
    om.is_event(msg).payload  # FAILS: a guard returns a bool
    print(ModelMessage)  # not an error: a control line
'''


@pytest.mark.parametrize("checker", CHECKERS)
def test_assert_type_bites(checker: str, tmp_path: Path) -> None:
    probe = tmp_path / "probes.py"
    probe.write_text(PROBES, encoding="utf-8")
    expected = {n for n, line in enumerate(PROBES.splitlines(), 1) if "# FAILS" in line}
    errors = check(checker, [probe], cwd=tmp_path)
    assert {n for _, n, _ in errors} == expected, "\n".join(f"{f}:{n}: {msg}" for f, n, msg in errors)


def test_the_typing_needs_nothing_at_run_time() -> None:
    """`TypeIs` and the type parameter's default come from typing_extensions for type checkers
    only: the runtime imports without it (the codec installs with msgspec alone)."""
    code = (
        "import sys; sys.modules['typing_extensions'] = None\n"
        "import omnimessage as om\n"
        "line = b'{\"timestamp\":\"2026-07-18T03:10:22.531Z\",\"type\":\"model_msg\",\"payload\":{\"type\":\"text\",\"role\":\"user\",\"text\":\"hi\"}}'\n"
        "msg = om.decode(line)\n"
        "assert om.is_model(msg) and not om.is_event(msg) and om.is_complete_model(msg) and not om.is_partial(msg)\n"
        "assert not om.is_model(object()) and not om.is_complete_model(None)\n"
        "assert msg.type == 'model_msg' and msg.payload.type == 'text' and om.TextPayload.type == 'text'\n"
        "import io; [l] = om.iter_messages(io.BytesIO(line)); assert l.message == msg\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
