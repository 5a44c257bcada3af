"""The packages built from the checkout, once per test session: the wheel (`pip wheel`), the npm
tarball (`npm pack` of a fresh copy of typescript/, no dist/: only `prepack` can build it) and the
release artefacts (dev/build-dist.sh: the sdist, the wheel built from it, the npm tarball), and the
pinned TypeScript toolchain packed for fresh projects to install offline.

Every test that needs one takes the session fixture (`omnimessage_wheel`, `npm_tarball`,
`ts_toolchain`, `release_dist`; conftest.py imports them) instead of building its own: one build, in one place. Under pytest-xdist the workers
share it: the first to get the lock builds into the run's common temporary folder, the others wait
for the lock and read what it wrote (a build that failed is not recorded, so the next worker's
attempt fails with its own output).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "typescript"
TS_SOURCES = ["package.json", "package-lock.json", *sorted(p.name for p in TS.glob("tsconfig*.json")), "src", "bin",
              "README.md", "LICENSE"]
"""What `npm pack` packs from a clone (package.json `files`) and what the build reads (every tsconfig,
so a new entry point's config cannot be left out); never dist/."""


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], Path]) -> Path:
    """`build(folder)` once per session (and across pytest-xdist workers): the path it returned, kept
    in `folder/.built`; later callers get that path without building."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the workers' temporary folders are siblings: the run's common folder
    folder = base / f"shared-{name}"
    with open(base / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            record = folder / ".built"
            if record.is_file():
                return Path(record.read_text(encoding="utf-8"))
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            result = build(folder)
            record.write_text(str(result), encoding="utf-8")
            return result
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _wheel(folder: Path) -> Path:
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check", "-w",
         str(folder), str(ROOT)],
        capture_output=True, text=True, timeout=900,
    )
    if r.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{r.stdout}\n{r.stderr}")
    (whl,) = folder.glob("omnimessage-*.whl")
    return whl


def _tarball(folder: Path) -> Path:
    tsc = TS / "node_modules" / "typescript" / "bin" / "tsc"
    if not tsc.exists():
        pytest.fail(f"{tsc} is missing: run `make setup` (npm ci in typescript/)")
    src = folder / "clone" / "typescript"
    src.mkdir(parents=True)
    for name in TS_SOURCES:
        (shutil.copytree if (TS / name).is_dir() else shutil.copy2)(TS / name, src / name)
    (src / "node_modules").symlink_to(TS / "node_modules")  # the pinned dev tools (tsc) of `npm ci`
    out = folder / "pack"
    out.mkdir()
    r = subprocess.run(["npm", "pack", "--json", "--pack-destination", str(out), "--no-audit", "--no-fund",
                        "--loglevel=error"], cwd=src, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        pytest.fail(f"npm pack failed:\n{r.stdout}\n{r.stderr}")
    (info,) = json.loads(r.stdout[r.stdout.index("[") :])
    return out / str(info["filename"])


def _toolchain(folder: Path) -> Path:
    mods = TS / "node_modules"
    dev = json.loads((TS / "package.json").read_text(encoding="utf-8"))["devDependencies"]
    for name in ("typescript", "@types/node"):
        if json.loads((mods / name / "package.json").read_text(encoding="utf-8"))["version"] != dev[name]:
            pytest.fail(f"typescript/node_modules/{name} is not the pinned {dev[name]}: run `make setup`")
    packs = [mods / "typescript", *sorted((mods / "@typescript").iterdir()), mods / "@types" / "node", mods / "undici-types"]
    r = subprocess.run(["npm", "pack", "--pack-destination", str(folder), "--no-audit", "--no-fund", "--loglevel=error",
                        *(f"./{f.relative_to(TS)}" for f in packs)], cwd=TS, capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or len(list(folder.glob("*.tgz"))) != len(packs):
        pytest.fail(f"npm pack of the TypeScript toolchain failed:\n{r.stdout}\n{r.stderr}")
    return folder


def release_build(out: Path, tag: str) -> subprocess.CompletedProcess[str]:
    """`TAG=tag bash dev/build-dist.sh out`, as the release workflow runs it, with this interpreter."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "TAG": tag, "PYTHON": sys.executable}
    return subprocess.run(["bash", str(ROOT / "dev" / "build-dist.sh"), str(out)], env=env, capture_output=True,
                          text=True, timeout=900)


def _release(folder: Path) -> Path:
    from omnimessage import __version__

    out = folder / "dist"
    r = release_build(out, f"v{__version__}")
    if r.returncode != 0:
        pytest.fail(f"dev/build-dist.sh failed:\n{r.stdout}\n{r.stderr}")
    return out


@pytest.fixture(scope="session")
def omnimessage_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel --no-deps` builds from the checkout (read it; never write next to it)."""
    return built_once(tmp_path_factory, "wheel", _wheel)


@pytest.fixture(scope="session")
def npm_tarball(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tarball `npm pack` makes of a fresh copy of typescript/ (its `prepack` builds dist/)."""
    return built_once(tmp_path_factory, "npm-pack", _tarball)


@pytest.fixture(scope="session")
def ts_toolchain(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The pinned typescript (with the native compiler package `npm ci` chose for this platform) and
    @types/node, packed from typescript/node_modules: a fresh project installs them offline, no
    registry metadata needed."""
    return sorted(built_once(tmp_path_factory, "ts-toolchain", _toolchain).glob("*.tgz"))


@pytest.fixture(scope="session")
def release_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What `TAG=v<version> bash dev/build-dist.sh OUT` writes (OUT/python: the sdist and the wheel
    `python -m build` makes from it; OUT/npm: the tarball)."""
    return built_once(tmp_path_factory, "release", _release)
