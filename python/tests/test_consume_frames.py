"""The SSE frame parser follows the WHATWG rules, whatever the chunking: every case is fed whole,
byte by byte, and split at every position (with the CR LF split and the BOM split among them)."""

from __future__ import annotations

import pytest

from omnimessage.consume import Frame, FrameParser, FrameTooLarge

CASES: list[tuple[bytes, list[Frame], str]] = [
    (b"data: a\n\n", [Frame("message", b"a", "")], ""),
    (b"data: a\r\n\r\n", [Frame("message", b"a", "")], ""),
    (b"data: a\r\rdata: b\r\r", [Frame("message", b"a", ""), Frame("message", b"b", "")], ""),
    (b"data:a\ndata: b\ndata:  c\n\n", [Frame("message", b"a\nb\n c", "")], ""),  # one space stripped
    (b"\xef\xbb\xbfdata: bom\n\n", [Frame("message", b"bom", "")], ""),
    (b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n", [], ""),  # a second BOM is part of a field name
    (b": ping\n\n: comment\r\ndata: after\n\n", [Frame("message", b"after", "")], ""),
    (b"event: server_event\ndata: {\"type\":\"x\"}\nid: e-1\n\n", [Frame("server_event", b'{"type":"x"}', "e-1")],
     "e-1"),
    (b"id: e-1\n\nid: e\x00-2\ndata: x\n\n", [Frame("message", b"x", "e-1")], "e-1"),  # NUL: ignored
    (b"id: e-1\ndata: a\n\ndata: b\n\n", [Frame("message", b"a", "e-1"), Frame("message", b"b", "e-1")], "e-1"),
    (b"id: e-1\ndata: a\n\nid\ndata: b\n\n", [Frame("message", b"a", "e-1"), Frame("message", b"b", "")], ""),
    (b"data\n\n", [Frame("message", b"", "")], ""),  # `data` alone: an empty line of data, dispatched
    (b"event: x\n\ndata: y\n\n", [Frame("message", b"y", "")], ""),  # no data: not dispatched, type reset
    (b"data: a\n\ndata: torn", [Frame("message", b"a", "")], ""),  # unterminated: never dispatched
    (b"id: e-9\ndata: torn", [], ""),  # the id of an event never dispatched is not the last event id
    (b"dat: x\nfoo\ndata: \xff\xfe\n\n", [Frame("message", b"\xff\xfe", "")], ""),  # unknown fields; bytes kept
    (b"data: a\r\n\ndata: b\n\r\n", [Frame("message", b"a", ""), Frame("message", b"b", "")], ""),
    (b"data: a\r\ndata: b\r\n\r\n", [Frame("message", b"a\nb", "")], ""),  # CR LF split: still one line end
]


def run(chunks: list[bytes]) -> tuple[list[Frame], FrameParser]:
    p = FrameParser()
    out: list[Frame] = []
    for c in chunks:
        out += p.feed(c)
    return out, p


@pytest.mark.parametrize(("stream", "want", "last"), CASES)
def test_every_split(stream: bytes, want: list[Frame], last: str) -> None:
    got, p = run([stream])
    assert got == want and p.last_event_id == last
    assert run([stream[i:i + 1] for i in range(len(stream))])[0] == want
    for i in range(len(stream) + 1):
        for j in range(i, len(stream) + 1):
            got, p = run([stream[:i], b"", stream[i:j], stream[j:]])
            assert got == want, (i, j)
            assert p.last_event_id == last


def test_cr_at_chunk_end_then_lf_is_one_line_end() -> None:
    got, _ = run([b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"])
    assert got == [Frame("message", b"a\nb", "")]


def test_retry_digits_only() -> None:
    p = FrameParser()
    for line, want in ((b"retry: 1500\n", 1500), (b"retry: 15x\n", 1500), (b"retry: -1\n", 1500),
                       (b"retry:\n", 1500), (b"retry: \xd9\xa1\n", 1500), (b"retry:200\n", 200)):
        p.feed(line)
        assert p.retry_ms == want


def test_caps() -> None:
    p = FrameParser(max_line_bytes=10, max_event_bytes=20)
    with pytest.raises(FrameTooLarge, match="line longer than 10"):
        for _ in range(3):
            p.feed(b"data: 1234")
    p = FrameParser(max_line_bytes=10, max_event_bytes=20)
    with pytest.raises(FrameTooLarge, match="data longer than 20"):
        p.feed(b"data: 1234\n" * 5)
    p = FrameParser(max_line_bytes=10)
    with pytest.raises(FrameTooLarge):
        p.feed(b":" + b"x" * 20)  # a comment is a line too
