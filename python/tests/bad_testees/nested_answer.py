"""Answers a request with a hostile JSON object: `deep` nests a million arrays (a RecursionError in a
recursive parser), `wide` carries ~60 MiB of small values in a field the protocol does not have (a
full parse cost ~27x that), `keys` ~60 MiB of members, `field` nests arrays in `reason` itself."""

import sys

from _common import serve

MODE = sys.argv[1] if len(sys.argv) > 1 else "deep"


def _body() -> bytes:
    if MODE == "deep":
        return b'"x": ' + b"[" * 1_000_000 + b"]" * 1_000_000
    if MODE == "field":
        return b'"reason": ' + b"[" * 100_000 + b"]" * 100_000
    if MODE == "wide":
        return b'"x": [' + b"0," * (30 << 20) + b"0]"
    return b",".join(b'"k%d": 0' % i for i in range(4_500_000))


BODY = _body()  # built before the handshake: the answer itself is written at once


def nested(req: dict[str, object]) -> None:
    rid = str(req["id"]).encode()
    out = sys.stdout.buffer
    try:
        out.write(b'{"id": "' + rid + b'", "result": "skipped", ' + BODY + b"}\n")
        out.flush()
    except (BrokenPipeError, OSError):
        sys.exit(0)


serve(nested, "bad-nested-answer")
