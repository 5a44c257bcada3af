"""The pytest plugin is loaded in every pytest run where omnimessage is installed: inert without
--omnimessage-impl, it must not load the conformance runner (judge, testee process, reports, ...)."""

from __future__ import annotations

import json
import subprocess
import sys

RUNNER_MODULES = {
    "omnimessage.conformance.command",
    "omnimessage.conformance.expected_failures",
    "omnimessage.conformance.judge",
    "omnimessage.conformance.outcomes",
    "omnimessage.conformance.reports",
    "omnimessage.conformance.run",
    "omnimessage.conformance.runner",
    "omnimessage.conformance.sweep",
    "omnimessage.conformance.testee_process",
}


def _loaded_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    return set(json.loads(proc.stdout))


def test_importing_the_plugin_loads_no_runner_module() -> None:
    loaded = _loaded_after("import omnimessage.conformance.pytest_plugin")
    assert "omnimessage.conformance.pytest_plugin" in loaded
    assert not loaded & RUNNER_MODULES, sorted(loaded & RUNNER_MODULES)


def test_the_probe_sees_the_runner_when_it_is_loaded() -> None:
    """The gate can fail: the runner's modules show up once the plugin is switched on."""
    loaded = _loaded_after("import omnimessage.conformance.runner")
    assert RUNNER_MODULES - {"omnimessage.conformance.command", "omnimessage.conformance.reports"} <= loaded


def test_the_timeout_help_names_the_runners_default() -> None:
    from omnimessage.conformance.pytest_plugin import TIMEOUT_HELP
    from omnimessage.conformance.run import DEFAULT_REQUEST_TIMEOUT

    assert f"default {DEFAULT_REQUEST_TIMEOUT:g}," in TIMEOUT_HELP
