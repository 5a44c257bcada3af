"""Hatchling build hook: the optional native accelerator `omnimessage._accel` (issue 26).

Compiles python/omnimessage/_native/ (the canonical-form verifier and its generated table) with
setuptools' build_ext against the limited API of 3.11 (one abi3 wheel for every CPython from
3.11); the wheel is then tagged `cp311-abi3-<platform>`. The editable install (`make setup`) gets
the module built in place, next to the sources (gitignored). Without a working compiler the
build says so once and the wheel stays pure (`py3-none-any`): the codec then proves canonical
form by re-encoding (omnimessage.codec.fast_path), as it always could.

OMNIMESSAGE_PURE_BUILD=1 skips the compiler on purpose.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NATIVE = Path("python/omnimessage/_native")
SOURCES = ["verify.c", "deltas.c", "module.c"]


def _build(root: Path, work: Path) -> Path:
    """The built extension module (a file under `work`); raises when compiling fails."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    ext = Extension(
        "omnimessage._accel",
        sources=[str(NATIVE / s) for s in SOURCES],
        include_dirs=[str(NATIVE)],
        define_macros=[("Py_LIMITED_API", "0x030B0000")],
        py_limited_api=True,
    )
    cwd = Path.cwd()
    os.chdir(root)  # setuptools wants the sources relative to the project
    try:
        cmd = build_ext(Distribution({"name": "omnimessage", "ext_modules": [ext]}))
        cmd.build_lib = str(work / "lib")
        cmd.build_temp = str(work / "tmp")
        cmd.ensure_finalized()
        cmd.run()
        return Path(cmd.get_ext_fullpath("omnimessage._accel"))
    finally:
        os.chdir(cwd)


class NativeAccelerator(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        if os.environ.get("OMNIMESSAGE_PURE_BUILD") == "1":
            self.app.display_warning("omnimessage: OMNIMESSAGE_PURE_BUILD=1: building without the native accelerator")
            return
        work = Path(tempfile.mkdtemp(prefix="omnimessage-accel-"))
        try:
            built = _build(root, work)
        except Exception as e:  # no compiler, no headers, a failed link: the pure wheel still installs
            shutil.rmtree(work, ignore_errors=True)
            why = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
            print(f"omnimessage: the native accelerator was not built ({why}); installing the pure-Python "
                  "codec (same results, slower strict decoding)", file=sys.stderr)
            return
        if version == "editable":  # the editable install's path entry is python/: build in place
            shutil.copyfile(built, root / "python" / "omnimessage" / built.name)
        else:
            build_data["force_include"][str(built)] = f"omnimessage/{built.name}"
        self._work = work
        build_data["pure_python"] = False
        plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"cp311-abi3-{plat}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
