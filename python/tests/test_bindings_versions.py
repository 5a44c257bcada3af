"""Bindings of a pinned protocol version, where users put them: `omnimessage generate --target python
--protocol V` (and `--target rust`, in a fresh crate) into a fresh project outside the checkout (its own virtual environment holding the wheel
built from the checkout), for the release 0.2.4 and for the newest version. Each package states its
version (header, `PROTOCOL_VERSION`), is accepted by the runtime when imported, and decodes every line
its version's producer corpus (conformance/producers/index.json `protocol`) holds strictly, on both
decoding paths, writing each back byte for byte; it refuses the other version's vocabulary. The same
through the library API (`omnimessage_codegen.load_protocol`), and an edited package is refused with
a message that does not blame two identical releases.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, needs

import omnimessage
from omnimessage.versions import newest

PRODUCERS = ROOT / "conformance" / "producers"
PINNED = "0.2.4"

DECODE_ALL = '''\
"""Every line of the given files through one generated package: strict decode, byte-exact encode."""

import importlib
import sys
from pathlib import Path

version, name, files = sys.argv[1], sys.argv[2], sys.argv[3:]
pkg = importlib.import_module(name)
assert pkg.PROTOCOL_VERSION == version, pkg.PROTOCOL_VERSION
assert f"protocol {version};" in Path(pkg.__file__).read_text(encoding="utf-8").splitlines()[0]
n = 0
for f in files:
    for line in Path(f).read_bytes().splitlines():
        msg = pkg.decode(line)
        assert type(msg).__module__ == name + ".models", type(msg)
        assert pkg.encode(msg) == line, line
        spaced = line.replace(b'{"timestamp":', b'{ "timestamp" : ', 1)  # not canonical: the slow path
        again = pkg.decode(spaced)
        assert again == msg and pkg.encode(again) == line, line
        n += 1
print(f"ok {n} lines")
'''


def corpus_files(version: str) -> list[Path]:
    """The JSON Lines files of the producer corpus written in `version`."""
    index = json.loads((PRODUCERS / "index.json").read_text(encoding="utf-8"))
    out: list[Path] = []
    for e in index["entries"]:
        if e["protocol"] != version or e["input"] == "sse":
            continue
        path = PRODUCERS / e["path"]
        out += sorted(path.rglob("*.jsonl")) if e["input"] == "dir" else [path]
    return out


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, omnimessage_wheel: Path) -> Path:
    """A fresh project outside the checkout with a virtual environment holding `omnimessage[codegen]`
    from the wheel built from the checkout (the session's one build, shared_builds.py)."""
    whl = omnimessage_wheel
    root = tmp_path_factory.mktemp("project")
    assert not root.resolve().is_relative_to(ROOT.resolve())
    subprocess.run([sys.executable, "-m", "venv", str(root / ".venv")], check=True, timeout=300)
    r = subprocess.run([str(root / ".venv" / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
                        f"{whl}[codegen]"], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    (root / "decode_all.py").write_text(DECODE_ALL, encoding="utf-8")
    return root


def run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH"))}
    return subprocess.run([*args], cwd=project, capture_output=True, text=True, timeout=600, env=env)


def test_corpus_of_both_versions_is_there() -> None:
    assert len(corpus_files(PINNED)) >= 2 and len(corpus_files(newest())) >= 4
    assert newest() != PINNED


@pytest.mark.parametrize("version", [PINNED, "newest"])
def test_generated_bindings_of_a_version_decode_its_corpus(project: Path, version: str) -> None:
    version = newest() if version == "newest" else version
    name = "om_" + version.replace(".", "_")
    cli = str(project / ".venv" / "bin" / "omnimessage")
    py = str(project / ".venv" / "bin" / "python")
    r = run(project, cli, "generate", "--target", "python", "--protocol", version, "--out", name)
    assert r.returncode == 0, r.stderr
    files = corpus_files(version)
    lines = sum(len(f.read_bytes().splitlines()) for f in files)
    r = run(project, py, "decode_all.py", version, name, *map(str, files))
    assert r.returncode == 0 and r.stdout == f"ok {lines} lines\n", r.stdout + r.stderr
    # the other version's vocabulary is refused, strictly
    other = ('"status":"failed"', "invalid_value") if version != PINNED else ('"reported_cost"', "unexpected_field")
    probe = {PINNED: b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"token_usage",'
                     b'"session":{"cache_read":0,"cache_write":0,"output":1,"total":2},"request":{"cache_read":0,'
                     b'"cache_write":0,"output":1,"total":2},"reported_cost":{"amount":0.25,"currency":"USD"}}}',
             newest(): b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_end",'
                       b'"status":"failed"}}'}[version]
    assert other[0].encode() in probe
    code = f"import {name}, omnimessage as om\ntry:\n    {name}.decode({probe!r})\nexcept om.DecodeError as e:\n" \
           f"    print(e.category)\n"
    r = run(project, py, "-c", code)
    assert r.returncode == 0 and r.stdout.strip() == other[1], r.stdout + r.stderr


def test_library_api_and_an_edited_package(project: Path) -> None:
    py = str(project / ".venv" / "bin" / "python")
    gen = ("from pathlib import Path; from omnimessage_codegen import generate, load_protocol; "
           f"generate('python', load_protocol('{PINNED}'), Path('lib024'))")
    r = run(project, py, "-c", gen)
    assert r.returncode == 0, r.stderr
    r = run(project, py, "-c", "import lib024; print(lib024.PROTOCOL_VERSION, lib024.CODEC)")
    assert r.returncode == 0 and r.stdout.startswith(f"{PINNED} omnimessage.Codec(lib024"), r.stdout + r.stderr
    models = project / "lib024" / "models.py"
    text = models.read_text(encoding="utf-8")
    anchor = "class TextPayload("
    assert anchor in text
    edited = text.replace('    text: str\n', '    text: str\n    mood: str | UnsetType = UNSET\n', 1)
    assert edited != text
    models.write_text(edited, encoding="utf-8")
    r = run(project, py, "-c", "import lib024")
    release = omnimessage.__version__
    assert r.returncode == 1 and "IncompatibleSchemaError: lib024 was generated from schema" in r.stderr, r.stderr
    assert f"(protocol {PINNED}) by omnimessage {release}" in r.stderr, r.stderr
    assert f"--protocol {PINNED}" in r.stderr and "did not write these structs as they are" in r.stderr, r.stderr
    assert "install omnimessage" not in r.stderr, r.stderr  # not: "generated by X, install X" with X this release
    r = run(project, str(project / ".venv" / "bin" / "omnimessage"), "generate", "--target", "python", "--protocol",
            "9.9", "--out", "x")
    assert r.returncode == 2 and r.stderr.startswith("omnimessage generate: unknown protocol '9.9' (known: "), r.stderr
    assert not (project / "x").exists()


RUST_MAIN = r"""
mod om_pinned;
mod om_newest;

use omnimessage::ser::Encode;
use std::io::BufRead;

fn check<T: omnimessage::de::Decode + Encode>(files: &[String]) -> usize {
    let mut n = 0;
    for f in files {
        let reader = std::io::BufReader::new(std::fs::File::open(f).expect("a corpus file"));
        for line in reader.split(b'\n') {
            let line = line.expect("a line");
            let msg: T = omnimessage::decode_as(&line).unwrap_or_else(|e| panic!("{f}: {e:?}"));
            let mut out = Vec::new();
            msg.encode(&mut out);
            assert_eq!(out, line, "{f}");
            n += 1;
        }
    }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (version, files) = (args[0].as_str(), &args[1..]);
    let (n, other) = if version == om_pinned::tables::PROTOCOL_VERSION {
        (check::<om_pinned::Message>(files), omnimessage::decode_as::<om_pinned::Message>(PINNED_REFUSES).map(|_| ()))
    } else {
        assert_eq!(version, om_newest::tables::PROTOCOL_VERSION);
        (check::<om_newest::Message>(files), omnimessage::decode_as::<om_newest::Message>(NEWEST_REFUSES).map(|_| ()))
    };
    let err = other.expect_err("the other version's vocabulary is refused");
    println!("ok {n} lines; other: {}", err.category.as_str());
}

const PINNED_REFUSES: &[u8] = br#"{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"token_usage","session":{"cache_read":0,"cache_write":0,"output":1,"total":2},"request":{"cache_read":0,"cache_write":0,"output":1,"total":2},"reported_cost":{"amount":0.25,"currency":"USD"}}}"#;
const NEWEST_REFUSES: &[u8] = br#"{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_end","status":"failed"}}"#;
"""


@needs("cargo")
def test_rust_bindings_of_both_versions_decode_their_corpus_in_a_fresh_crate(tmp_path: Path) -> None:
    cargo = shutil.which("cargo")
    assert cargo is not None
    crate = tmp_path / "pinned-crate"
    (crate / "src").mkdir(parents=True)
    dep = json.dumps(str(ROOT / "rust"))
    (crate / "Cargo.toml").write_text(f'[package]\nname = "pinned-crate"\nversion = "0.1.0"\nedition = "2021"\n\n'
                                      f'[dependencies]\nomnimessage = {{ path = {dep} }}\n', encoding="utf-8")
    (crate / "src" / "main.rs").write_text(RUST_MAIN, encoding="utf-8")
    for mod, version in (("om_pinned", PINNED), ("om_newest", newest())):
        gen = subprocess.run([sys.executable, "-m", "omnimessage", "generate", "--target", "rust", "--protocol", version,
                              "--out", str(crate / "src" / mod)], capture_output=True, text=True, timeout=300)
        assert gen.returncode == 0, gen.stderr
        head = (crate / "src" / mod / "tables.rs").read_text(encoding="utf-8").splitlines()[0]
        assert head.endswith(f", protocol {version}; do not edit."), head
    env = {**os.environ, "CARGO_TARGET_DIR": str(tmp_path / "target")}
    build = subprocess.run([cargo, "build", "--offline", "--quiet"], cwd=crate, capture_output=True, text=True,
                           timeout=900, env=env)
    assert build.returncode == 0 and "warning" not in build.stderr, build.stderr[-3000:]
    exe = tmp_path / "target" / "debug" / "pinned-crate"
    for version, category in ((PINNED, "unexpected_field"), (newest(), "invalid_value")):
        files = corpus_files(version)
        lines = sum(len(f.read_bytes().splitlines()) for f in files)
        r = subprocess.run([str(exe), version, *map(str, files)], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0 and r.stdout == f"ok {lines} lines; other: {category}\n", r.stdout + r.stderr[-3000:]
