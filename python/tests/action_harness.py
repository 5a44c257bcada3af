"""Runs the composite GitHub Action (action.yml) the way a runner does, step by step, without GitHub.

Each `run:` step is written to a file and run with `bash --noprofile --norc -eo pipefail` (the
runner's `shell: bash`), with its `env:` resolved, `$GITHUB_OUTPUT`, `$GITHUB_PATH` and
`$RUNNER_TEMP` set, in the workspace directory. `uses:` steps are recorded with their resolved
`with:`, not run. `if:` conditions are evaluated in the small grammar the action uses
(`always()`, `inputs.NAME == 'value'`, joined by `&&`): anything else fails the test, so the action
cannot grow a condition this harness would silently misread. After a failed step, only steps whose
condition contains `always()` run, as on GitHub.

By default the dev venv's bin is on PATH after the directories steps add to `$GITHUB_PATH` (tests
that skip the install step use its `omnimessage`). `installed_only=True` leaves it out, and every
PATH directory holding an `omnimessage`, so that only what the install step installed can run
(`python3` is then the interpreter running the tests).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
DEV_BIN = Path(sys.executable).parent
"""The dev venv's bin: its `omnimessage` stands in for the one the install step would make."""

_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_EQ = re.compile(r"inputs\.([A-Za-z0-9_-]+)\s*(==|!=)\s*'([^']*)'")


def load_action() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return data


@dataclass
class StepResult:
    name: str
    ran: bool
    rc: int = 0
    stdout: str = ""
    stderr: str = ""
    uses: str = ""
    with_: dict[str, str] = field(default_factory=dict)


@dataclass
class ActionRun:
    steps: list[StepResult]
    outputs: dict[str, str]
    rc: int
    """The job's verdict: the exit status of the first failing step, else 0."""

    def step(self, name: str) -> StepResult:
        return next(s for s in self.steps if s.name == name)

    @property
    def stdout(self) -> str:
        return "".join(s.stdout for s in self.steps)


class _Context:
    def __init__(self, inputs: dict[str, str], step_outputs: dict[str, dict[str, str]]) -> None:
        self.inputs = inputs
        self.step_outputs = step_outputs

    def value(self, expr: str) -> str:
        if expr == "github.action_path":
            return str(ROOT)
        if expr.startswith("inputs."):
            return self.inputs[expr[len("inputs."):]]
        m = re.fullmatch(r"steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)", expr)
        if m:
            return self.step_outputs.get(m.group(1), {}).get(m.group(2), "")
        raise AssertionError(f"action.yml: an expression this harness does not know: {expr!r}")

    def substitute(self, text: str) -> str:
        return _EXPR.sub(lambda m: self.value(m.group(1)), text)

    def condition(self, cond: str, failed: bool) -> bool:
        terms = [t.strip() for t in cond.split("&&")]
        always = "always()" in terms
        if failed and not always:
            return False
        for t in terms:
            if t == "always()":
                continue
            m = _EQ.fullmatch(t)
            if m is None:
                raise AssertionError(f"action.yml: a condition this harness does not know: {cond!r}")
            equal = self.inputs[m.group(1)] == m.group(3)
            if equal != (m.group(2) == "=="):
                return False
        return True


def _path_without_omnimessage(path: str) -> list[str]:
    return [p for p in path.split(os.pathsep) if p and not (Path(p) / "omnimessage").exists()]


def run_action(
    inputs: dict[str, str],
    workspace: Path,
    path_prefix: list[Path] | None = None,
    *,
    extra_env: dict[str, str] | None = None,
    installed_only: bool = False,
) -> ActionRun:
    """Run action.yml with `inputs` (the rest default) in `workspace`; `extra_env` is added to
    every step's environment (pip settings, say); `installed_only`: see the module docstring."""
    action = load_action()
    declared = action["inputs"]
    unknown = set(inputs) - set(declared)
    assert not unknown, f"inputs action.yml does not declare: {unknown}"
    values = {k: str(v.get("default", "")) for k, v in declared.items()}
    values.update(inputs)
    step_outputs: dict[str, dict[str, str]] = {}
    ctx = _Context(values, step_outputs)
    runner_temp = workspace / ".runner-temp"
    runner_temp.mkdir(exist_ok=True)
    gh_path = runner_temp / "github_path"
    gh_path.write_text("")
    tools = runner_temp / "tools"  # python3 for the install step when the dev venv is off PATH
    tools.mkdir(exist_ok=True)
    if not (tools / "python3").exists():
        (tools / "python3").symlink_to(sys.executable)
    results: list[StepResult] = []
    verdict = 0
    for i, step in enumerate(action["runs"]["steps"]):
        name = step.get("name", f"step {i}")
        if "if" in step and not ctx.condition(str(step["if"]), verdict != 0):
            results.append(StepResult(name, ran=False))
            continue
        if verdict != 0 and "if" not in step:
            results.append(StepResult(name, ran=False))
            continue
        if "uses" in step:
            with_ = {k: ctx.substitute(str(v)) for k, v in (step.get("with") or {}).items()}
            results.append(StepResult(name, ran=False, uses=step["uses"], with_=with_))
            continue
        assert step.get("shell") == "bash", f"{name}: composite run steps name their shell"
        script = runner_temp / f"step{i}.sh"
        script.write_text(ctx.substitute(step["run"]))
        out_file = runner_temp / f"output{i}"
        out_file.write_text("")
        extra_path = [p for p in gh_path.read_text().splitlines() if p]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_"))}
        env.update({k: ctx.substitute(str(v)) for k, v in (step.get("env") or {}).items()})
        if installed_only:
            base = [str(tools), *_path_without_omnimessage(env.get("PATH", ""))]
        else:
            base = [str(DEV_BIN), env.get("PATH", "")]
        path = [str(p) for p in (path_prefix or [])] + extra_path + base
        env.update(PATH=os.pathsep.join(path), GITHUB_OUTPUT=str(out_file), GITHUB_PATH=str(gh_path),
                   RUNNER_TEMP=str(runner_temp), GITHUB_WORKSPACE=str(workspace), NO_COLOR="1",
                   GITHUB_STEP_SUMMARY=str(runner_temp / "step_summary.md"))
        env.update(extra_env or {})
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                              env=env, capture_output=True, text=True, timeout=300)
        outputs = {}
        for line in out_file.read_text().splitlines():
            key, sep, value = line.partition("=")
            assert sep, f"{name}: a $GITHUB_OUTPUT line without '=': {line!r}"
            outputs[key] = value
        if "id" in step:
            step_outputs[step["id"]] = outputs
        results.append(StepResult(name, ran=True, rc=proc.returncode, stdout=proc.stdout, stderr=proc.stderr))
        if proc.returncode != 0 and verdict == 0:
            verdict = proc.returncode
    action_outputs = {k: ctx.substitute(str(v["value"])) for k, v in action.get("outputs", {}).items()}
    return ActionRun(results, action_outputs, verdict)
