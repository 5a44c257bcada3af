"""The Rust binding where its users put it (issue 21): `omnimessage generate --target rust --out DIR`
in a fresh crate that depends on the checkout's `rust/` by path, built and run offline (no
registry: the crate has no dependencies); and the hostile file catalogue read by `omnimessage-rs
read`, under the catalogue's time and memory budget (peak RSS polled, and RLIMIT_AS, as in
test_hostile_files.py), with the counts the catalogue states."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, needs
from test_hostile_files import Sink, run_limited

CARGO = shutil.which("cargo")
RS_BIN = Path(os.environ.get("OMNIMESSAGE_RS_BIN", ROOT / "rust" / "target" / "release" / "omnimessage-rs"))

MAIN_RS = r"""
mod om;

use omnimessage::Encode;

fn main() {
    let line = br#"{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"thinking","role":"assistant","thinking":"ok","fidelity":{"sig" : "a\/b", "n":1.0}}}"#;
    // the user's own generated types, decoded and encoded by the crate's runtime
    let msg: om::Message = omnimessage::decode_as(line).expect("a message");
    let mut out = Vec::new();
    msg.encode(&mut out);
    assert_eq!(out, line.to_vec());
    assert!(om::guards::is_complete_model(&msg));
    let err = omnimessage::decode_as::<om::Message>(br#"{"timestamp":"t","type":"nope","payload":{}}"#).unwrap_err();
    assert_eq!((err.category.as_str(), err.pointer.to_string()), ("unknown_type", "/type".to_owned()));
    let built = om::builders::user_text("hi", om::builders::UserTextOptions { timestamp: Some("t".into()), ..Default::default() });
    let mut out = Vec::new();
    built.encode(&mut out);
    println!("{}", String::from_utf8(out).unwrap());
    assert_eq!(om::tables::MAX_DEPTH, omnimessage::tables::MAX_DEPTH);
}
"""


@needs("cargo")
def test_generate_target_rust_works_in_a_fresh_crate(tmp_path: Path) -> None:
    assert CARGO is not None
    crate = tmp_path / "user-crate"
    (crate / "src").mkdir(parents=True)
    dep = json.dumps(str(ROOT / "rust"))
    (crate / "Cargo.toml").write_text(
        f'[package]\nname = "user-crate"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nomnimessage = {{ path = {dep} }}\n'
    )
    (crate / "src" / "main.rs").write_text(MAIN_RS)
    gen = subprocess.run(
        [sys.executable, "-m", "omnimessage", "generate", "--target", "rust", "--out", str(crate / "src" / "om")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert gen.returncode == 0, gen.stderr
    assert (crate / "src" / "om" / "mod.rs").is_file()
    env = {**os.environ, "CARGO_TARGET_DIR": str(tmp_path / "target")}
    run = subprocess.run(
        [CARGO, "run", "--offline", "--quiet"], cwd=crate, capture_output=True, text=True, timeout=600, env=env
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "warning" not in run.stderr, run.stderr[-3000:]
    assert run.stdout.strip().endswith('"text":"hi","stop_reason":"completed"}}')


def _catalogue() -> list[dict]:  # type: ignore[type-arg]
    doc = json.loads((ROOT / "conformance" / "hostile" / "catalogue.json").read_text())
    return [c for c in doc["cases"] if c["tier"] == "test"]


def _materialize(case: dict, path: Path) -> None:  # type: ignore[type-arg]
    import base64

    with path.open("wb") as fh:
        for part in case["input"]["parts"]:
            piece = part["text"].encode("utf-8", "surrogatepass") if "text" in part else base64.b64decode(part["base64"])
            repeat = part.get("repeat", 1)
            chunk = max(1, (1 << 20) // max(1, len(piece)))
            while repeat > 0:
                n = min(repeat, chunk)
                fh.write(piece * n)
                repeat -= n


def _budget(case: dict, path: Path) -> tuple[float, float]:  # type: ignore[type-arg]
    """The catalogue's time and peak-RSS budget for the file (its longest line counted)."""
    doc = json.loads((ROOT / "conformance" / "hostile" / "catalogue.json").read_text())
    b = {**doc["budget"], **case.get("budget", {})}
    longest = run = 0
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            parts = chunk.split(b"\n")
            run += len(parts[0])
            for part in parts[1:]:
                longest, run = max(longest, run), len(part)
    longest = max(longest, run)
    return float(b["seconds"]), float(b["rss_mib"]) + float(b["rss_mib_per_mib"]) * longest / (1 << 20)


@needs("cargo")
@pytest.mark.parametrize("case", _catalogue(), ids=lambda c: c["id"])
def test_the_rust_reader_on_the_hostile_catalogue(case: dict, tmp_path: Path) -> None:  # type: ignore[type-arg]
    assert RS_BIN.is_file(), f"{RS_BIN} is not built (make rust-test)"
    path = tmp_path / "input.jsonl"
    _materialize(case, path)
    seconds, rss_mib = _budget(case, path)
    out, err = Sink(), Sink()
    run = run_limited(
        "rust-read",
        [str(RS_BIN), "read", str(path)],
        seconds=seconds,
        rss_mib=rss_mib,
        address_space_mib=rss_mib * 2 + 1024,
        stdout=out,
        stderr=err,
    )
    print(f"{case['id']}: {run.peak_rss_mib:.1f} MiB peak of {rss_mib:.0f}, {run.seconds:.2f}s")
    assert not run.problems, run.problems
    assert run.returncode == 0, err.tail[-2000:].decode(errors="replace")
    got = json.loads(out.tail.decode())
    want = case["expect"]
    assert (got["lines"], got["messages"], got["identical"]) == (want["lines"], want["messages"], want["identical"])
    assert got["refused"] == want["refused"]
