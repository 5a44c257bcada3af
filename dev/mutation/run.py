"""Mutation runs of the three hand-written fast paths (issue 38): `make mutants`.

One mutant is one one-line change of the source (a comparison flipped or loosened, a logical
operator swapped, an integer constant moved by one, a boolean literal negated) or one of the
families an outsider's run left alive (`FAMILIES`: the UTF-8 check of verbatim values in verify.c,
its non-canonical spellings, the control-character bound and a number overflow of the Rust crate,
the one-pass reader's checks in TypeScript). Each is built and run against a fast oracle test
subset, stopping at the first kill:

- C (python/omnimessage/_native/verify.c): the three builds (SSE2, SWAR, scalar) compiled as
  shared libraries and asked about the hard-line catalogue (python/tests/fastpath_cases.py) and
  every conformance input; killed when a build proves a line the pure Python path does not encode
  to itself, when the builds disagree, when it no longer proves a well-formed verbatim value, or
  when it crashes.
- Rust (rust/src/strings.rs, string_stops.rs, grammar.rs, number.rs): a copy of the crate with the change, its
  testee built, then the catalogue and the conformance suite through the testee protocol.
- TypeScript (the one-pass reader: canonical.ts, verifier.ts, object-end.ts): the change made in
  their compiled JavaScript in a copy of dist/ (tsc emits the same statements), then the same
  cases through the TypeScript testee.

A mutant that does not compile counts as neither killed nor alive (reported as stillborn). The
sample of operator mutants is drawn with a fixed seed (`--seed`), `--count` per language.
Writes docs/mutants.md (killed over total per language, every survivor listed; the explanations
of survivors are kept in `EXPLAINED`, keyed by the mutant's id).

    .venv/bin/python dev/mutation/run.py [--lang c,rust,ts] [--count 40] [--seed 38]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / ".mutants"
sys.path.insert(0, str(ROOT / "python" / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from families import EXPLAINED, FAMILIES  # noqa: E402


@dataclass(frozen=True)
class Mutant:
    id: str  # lang:file:line:what
    lang: str
    file: str  # relative to the language's tree
    line: int  # 1-based
    before: str
    after: str
    family: str = ""


# ---------------------------------------------------------------- generating mutants

_OPS = [
    (r" <= ", " < "), (r" >= ", " > "), (r" < ", " <= "), (r" > ", " >= "),  # spaced: not generics, not shifts
    (r" === ", " !== "), (r" !== ", " === "), (r"(?<![!=])==(?!=)", "!="), (r"(?<![!=])!=(?!=)", "=="),
    (r"&&", "||"), (r"\|\|", "&&"), (r"\btrue\b", "false"), (r"\bfalse\b", "true"),
]
_NUMBER = re.compile(r"\b(0x[0-9A-Fa-f]+|[0-9]+)\b")


def _code_lines(text: str, lang: str) -> Iterator[tuple[int, str]]:
    in_block = False
    for no, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if lang == "rust" and s.startswith("#[cfg(test)]"):
            return  # the unit tests at the end of a Rust file are not the fast path
        if in_block:
            in_block = "*/" not in s
            continue
        if s.startswith("/*") or s.startswith("/**"):
            in_block = "*/" not in s
            continue
        if not s or s.startswith(("//", "*", "#", "import ", "export {", "use ")) or ('"' in s and s.count('"') > 4):
            continue
        if re.fullmatch(r"[0-9, ]+", s):
            continue  # a row of a byte table: data, not code
        yield no, line


def operator_mutants(lang: str, files: dict[str, str]) -> list[Mutant]:
    out = []
    for name, text in files.items():
        for no, line in _code_lines(text, lang):
            code = line.split("//")[0]
            for pattern, repl in _OPS:
                for m in re.finditer(pattern, code):
                    after = line[:m.start()] + repl + line[m.end():]
                    mid = f"{lang}:{name}:{no}:{m.group()}->{repl}@{m.start()}"
                    out.append(Mutant(mid, lang, name, no, line, after))
            for m in _NUMBER.finditer(code):
                tok = m.group()
                v = int(tok, 16) if tok.startswith("0x") else int(tok)
                if v > 1 << 20:
                    continue
                for w in (v + 1, v - 1):
                    if w < 0:
                        continue
                    new = f"0x{w:X}" if tok.startswith("0x") else str(w)
                    after = line[:m.start()] + new + line[m.end():]
                    out.append(Mutant(f"{lang}:{name}:{no}:{tok}->{new}@{m.start()}", lang, name, no, line, after))
    return out


def family_mutants(lang: str, files: dict[str, str]) -> list[Mutant]:
    out = []
    for family, name, before, after in FAMILIES[lang]:
        lines = files[name].splitlines()
        hits = [i for i, ln in enumerate(lines) if before in ln]
        assert len(hits) == 1, (lang, name, before, hits)
        i = hits[0]
        out.append(Mutant(f"{lang}:{name}:{i + 1}:{family}", lang, name, i + 1, lines[i],
                          lines[i].replace(before, after, 1), family))
    return out


def _apply(text: str, m: Mutant) -> str:
    lines = text.split("\n")
    assert lines[m.line - 1] == m.before, m.id
    lines[m.line - 1] = m.after
    return "\n".join(lines)


# ---------------------------------------------------------------- the languages


class Stillborn(Exception):
    """The mutant does not build."""


class Lang:
    name = ""
    tree: Path
    files: tuple[str, ...] = ()

    def sources(self) -> dict[str, str]:
        return {f: (self.tree / f).read_text() for f in self.files}

    def prepare(self) -> None: ...

    def run(self, m: Mutant, text: str) -> str | None:
        """Build the mutant (its file's whole text); the first failing check, or None (alive)."""
        raise NotImplementedError


class C(Lang):
    name = "c"
    tree = ROOT / "python" / "omnimessage" / "_native"
    files = ("verify.c",)

    def prepare(self) -> None:
        import fastpath_cases as fc

        from omnimessage.codec.native import DECODER
        d = WORK / "c"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        (d / "verify.h").symlink_to(self.tree / "verify.h")
        (d / "generated").symlink_to(self.tree / "generated")
        rows = []
        for _, data in fc.verifier_inputs():
            try:
                DECODER.decode(data)
            except Exception:
                continue  # outside the verifier's contract: msgspec refused it first
            rows.append([data.hex(), fc.canonical(data)])
        must = [data.hex() for _, data in fc.must_prove()]
        (d / "oracle.json").write_text(json.dumps({"rows": rows, "must": must}))
        self.dir = d

    def run(self, m: Mutant, text: str) -> str | None:
        (self.dir / "verify.c").write_text(text)
        cc = shutil.which("gcc") or "cc"
        for build, flags in (("default", []), ("swar", ["-DOMV_NO_SSE2"]), ("scalar", ["-DOMV_SCALAR_ONLY"])):
            r = subprocess.run([cc, "-std=c99", "-O1", "-shared", "-fPIC", f"-I{self.dir}", *flags,
                                str(self.dir / "verify.c"), "-o", str(self.dir / f"{build}.so")],
                               capture_output=True, text=True)
            if r.returncode:
                raise Stillborn(r.stderr[-300:])
        r = subprocess.run([sys.executable, __file__, "--check-c", str(self.dir)], capture_output=True, text=True,
                           timeout=600)
        if r.returncode == 0:
            return None
        return (r.stdout.strip() or f"crashed (status {r.returncode}) {r.stderr[-200:]}").splitlines()[-1]


def check_c(d: Path) -> int:
    """In a child process (a mutant may crash): every build against the oracle file."""
    oracle = json.loads((d / "oracle.json").read_text())
    fns: dict[str, Callable[[bytes], bool]] = {}
    for build in ("default", "swar", "scalar"):
        fn = ctypes.CDLL(str(d / f"{build}.so")).omv_canonical
        fn.argtypes, fn.restype = [ctypes.c_char_p, ctypes.c_size_t], ctypes.c_int
        fns[build] = lambda data, fn=fn: fn(data, len(data)) == 1
    for hexed, canonical in oracle["rows"]:
        data = bytes.fromhex(hexed)
        answers = {b: f(data) for b, f in fns.items()}
        if len(set(answers.values())) != 1:
            print(f"the builds disagree on {data[-110:]!r}: {answers}")
            return 1
        if answers["default"] and not canonical:
            print(f"proves a line the pure path does not encode to itself: {data[-110:]!r}")
            return 1
    for hexed in oracle["must"]:
        data = bytes.fromhex(hexed)
        for b, f in fns.items():
            if not f(data):
                print(f"{b} no longer proves a canonical verbatim value: {data[-110:]!r}")
                return 1
    return 0


class _Testee(Lang):
    """A binding judged through the testee protocol on the catalogue and the whole suite."""

    offsets: tuple[int, ...] | None = None  # the catalogue's offsets (all of them unless set)

    def cases(self) -> list:  # type: ignore[type-arg]
        import fastpath_cases as fc

        from omnimessage.conformance import load_suite

        suite = load_suite()
        return [*fc.cases(offsets=self.offsets or fc.OFFSETS), *suite.cases]

    def judge(self, argv: list[str]) -> str | None:
        from omnimessage.conformance import load_suite
        from omnimessage.conformance.runner import run_cases

        first: list[str] = []

        class Killed(Exception):
            pass

        def seen(o: object) -> None:
            if getattr(o, "failed", False):
                first.append(f"{o.case.id} ({o.case.description[:60]}): {o.message[:160]}")  # type: ignore[attr-defined]
                raise Killed

        try:
            result = run_cases(load_suite(), self.all_cases, argv, on_outcome=seen, request_timeout=10.0)
        except Killed:
            return first[0]
        if result.errors or len(result.outcomes) != len(self.all_cases):
            return f"the run stopped: {'; '.join(result.errors)[:200]} ({len(result.outcomes)} outcomes)"
        return None


class Rust(_Testee):
    name = "rust"
    tree = ROOT / "rust" / "src"
    # string_stops.rs: the block scanner split out of strings.rs after the recorded run (issue 39)
    files = ("strings.rs", "string_stops.rs", "grammar.rs", "number.rs")

    def prepare(self) -> None:
        d = WORK / "rust"
        shutil.rmtree(d / "crate", ignore_errors=True)
        shutil.copytree(ROOT / "rust", d / "crate", ignore=shutil.ignore_patterns("target"))
        self.dir = d
        self.all_cases = self.cases()

    def run(self, m: Mutant, text: str) -> str | None:
        crate = self.dir / "crate"
        for f in self.files:
            shutil.copyfile(self.tree / f, crate / "src" / f)
        (crate / "src" / m.file).write_text(text)
        env = {**os.environ, "CARGO_TARGET_DIR": str(self.dir / "target")}
        r = subprocess.run(["cargo", "build", "--offline", "--release", "--quiet", "--bin", "omnimessage-rs"],
                           cwd=crate, env=env, capture_output=True, text=True)
        if r.returncode:
            raise Stillborn(r.stderr[-300:])
        return self.judge([str(self.dir / "target" / "release" / "omnimessage-rs"), "testee"])


class TypeScript(_Testee):
    name = "ts"
    tree = ROOT / "typescript" / "dist"
    files = ("canonical.js", "verifier.js", "object-end.js")
    offsets = (0, 1, 17, 33)  # no block edges in its string scan (a regular expression, indexOf)

    def prepare(self) -> None:
        d = WORK / "ts"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        for part in ("package.json", "bin", "dist"):
            src = ROOT / "typescript" / part
            (shutil.copytree if src.is_dir() else shutil.copyfile)(src, d / part)
        self.dir = d
        self.all_cases = self.cases()

    def run(self, m: Mutant, text: str) -> str | None:
        for f in self.files:
            shutil.copyfile(self.tree / f, self.dir / "dist" / f)
        (self.dir / "dist" / m.file).write_text(text)
        node = shutil.which("node") or "node"
        r = subprocess.run([node, "--check", str(self.dir / "dist" / m.file)], capture_output=True, text=True)
        if r.returncode:
            raise Stillborn(r.stderr[-300:])
        return self.judge([node, str(self.dir / "bin" / "omnimessage.mjs"), "testee"])


LANGS: dict[str, type[Lang]] = {"c": C, "rust": Rust, "ts": TypeScript}
TITLES = {"c": "C verifier (verify.c)", "rust": "Rust crate (strings.rs, grammar.rs, number.rs)",
          "ts": "TypeScript one-pass reader (canonical.ts, verifier.ts, object-end.ts)"}


# ---------------------------------------------------------------- the run and its report


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--lang", default="c,rust,ts")
    ap.add_argument("--count", type=int, default=40, help="operator mutants drawn per language")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "mutants.md")
    ap.add_argument("--report-only", action="store_true", help="write the report from the last runs")
    ap.add_argument("--from-log", type=Path, help="record a stopped run of one --lang from its printed lines")
    ap.add_argument("--only", nargs="+", help="rerun these mutant ids (of the same --count and --seed); record nothing")
    ap.add_argument("--check-c", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.check_c:
        return check_c(args.check_c)
    if args.report_only:
        args.out.write_text(report())
        return 0
    for name in args.lang.split(","):
        lang = LANGS[name]()
        src = lang.sources()
        pool = operator_mutants(name, src)
        drawn = random.Random(args.seed).sample(pool, min(args.count, len(pool)))
        mutants = family_mutants(name, src) + sorted(drawn, key=lambda m: m.id)
        if args.only:
            mutants = [m for m in mutants if m.id in args.only]
        if args.from_log:
            _record_from_log(name, mutants, len(pool), args)
            continue
        lang.prepare()
        rows, stillborn = [], 0
        for m in mutants:
            t0 = time.monotonic()
            try:
                verdict = lang.run(m, _apply(src[m.file], m))
            except Stillborn:
                stillborn += 1
                print(f"stillborn {m.id}", flush=True)
                continue
            rows.append({**m.__dict__, "verdict": verdict, "seconds": round(time.monotonic() - t0, 1)})
            print(f"{'killed' if verdict else 'ALIVE '} {time.monotonic() - t0:5.0f}s {m.id}  {verdict or ''}"[:220],
                  flush=True)
        if args.only:
            continue  # a rerun of some mutants: printed, not recorded
        result = {"pool": len(pool), "count": args.count, "seed": args.seed, "stillborn": stillborn, "rows": rows}
        (WORK / f"{name}.json").write_text(json.dumps(result, indent=1))
    if not args.only:
        args.out.write_text(report())
    return 0


def _record_from_log(name: str, mutants: list[Mutant], pool: int, args: argparse.Namespace) -> None:
    """Record a run that was stopped before its end from what it printed (`--from-log LOG`)."""
    seen: dict[str, tuple[str | None, float]] = {}
    stillborn = 0
    for line in args.from_log.read_text().splitlines():
        stillborn += line.startswith("stillborn ")
        m = re.match(r"^(killed|ALIVE) +(\d+)s (.*)$", line)
        for mut in mutants if m else ():
            rest = m.group(3)
            if rest.rstrip() == mut.id or rest.startswith(mut.id + "  "):
                seen[mut.id] = (rest[len(mut.id):].strip() or "killed" if m.group(1) == "killed" else None,
                                float(m.group(2)))
    rows = [{**mu.__dict__, "verdict": seen[mu.id][0], "seconds": seen[mu.id][1]} for mu in mutants if mu.id in seen]
    result = {"pool": pool, "count": args.count, "seed": args.seed, "stillborn": stillborn, "rows": rows,
              "planned": len(mutants)}
    (WORK / f"{name}.json").write_text(json.dumps(result, indent=1))


def report() -> str:
    """docs/mutants.md from the last run of each language (.mutants/LANG.json)."""
    results = {n: json.loads((WORK / f"{n}.json").read_text()) for n in LANGS if (WORK / f"{n}.json").is_file()}
    out = ["# Mutation runs of the fast paths", "",
           "Written by `make mutants` (`dev/mutation/run.py`, issue 38): one-line mutants of the C verifier, the",
           "Rust crate's scanner, grammar and numbers, and the TypeScript one-pass reader, each run against a fast",
           "oracle test subset (the hard-line catalogue `python/tests/fastpath_cases.py`, judged by the pure",
           "Python path; for Rust and TypeScript also the whole conformance suite) and stopped at the first kill.",
           "Operator mutants are drawn from the pool of every one-line change the script knows (a comparison",
           "flipped or loosened, `&&`/`||` swapped, an integer constant moved by one, a boolean negated) with a",
           "fixed seed; the families are the mutants an outsider's run left alive (issue 38), written again",
           "(`dev/mutation/families.py`). A mutant that does not build is stillborn, counted in neither column.", "",
           "| language | operator mutants killed / run (pool, seed) | families killed / run | stillborn |",
           "| --- | --- | --- | --- |"]
    for name, r in results.items():
        ops = [x for x in r["rows"] if not x["family"]]
        fam = [x for x in r["rows"] if x["family"]]
        k = sum(1 for x in ops if x["verdict"])
        fk = sum(1 for x in fam if x["verdict"])
        out.append(f"| {TITLES[name]} | {k} / {len(ops)} (of {r['pool']}, seed {r['seed']}) | {fk} / {len(fam)} |"
                   f" {r['stillborn']} |")
    for name, r in results.items():
        alive = [x for x in r["rows"] if not x["verdict"]]
        out += ["", f"## {TITLES[name]}", "", f"Survivors ({len(alive)}):", ""]
        if not alive:
            out.append("None.")
        for x in alive:
            why = EXPLAINED.get(x["id"], "NOT YET EXPLAINED")
            out.append(f"- `{x['id']}`: `{x['before'].strip()}` becomes `{x['after'].strip()}`. {why}")
        out += ["", "Families:", ""]
        for x in r["rows"]:
            if x["family"]:
                out.append(f"- {x['family']}: " + (f"killed by {x['verdict']}"[:240] if x["verdict"] else "ALIVE"))
        secs = sum(x["seconds"] for x in r["rows"])
        planned = r.get("planned", 0)
        stopped = f" (the run was stopped after {len(r['rows'])} of its {planned})" if len(r["rows"]) < planned else ""
        out += ["", f"{len(r['rows'])} mutants run in {secs / 60:.0f} minutes{stopped}."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
