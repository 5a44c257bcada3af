"""The release workflow (.github/workflows/release.yml): it runs on a `v*` tag, builds with
dev/build-dist.sh and publishes by trusted publishing (OIDC, no stored token). Here the script runs
the same way (`TAG=v<version> bash dev/build-dist.sh OUT`): the sdist, the wheel and the npm tarball
come out, carry the version, and a wrong tag is refused."""

from __future__ import annotations

import re
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, needs
from shared_builds import release_build

from omnimessage import __version__

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


_build = release_build


def test_the_workflow_builds_with_the_script_and_publishes_by_trusted_publishing() -> None:
    wf = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
    assert on == {"push": {"tags": ["v*"]}}
    jobs = wf["jobs"]
    runs = [s.get("run", "") for s in jobs["build"]["steps"]]
    assert any("bash dev/build-dist.sh dist" in r for r in runs)
    assert jobs["build"]["steps"][-2]["env"]["TAG"] == "${{ github.ref_name }}"
    assert jobs["pypi"]["needs"] == ["build", "wheels"] and jobs["npm"]["needs"] == "build"
    for name in ("pypi", "npm"):
        assert jobs[name]["permissions"] == {"id-token": "write"}
    # the native wheels: cibuildwheel on Linux, macOS and Windows, one abi3 build (cp311) each,
    # tested with the accelerator active, published with the sdist and the pure wheel
    wheels = jobs["wheels"]
    assert {"ubuntu-latest", "macos-14", "windows-latest"} <= set(wheels["strategy"]["matrix"]["os"])
    cibw = next(s for s in wheels["steps"] if s.get("uses", "").startswith("pypa/cibuildwheel@"))
    assert cibw["env"]["CIBW_BUILD"] == "cp311-*" and "s.ACTIVE" in cibw["env"]["CIBW_TEST_COMMAND"]
    assert jobs["build"]["steps"][-2]["env"]["OMNIMESSAGE_PURE_BUILD"] == "1"
    fetched = [s["with"] for s in jobs["pypi"]["steps"] if "download-artifact" in s.get("uses", "")]
    assert {"pattern": "wheels-*", "path": "dist/python/", "merge-multiple": True} in fetched
    pypi = [s for s in jobs["pypi"]["steps"] if "uses" in s and "pypi-publish" in s["uses"]]
    assert pypi and pypi[0]["with"] == {"packages-dir": "dist/python/"}  # no password: trusted publishing
    npm = " ".join(s.get("run", "") for s in jobs["npm"]["steps"])
    assert "npm publish dist/npm/omnimessage-*.tgz --provenance" in npm and "NODE_AUTH_TOKEN" not in WORKFLOW.read_text()


@needs("npm")
def test_the_script_builds_sdist_wheel_and_npm_tarball(release_dist: Path) -> None:
    out = release_dist  # the session's one run of the script (shared_builds.py; red if it failed)
    sdist = out / "python" / f"omnimessage-{__version__}.tar.gz"
    # with a compiler (make setup's machine has one), the wheel carries the native accelerator
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    wheel = out / "python" / f"omnimessage-{__version__}-cp311-abi3-{plat}.whl"
    tgz = out / "npm" / f"omnimessage-{__version__}.tgz"
    assert sorted(p.name for p in (out / "python").iterdir()) == sorted([sdist.name, wheel.name])
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"omnimessage/cli/main.py", "omnimessage/validate/reporting/html/page.js", "omnimessage/validate/reporting/html/page.css",
            "omnimessage/_accel.abi3.so", "omnimessage/_native/generated/omv_table.h"} <= names
    assert sum(n.startswith("omnimessage/_accel.") for n in names) == 1  # never the editable install's in-place build
    with tarfile.open(sdist) as t:
        assert f"omnimessage-{__version__}/pyproject.toml" in t.getnames()
    with tarfile.open(tgz) as t:
        members = t.getnames()
    assert "package/package.json" in members and any(re.match(r"package/dist/.*\.js$", m) for m in members)


def test_a_tag_that_is_not_the_version_is_refused(tmp_path: Path) -> None:
    r = _build(tmp_path / "dist", "v9.9.9-not-this")
    assert r.returncode == 1 and "does not match the version" in r.stderr
    assert not (tmp_path / "dist" / "python").exists()


@pytest.mark.parametrize("doc", ["README.md"])
def test_the_readme_names_the_workflow(doc: str) -> None:
    assert ".github/workflows/release.yml" in (ROOT / doc).read_text("utf-8")
