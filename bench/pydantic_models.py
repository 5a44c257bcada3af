"""pydantic v2 models for the benchmark, from the `pydantic` generator target (which runs
datamodel-code-generator on the canonical schema)."""

from __future__ import annotations

import sys
import tempfile
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from omnimessage_codegen import load_schema
from omnimessage_codegen.targets import TARGETS, render


def load() -> tuple[Any, Callable[[Any], bytes]]:
    """(TypeAdapter of the root message type, dump to JSON bytes as pydantic writes them)."""
    if "pydantic" not in TARGETS:
        raise ImportError("the `pydantic` generator target is not available")
    from pydantic import BaseModel, RootModel, TypeAdapter

    files = render("pydantic", load_schema())
    tmp = Path(tempfile.mkdtemp(prefix="om-bench-pydantic-"))
    for rel, text in files.items():
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp / rel).write_text(text)
    module_file = next(tmp / rel for rel in files if rel.endswith(".py") and not rel.endswith("__init__.py"))
    mod = types.ModuleType("om_bench_pydantic")
    mod.__file__ = str(module_file)
    sys.modules[mod.__name__] = mod
    exec(compile(module_file.read_text(), str(module_file), "exec"), mod.__dict__)
    root = None
    for name in ("OmniMessage", "Model", "Message"):
        cand = getattr(mod, name, None)
        if isinstance(cand, type) and issubclass(cand, (BaseModel, RootModel)):
            root = cand
            break
    if root is None:
        raise ImportError("no root model (OmniMessage/Model/Message) in the generated pydantic module")
    for cls in vars(mod).values():
        if isinstance(cls, type) and issubclass(cls, BaseModel) and cls.__module__ == mod.__name__:
            cls.model_rebuild(_types_namespace=mod.__dict__)
    adapter = TypeAdapter(root)

    def dump(obj: Any) -> bytes:
        return adapter.dump_json(obj, exclude_unset=True, by_alias=True)  # type: ignore[no-any-return]

    return adapter, dump
