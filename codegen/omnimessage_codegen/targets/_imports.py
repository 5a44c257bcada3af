"""Imports recorded while a file is emitted, written from that record.

An emitter makes one :class:`Imports` per file and hands it to the code that builds expressions
(which calls :meth:`Imports.use` for every name it writes) and to the template (as `imports`, whose
`{{ imports.use(module, name) }}` writes the name and records it). The template marks where each
import line goes with `{{ imports.here(module) }}` on a line of its own; :func:`render` fills the
marks in once the whole file is rendered: the names used, sorted, or no line at all (and no blank
line after it) when the file uses nothing of that module. So a file imports exactly what it uses,
and nothing decides that by searching the output text.
"""

from __future__ import annotations

from collections.abc import Callable

import jinja2

# How a target writes one import line: (module, sorted names, kind, alias) -> the line. A kind
# tells apart two import lines of one module (TypeScript's `import type`).
Spelling = Callable[[str, list[str], str, str], str]


def _python(module: str, names: list[str], kind: str, alias: str) -> str:
    return f"from {module} import {', '.join(names)}"


def _typescript(module: str, names: list[str], kind: str, alias: str) -> str:
    return f'import {kind + " " if kind else ""}{{ {", ".join(names)} }} from "{module}";'


def _go(module: str, names: list[str], kind: str, alias: str) -> str:
    return f'{alias + " " if alias else ""}"{module}"'


SPELLINGS: dict[str, Spelling] = {"python": _python, "typescript": _typescript, "go": _go}


def _isort_key(name: str) -> tuple[int, str]:
    """isort's (and ruff's) order inside one `from` import: CONSTANTS, Classes, functions."""
    if name.isupper():
        return (0, name)
    return (1 if name[:1].isupper() else 2, name)


class Imports:
    """The names one generated file uses, by module (see the module docstring)."""

    def __init__(self, spelling: str) -> None:
        self._spell = SPELLINGS[spelling]
        self._used: dict[tuple[str, str], set[str]] = {}
        self._marks: dict[str, tuple[str, str, str]] = {}

    def use(self, module: str, name: str, kind: str = "") -> str:
        """Record that the file uses `name` of `module` (in Go, `name` is the package's name); give it back."""
        self._used.setdefault((module, kind), set()).add(name)
        return name

    def names(self, module: str, kind: str = "") -> list[str]:
        return sorted(self._used.get((module, kind), ()), key=_isort_key)

    def here(self, module: str, kind: str = "", alias: str = "") -> str:
        """A mark for the import line of `module` (of `kind`), filled in by :func:`render`."""
        mark = f"\x00import {len(self._marks)}\x00"
        self._marks[mark] = (module, kind, alias)
        return mark

    def fill(self, text: str) -> str:
        """The text with every mark replaced by its import line, or removed with its line and the
        blank line after it when the module is unused."""
        lines = text.split("\n")
        out: list[str] = []
        skip_blank = False
        for line in lines:
            if skip_blank and line == "":
                skip_blank = False
                continue
            skip_blank = False
            mark = next((m for m in self._marks if m in line), None)
            if mark is None:
                out.append(line)
                continue
            module, kind, alias = self._marks[mark]
            if (module, kind) not in self._used:
                skip_blank = True
                continue
            out.append(line.replace(mark, self._spell(module, self.names(module, kind), kind, alias)))
        return "\n".join(out)


def render(env: jinja2.Environment, template: str, imports: Imports, **ctx: object) -> str:
    """Template `template` rendered with `imports` in its context, its import marks filled in."""
    return imports.fill(env.get_template(template).render(imports=imports, **ctx))
