"""`iter_messages`: every line decoded or reported, torn tails, oversized lines, memory flat."""

from __future__ import annotations

import io
import tracemalloc

import omnimessage as om

LINE = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}'


def lines(data: bytes, **kw: int) -> list[om.Line]:
    return list(om.iter_messages(io.BytesIO(data), **kw))  # type: ignore[arg-type]


def test_every_line_reported_and_numbered() -> None:
    out = lines(LINE + b"\n" + b"nope\n" + b"\n" + LINE + b"\n")
    assert [(x.number, x.error.category if x.error else None) for x in out] == [
        (1, None),
        (2, "invalid_json"),
        (3, "invalid_json"),
        (4, None),
    ]
    assert out[1].error is not None and out[1].error.line == 2


def test_torn_last_line_is_truncated_but_a_complete_unterminated_line_is_fine() -> None:
    out = lines(LINE + b"\n" + LINE[:40])
    assert out[-1].error is not None and out[-1].error.category == "truncated" and not out[-1].terminated
    out = lines(LINE + b"\n" + LINE)
    assert out[-1].message is not None and not out[-1].terminated


def test_crlf_lines_decode() -> None:
    out = lines(LINE + b"\r\n" + LINE + b"\r\n")
    assert all(x.message is not None for x in out)


def test_too_large_lines_are_skipped_without_losing_the_rest() -> None:
    big = b'{"x":"' + b"a" * 5000 + b'"}'
    out = lines(LINE + b"\n" + big + b"\n" + LINE + b"\n", max_line_bytes=1000)
    assert [x.error.category if x.error else "ok" for x in out] == ["ok", "too_large", "ok"]
    out = lines(LINE + b"\n" + big, max_line_bytes=1000)
    assert [x.error.category if x.error else "ok" for x in out] == ["ok", "too_large"]


def test_no_newline_at_all_and_empty_input() -> None:
    assert lines(b"") == []
    out = lines(LINE)
    assert len(out) == 1 and out[0].message is not None


def test_memory_stays_flat_over_many_lines() -> None:
    data = (LINE + b"\n") * 200_000
    tracemalloc.start()
    n = 0
    for item in om.iter_messages(io.BytesIO(data)):  # type: ignore[arg-type]
        n += item.message is not None
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert n == 200_000
    assert peak < 2_000_000, peak  # a few lines' worth, not the 19 MB input


def test_path_source(tmp_path: object) -> None:
    import pathlib

    p = pathlib.Path(str(tmp_path)) / "t.jsonl"
    p.write_bytes(LINE + b"\n")
    assert [x.message is not None for x in om.iter_messages(p)] == [True]


def test_a_complete_but_invalid_unterminated_last_line_keeps_its_category() -> None:
    bad = b'{"timestamp":"t","type":"event_msg","payload":{"type":"request_end"}}'
    out = lines(LINE + b"\n" + bad)
    assert out[-1].error is not None and out[-1].error.category == "missing_field"
    out = lines(LINE + b"\n" + b'{"timestamp":"t","ty\xe4')
    assert out[-1].error is not None and out[-1].error.category == "truncated"


def test_an_unterminated_line_is_the_last_even_if_the_file_grows() -> None:
    """A live file: the writer appends the rest of the line after the reader hit the end. The reader
    reports the torn tail and stops; it never reads the second half as a line of its own."""
    class Growing(io.BytesIO):
        def readline(self, size: int | None = -1) -> bytes:
            line = super().readline(size)
            if line == b'{"timestamp":"2026-07-18T03:1':  # the writer finishes the line meanwhile
                pos = self.tell()
                self.seek(0, io.SEEK_END)
                self.write(b'0:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}\n')
                self.seek(pos)
            return line

    lines = list(om.iter_messages(Growing(b'{"timestamp":"2026-07-18T03:1')))
    assert [(x.number, x.error.category if x.error else None, x.terminated) for x in lines] == [(1, "truncated", False)]
