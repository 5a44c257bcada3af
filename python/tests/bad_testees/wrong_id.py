"""Answers a request with another request's id (a correct answer otherwise)."""

import json
import sys

from _common import Binding, handle, serve


def wrong(req: dict[str, object]) -> None:
    resp = handle(Binding(), req)
    resp["id"] = f"not-{req['id']}"
    sys.stdout.write(json.dumps(resp) + "\n")
    sys.stdout.flush()


serve(wrong, "bad-wrong-id")
