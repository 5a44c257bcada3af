"""Answers a request with a line that is not JSON (binary, invalid UTF-8 included), then goes on."""

import sys

from _common import serve


def garbage(req: object) -> None:
    sys.stdout.buffer.write(b"\xff\xfe\x00 {this is not JSON\x1b[31m \xed\xa0\x80\n")
    sys.stdout.flush()


serve(garbage, "bad-invalid-json")
