"""Shared by the Python tests: where the checkout is, and the checkout's development setup.

Test modules import `ROOT` from here (`from conftest import ROOT`) instead of recomputing it; pytest
puts this folder on `sys.path` itself (rootdir-relative `prepend` import mode: no `__init__.py`).
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository checkout (tests read its fixtures, examples and TypeScript build)."""

# `--impl typescript` (and the conformance matrix) run the TypeScript binding's `omnimessage-ts` bin:
# in this checkout, the development build of it.
os.environ.setdefault("OMNIMESSAGE_TS_BIN", str(ROOT / "typescript" / "bin" / "omnimessage.mjs"))
