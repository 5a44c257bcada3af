"""The canonical JSON Schema, shipped as package data of the runtime.

The file is `omnimessage/schema/omnimessage.schema.json` in the installed package. In the
repository the single source of truth is `schema/omnimessage.schema.json`; the package's copy is
a symbolic link to it (an editable install sees it live), which the wheel stores as a file.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["SCHEMA_FILE", "schema_path", "schema_text"]

SCHEMA_FILE = "omnimessage.schema.json"


def schema_path() -> Path:
    """Path of the canonical schema inside the installed `omnimessage` package."""
    return Path(str(resources.files("omnimessage").joinpath("schema", SCHEMA_FILE)))


def schema_text() -> str:
    """The canonical schema, as its UTF-8 text."""
    return schema_path().read_text(encoding="utf-8")
