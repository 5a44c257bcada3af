#!/usr/bin/env bash
# Build the release artefacts: the Python sdist and wheel, and the npm tarball, into OUT (default dist/):
#   OUT/python/omnimessage-X.Y.Z.tar.gz, OUT/python/omnimessage-X.Y.Z-<tag>.whl, OUT/npm/omnimessage-X.Y.Z.tgz
# The wheel is cp311-abi3-<platform> with the native accelerator when a C compiler is there (the
# hatch_build.py hook), py3-none-any without one or with OMNIMESSAGE_PURE_BUILD=1 (the release
# workflow builds the pure one here and the native ones with cibuildwheel).
# With TAG set (the release workflow passes the pushed tag), the tag must be vX.Y.Z of both versions.
# Run by .github/workflows/release.yml and, the same way, by python/tests/test_release_build.py.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
python=${PYTHON:-python3}
py_version=$("$python" -c 'import re,sys; print(re.search(r"__version__\s*=\s*\"([^\"]+)\"", open("python/omnimessage/_version.py").read()).group(1))')
npm_version=$(node -p 'require("./typescript/package.json").version')
if [ "$py_version" != "$npm_version" ]; then
  echo "build-dist: the Python package is $py_version, the npm package $npm_version: release one version" >&2; exit 1
fi
if [ -n "${TAG:-}" ] && [ "$TAG" != "v$py_version" ]; then
  echo "build-dist: tag $TAG does not match the version v$py_version" >&2; exit 1
fi
rm -rf "$out/python" "$out/npm"
mkdir -p "$out/python" "$out/npm"
"$python" -m build --sdist --wheel --outdir "$out/python" .
(cd typescript && npm ci --no-audit --no-fund --loglevel=error && npm pack --silent --pack-destination "$out/npm" > /dev/null)
ls "$out/python" "$out/npm"
