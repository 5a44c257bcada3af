"""The fused hot path's parts (`omnimessage.validate.engine.fused`), each held to what it stands for
where the oracle of test_validate_fused.py (the general path's findings) cannot see a difference: the
accelerator's timestamp check against the plain one, the guarded check rows (checks/guarded.py) against
the chains they write out, and the line counters the loop counts late, which nothing it calls may read."""

from __future__ import annotations

from conftest import ROOT as CHECKOUT

from omnimessage.validate.engine import fused


def _timestamps() -> list[str]:
    base = "2026-07-18T03:10:22"
    tails = ["Z", ".5Z", ".05Z", ".685Z", ".6850Z", ".Z", "z", ".68Z5", ".6a5Z", ".٣٣٣Z", ".685\ud800", "", ".", ".685",
             ".685Z ", "Z\n", ".99Z", ".000Z", ".999Z"]
    out = [base + t for t in tails]
    out += ["2026-07-18T03:10:23.000Z", "2026-07-18T03:10:21.999Z", "2026-07-18T03:10:2é.685Z", "", "x" * 24,
            "2026-07-18T03:10:22.685Z\ud800"[:24], base, "2026-07-18T03:10:é.5Z"]
    return out


def test_the_native_timestamp_check_is_the_plain_one() -> None:
    """`TS_NEXT` (the accelerator's `ts_next` when built) says True only where the plain check does,
    and the same on every ASCII input."""
    from omnimessage.codec import native as _accel_select

    if _accel_select.ACTIVE:
        assert fused.TS_NEXT is not fused._ts_plain  # the native one is what the loop takes
    stamps = _timestamps()
    # (non-ASCII of as many UTF-8 bytes as the ASCII it stands beside: 19 for a second, 24 for a stamp)
    seconds = ["2026-07-18T03:10:22", "2026-07-18T03:10:2", "", "2026-07-18T03:10:22Z", "2026-07-18T03:10:2é",
               "2026-07-18T03:10:é"]
    prevs: list[str | None] = [None, "2026-07-18T03:10:22.500Z", "2026-07-18T03:10:22.685Z",
                               "2026-07-18T03:10:22.900Z", "2026-07-18T03:10:22Z", "2026-07-18T03:10:22.68éZ",
                               "2026-07-18T03:10:22.5Z", "2026-07-18T03:10:22.6éZ"]
    n = 0
    for ts in stamps:
        for second in seconds:
            for prev in prevs:
                got, want = fused.TS_NEXT(ts, second, prev), fused._ts_plain(ts, second, prev)
                assert not got or want, (ts, second, prev)
                if (ts + second + (prev or "")).isascii():
                    assert got == want, (ts, second, prev)
                n += got
    assert n > 10  # the True side is exercised too


def test_the_guarded_rows_are_their_chains_written_out() -> None:
    """Each row `GUARDED` has of its own writes out one `CHECKS` chain: the same checks, in this order.
    A chain changed in `CHECKS` fails here until its row in checks/guarded.py follows."""
    from omnimessage._generated import models as m
    from omnimessage.validate.engine.checks import CHECKS, DISPATCH, pairing, streaming, values, vocabulary
    from omnimessage.validate.engine.checks.guarded import GUARDED

    written = {
        m.TextPayload: (values.sender, pairing.assistant_role_output, streaming.complete),
        m.ThinkingPayload: (pairing.assistant_output, streaming.complete),
        m.ToolCallPayload: (pairing.assistant_output, streaming.complete, values.arguments, pairing.call),
        m.ToolCallOutputPayload: (values.output_images, streaming.complete, pairing.answer),
        m.RequestBeginPayload: (pairing.request_begin, values.prefix_digests),
        m.RequestEndPayload: (pairing.request_end, vocabulary.request_end),
    }
    assert GUARDED.keys() == DISPATCH.keys()
    assert {cls for cls, check in GUARDED.items() if check is not DISPATCH[cls]} == written.keys()
    for cls, chain in written.items():
        assert CHECKS[cls] == chain, cls.__name__


COUNTERS = frozenset({"lines", "file_lines", "messages", "file_msgs"})


def test_no_check_reads_the_line_counters() -> None:
    """The fused loop counts the lines it dispatches only before it calls the general path, and when it
    ends (`fused.run`): what it calls meanwhile (the checks, the fragment handlers, the timestamp and
    expectation checks, what they call) must not read the context's line counters. Only the checks the
    general path calls itself do (`Validator._check`: a trace file's opening and head; its end)."""
    import ast

    engine_dir = CHECKOUT / "python" / "omnimessage" / "validate" / "engine"
    allowed = {("files.py", "opening"), ("files.py", "rotated_head"), ("files.py", "end_file")}
    reads = []
    for path in [*sorted((engine_dir / "checks").glob("*.py")), *(engine_dir / n for n in (
            "context.py", "state.py", "wording.py", "fused.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name in ("run", "_count"):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Attribute) and node.attr in COUNTERS and (path.name, fn.name) not in allowed \
                        and not (fn.name == "__init__" and isinstance(node.ctx, ast.Store)):
                    reads.append(f"{path.name}:{node.lineno} {fn.name} .{node.attr}")
    assert reads == []
