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
from test_bindings_python import blocks, doc_sections
from test_go_module import go_env
from test_npm_package import npm

import omnimessage
from omnimessage.schema.versions import newest, versions

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


def test_python_version_rule(project: Path) -> None:
    """The version rule (docs/bindings.md, "Versions"): bindings of a version the runtime lists load
    (0.2.4, above), the same package stating a version it does not list is refused at import,
    naming the versions it knows."""
    py = str(project / ".venv" / "bin" / "python")
    r = run(project, str(project / ".venv" / "bin" / "omnimessage"), "generate", "--target", "python", "--protocol",
            PINNED, "--out", "rule024")
    assert r.returncode == 0, r.stderr
    r = run(project, py, "-c", "import rule024; print(rule024.PROTOCOL_VERSION)")
    assert r.returncode == 0 and r.stdout == f"{PINNED}\n", r.stdout + r.stderr
    models = project / "rule024" / "models.py"
    text = models.read_text(encoding="utf-8")
    edited = text.replace(f'PROTOCOL_VERSION: Final = "{PINNED}"', 'PROTOCOL_VERSION: Final = "9.9"', 1)
    assert edited != text, [ln for ln in text.splitlines() if "PROTOCOL_VERSION" in ln]
    models.write_text(edited, encoding="utf-8")
    r = run(project, py, "-c", "import rule024")
    known = ", ".join(versions())
    assert r.returncode == 1 and f"knows no protocol 9.9 (it knows {known})" in r.stderr, r.stderr[-2000:]
    assert "install omnimessage" not in r.stderr, r.stderr[-2000:]


RUST_MAIN = r"""
mod om_pinned;
mod om_newest;

use omnimessage::Encode;
use std::io::BufRead;

fn check<T: omnimessage::Decode + Encode>(files: &[String]) -> usize {
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
    # the version rule: the same module stating a version the crate does not list does not compile
    tables = crate / "src" / "om_pinned" / "tables.rs"
    text = tables.read_text(encoding="utf-8")
    edited = text.replace(f'PROTOCOL_VERSION: &str = "{PINNED}";', 'PROTOCOL_VERSION: &str = "9.9";', 1)
    assert edited != text
    tables.write_text(edited, encoding="utf-8")
    build = subprocess.run([cargo, "build", "--offline", "--quiet"], cwd=crate, capture_output=True, text=True,
                           timeout=900, env=env)
    assert build.returncode != 0 and "a protocol version this runtime does not know" in build.stderr, build.stderr[-3000:]


# --- TypeScript: a fresh npm project on the packed package, compiled with tsc --strict ---------------

TS_MAIN = """\
import { readFileSync } from "node:fs";
import { DecodeError } from "omnimessage";
import * as newest from "./newest/index.js";
import * as pinned from "./pinned/index.js";

function check<M>(decode: (line: Uint8Array) => M, encode: (msg: M) => string, files: string[]): number {
  let n = 0;
  for (const f of files) {
    const data = readFileSync(f);
    for (let at = 0; at < data.length; ) {
      const nl = data.indexOf(10, at);
      const line = data.subarray(at, nl < 0 ? data.length : nl);
      at = nl < 0 ? data.length : nl + 1;
      const msg = decode(line);
      if (!Buffer.from(encode(msg), "utf8").equals(line)) throw new Error(`${f}: not byte for byte: ${line}`);
      // not canonical: the general paths (plain, slow) of the same tables
      const spaced = Buffer.from(line.toString("utf8").replace('{"timestamp":', '{ "timestamp" : '), "utf8");
      if (!Buffer.from(encode(decode(spaced)), "utf8").equals(line)) throw new Error(`${f}: spaced: ${line}`);
      n++;
    }
  }
  return n;
}

function category(probe: () => unknown): string {
  try {
    probe();
  } catch (e) {
    if (e instanceof DecodeError) return e.category;
    throw e;
  }
  throw new Error("the other version's vocabulary is refused");
}

const [version, ...files] = process.argv.slice(2);
const PINNED_REFUSES = PINNED_PROBE;
const NEWEST_REFUSES = NEWEST_PROBE;
if (version === pinned.PROTOCOL_VERSION) {
  const n = check<pinned.OmniMessage>(pinned.decode, pinned.encode, files);
  console.log(`ok ${n} lines; other: ${category(() => pinned.decode(PINNED_REFUSES))}`);
} else if (version === newest.PROTOCOL_VERSION) {
  const n = check<newest.OmniMessage>(newest.decode, newest.encode, files);
  console.log(`ok ${n} lines; other: ${category(() => newest.decode(NEWEST_REFUSES))}`);
} else {
  throw new Error(`unknown version ${version}`);
}
"""

PROBES = {
    PINNED: b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"token_usage",'
            b'"session":{"cache_read":0,"cache_write":0,"output":1,"total":2},"request":{"cache_read":0,'
            b'"cache_write":0,"output":1,"total":2},"reported_cost":{"amount":0.25,"currency":"USD"}}}',
    "newest": b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_end",'
              b'"status":"failed"}}',
}


def generate_both(target: str, out: Path, header_file: str) -> None:
    """`omnimessage generate --target TARGET --protocol V --out OUT/pinned` (0.2.4) and `OUT/newest`;
    each file named `header_file` states its version in its first line."""
    for name, version in (("pinned", PINNED), ("newest", newest())):
        gen = subprocess.run([sys.executable, "-m", "omnimessage", "generate", "--target", target, "--protocol", version,
                              "--out", str(out / name)], capture_output=True, text=True, timeout=300)
        assert gen.returncode == 0, gen.stderr
        head = (out / name / header_file).read_text(encoding="utf-8").splitlines()[0]
        assert f", protocol {version}; do not edit." in head, head


@pytest.fixture(scope="module")
def ts_project(tmp_path_factory: pytest.TempPathFactory, npm_tarball: Path, ts_toolchain: list[Path]) -> Path:
    """A fresh npm project outside the checkout as docs/bindings.md's `typescript` section sets one up
    (the packed package, the pinned typescript, npm offline), the bindings of 0.2.4 in `src/pinned`
    and of the newest version in `src/newest`, compiled by `tsc -p .` (`strict` in its tsconfig)."""
    root = tmp_path_factory.mktemp("ts-versions")
    assert not root.resolve().is_relative_to(ROOT.resolve())
    npm("init", "-y", cwd=root)
    npm("pkg", "set", "type=module", cwd=root)
    npm("install", "--offline", str(npm_tarball), cwd=root)
    npm("install", "--offline", "--save-dev", *map(str, ts_toolchain), cwd=root)
    (tsconfig,) = [text for _, name, text in blocks(doc_sections()["typescript"]) if name == "tsconfig.json"]
    assert '"strict": true' in tsconfig
    (root / "tsconfig.json").write_text(tsconfig, encoding="utf-8")
    (root / "src").mkdir()
    main = TS_MAIN.replace("PINNED_PROBE", json.dumps(PROBES[PINNED].decode()))
    (root / "src" / "main.ts").write_text(main.replace("NEWEST_PROBE", json.dumps(PROBES["newest"].decode())),
                                          encoding="utf-8")
    generate_both("typescript", root / "src", "schema.ts")
    tsc = subprocess.run([str(root / "node_modules" / ".bin" / "tsc"), "-p", ".", "--strict"], cwd=root,
                         capture_output=True, text=True, timeout=600)
    assert tsc.returncode == 0, tsc.stdout + tsc.stderr
    return root


@needs("npm")
@pytest.mark.parametrize("version", [PINNED, "newest"])
def test_typescript_bindings_of_a_version_decode_its_corpus_in_a_fresh_project(ts_project: Path, version: str) -> None:
    version, category = (PINNED, "unexpected_field") if version == PINNED else (newest(), "invalid_value")
    files = corpus_files(version)
    lines = sum(len(f.read_bytes().splitlines()) for f in files)
    r = subprocess.run(["node", "dist/main.js", version, *map(str, files)], cwd=ts_project, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0 and r.stdout == f"ok {lines} lines; other: {category}\n", r.stdout + r.stderr[-3000:]


@needs("npm")
def test_typescript_runtime_refuses_a_version_it_does_not_know(ts_project: Path) -> None:
    """The version rule (docs/bindings.md, "Versions"): 0.2.4 loads (above); the same code stating a
    version the runtime's schema does not list is refused when it loads, naming the known ones."""
    dist = ts_project / "dist" / "pinned" / "schema.js"
    text = dist.read_text(encoding="utf-8")
    edited = text.replace(f'PROTOCOL_VERSION = "{PINNED}"', 'PROTOCOL_VERSION = "9.9"', 1)
    edited = edited.replace(f':protocol-{PINNED}"', ':protocol-9.9"', 1)
    assert edited.count("9.9") == 2, edited[:2000]
    dist.write_text(edited, encoding="utf-8")
    try:
        r = subprocess.run(["node", "dist/main.js", PINNED], cwd=ts_project, capture_output=True, text=True,
                           timeout=120)
    finally:
        dist.write_text(text, encoding="utf-8")
    assert r.returncode == 1 and "IncompatibleSchemaError" in r.stderr, r.stderr[-3000:]
    assert 'this runtime knows no protocol "9.9" (it knows ' in r.stderr and f"{PINNED}, " in r.stderr, r.stderr[-3000:]


# --- Go: a fresh module outside the checkout, the runtime through a `replace` directive ----------------

GO_MAIN = """\
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"

	om "github.com/omnimessage/omnimessage/go"
	newest "example.com/pinned/newest"
	pinned "example.com/pinned/pinned"
)

func check[M any](decode func([]byte) (M, error), encode func(M) []byte, files []string) int {
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			line := sc.Bytes()
			msg, err := decode(line)
			if err != nil {
				panic(fmt.Sprintf("%s: %v", f, err))
			}
			if !bytes.Equal(encode(msg), line) {
				panic(fmt.Sprintf("%s: not byte for byte: %s", f, line))
			}
			spaced := bytes.Replace(line, []byte(`{"timestamp":`), []byte(`{ "timestamp" : `), 1)
			if again, err := decode(spaced); err != nil || !bytes.Equal(encode(again), line) {
				panic(fmt.Sprintf("%s: spaced: %v %s", f, err, line))
			}
			n++
		}
	}
	return n
}

func category(err error) string {
	var e *om.Error
	if !errors.As(err, &e) {
		panic(fmt.Sprintf("the other version's vocabulary is refused: %v", err))
	}
	return string(e.Category)
}

func main() {
	version, files := os.Args[1], os.Args[2:]
	var n int
	var err error
	switch version {
	case pinned.ProtocolVersion:
		n = check(pinned.Decode, pinned.Encode, files)
		_, err = pinned.Decode([]byte(PINNED_PROBE))
	case newest.ProtocolVersion:
		n = check(newest.Decode, newest.Encode, files)
		_, err = newest.Decode([]byte(NEWEST_PROBE))
	default:
		panic("unknown version " + version)
	}
	fmt.Printf("ok %d lines; other: %s\\n", n, category(err))
}
"""


@pytest.fixture(scope="module")
def go_binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh Go module outside the checkout requiring the runtime through a `replace` directive to
    the checkout's `go/` (docs/bindings.md, `go`), the bindings of 0.2.4 in `pinned/` and of the
    newest version in `newest/`, built offline."""
    root = tmp_path_factory.mktemp("go-versions")
    assert not root.resolve().is_relative_to(ROOT.resolve())
    (root / "go.mod").write_text("module example.com/pinned\n\ngo 1.22\n\nrequire github.com/omnimessage/omnimessage/go "
                                 f"v0.0.0\n\nreplace github.com/omnimessage/omnimessage/go => {ROOT / 'go'}\n",
                                 encoding="utf-8")
    main = GO_MAIN.replace("PINNED_PROBE", f"`{PROBES[PINNED].decode()}`")
    (root / "main.go").write_text(main.replace("NEWEST_PROBE", f"`{PROBES['newest'].decode()}`"), encoding="utf-8")
    generate_both("go", root, "tables.go")
    r = subprocess.run(["go", "build", "-o", "app", "."], cwd=root, capture_output=True, text=True, env=go_env(),
                       timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    return root / "app"


@needs("go")
@pytest.mark.parametrize("version", [PINNED, "newest"])
def test_go_bindings_of_a_version_decode_its_corpus_in_a_fresh_module(go_binary: Path, version: str) -> None:
    version, category = (PINNED, "unexpected_field") if version == PINNED else (newest(), "invalid_value")
    files = corpus_files(version)
    lines = sum(len(f.read_bytes().splitlines()) for f in files)
    r = subprocess.run([str(go_binary), version, *map(str, files)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout == f"ok {lines} lines; other: {category}\n", r.stdout + r.stderr[-3000:]
