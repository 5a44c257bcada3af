"""The npm package as a user gets it: `npm pack` from a checkout without dist/ (the `prepack` script
builds it), the tarball installed into a fresh project (no network: the package has no runtime
dependencies), a strict TypeScript file written against it (the README's TypeScript example, read
from README.md so the README cannot drift) compiled with the checkout's tsc and run with node.
Only the public entry points resolve: the internals are not exported."""

from __future__ import annotations

import json
import re
import subprocess
import tarfile
from pathlib import Path

import pytest
from conftest import ROOT, needs

TS = ROOT / "typescript"
TSC = TS / "node_modules" / "typescript" / "bin" / "tsc"

LINE = '{"timestamp":"2026-07-18T03:10:22.531Z","type":"model_msg","payload":{"type":"text","role":"user","text":"hi"}}'

pytestmark = needs("npm")


def npm(*args: str, cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(["npm", *args, "--no-audit", "--no-fund", "--loglevel=error"], cwd=cwd,
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"npm {' '.join(args)} failed:\n{r.stdout}\n{r.stderr}"
    return r


def readme_block(path: Path, lang: str) -> str:
    (block,) = re.findall(rf"^```{lang}\n(.*?)^```$", path.read_text(encoding="utf-8"), re.S | re.M)[:1]
    return block


@pytest.fixture(scope="module")
def tarball(npm_tarball: Path) -> Path:
    """`npm pack` of a fresh copy of the package's sources: no dist/, so only `prepack` can build it
    (the session's one pack, shared_builds.py)."""
    return npm_tarball


@pytest.fixture(scope="module")
def project(tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh project with the tarball installed (offline: there is nothing else to fetch)."""
    app = tmp_path_factory.mktemp("app")
    (app / "package.json").write_text(json.dumps({"name": "app", "private": True, "type": "module"}))
    npm("install", "--offline", str(tarball), cwd=app)
    return app


def test_the_tarball_carries_the_build(tarball: Path) -> None:
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
        manifest = json.loads(tar.extractfile("package/package.json").read())  # type: ignore[union-attr]
    for built in ["index.js", "index.d.ts", "internal.js", "runtime.js", "runtime.d.ts", "cli/main.js", "produce/index.js",
                  "produce/index.d.ts", "consume/index.js", "consume/index.d.ts", "restore/index.js", "restore/index.d.ts"]:
        assert f"package/dist/{built}" in names, built
    # ./runtime: what generated code links to; ./produce: the producer side (Node.js only);
    # ./consume: the SSE client and the render model (Node.js and browsers); ./restore: a session's
    # model context from its trace (Node.js only)
    assert set(manifest["exports"]) == {".", "./produce", "./consume", "./restore", "./runtime", "./package.json"}
    assert manifest["scripts"]["prepack"]


def test_a_strict_typescript_file_compiles_and_runs_against_the_installed_package(project: Path) -> None:
    example = readme_block(ROOT / "README.md", "ts")
    (project / "main.ts").write_text(example + 'console.log("typeof decode:", typeof (await import("omnimessage")).decode);\n')
    (project / "tsconfig.json").write_text(json.dumps({
        "compilerOptions": {
            "strict": True, "noUncheckedIndexedAccess": True, "noImplicitOverride": True,
            "module": "nodenext", "moduleResolution": "nodenext", "target": "es2023", "lib": ["es2023"],
            "typeRoots": [str(TS / "node_modules" / "@types")], "types": ["node"], "skipLibCheck": False,
        },
        "files": ["main.ts"],
    }))
    r = subprocess.run(["node", str(TSC), "-p", "tsconfig.json"], cwd=project, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
    run = subprocess.run(["node", "main.js"], cwd=project, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "hi" and lines[2] == "typeof decode: function", run.stdout
    assert lines[1].startswith('{"timestamp":"') and json.loads(lines[1])["payload"]["text"] == "hello", lines[1]


def test_internals_are_not_exported(project: Path) -> None:
    (project / "internal.ts").write_text('import { ARR, pyRepr, readLine } from "omnimessage";\nconsole.log(ARR, pyRepr, readLine);\n')
    (project / "tsconfig.internal.json").write_text(json.dumps({
        "compilerOptions": {"strict": True, "module": "nodenext", "moduleResolution": "nodenext", "noEmit": True,
                            "typeRoots": [str(TS / "node_modules" / "@types")], "types": ["node"]},
        "files": ["internal.ts"],
    }))
    r = subprocess.run(["node", str(TSC), "-p", "tsconfig.internal.json"], cwd=project, capture_output=True, text=True, timeout=180)
    assert r.returncode != 0
    for name in ["ARR", "pyRepr", "readLine"]:
        assert f"'{name}'" in r.stdout, r.stdout
    for deep in ["omnimessage/dist/reader.js", "omnimessage/generated", "#internal"]:
        run = subprocess.run(["node", "--input-type=module", "-e", f"await import({deep!r})"], cwd=project,
                             capture_output=True, text=True, timeout=60)
        assert run.returncode != 0 and ("ERR_PACKAGE_PATH_NOT_EXPORTED" in run.stderr or "ERR_PACKAGE_IMPORT_NOT_DEFINED" in run.stderr), (deep, run.stderr)


def test_require_works_where_the_engines_range_allows(project: Path) -> None:
    """CommonJS reaches the ESM package through Node's require(esm): on every version `engines` allows."""
    engines = json.loads((project / "node_modules" / "omnimessage" / "package.json").read_text())["engines"]["node"]
    assert engines == "^20.19.0 || >=22.12.0"
    r = subprocess.run(["node", "-e", 'const om = require("omnimessage"); console.log(om.encode(om.decode(process.argv[1])))',
                        LINE],
                       cwd=project, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == LINE + "\n"


def test_the_installed_bin_prints_the_package_version(project: Path) -> None:
    import omnimessage

    version = json.loads((TS / "package.json").read_text())["version"]
    assert version == omnimessage.__version__  # both packages are released together, with one version
    r = subprocess.run([str(project / "node_modules" / ".bin" / "omnimessage-ts"), "--version"],
                       capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (0, f"omnimessage {version}\n"), r.stderr


def compile_strict(project: Path, name: str, code: str) -> None:
    """`<name>.ts` holding `code`, compiled strict (Node.js types, ES2023) against the installed package."""
    (project / f"{name}.ts").write_text(code)
    (project / f"tsconfig.{name}.json").write_text(json.dumps({
        "compilerOptions": {"strict": True, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2023",
                            "lib": ["es2023"], "typeRoots": [str(TS / "node_modules" / "@types")], "types": ["node"]},
        "files": [f"{name}.ts"],
    }))
    r = subprocess.run(["node", str(TSC), "-p", f"tsconfig.{name}.json"], cwd=project, capture_output=True, text=True,
                       timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_producing_docs_typescript_producer_runs(project: Path, tmp_path: Path) -> None:
    """docs/producing.md's TypeScript producer, compiled strict against the installed package and run:
    its trace and stream validate with zero findings (test_producing_docs.py checks the output)."""
    from test_producing_docs import assert_clean_output, doc_block

    compile_strict(project, "producer", doc_block("ts"))
    run = subprocess.run(["node", str(project / "producer.js")], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert_clean_output(tmp_path)


def test_the_consuming_docs_typescript_consumer_runs(project: Path) -> None:
    """docs/consuming.md's TypeScript consumer, compiled strict against the installed package, reads
    examples/consume/live_cards.py's live session (a subagent): it prints every complete message's
    exact line, and on SIGINT the cards as JSON, the subagent's nested in the main session's."""
    import queue
    import signal
    import sys
    import threading

    (block,) = re.findall(r"^```ts\n(.*?)^```$", (ROOT / "docs" / "consuming.md").read_text(encoding="utf-8"), re.S | re.M)
    compile_strict(project, "consumer", block)
    traces = project / "traces"
    server = subprocess.Popen([sys.executable, str(ROOT / "examples" / "consume" / "live_cards.py"), "--delay", "0",
                               "--traces", str(traces)], stdout=subprocess.PIPE, text=True)
    consumer = None
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[1] + "events"
        consumer = subprocess.Popen(["node", str(project / "consumer.js"), url], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        got: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [got.put(x.rstrip("\n")) for x in consumer.stdout], daemon=True).start()  # type: ignore[union-attr]
        while server.stdout.readline() != "session done\n":
            pass
        sids = sorted({f.name.split("_")[0] for f in traces.rglob("*.jsonl")})
        lines = {sid: [x for f in sorted(traces.rglob(f"{sid}_*.jsonl")) for x in f.read_text(encoding="utf-8").splitlines()]
                 for sid in sids}
        (main,) = [sid for sid in sids if any('"type":"subagent"' in x for x in lines[sid])]
        (child,) = [sid for sid in sids if sid != main]
        want_main = [x for x in lines[main] if '"type":"subagent"' not in x and '"type":"session_meta"' not in x]
        want_child = [x[:-1] + f',"origin":["{child}"]}}' for x in lines[child]]
        printed = [got.get(timeout=60) for _ in range(len(want_main) + len(want_child))]
        consumer.send_signal(signal.SIGINT)
        _, err = consumer.communicate(timeout=60)
    finally:
        server.kill()
        server.wait(timeout=30)
        if consumer is not None and consumer.poll() is None:
            consumer.kill()
    assert consumer.returncode == 0, err
    assert [x for x in printed if '"origin"' not in x] == want_main
    assert [x for x in printed if '"origin"' in x] == want_child
    snap = json.loads(err.splitlines()[-1])
    cards = [x["card"] for x in snap["items"] if "card" in x]
    assert [c["origin"] for c in cards] == [[child]]
    assert sorted(x["message"] for x in cards[0]["items"]) == sorted(want_child)


def test_the_model_docs_typescript_blocks_run(project: Path) -> None:
    """docs/model.md's TypeScript blocks, compiled strict against the installed package and run from the
    repository's root: the restore example prints what the Python example prints (its `text` block),
    the projection example what the page says it prints, the way back (`fromStream`) what the
    Python `from_stream` example prints."""
    page = (ROOT / "docs" / "model.md").read_text(encoding="utf-8")
    restore_block, project_block, stream_block = re.findall(r"^```ts\n(.*?)^```$", page, re.S | re.M)
    restore_section, providers_section = page.split("\n## Providers\n", 1)
    (python_prints,) = re.findall(r"^```text\n(.*?)^```$", restore_section, re.S | re.M)
    (project_prints,) = re.findall(r"^```ts\n(?:.*?)^```\n\nprints[^\n]*\n\n```console\n(.*?)^```$", page, re.S | re.M)
    (python_stream_prints,) = re.findall(r"^```text\n(.*?)^```$", providers_section, re.S | re.M)
    # the way back prints what the Python example prints from its first partial on
    stream_prints = python_stream_prints[python_stream_prints.index("partial partial_thinking start"):]
    assert stream_prints.count("\n") == 9
    for name, block, want in [("model_restore", restore_block, python_prints), ("model_project", project_block, project_prints),
                              ("model_stream", stream_block, stream_prints)]:
        compile_strict(project, name, block)
        run = subprocess.run(["node", str(project / f"{name}.js")], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        assert run.stdout == want, name
