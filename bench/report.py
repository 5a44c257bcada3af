"""bench/RESULTS.md and bench/throughput.png from a results document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

TARGETS = [
    # (label, task, corpus, ours, other, minimum ratio)
    (
        "Python decode_validate vs msgspec-untyped (floor)",
        "decode_validate",
        "trace",
        "omnimessage-python",
        "msgspec-untyped",
        0.8,
    ),
    (
        "Python decode_validate vs orjson+jsonschema_rs",
        "decode_validate",
        "trace",
        "omnimessage-python",
        "orjson+jsonschema_rs",
        1.0,
    ),
    *(  # issue 26: with the native accelerator, on every corpus
        (f"Python decode_validate vs msgspec-untyped ({c})", "decode_validate", c, "omnimessage-python",
         "msgspec-untyped", 0.85)
        for c in ("trace", "stream", "small")
    ),
    ("Python decode_validate vs jsonschema", "decode_validate", "trace", "omnimessage-python", "jsonschema", 100.0),
    (
        "Python roundtrip vs msgspec-untyped parse",
        "roundtrip",
        "trace",
        "omnimessage-python",
        ("decode_validate", "msgspec-untyped"),
        0.45,
    ),
    (
        "TypeScript decode_validate vs JSON.parse",
        "decode_validate",
        "trace",
        "omnimessage-typescript",
        "json-parse",
        0.6,
    ),
    (
        "TypeScript roundtrip vs JSON.parse",
        "roundtrip",
        "trace",
        "omnimessage-typescript",
        ("decode_validate", "json-parse"),
        0.3,
    ),
    (
        "TypeScript roundtrip, every message re-serialised, vs JSON.parse",
        "roundtrip",
        "trace",
        "omnimessage-typescript-reserialise",
        ("decode_validate", "json-parse"),
        0.3,
    ),
    (
        "Rust decode_validate vs msgspec-untyped (floor)",
        "decode_validate",
        "trace",
        "omnimessage-rust",
        "msgspec-untyped",
        1.5,
    ),
    *(  # issue 36: each binding against its own ecosystem's parser into typed structs, on every corpus
        (f"{lang} decode_validate vs {peer} ({c})", "decode_validate", c, ours, impl, minimum)
        for lang, ours, peer, impl, minimum in (
            ("Go", "omnimessage-go", "encoding/json into structs", "go-encoding-json-structs", 1.5),
            ("Rust", "omnimessage-rust", "serde_json typed", "rust-serde-json-typed", 1.0),
        )
        for c in ("trace", "stream", "small")
    ),
    (
        "validate_rules (trace) vs our decode_validate",
        "validate_rules",
        "trace",
        "omnimessage-python",
        ("decode_validate", "omnimessage-python"),
        0.85,
    ),
    (
        "validate_rules (stream) vs our decode_validate",
        "validate_rules",
        "stream",
        "omnimessage-python",
        ("decode_validate", "omnimessage-python"),
        0.6,
    ),
]


ECOSYSTEM_BASELINE = {"go": "go-encoding-json-structs", "rust": "rust-serde-json-typed"}
"""Each native binding's own ecosystem's typed parser, the column "x own ecosystem" of its rows (ours and its
peers): `omnimessage-go` and the `go-*` rows against encoding/json into structs, `omnimessage-rust` and the
`rust-*` rows against serde_json typed."""


def _ecosystem(impl: str) -> str | None:
    lang = impl.removeprefix("omnimessage-").split("-", 1)[0]
    return ECOSYSTEM_BASELINE.get(lang)


def _get(doc: dict[str, Any], task: str, corpus: str, impl: str) -> dict[str, Any] | None:
    return next((r for r in doc["results"] if (r["task"], r["corpus"], r["impl"]) == (task, corpus, impl)), None)


def instructions(doc: dict[str, Any], task: str, corpus: str, impl: str) -> int | None:
    """The instructions of a row's measured pass (bench/callgrind.py), None when it was not counted."""
    rows = (doc.get("callgrind") or {}).get("results", [])
    row = next((r for r in rows if (r["task"], r["corpus"], r["impl"]) == (task, corpus, impl)), None)
    return None if row is None else int(row["instructions"])


def _shown(ratio: float | None) -> float | None:
    """A ratio as the targets table shows it: three places, enough to tell one just under its minimum."""
    return None if ratio is None else round(ratio, 3)


def target_rows(doc: dict[str, Any]) -> list[tuple[str, float | None, float | None, float, str, bool | None]]:
    """Each target: (label, wall-time ratio, instruction ratio, minimum, the figure judging it, met).
    A ratio of two single-process passes is judged on instructions when both were counted (the
    other's count over ours, the same way round as MB/s); everything else on wall time."""
    rows = []
    for label, task, corpus, ours, other, minimum in TARGETS:
        a = _get(doc, task, corpus, ours)
        otask, oimpl = other if isinstance(other, tuple) else (task, other)
        b = _get(doc, otask, corpus, oimpl)
        if b is None and oimpl in ECOSYSTEM_BASELINE.values():
            continue  # a results.json from before the ecosystem rows (`make bench` requires them)
        r = a["mb_per_s"] / b["mb_per_s"] if a and b and b["mb_per_s"] else None
        ia, ib = instructions(doc, task, corpus, ours), instructions(doc, otask, corpus, oimpl)
        ri = ib / ia if ia and ib is not None else None
        judged = ri if ri is not None else r  # unrounded: a ratio of 0.848 does not meet 0.85
        rows.append((label, _shown(r), _shown(ri), minimum, "wall time" if ri is None else "instructions",
                     None if judged is None else judged >= minimum))
    mem = doc.get("memory")
    if mem:
        rows.append(
            (
                "peak RSS validating the large trace (MB; target < 200)",
                mem["peak_rss_mb"],
                None,
                200,
                "memory",
                mem["peak_rss_mb"] < 200,
            )
        )
    par = doc.get("parallel")
    if par:
        rows.append(("validate --jobs 2 speedup over --jobs 1", par["speedup"], None, 1.7, "wall time",
                     par["speedup"] >= 1.7))
    sc = doc.get("scaling")
    if sc:
        secs = sc["seconds"]
        for label, faster, slower, minimum in (
            ("validate --dask: 2 workers over 1 worker (sessions/s)", "dask1", "dask2", 1.6),
            ("validate --dask 1 worker over --jobs 1 (sessions/s, archive >= 400 MB)", "jobs1", "dask1", 0.85),
            ("validate --dask 2 workers over --jobs 2 (sessions/s, archive >= 400 MB)", "jobs2", "dask2", 0.85),
        ):
            # the same sessions each way: the ratio of rates is that of the median seconds, judged unrounded
            # (scaling's own ratios are rounded to two places: 0.848 read 0.85)
            ratio = secs[faster] / secs[slower]
            rows.append((label, _shown(ratio), None, minimum, "wall time", ratio >= minimum))
        rss = sc["worker_peak_rss_mb"]
        rows.append(("peak RSS of a Dask worker (MB; target < 200)", rss, None, 200, "memory", rss < 200))
    return rows


JUDGED = (
    "Each ratio of two passes in one process (ours against a floor, the rules against our decode, TypeScript "
    "against `JSON.parse`) is judged on the instructions its passes executed (valgrind's callgrind, the "
    "pass alone: see [instructions](#instructions-callgrind)) when both were counted: a count is the same "
    "whatever else the machine runs, while wall time on a shared machine moves with the load (one run showed "
    "Python decode 1.7x faster than msgspec on streams). Wall time judges the rest: the rows not counted "
    "(Rust, a native binary; jsonschema, too slow to run under callgrind), and what instructions cannot see: "
    "the `--jobs` and Dask rows (parallelism, several processes, start-up), and the memory rows. Instructions "
    "miss cache misses, branch mispredictions and memory bandwidth: where the two figures disagree widely, "
    "the difference is that, or the load."
)


NODE_PREFIXES = ("omnimessage-typescript", "json-parse")
"""How the implementations run by Node begin (bench/node.py)."""


def instruction_section(doc: dict[str, Any]) -> list[str]:
    """The instruction counts (bench/callgrind.py) beside the wall-time ratios of the same rows."""
    cg = doc["callgrind"]
    corpora = ", ".join(f"{name} {c['bytes']:,} bytes ({c['lines']:,} lines)" for name, c in cg["corpora"].items())
    out = [
        "## instructions (callgrind)",
        "",
        f"{cg['valgrind']}, {cg['seconds']} s in all, on the first lines of each corpus ({corpora}). Each process "
        "runs under `valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no` and switches counting on "
        "right before its measured pass and off right after it (bench/callgrind_shim.c: callgrind's client "
        "requests, loaded by Python with ctypes and by Node as a Node-API module), after an untimed warm-up pass: "
        f"start-up, imports, reading the corpus and the warm-up ({cg.get('warm_lines', 0):,} lines at least) are "
        "not counted, and each pass starts from a collected heap. Python runs with `PYTHONHASHSEED=0`, Node "
        "with V8's `--predictable --predictable-gc-schedule` and fixed seeds (one thread; callgrind counts "
        "every thread anyway): the same binaries and inputs give the same counts in Python, and in Node to within "
        "a few hundredths of a percent (V8 reads the clock in its compiler and collector). x ours (instructions): "
        "our count in the same language over this row's (our Python or TypeScript decode's; for a roundtrip, "
        "our roundtrip's), the same way round as MB/s (above 1: fewer instructions than ours); x ours (wall): "
        "the same ratio by MB/s.",
        "",
        "| task | corpus | implementation | instructions | a line | x ours (instructions) | x ours (wall) |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for r in cg["results"]:
        task, corpus = r["task"], r["corpus"]
        base_task = "decode_validate" if task == "validate_rules" else task
        # Node's rows (bench/node.py names them so) against our TypeScript, the others against our Python.
        ours = "omnimessage-typescript" if r["impl"].startswith(NODE_PREFIXES) else "omnimessage-python"
        base = instructions(doc, base_task, corpus, ours)
        wall, wbase = _get(doc, task, corpus, r["impl"]), _get(doc, base_task, corpus, ours)
        xi = f"{base / r['instructions']:.2f}" if base and r["instructions"] else ""
        xw = f"{wall['mb_per_s'] / wbase['mb_per_s']:.2f}" if wall and wbase and wbase["mb_per_s"] else ""
        out.append(f"| {task} | {corpus} | {r['impl']} | {r['instructions']:,} | {r['per_line']:,} | {xi} | {xw} |")
    return [*out, ""]


def caption(doc: dict[str, Any]) -> str:
    """The chart's caption: which run it shows (the commit measured, its day when recorded, the
    machine), so an older chart is never read as the current code's."""
    m = doc["machine"]
    when = f" on {doc['date']}" if doc.get("date") else ""
    load = m.get("load_average_1min")
    busy = f", load {load[0]}" if load else ""
    return (f"make bench run at commit {doc['commit']}{when} ({m['cores']} cores{busy}): that commit's numbers, "
            f"rerun make bench for today's; * extrapolated from a slice; red: omnimessage")


def main(argv: list[str] | None = None) -> int:
    """`python -m bench.report`: RESULTS.md and throughput.png again from results.json (no measuring)."""
    import json
    import sys

    here = Path(__file__).resolve().parent
    src = Path(argv[0]) if argv else here / "results.json"
    doc = json.loads(src.read_text())
    write_markdown(doc, src.parent / "RESULTS.md")
    write_chart(doc, src.parent / "throughput.png")
    sys.stdout.write(f"wrote {src.parent / 'RESULTS.md'} and {src.parent / 'throughput.png'} from {src}\n")
    return 0


def write_markdown(doc: dict[str, Any], path: Path) -> None:
    m = doc["machine"]
    has_eco = any(r["impl"] in ECOSYSTEM_BASELINE.values() for r in doc["results"])
    out = [
        "# Benchmark results",
        "",
        f"Measured at commit `{doc['commit']}`" + (f" on {doc['date']}" if doc.get("date") else "")
        + " (its numbers, not of later commits: rerun `make bench`), "
        f"{m['cores']} cores ({m['cpu']}), Python {m['python']}, Node {m['node']}, "
        f"msgspec {m['msgspec']}; scale {doc['scale']:g}, {doc['seconds']} s in all"
        + (
            f"; 1-minute load average {m['load_average_1min'][0]} before, {m['load_average_1min'][1]} after "
            "(above ~1 means other work shared the cores and absolute numbers are depressed)"
            if "load_average_1min" in m
            else ""
        )
        + ". Produced by `make bench` "
        "(`bench/run.py`): every implementation run interleaved round after round with the order rotated, "
        "median of the rounds, spread = (max - min) / median. The machine is shared: compare ratios, "
        "which are measured side by side in one run, not absolute numbers across runs.",
        "",
        "| corpus | bytes | lines |",
        "| --- | ---: | ---: |",
    ]
    for name, c in doc["corpora"].items():
        out.append(f"| {name} | {c['bytes']:,} | {c['lines']:,} |")
    if has_eco:
        out += [
            "",
            "x own ecosystem: a Go row over encoding/json into structs (`go-encoding-json-structs`), a Rust row over "
            "serde_json typed (`rust-serde-json-typed`), the same corpus decoded line by line in the same way.",
        ]
    if doc.get("conditions"):
        out += ["", f"Conditions: {doc['conditions']}."]
    counted = bool(doc.get("callgrind"))
    out += ["", "## Targets", ""]
    if counted:
        out += [JUDGED, "", "| target | wall time | instructions | minimum | judged on | met |",
                "| --- | ---: | ---: | ---: | --- | --- |"]
    else:
        out += ["| target | measured | minimum | met |", "| --- | ---: | ---: | --- |"]
    for label, r, ri, minimum, figure, ok in target_rows(doc):
        met = "n/a" if ok is None else ("yes" if ok else "**no**")
        wall = "n/a" if r is None else r
        if counted:
            out.append(f"| {label} | {wall} | {'' if ri is None else ri} | {minimum} | {figure} | {met} |")
        else:
            out.append(f"| {label} | {wall} | {minimum} | {met} |")
    for task in ("decode_validate", "roundtrip", "read", "validate_rules"):
        rows = [r for r in doc["results"] if r["task"] == task]
        if not rows:
            continue
        out += ["", f"## {task}", ""]
        for corpus in dict.fromkeys(r["corpus"] for r in rows):
            crow = sorted((r for r in rows if r["corpus"] == corpus), key=lambda r: -r["mb_per_s"])
            ours_py = _get(doc, task, corpus, "omnimessage-python") or _get(
                doc, "decode_validate", corpus, "omnimessage-python"
            )
            floor = _get(doc, "read" if task == "read" else "decode_validate", corpus, "msgspec-untyped")
            out += [
                f"### {corpus}",
                "",
                "| implementation | MB/s | msgs/s | x ours (Python) | x msgspec floor |"
                + (" x own ecosystem |" if has_eco else "")
                + " spread | accepted | identical | note |",
                "| --- | ---: | ---: | ---: | ---: |" + (" ---: |" if has_eco else "") + " ---: | ---: | ---: | --- |",
            ]
            for r in crow:
                vs_ours = f"{r['mb_per_s'] / ours_py['mb_per_s']:.2f}" if ours_py else ""
                vs_floor = f"{r['mb_per_s'] / floor['mb_per_s']:.2f}" if floor else ""
                base_impl = _ecosystem(r["impl"])
                base = _get(doc, "decode_validate", corpus, base_impl) if base_impl else None
                vs_eco = f"{r['mb_per_s'] / base['mb_per_s']:.2f}" if base and task == "decode_validate" else ""
                ident = "" if r["identical"] is None else f"{r['identical']}/{r['accepted']}"
                note = r["note"] + (" (extrapolated from a slice)" if r["extrapolated"] else "")
                out.append(
                    f"| {r['impl']} | {r['mb_per_s']} | {r['msgs_per_s']:,} | {vs_ours} | {vs_floor} | "
                    + (f"{vs_eco} | " if has_eco else "")
                    + f"{r['spread']} | "
                    f"{r['accepted']}/{r['lines']} | {ident} | {note} |"
                )
            out.append("")
    if doc.get("let_through"):
        out += _let_through(doc)
    if counted:
        out += instruction_section(doc)
    if doc.get("memory"):
        mem = doc["memory"]
        out += [
            "## memory",
            "",
            f"`omnimessage validate --profile trace` on a {mem['file_bytes'] / (1 << 30):.2f} GiB trace: "
            f"peak RSS {mem['peak_rss_mb']} MB, {mem['seconds']} s ({mem['mb_per_s']} MB/s), "
            f"exit code {mem['exit_code']}.",
            "",
        ]
    if doc.get("parallel"):
        par = doc["parallel"]
        out += [
            "## parallel",
            "",
            f"{par['files']} trace files, {par['bytes'] / (1 << 20):.0f} MB: `--jobs 1` {par['jobs1_seconds']} s, "
            f"`--jobs 2` {par['jobs2_seconds']} s: speedup {par['speedup']}x on {par['cores']} cores.",
            "",
        ]
    if doc.get("scaling"):
        sc = doc["scaling"]
        out += [
            "## scaling",
            "",
            f"`omnimessage validate` on a generated archive (dev/omnimessage_dev/archive.py) of {sc['sessions']:,} "
            f"sessions, {sc['bytes'] / (1 << 20):.1f} MB, median of {sc['rounds']} interleaved rounds, each run "
            f"a fresh command (the Dask clusters were started before the timing):",
            "",
            "| run | seconds | sessions/s | MB/s | CPU seconds |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        names = {"jobs1": "`--jobs 1`", "jobs2": "`--jobs 2`", "dask1": "`--dask` LocalCluster, 1 worker",
                 "dask2": "`--dask` LocalCluster, 2 workers"}
        for k, label in names.items():
            cpu = sc.get("cpu_seconds", {}).get(k, "")
            out.append(f"| {label} | {sc['seconds'][k]} | {sc['sessions_per_s'][k]} | {sc['mb_per_s'][k]} | {cpu} |")
        out += [
            "",
            f"2 workers over 1: {sc['dask2_over_dask1']}x; Dask over `--jobs` with the same processes: "
            f"{sc['dask1_over_jobs1']}x (1), {sc['dask2_over_jobs2']}x (2); `--jobs 2` over `--jobs 1`: "
            f"{sc['jobs2_over_jobs1']}x. Peak RSS of a worker: {sc['worker_peak_rss_mb']} MB. "
            f"CPU seconds count the "
            f"command and its processes, and for Dask the workers' too. Cost model rate (docs/scale.md): "
            f"{sc['mb_per_core_second']} MB per core-second of worker CPU (2 workers, {sc['cores']} cores; "
            f"1-minute load average {sc.get('load_average_1min', 'n/a')} at the end).",
            "",
        ]
    path.write_text("\n".join(out) + "\n")


def _let_through(doc: dict[str, Any]) -> list[str]:
    """The RESULTS.md section: a row per category, a column per native decode row."""
    lt = doc["let_through"]
    names = list(lt["accepted"])
    out = [
        "## let through",
        "",
        "The conformance suite's one-line rejection cases (bench/let_through.py), by category: how many each native "
        "decode row accepts. The strict decoders accept none; a peer's count is what it skips that they check.",
        "",
        "| category | cases | " + " | ".join(names) + " |",
        "| --- | ---: |" + " ---: |" * len(names),
    ]
    for category, n in lt["cases"].items():
        out.append(f"| {category} | {n} | " + " | ".join(str(lt["accepted"][m][category]) for m in names) + " |")
    totals = " | ".join(str(sum(lt["accepted"][m].values())) for m in names)
    out += [f"| all | {sum(lt['cases'].values())} | {totals} |", ""]
    return out


def write_chart(doc: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = [
        (t, c)
        for t in ("decode_validate", "roundtrip", "read", "validate_rules")
        for c in ("trace", "stream", "small")
        if any(r["task"] == t and r["corpus"] == c for r in doc["results"])
    ]
    fig, axes = plt.subplots(
        len(groups),
        1,
        figsize=(
            9,
            1.2 + 0.42 * sum(len([r for r in doc["results"] if (r["task"], r["corpus"]) == g]) for g in groups),
        ),
        squeeze=False,
    )
    for ax, (task, corpus) in zip(axes[:, 0], groups, strict=True):
        rows = sorted(
            (r for r in doc["results"] if (r["task"], r["corpus"]) == (task, corpus)), key=lambda r: r["mb_per_s"]
        )
        names = [r["impl"] + (" *" if r["extrapolated"] else "") for r in rows]
        colors = ["#d62728" if r["impl"].startswith("omnimessage") else "#7f7f7f" for r in rows]
        bars = ax.barh(names, [r["mb_per_s"] for r in rows], color=colors)
        for bar, r in zip(bars, rows, strict=True):
            ax.text(
                bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {r['mb_per_s']:.0f}", va="center", fontsize=8
            )
        ax.set_title(f"{task} on {corpus} (MB/s, higher is better)", fontsize=10, loc="left")
        ax.tick_params(labelsize=8)
        ax.set_xlim(0, max(r["mb_per_s"] for r in rows) * 1.15)
    fig.text(0.01, 0.005, caption(doc), fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
