# ruff: noqa: E501  (fixture descriptions are long literals)
"""OM1xx: each line against the schema (UTF-8, JSON, depth, size, keys, types, values, canonical form)."""

from __future__ import annotations

import json
from typing import Any

from .fixture import TORN, M, U, stream, trace

# --lenient: a newer producer's additive fields and types (facts 11)
USAGE = {"cache_read": 10, "cache_write": 5, "output": 20, "total": 35}


def declare() -> None:
    """Declare the OM1xx fixtures."""
    f = trace("OM101", "pass-utf8", "non-ASCII text as raw UTF-8")
    f.user("naïve café 数据 ✓ 😀")
    f = trace("OM101", "fail-latin1", "a Latin-1 byte inside a string; validation goes on with the next line")
    n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text","role":"user",'
              b'"text":"caf\xe9"}}')
    f.user()
    f.expect("OM101", n)

    f = trace("OM102", "pass-json", "well-formed lines")
    f.user()
    f = trace("OM102", "fail-syntax-in-the-middle", "a malformed line in the middle is an error; the next line is checked")
    n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text",}}')
    f.user()
    f.expect("OM102", n)
    f = stream("OM102", "fail-blank-line-in-a-stream", "an empty line between two messages of a stream (in a trace it "
               "is a crash heal, OM006)")
    f.user()
    n = f.raw(b"")
    f.user()
    f.expect("OM102", n)
    f = trace("OM102", "fail-spliced-records", "two records spliced together, as concurrent writers leave them: not a "
              "torn line")
    f.user()
    n = f.raw(TORN + json.dumps(M("model_msg", U), separators=(",", ":")).encode())
    f.user()
    f.expect("OM102", n)

    f = trace("OM103", "pass-one-object-per-line", "one object per line")
    f.user()
    f.user("again")
    f = trace("OM103", "fail-two-objects-on-a-line", "two records written without a line feed between them")
    a = json.dumps(M("model_msg", U), separators=(",", ":")).encode()
    n = f.raw(a + a)
    f.expect("OM103", n)

    f = trace("OM118", "pass-tab-in-fidelity", "spaces and tabs inside fidelity: kept verbatim, still one line")
    f.user()
    thinking = json.dumps(M("model_msg", {"type": "thinking", "role": "assistant", "thinking": "ok",
                                          "stop_reason": "completed", "fidelity": {"signature": "x"}}),
                          separators=(",", ":")).encode()
    f.raw(thinking.replace(b'{"signature":"x"}', b'{"signature":\t "x"}'))
    f = trace("OM118", "fail-cr-in-fidelity", "a complete message between two raw CRs inside fidelity (a forged record)")
    f.user()
    inner = json.dumps(M("model_msg", U), separators=(",", ":")).encode()
    n = f.raw(thinking.replace(b'{"signature":"x"}', b'{"signature":\r' + inner + b"\r}"))
    f.expect("OM118", n)

    deep: Any = 0
    for _ in range(300):
        deep = [deep]
    f = trace("OM104", "pass-fidelity-300-levels", "a verbatim fidelity value nesting 300 levels")
    f.model({"type": "text", "role": "assistant", "text": "ok", "stop_reason": "completed", "fidelity": {"d": deep}})
    deep = 0
    for _ in range(520):
        deep = [deep]
    f = trace("OM104", "fail-520-levels", "nesting beyond 512 levels")
    n = f.obj(M("model_msg",
                {"type": "text", "role": "assistant", "text": "ok", "stop_reason": "completed", "fidelity": {"d": deep}}))
    f.expect("OM104", n)

    f = trace("OM105", "pass-under-limit", "every line under the reader's limit (--max-line-bytes 2000)",
              max_line_bytes=2000)
    f.user("x" * 1000)
    f = trace("OM105", "fail-over-limit", "a line over the reader's limit (--max-line-bytes 2000)", max_line_bytes=2000)
    n = f.user("x" * 3000)
    f.user()
    f.expect("OM105", n)

    f = trace("OM106", "pass-unique-keys", "unique keys (duplicates inside fidelity are verbatim and fine)")
    f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"thinking","role":"assistant",'
          b'"thinking":"ok","stop_reason":"completed","fidelity":{"n":1,"n":2}}}')
    f = trace("OM106", "fail-duplicate-role", "the payload has `role` twice")
    n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text","role":"user",'
              b'"role":"user","text":"hi"}}')
    f.expect("OM106", n)

    f = trace("OM107", "pass-non-bmp-character", "a character outside the BMP, written raw (a pair in UTF-16)")
    f.user("😀")
    f = trace("OM107", "fail-lone-surrogate", "text cut between the two halves of a surrogate pair")
    n = f.raw(b'{"timestamp":"@TS@","type":"model_msg","payload":{"type":"text","role":"user",'
              b'"text":"\\ud83d"}}')
    f.expect("OM107", n)
    f = stream("OM107", "pass-split-pair-in-fragments", "a surrogate pair split between two deltas (JSON.stringify "
               "escapes each half): accepted in a partial's fragment field, joined in UTF-16")
    f.user()
    f.begin()
    f.ptext("start")
    a = f.ptext("delta", "smile @HI@")
    b = f.ptext("delta", "@LO@ done")
    f.ptext("stop", stop_reason="completed")
    f.say("smile \U0001f600 done")
    f.usage()
    f.end()
    f.lines[a - 1] = f.lines[a - 1].replace(b"@HI@", b"\\ud83d")
    f.lines[b - 1] = f.lines[b - 1].replace(b"@LO@", b"\\ude00")
    f = stream("OM107", "fail-lone-surrogate-in-a-complete-message", "a lone surrogate in a complete text: only the "
               "fragment field of a partial may hold one")
    f.user()
    n = f.say("smile @HI@")
    f.lines[n - 1] = f.lines[n - 1].replace(b"@HI@", b"\\ud83d")
    f.expect("OM107", n)

    f = trace("OM108", "pass-integer-attempt", "`attempt` written as an integer")
    f.begin()
    f.usage()
    f.end(attempt=2)
    f = trace("OM108", "fail-attempt-1.0", "`attempt` written with a fraction")
    f.begin()
    f.usage()
    n = f.raw(b'{"timestamp":"@TS@","type":"event_msg","payload":{"type":"request_end",'
              b'"status":"completed","attempt":1.0}}')
    f.expect("OM108", n)

    f = trace("OM109", "pass-string-text", "`text` is a string")
    f.user()
    f = trace("OM109", "fail-number-text", "`text` is a number")
    n = f.obj(M("model_msg", {"type": "text", "role": "user", "text": 5}))
    f.expect("OM109", n)

    f = trace("OM110", "pass-all-required", "every required field present")
    f.user()
    f = trace("OM110", "fail-no-text", "a text payload without `text`")
    n = f.obj(M("model_msg", {"type": "text", "role": "user"}))
    f.expect("OM110", n)

    f = trace("OM111", "pass-known-fields", "only defined keys")
    f.user()
    f = trace("OM111", "fail-extra-key", "a key the schema does not define")
    n = f.obj(M("model_msg", {"type": "text", "role": "user", "text": "hi", "lang": "en"}))
    f.user()
    f.expect("OM111", n)
    f = trace("OM111", "fail-retired-field-without-legacy", "`request_end.message` without --legacy")
    f.begin()
    f.usage()
    n = f.obj(M("event_msg", {"type": "request_end", "status": "fatal", "error_code": "auth",
                                                          "error_message": "401", "message": "401"}))
    f.expect("OM111", n)

    f = trace("OM112", "pass-known-types", "known envelope and payload types")
    f.user()
    f = trace("OM112", "fail-unknown-payload-type", "payload type `video`")
    n = f.obj(M("model_msg", {"type": "video", "role": "user", "url": "x"}))
    f.expect("OM112", n)

    f = trace("OM112", "fail-goal-finished-without-legacy", "goal mode's retired goal_finished event without --legacy")
    n = f.obj(M("event_msg", {"type": "goal_finished", "outcome": "achieved", "rounds": 3, "tokens_used": 48210}))
    f.expect("OM112", n)
    f = trace("OM115", "pass-known-fields-lenient", "--lenient changes nothing for known fields", lenient=True)
    f.turn()
    f = trace("OM115", "fail-newer-fields", "a newer producer's cost in token_usage and prompt-prefix statistics in "
              "request_begin (--lenient): warnings, the pairing rules still run", lenient=True)
    f.user()
    a = f.obj(M("event_msg", {"type": "request_begin", "prefix": {"cached_tokens": 1200, "hash": "9f8e"}}))
    f.say()
    b = f.obj(M("event_msg", {"type": "token_usage", "session": USAGE, "request": USAGE, "cost": 0.0042}))
    f.end()
    f.expect("OM115", a)
    f.expect("OM115", b)
    f = trace("OM115", "fail-newer-field-and-a-real-error", "an unknown field is a warning, a bad value on the same line "
              "is still an error (--lenient)", lenient=True)
    f.user()
    f.begin()
    f.say()
    f.usage()
    n = f.obj(M("event_msg", {"type": "request_end", "status": "finished", "duration_ms": 812}))
    f.expect("OM115", n)
    f.expect("OM113", n)
    f = trace("OM116", "pass-known-types-lenient", "--lenient changes nothing for known types", lenient=True)
    f.turn()
    f = trace("OM116", "fail-newer-event-type", "an event type of a newer producer (--lenient): a warning; the request "
              "around it is still checked", lenient=True)
    f.user()
    f.begin()
    n = f.obj(M("event_msg", {"type": "context_snapshot", "tokens": 1834}))
    f.say()
    f.usage()
    f.end()
    f.expect("OM116", n)

    f = trace("OM113", "pass-enum-values", "values from the vocabularies")
    f.user()
    f = trace("OM113", "fail-role-system", "role `system` is not a role")
    n = f.obj(M("model_msg", {"type": "text", "role": "system", "text": "hi"}))
    f.expect("OM113", n)
    f = trace("OM113", "fail-retired-stop-reason-without-legacy", "stop reason `failed` without --legacy")
    f.begin()
    f.usage()
    n = f.obj(M("event_msg", {"type": "request_end", "status": "failed",
                                                          "error_code": "network", "error_message": "reset"}))
    f.expect("OM113", n)

    f = trace("OM114", "pass-canonical", "canonical lines")
    f.user()
    f = trace("OM114", "fail-spaces-and-key-order", "valid, with spaces and another key order")
    n = f.raw(b'{"type": "model_msg", "timestamp": "@TS@", "payload": {"type": "text", '
              b'"role": "user", "text": "hi"}}')
    f.expect("OM114", n)
