"""Imports are written from what a file recorded using (targets/_imports.py), never guessed from its text."""

from __future__ import annotations

import jinja2

from omnimessage_codegen.targets._imports import Imports, render

TEMPLATE = """from __future__ import annotations

{{ imports.here("collections.abc") }}

{{ imports.here("msgspec") }}

{{ imports.here("omnimessage.runtime") }}

x = {{ imports.use("omnimessage.runtime", "now") }}()
{% if big %}y: {{ imports.use("collections.abc", "Sequence") }}[int] = [{{ imports.use("omnimessage.runtime", "ABSENT") }}]{% endif %}

# msgspec, Sequence and verbatim in a comment or a string are no use: "UNSET"
"""


def _fill(big: bool) -> str:
    env = jinja2.Environment(loader=jinja2.DictLoader({"t": TEMPLATE}), undefined=jinja2.StrictUndefined)
    return render(env, "t", Imports("python"), big=big)


def test_a_module_used_gets_its_names_sorted_and_one_unused_gets_no_line() -> None:
    assert _fill(True).split("\n")[:7] == [
        "from __future__ import annotations",
        "",
        "from collections.abc import Sequence",
        "",
        "from omnimessage.runtime import ABSENT, now",  # constants before functions, as ruff's isort
        "",
        "x = now()",
    ]


def test_nothing_used_leaves_no_import_and_no_blank_lines_behind() -> None:
    assert _fill(False).split("\n")[:5] == [
        "from __future__ import annotations",
        "",
        "from omnimessage.runtime import now",
        "",
        "x = now()",
    ]


def test_go_and_typescript_spell_their_lines() -> None:
    go = Imports("go")
    go.use("github.com/omnimessage/omnimessage/go", "om")
    text = go.fill(f'import (\n\t{go.here("slices")}\n\n\t{go.here("github.com/omnimessage/omnimessage/go", alias="om")}\n)')
    assert text == 'import (\n\tom "github.com/omnimessage/omnimessage/go"\n)'
    ts = Imports("typescript")
    ts.use("./runtime.js", "Stamp", "type")
    ts.use("./runtime.js", "rt")
    text = ts.fill(f'{ts.here("./runtime.js")}\n{ts.here("./runtime.js", "type")}')
    assert text == 'import { rt } from "./runtime.js";\nimport type { Stamp } from "./runtime.js";'
