"""Every input the fuzzers ever caught (fuzz/crashes/) is replayed here, so a fixed bug stays fixed.

`decode-*` files go through the decoder target's properties (fuzz/fuzz_decode.py), `validate-*`
files (and the `decode-*` ones: the validator decodes every line) through the validator target's
(fuzz/fuzz_validate.py), and `differential-*` files through
both bindings, which must agree (fuzz/differential.py). The fuzz targets import without atheris.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT, needs

CRASHES = ROOT / "fuzz" / "crashes"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "fuzz" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _files(prefix: str) -> list[Path]:
    return sorted(CRASHES.glob(f"{prefix}-*.bin"))


def test_there_are_fixtures_of_each_fuzzer() -> None:
    assert _files("decode") and _files("differential")


@pytest.mark.parametrize("path", _files("decode"), ids=lambda p: p.name)
def test_decode_fixture(path: Path) -> None:
    _load("fuzz_decode").test_one_input(path.read_bytes())


@pytest.mark.parametrize("path", _files("validate") + _files("decode"), ids=lambda p: p.name)
def test_validate_fixture(path: Path) -> None:
    data = path.read_bytes()
    if path.name.startswith("decode-"):
        # the validator decodes every line: a decoder crasher goes through it too, in every mode
        # (flags byte: legacy, truncated, determinism check)
        data = b"\x07" + data
    _load("fuzz_validate").test_one_input(data)


@needs("node")
def test_differential_fixtures_agree() -> None:
    diff = _load("differential")
    inputs = [p.read_bytes() for p in _files("differential")]
    ts = diff.TypeScript()
    try:
        answers = ts.batch(inputs)
    finally:
        ts.close()
    for path, data, (ts_strict, ts_lenient, ts_string) in zip(_files("differential"), inputs, answers, strict=True):
        assert diff.python_verdict(data, False) == ts_strict, path.name
        assert diff.python_verdict(data, True) == ts_lenient, path.name
        assert ts_string is None or ts_string == ts_strict, path.name
