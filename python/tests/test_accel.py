"""The native accelerator (omnimessage._accel, issue 26) against its oracle, encode-and-compare.

Both proofs of canonical form run in this one process, on the same inputs: the whole conformance
suite, fresh cases of many seeds, the fuzz crash fixtures, the examples, the schema-driven
generator's lines and mutants of them (fuzz/differential.py's mutator). Strict and lenient
decoding must give the same verdict (the same message, or the same category, pointer and offset),
and every line the verifier accepts must be the canonical encoding of its message.
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

import omnimessage as om
from omnimessage.codec import api as codec
from omnimessage.codec import native as _accel_select
from omnimessage.codec.fast_path import decode_fast
from omnimessage.codec.tables import RUNTIME
from omnimessage.conformance import load_suite
from omnimessage.conformance.fresh import fresh_cases

REQUIRED = os.environ.get("OMNIMESSAGE_REQUIRE_TOOLS") == "1"  # make test: the accelerator must be built
try:
    from omnimessage import _accel  # type: ignore[attr-defined]
except ImportError:
    _accel = None

needs_accel = pytest.mark.skipif(_accel is None and not REQUIRED, reason="the native accelerator is not built")

PURE = RUNTIME._replace(native=None)


def _native() -> Any:
    assert _accel is not None and RUNTIME.native is not None, "the native accelerator is not built (make setup builds it)"
    return RUNTIME


def _differential() -> Any:
    spec = importlib.util.spec_from_file_location("fuzz_differential", ROOT / "fuzz" / "differential.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _verdict(data: bytes, lenient: bool, t: Any) -> tuple[Any, ...]:
    """The verdict of decoding with tables `t`, or with `t` None of the public `om.decode` (the
    accelerator's C entry when it is built)."""
    try:
        msg = om.decode(data, lenient=lenient) if t is None else codec._decode(data, lenient, t)
    except om.DecodeError as err:
        return ("err", err.category, err.pointer, err.offset, str(err))
    if isinstance(msg, om.OpaqueMessage):
        e = msg.error
        return ("opaque", msg.raw, e.category, e.pointer, e.offset, str(e))
    return ("msg", type(msg), msg)


def _inputs() -> Iterator[bytes]:
    suite = load_suite(ROOT / "conformance")
    for case in suite.cases:
        yield case.input
    for seed in range(12):
        for case in fresh_cases(suite, seed):
            yield case.input
    for f in sorted((ROOT / "fuzz" / "crashes").glob("*.bin")):
        yield f.read_bytes()
    diff = _differential()
    rng = random.Random(26)
    pool = diff.seed_pool(rng)
    yield from pool
    mutator = diff.Mutator(rng, pool)
    for _ in range(6000):
        yield mutator.next()


@needs_accel
def test_both_proofs_give_the_same_verdicts_and_the_verifier_accepts_only_canonical_lines() -> None:
    native = _native()
    seen = accepted = lost = 0
    for data in _inputs():
        seen += 1
        for lenient in (False, True):
            # the public decode: the accelerator's C entry (its fast path, then the slow path)
            assert _verdict(data, lenient, None) == _verdict(data, lenient, PURE), (data, lenient)
        fast = decode_fast(data, native)
        if fast is not None:
            accepted += 1
            line = data[:-1] if data.endswith(b"\n") else data
            assert om.encode(fast) == line, data  # a "yes" is a proof: the line is the canonical encoding
        elif decode_fast(data, PURE) is not None:
            lost += 1  # a "no" the oracle answers "yes" to: only slower (the slow path decides)
    assert seen > 10000 and accepted > 2000, (seen, accepted)
    assert lost * 10 < accepted, f"the verifier refuses {lost} of the oracle's canonical lines ({accepted} accepted)"


@needs_accel
def test_the_verifier_refuses_what_only_re_encoding_would_show() -> None:
    _native()
    canonical = _accel.canonical
    line = (ROOT / "examples" / "trace.jsonl").read_bytes().splitlines()[1]
    assert canonical(line) and canonical(line + b"\n")
    assert not canonical(line + b"\n\n") and not canonical(line + b" ") and not canonical(b" " + line)
    assert not canonical(line.replace(b'","', b'", "', 1))
    dup = line.replace(b'{"timestamp":', b'{"timestamp":"x","timestamp":', 1)
    assert not canonical(dup)
    swapped = b'{"type":"model_msg","timestamp":"t","payload":{"type":"text","role":"user","text":"a"}}'
    assert not canonical(swapped)
    ok = b'{"timestamp":"t","type":"model_msg","payload":{"type":"text","role":"user","text":"%s"}}'
    assert canonical(ok % b"a\\u001fb\\n\xc3\xa9")
    for bad in (b"\\u0041", b"\\/", b"\\u001F", b"\\u000a", b"\\ud800"):
        assert not canonical(ok % bad), bad
    for bad in (b"\xed\xa0\x80", b"\xc0\xaf", b"\xff"):  # UTF-8 outside verbatim values is msgspec's to refuse
        assert _accel.decode(ok % bad) is None and decode_fast(ok % bad, PURE) is None, bad
    num = (b'{"timestamp":"t","type":"event_msg","payload":{"type":"request_end","status":"retryable",'
           b'"error_code":"timeout","error_message":"m","attempt":1,"retry_in_ms":%s}}')
    for good in (b"0", b"12", b"12.5", b"0.000001", b"9007199254740991", b"123456789012.125"):
        assert canonical(num % good) and decode_fast(num % good, PURE) is not None, good
        assert _accel.decode(num % good) == decode_fast(num % good, PURE), good
    for bad in (b"-0", b"1.50", b"1e3", b"1E3", b"0.0000001", b"9007199254740992", b"1.0000000000000001"):
        assert not canonical(num % bad), bad


def test_version_names_the_path_in_use_and_pure_forces_the_fallback() -> None:
    env = {**os.environ, "OMNIMESSAGE_PURE": "1"}
    out = subprocess.run([sys.executable, "-m", "omnimessage", "--version"], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert out == f"omnimessage {om.__version__}\ncodec: pure Python (OMNIMESSAGE_PURE=1)\n"
    probe = "from omnimessage.codec import tables; print(tables.RUNTIME.native is None)"
    assert subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                          check=True).stdout == "True\n"
    env.pop("OMNIMESSAGE_PURE")
    out = subprocess.run([sys.executable, "-m", "omnimessage", "--version"], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert out.splitlines()[1] == f"codec: {_accel_select.DESCRIPTION}"
    if _accel is not None or REQUIRED:
        assert out.splitlines()[1] == "codec: native accelerator (omnimessage._accel)"


def test_a_build_without_a_compiler_installs_the_pure_fallback_and_says_so_once(tmp_path: Path) -> None:
    """`pip install` of the source tree with CC=false: a pure wheel, one line saying so, a working codec."""
    out = tmp_path / "wheels"
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v",
                        "--wheel-dir", str(out), str(ROOT)], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    said = [ln for ln in (r.stdout + r.stderr).splitlines() if "the native accelerator was not built" in ln]
    assert len(said) == 1, said
    wheels = list(out.glob("*.whl"))
    assert [w.name for w in wheels] == [f"omnimessage-{om.__version__}-py3-none-any.whl"]
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target),
                    str(wheels[0])], check=True, timeout=600)
    probe = ("import omnimessage, sys; from omnimessage.codec import native as s; print(s.DESCRIPTION); "
             "sys.stdout.buffer.write(omnimessage.canonicalize(open(sys.argv[1], 'rb').readline()))")
    line = (ROOT / "examples" / "trace.jsonl").read_bytes().splitlines()[0]
    p = subprocess.run([sys.executable, "-c", probe, str(ROOT / "examples" / "trace.jsonl")], capture_output=True,
                       env={**os.environ, "PYTHONPATH": str(target)}, cwd=tmp_path, check=True)
    said, _, rest = p.stdout.partition(b"\n")
    assert said.startswith(b"pure Python (the native accelerator is not built") and rest == line


# Ill-formed UTF-8: a stray continuation byte, an overlong slash, a surrogate, a truncated sequence,
# bytes never in UTF-8, a code point past U+10FFFF.
_ILL_FORMED = (b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe2\x82", b"\xff", b"\xf4\x90\x80\x80")


@needs_accel
def test_ill_formed_utf8_in_any_string_is_refused_by_the_one_native_call() -> None:
    """The verifier leaves UTF-8 outside verbatim values to msgspec (verify.h): for every string of
    the example lines (keys, tags, enum values, text, verbatim values), ill-formed bytes put inside
    it are refused by `_accel.decode` exactly as by the pure path, and never accepted."""
    _native()
    tried = 0
    for path in sorted((ROOT / "examples").glob("*.jsonl")):
        for line in path.read_bytes().splitlines():
            if _accel.decode(line) is None:
                continue
            quotes = [i for i in range(len(line)) if line[i] == 0x22 and line[i - 1] != 0x5C]
            for at in quotes[::2]:  # just inside each string (every other quote opens one)
                for bad in _ILL_FORMED:
                    data = line[:at + 1] + bad + line[at + 1:]
                    tried += 1
                    assert _accel.decode(data) is None, data
                    assert _verdict(data, False, _native()) == _verdict(data, False, PURE), data
    assert tried > 1000, tried
