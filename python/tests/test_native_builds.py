"""verify.c in each of its three builds against the pure Python path, on the hard-line catalogue (issue 38).

The native fuzzer compares the vector (SSE2), SWAR (`-DOMV_NO_SSE2`) and byte-loop
(`-DOMV_SCALAR_ONLY`) builds with each other only, and they share the UTF-8 routine and the number
check: a defect in those is in all three. Here each build is compiled as a shared library and asked
about every line of `fastpath_cases` (every class of defect inside every kind of verbatim value and
string, at every block edge, trailing data, duplicate keys, numbers; then every conformance input),
and so is the installed accelerator; the oracle is the pure path,
which shares no code with them. The verifier's contract (verify.h) starts where msgspec's typed
decoder has accepted the line, so that is the precondition; then a "yes" must be a proof (the line
is the canonical encoding of its message), and every build must answer alike.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import fastpath_cases as fc
import pytest
from conftest import REQUIRE_TOOLS, ROOT

from omnimessage.codec.native import DECODE_ERRORS, DECODER

SRC = ROOT / "python" / "omnimessage" / "_native"
BUILDS = {"default": [], "swar": ["-DOMV_NO_SSE2"], "scalar": ["-DOMV_SCALAR_ONLY"]}
Verifier = Callable[[bytes], bool]


def _compile(out: Path, name: str, flags: list[str]) -> Verifier:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        if REQUIRE_TOOLS:
            raise RuntimeError("no C compiler, and OMNIMESSAGE_REQUIRE_TOOLS=1 requires one")
        pytest.skip("no C compiler")
    lib = out / f"verify-{name}.so"
    subprocess.run([cc, "-std=c99", "-O2", "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror", f"-I{SRC}", *flags,
                    str(SRC / "verify.c"), "-o", str(lib)], check=True, capture_output=True)
    fn = ctypes.CDLL(str(lib)).omv_canonical
    fn.argtypes, fn.restype = [ctypes.c_char_p, ctypes.c_size_t], ctypes.c_int
    return lambda data: fn(data, len(data)) == 1


@pytest.fixture(scope="module")
def verifiers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Verifier]:
    out = tmp_path_factory.mktemp("native")
    found = {name: _compile(out, name, flags) for name, flags in BUILDS.items()}
    try:
        from omnimessage import _accel  # type: ignore[attr-defined]
    except ImportError:
        if REQUIRE_TOOLS:
            raise
    else:
        found["installed"] = _accel.canonical
    return found


def _decodes(data: bytes) -> bool:
    try:
        DECODER.decode(data)
    except DECODE_ERRORS:
        return False
    return True


def test_every_build_proves_only_canonical_lines_and_all_builds_agree(verifiers: dict[str, Verifier]) -> None:
    seen = proven = 0
    wrong: list[str] = []
    for name, data in fc.verifier_inputs():
        if not _decodes(data):
            continue  # outside the verifier's contract: msgspec refused it first
        seen += 1
        answers = {build: verify(data) for build, verify in verifiers.items()}
        if len(set(answers.values())) != 1:
            wrong.append(f"{name}: the builds disagree {answers}")
        if any(answers.values()):
            proven += 1
            if not fc.canonical(data):
                wrong.append(f"{name}: proven canonical by {answers}, but the pure path says {fc.oracle(data)!r:.120}")
        assert len(wrong) < 20, "\n".join(wrong)
    assert not wrong, "\n".join(wrong)
    assert seen > 10000 and proven > 3000, (seen, proven)


def test_well_formed_non_ascii_and_del_in_verbatim_values_are_proven(verifiers: dict[str, Verifier]) -> None:
    """The other side: the verifier must not lose what it is built to prove (a line it refuses
    only goes the slow way, but a verifier that proves nothing would pass the test above)."""
    for name, data in fc.must_prove():
        for build, verify in verifiers.items():
            assert verify(data), (build, name)
