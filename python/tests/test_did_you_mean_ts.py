"""The TypeScript command line's misspelt-option hint chooses as Python's (`difflib`, the oracle):
the same option, or none, for every word, on words built to sit near the 0.6 cutoff and to tie."""

from __future__ import annotations

import json
import random
import shutil
import subprocess

from conftest import ROOT, needs

from omnimessage.cli.usage import did_you_mean

pytestmark = needs("node")

MODULE = ROOT / "typescript" / "dist" / "cli" / "did-you-mean.js"
OPTIONS = [["-h", "--help", "--lenient", "--to"],
           ["-h", "--help", "--in-place", "--keep-invalid", "--check", "--lenient"],
           ["--ab", "--ba", "--abc", "--cab"]]  # ties: the greater option wins in both


def words(rng: random.Random) -> list[str]:
    out = ["--nope", "--t", "--to=x", "--lenent", "--inplace", "--chek", "-x", "--", "--=", "x", "--hepl",
           "--a b --lenent", "--x\x1c--to", "--tø", "--t\U0001f600o", "--" + "e" * 150 + "lenient" + "n" * 90,
           "--" + "ab" * 120 + "--help"]  # split as Python splits; by code point; autojunk at 200
    for _ in range(400):
        base = rng.choice([o for opts in OPTIONS for o in opts if o.startswith("--")])[2:]
        chars = list(base)
        for _ in range(rng.randint(0, 4)):
            op = rng.randint(0, 2)
            at = rng.randint(0, len(chars))
            if op == 0:
                chars.insert(at, rng.choice("abcehiklnopt-"))
            elif chars:
                del chars[min(at, len(chars) - 1)]
                if op == 2:
                    chars.insert(at, rng.choice("abcehiklnopt"))
        out.append("--" + "".join(chars))
    return out


def test_the_hint_is_difflibs() -> None:
    cases = [(w, opts) for w in words(random.Random(7)) for opts in OPTIONS]
    cases += [("--" + "ck" * 100 + w, ["--" + "ck" * 100 + o for o in opts]) for w, opts in cases[:60]]
    script = (f"const {{ didYouMean }} = await import({json.dumps(MODULE.as_uri())});\n"
              "const { readFileSync } = await import('node:fs');\n"
              "const cases = JSON.parse(readFileSync(0, 'utf8'));\n"
              "process.stdout.write(JSON.stringify(cases.map(([w, o]) => didYouMean([w], o))));\n")
    done = subprocess.run([shutil.which("node") or "node", "--input-type=module", "-e", script],
                          input=json.dumps(cases).encode(), capture_output=True, check=True, timeout=120)
    got = json.loads(done.stdout)
    want = [did_you_mean(w.split(), opts) for w, opts in cases]  # the parser splits its message
    assert sum(1 for h in want if h) > 100  # the cases do reach the hint, and miss it
    assert sum(1 for h in want if not h) > 100
    assert [c for c, g, h in zip(cases, got, want, strict=True) if g != h] == []
