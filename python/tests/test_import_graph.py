"""No import loop: the modules of `python/omnimessage`, of the Rust library crate and of the
TypeScript package (`typescript/src`) form a graph without cycles (issue 39). Go needs no test: its
compiler refuses an import cycle between packages, and one package's files share one scope.

The graphs are read statically, so an import hidden inside a function (the usual way a loop is
closed without Python noticing) counts like any other. One loop is still known and allowed by name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "python" / "omnimessage"
RUST_SRC = ROOT / "rust" / "src"
TS_SRC = ROOT / "typescript" / "src"

# The loops still known, each a set of modules; nothing else may form one. None is left: the last,
# validate.inputs <-> validate.storage, ended when the object opening moved to validate/sources/objects.py.
ALLOWED_LOOPS: frozenset[frozenset[str]] = frozenset()

# Native extension modules (C, built by hatch_build.py): leaves of the graph, with no `.py` file.
NATIVE_MODULES: frozenset[str] = frozenset({"omnimessage._accel"})

Graph = Mapping[str, set[str]]


def python_modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Dotted module name -> file, for every `.py` file of the package (a package is its `__init__`)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _owner(name: str, modules: Mapping[str, Path]) -> str | None:
    """The longest module that `name` (a module or a name in one) lives in, if it is ours."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def python_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the modules it imports, from every `import` and `from ... import` anywhere in it
    (inside functions and `if TYPE_CHECKING:` too)."""
    modules = python_modules(package)
    known = {**modules, **{name: package for name in NATIVE_MODULES}}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        here = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = here
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                if node.level:
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                # `from pkg import sub` imports the module pkg.sub; `from mod import name`, mod
                targets = [f"{base}.{alias.name}" for alias in node.names]
            for target in targets:
                owner = _owner(target, known)
                if owner is not None and owner != mod and owner in modules:
                    graph[mod].add(owner)
    return graph


def rust_modules(src: Path = RUST_SRC) -> dict[str, Path]:
    """`crate::a::b` -> file, for the library crate (`src/bin/` holds other crates)."""
    out = {}
    for path in sorted(src.rglob("*.rs")):
        rel = path.relative_to(src)
        if rel.parts[0] == "bin":
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] in ("lib", "mod"):
            parts.pop()
        out["::".join(["crate", *parts])] = path
    return out


_CRATE_PATH = re.compile(r"\bcrate((?:::\w+)+)")
_CRATE_GROUP = re.compile(r"\bcrate::\{([^}]*)\}")
_SUPER_PATH = re.compile(r"\bsuper((?:::\w+)*)::(?:\{|\*|\w)")


def rust_graph(src: Path = RUST_SRC) -> dict[str, set[str]]:
    """Module -> the modules whose items it names by `crate::` or `super::` path, outside its
    `#[cfg(test)]` tail. A child naming its parent is left out: a child module reaching its
    parent's private items is how Rust nests a concept, not a loop between two concepts."""
    modules = rust_modules(src)
    graph: dict[str, set[str]] = {m: set() for m in modules}

    def owner(path: str) -> str | None:
        while path:
            if path in modules:
                return path
            path = path.rpartition("::")[0]
        return None

    for mod, path in modules.items():
        text = path.read_text(encoding="utf-8").split("#[cfg(test)]")[0]
        text = re.sub(r"//[^\n]*", "", text)
        names = ["crate" + m.group(1) for m in _CRATE_PATH.finditer(text)]
        for group in _CRATE_GROUP.finditer(text):
            names += ["crate::" + item.strip().split("::")[0] for item in group.group(1).split(",") if item.strip()]
        parent = mod if path.name in ("lib.rs", "mod.rs") else mod.rpartition("::")[0]
        parent = parent.rpartition("::")[0]
        names += [parent + m.group(1) for m in _SUPER_PATH.finditer(text)]
        for name in names:
            target = owner(name)
            if target is not None and target != mod and not mod.startswith(target + "::"):
                graph[mod].add(target)
    return graph


_TS_SPEC = re.compile(
    r"""(?:^|[;\s])(?:import|export)\b[^;'"]*?\bfrom\s*["'](\.{1,2}/[^"']+)["']"""  # import/export ... from "./x.js"
    r"""|\bimport\s*\(\s*["'](\.{1,2}/[^"']+)["']\s*\)"""  # import("./x.js")
    r"""|^import\s*["'](\.{1,2}/[^"']+)["']""",  # import "./x.js" (for its effects)
    re.M,
)


def typescript_graph(src: Path = TS_SRC) -> dict[str, set[str]]:
    """Module (its path under `src`, no suffix) -> the modules of the package it imports or re-exports
    from, type-only imports and dynamic `import()` included (comments dropped). A specifier that
    names no module of the package fails: the graph would silently miss an edge."""
    modules = {p.relative_to(src).with_suffix("").as_posix(): p for p in sorted(src.rglob("*.ts"))
               if not p.name.endswith(".d.ts")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        code = re.sub(r"/\*.*?\*/|(?<![:\\])//[^\n]*", "", path.read_text(encoding="utf-8"), flags=re.S)
        for m in _TS_SPEC.finditer(code):
            spec = next(group for group in m.groups() if group)
            target = re.sub(r"\.(?:js|ts|mjs)$", "", (path.parent / spec).resolve().relative_to(src.resolve()).as_posix())
            if target not in modules and f"{target}/index" in modules:
                target += "/index"
            assert target in modules, f"{path}: {spec!r} names no module of {src}"
            if target != mod:
                graph[mod].add(target)
    return graph


def cycles(graph: Graph) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def _explain(loops: list[frozenset[str]], graph: Graph) -> str:
    lines = []
    for loop in loops:
        edges = [f"{a} -> {b}" for a in sorted(loop) for b in sorted(graph[a] & loop)]
        lines.append("a loop of " + ", ".join(sorted(loop)) + ":\n    " + "\n    ".join(edges))
    return "\n".join(lines)


def test_the_cycle_finder_finds_a_loop_and_only_a_loop() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) == []


def test_the_python_graph_sees_imports_inside_functions(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n__version__ = '1'\n")
    (pkg / "a.py").write_text("def f():\n    from . import __version__\n    from .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("import pkg.a\n")
    graph = python_graph(pkg)
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg", "pkg.sub.b"}, "pkg.sub": set(), "pkg.sub.b": {"pkg.a"}}
    assert cycles(graph) == [frozenset({"pkg", "pkg.a", "pkg.sub.b"})]


def test_the_rust_graph_sees_paths_in_code_and_groups(tmp_path: Path) -> None:
    (tmp_path / "de").mkdir()
    (tmp_path / "lib.rs").write_text("mod a;\nmod b;\nmod de;\n")
    (tmp_path / "a.rs").write_text("use crate::{b::X, de};\n")
    (tmp_path / "b.rs").write_text("fn f() { crate::a::g(); }\n#[cfg(test)]\nmod tests { use crate::de::Y; }\n")
    (tmp_path / "de.rs").write_text("mod numbers;\n")
    (tmp_path / "de" / "numbers.rs").write_text("use super::{De, Result};\n")
    graph = rust_graph(tmp_path)
    assert graph["crate::a"] == {"crate::b", "crate::de"}
    assert graph["crate::b"] == {"crate::a"}  # the test module's path is left out
    assert graph["crate::de::numbers"] == set()  # a child naming its parent
    assert cycles(graph) == [frozenset({"crate::a", "crate::b"})]


def test_no_import_loop_in_the_python_package() -> None:
    graph = python_graph()
    assert "omnimessage.codec.tables" in graph and "omnimessage.validate.reporting.html" in graph  # read the real package
    found = cycles(graph)
    loops = [loop for loop in found if loop not in ALLOWED_LOOPS]
    assert not loops, _explain(loops, graph)
    assert set(found) >= ALLOWED_LOOPS, "an allowed loop is gone: take it off ALLOWED_LOOPS"


def test_no_loop_between_the_modules_of_the_rust_library() -> None:
    graph = rust_graph()
    assert "crate::error" in graph and "crate::grammar" in graph  # read the real crate
    loops = cycles(graph)
    assert not loops, _explain(loops, graph)


def test_the_typescript_graph_sees_type_imports_re_exports_and_dynamic_imports(tmp_path: Path) -> None:
    (tmp_path / "cli").mkdir()
    (tmp_path / "a.ts").write_text('import type {\n  B,\n} from "./b.js";\n// import { c } from "./c.js";\n')
    (tmp_path / "b.ts").write_text('export * from "./cli/index.js";\nconst u = "http://x"; // a comment\n')
    (tmp_path / "cli" / "index.ts").write_text('const m = await import("../a.js");\n')
    (tmp_path / "c.ts").write_text('import "./b.js";\n')
    graph = typescript_graph(tmp_path)
    assert graph == {"a": {"b"}, "b": {"cli/index"}, "cli/index": {"a"}, "c": {"b"}}
    assert cycles(graph) == [frozenset({"a", "b", "cli/index"})]


def test_no_import_loop_in_the_typescript_package() -> None:
    graph = typescript_graph()
    assert "index" in graph and "cli/main" in graph and len(graph["index"]) > 5  # read the real package
    loops = cycles(graph)
    assert not loops, _explain(loops, graph)
