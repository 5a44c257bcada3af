"""`omnimessage conformance --protocol V`: the cases of one protocol version, so that an
implementation of an older release can be certified (issue 33). A case belongs to V when V and the
newest version agree on every versioned feature its input shows."""

from __future__ import annotations

import dataclasses

from conformance_harness import SUITE, SUMMARY, cli

from omnimessage.conformance.protocol_cases import holds_in, of_protocol
from omnimessage.schema.versions import newest

LINE = b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_end","status":"%s"}}'
COST = (b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"token_usage","session":'
        b'{"cache_read":0,"cache_write":0,"output":1,"total":2},"request":{"cache_read":0,"cache_write":0,"output":1,'
        b'"total":2},"reported_cost":{"amount":0.25,"currency":"USD"}}}')


def _case(data: bytes) -> object:
    return dataclasses.replace(SUITE.cases[0], input=data)


def test_a_case_holds_where_its_version_and_the_newest_agree() -> None:
    failed, completed, cost = _case(LINE % b"failed"), _case(LINE % b"completed"), _case(COST)
    assert not holds_in(failed, "0.2.4")  # 0.2.4 reads `failed`; the newest refuses it
    assert holds_in(failed, newest()) and holds_in(failed, "0.2.6")  # both refuse it
    assert holds_in(completed, "0.1.1") and holds_in(completed, "0.2.4")
    assert not holds_in(cost, "0.2.4") and not holds_in(cost, "0.2.6") and holds_in(cost, newest())
    assert holds_in(_case(b'{"timestamp":1,,}'), "0.1.1")  # not JSON: a lexical case holds everywhere


def test_protocol_selects_the_cases_of_a_version() -> None:
    everything = SUITE.cases
    assert of_protocol(everything, newest()) == list(everything)
    assert of_protocol(everything, None) == list(everything)
    older = of_protocol(everything, "0.2.4")
    assert 0 < len(older) < len(everything)
    assert not any(b'"reported_cost"' in c.input or b'"prefix_hash"' in c.input for c in older)
    listed = cli("--protocol", "0.2.4", "--list", "--fresh", "0")
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == len(older), listed.stderr


def test_conformance_runs_the_cases_of_0_2_4() -> None:
    r = cli("--impl", "python", "--protocol", "0.2.4", "--fresh", "0")
    older = of_protocol(SUITE.cases, "0.2.4")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert f"{len(older)} of {len(SUITE.cases)} shipped cases" in r.stdout and ", protocol 0.2.4," in r.stdout
    assert SUMMARY.search(r.stdout) and f"{len(older)} passed, 0 failed" in r.stdout


def test_an_unknown_protocol_is_a_usage_error() -> None:
    r = cli("--protocol", "9.9", "--list")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("omnimessage conformance: unknown protocol '9.9' (known: 0.1.1, "), r.stderr
