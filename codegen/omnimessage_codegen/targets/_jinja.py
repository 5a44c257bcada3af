"""The jinja2 environment shared by the targets."""

from __future__ import annotations

import textwrap

import jinja2


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("omnimessage_codegen", "templates"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["wrap"] = wrap
    env.filters["py_tuple"] = py_tuple
    return env


def wrap(text: str, width: int = 92, indent: str = "") -> str:
    """Wrap prose to `width`, keeping paragraph breaks; every line gets `indent`."""
    paras = [p for p in text.split("\n\n")]
    out = []
    for p in paras:
        lines = []
        for line in p.split("\n"):
            lines.extend(
                textwrap.wrap(line, width=width - len(indent), break_long_words=False, break_on_hyphens=False) or [""]
            )
        out.append("\n".join(indent + ln if ln else indent.rstrip() for ln in lines))
    return f"\n{indent.rstrip()}\n".join(out)


def py_tuple(items: list[str]) -> str:
    """A Python tuple literal of string items."""
    inner = ", ".join(f'"{i}"' for i in items)
    return f"({inner},)" if len(items) == 1 else f"({inner})"
