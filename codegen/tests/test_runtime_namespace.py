"""Generated code reaches its runtime through exactly one named namespace per language
(docs/bindings.md, "The runtime namespace"): every reference the output of `omnimessage generate`
makes to the runtime goes through it, and it imports no other part of the runtime."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from omnimessage_codegen import load_schema
from omnimessage_codegen.targets import render

# target -> (every reference to the runtime package, the one namespace it must go through)
REFERENCES = {
    "python": (re.compile(r"^\s*(?:from|import) (omnimessage(?:\.\w+)*)", re.M), "omnimessage.runtime"),
    "typescript": (re.compile(r'from "(omnimessage(?:/[\w.-]+)*)"'), "omnimessage/runtime"),
    "rust": (re.compile(r"\bomnimessage::(\w+)"), "runtime"),
    "go": (re.compile(r'"(github\.com/omnimessage/omnimessage/go(?:/[\w/]+)?)"'), "github.com/omnimessage/omnimessage/go"),
}


def _code(target: str, text: str) -> str:
    """The text without comments (headers say `decode/encode with omnimessage::decode/encode`)."""
    mark = "#" if target == "python" else "//"
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(mark))


@pytest.mark.parametrize("target", sorted(REFERENCES))
def test_generated_code_names_its_runtime_through_one_namespace(target: str) -> None:
    pattern, namespace = REFERENCES[target]
    seen: dict[str, set[str]] = {}
    for name, text in render(target, load_schema()).items():
        for ref in pattern.findall(_code(target, text)):
            seen.setdefault(ref, set()).add(name)
    assert set(seen) == {namespace}, seen


def _python_row() -> tuple[str, list[str]]:
    """docs/bindings.md's runtime-namespace table, Python row: the namespace and what it holds."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "bindings.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| Python | `omnimessage."))
    cells = [c.strip() for c in row.strip("|").split("|")]
    return cells[1].strip("`"), re.findall(r"`(\w+)`", cells[2])


def test_the_python_runtime_namespace_is_the_documented_module_and_holds_what_generated_code_imports() -> None:
    import importlib

    namespace, holds = _python_row()
    assert namespace == REFERENCES["python"][1]
    runtime = importlib.import_module(namespace)
    assert sorted(holds) == sorted(runtime.__all__), "docs/bindings.md's Python row and omnimessage.runtime.__all__"
    imported = set()
    for text in render("python", load_schema()).values():
        for names in re.findall(rf"^from {re.escape(namespace)} import ([^\n]+)", text, re.M):
            imported |= {n.strip() for n in names.split(",")}
    assert imported and imported <= set(runtime.__all__), imported - set(runtime.__all__)
    assert all(hasattr(runtime, name) for name in runtime.__all__)


# The public API (docs/bindings.md, "The public API"): each runtime's one typed file, the docs'
# lists, and the code's actual exports are the same names.

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "bindings.md"
IDENT = re.compile(r"^[A-Za-z_]\w*(?:::\*)?$")


def _documented(heading: str) -> list[str]:
    """The backticked names of the table under `heading` in docs/bindings.md's public API section."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("\n## The public API\n") :]
    section = section[: section.index("\n## ", 1)]
    lines = section[section.index("\n" + heading) :].splitlines()[1:]
    rows = []
    for line in lines:
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    names = [n for row in rows[2:] for n in re.findall(r"`([^`]+)`", row.split("|")[2]) if IDENT.match(n)]
    assert names, f"no table under {heading!r} in {DOCS}"
    return names


def _rust_statements(path: Path) -> list[str]:
    """The file's items, comments dropped, one string per item (`;`-terminated, whitespace folded)."""
    code = re.sub(r"//[^\n]*", "", path.read_text(encoding="utf-8"))
    return [" ".join(s.split()) for s in code.split(";") if s.strip()]


def _rust_exports(path: Path) -> tuple[list[str], list[str], list[str]]:
    """(`pub use` names, `pub mod` names, other `pub` items) of a module file; a glob re-export
    is named by its module: `pub use generated::enums::*` is `enums::*`."""
    uses: list[str] = []
    mods: list[str] = []
    other: list[str] = []
    for stmt in _rust_statements(path):
        item = re.sub(r"^(?:#!?\[[^\]]*\]\s*)*", "", stmt)
        if m := re.match(r"pub use ([\w:]+?)::\{(.*)\}$", item):
            uses += [n.strip().split(" as ")[-1] for n in m.group(2).split(",") if n.strip()]
        elif m := re.match(r"pub use ((?:\w+::)*)(\w+|\*)$", item):
            uses.append(m.group(1).split("::")[-2] + "::*" if m.group(2) == "*" else m.group(2))
        elif m := re.match(r"pub mod (\w+)$", item):
            mods.append(m.group(1))
        elif re.search(r"(?:^|\s)pub\s", item):
            other.append(item[:80])
    return uses, mods, other


def test_rust_lib_rs_is_the_public_api_and_the_docs_list_it() -> None:
    uses, mods, other = _rust_exports(ROOT / "rust" / "src" / "lib.rs")
    assert other == [], "lib.rs defines public items itself; re-export them from a private module"
    assert mods == ["runtime"], "the only public module is the runtime namespace generated code names"
    documented = _documented("Rust, ")
    assert sorted(documented) == sorted(uses + mods), (
        f"lib.rs exports, not in docs/bindings.md: {sorted(set(uses + mods) - set(documented))}; "
        f"listed, not exported: {sorted(set(documented) - set(uses + mods))}"
    )
    runtime, runtime_mods, runtime_other = _rust_exports(ROOT / "rust" / "src" / "runtime.rs")
    assert (runtime_mods, runtime_other) == ([], [])
    row = next(line for line in DOCS.read_text(encoding="utf-8").splitlines() if line.startswith("| Rust | `omnimessage::runtime`"))
    assert sorted(re.findall(r"`(\w+)`", row.split("|")[3])) == sorted(runtime)


def _go_exports() -> set[str]:
    """The exported package-level names of the Go runtime package (its gofmt'd non-test files)."""
    names: set[str] = set()
    for path in sorted((ROOT / "go").glob("*.go")):
        if path.name.endswith("_test.go"):
            continue
        block = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if block:
                if line == ")":
                    block = False
                elif m := re.match(r"\t([A-Z]\w*)\b", line):
                    names.add(m.group(1))
            elif re.match(r"(?:const|var|type) \($", line):
                block = True
            elif m := re.match(r"(?:func|type|var|const) ([A-Z]\w*)", line):
                names.add(m.group(1))
    return names


def test_go_package_doc_lists_every_exported_name_and_the_docs_too() -> None:
    exported = _go_exports()
    assert len(exported) > 40, sorted(exported)
    doc = (ROOT / "go" / "doc.go").read_text(encoding="utf-8")
    linked = re.findall(r"\[([A-Z]\w*)\]", doc[doc.index("# Exported API") :])
    assert len(linked) == len(set(linked)), linked
    assert set(linked) == exported, (
        f"exported, not in go/doc.go: {sorted(exported - set(linked))}; listed, not exported: {sorted(set(linked) - exported)}"
    )
    documented = _documented("Go, ")
    assert sorted(documented) == sorted(linked), sorted(set(documented) ^ set(linked))


TS_SRC = ROOT / "typescript" / "src"
TS_DECL = re.compile(
    r"^export (?:declare )?(?:default )?(?:abstract )?(?:async )?(?:const|let|function\*?|class|interface|type|enum)\s+(\w+)", re.M
)
TS_FROM = re.compile(r"^export (type )?(\*|\{([^}]*)\}) from \"(\.[^\"]+)\";", re.M)


def _ts_exports(path: Path) -> dict[str, Path]:
    """Every name a TypeScript source module exports -> the module that declares it (`export *`
    and `export {...} from` followed through the package's own modules)."""
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(encoding="utf-8"), flags=re.S)
    names = {name: path for name in TS_DECL.findall(code)}
    for m in TS_FROM.finditer(code):
        target = (path.parent / m.group(4)).with_suffix(".ts")
        origin = _ts_exports(target)
        if m.group(2) == "*":
            names.update(origin)
            continue
        for spec in m.group(3).split(","):
            parts = spec.replace("type ", "").split(" as ")
            if parts[0].strip():
                names[parts[-1].strip()] = origin[parts[0].strip()]
    return names


def test_typescript_index_and_runtime_are_the_documented_api() -> None:
    index = _ts_exports(TS_SRC / "index.ts")
    # the generated types (every payload, envelope and enum) are one group, listed by their file
    listed = {name for name, origin in index.items() if origin != TS_SRC / "generated" / "types.ts"}
    assert len(index) - len(listed) > 50, "the generated types are exported"
    documented = _documented("TypeScript, `omnimessage`")
    assert sorted(documented) == sorted(listed), (
        f"exported, not in docs/bindings.md: {sorted(set(listed) - set(documented))}; "
        f"listed, not exported: {sorted(set(documented) - set(listed))}"
    )
    runtime = _ts_exports(TS_SRC / "runtime.ts")
    assert sorted(_documented("TypeScript, `omnimessage/runtime`")) == sorted(runtime)
