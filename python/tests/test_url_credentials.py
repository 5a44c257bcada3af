"""Credentials in the `--sse-url` URL (issue 23): user information is refused (it is never sent;
credentials go in `--header`), and credential-named query values (`?access_token=`) are masked in
every finding, note and format, SARIF included (code scanning stores it). A real loopback server."""

from __future__ import annotations

import pytest
from test_validate_header import SECRET, _Auth, server  # noqa: F401 - the loopback producer fixture

from omnimessage.cli.main import main as cli_main
from omnimessage.validate import validate_url
from omnimessage.validate.reporting.output import FORMATS

TOKEN = "QTOKEN-abc123"


@pytest.mark.parametrize("fmt", FORMATS)
def test_query_credentials_are_masked_in_every_format(fmt: str, server: tuple[str, type[_Auth]],  # noqa: F811
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    url, handler = server
    handler.body += b'data: {"not": "a message"}\n\n'  # a finding naming the input
    rc = cli_main(["validate", "--no-progress", "--format", fmt, "--duration", "10", "--header",
                   f"Authorization: {SECRET}", "--sse-url", f"{url}?access_token={TOKEN}&limit=5"])
    out, err = capsys.readouterr()
    assert rc == 1, err
    assert TOKEN not in out + err
    assert "access_token=***" in out.replace("%3D", "=").replace("%2A", "*")
    assert handler.seen


def test_the_request_still_carries_the_query(server: tuple[str, type[_Auth]]) -> None:  # noqa: F811
    url, _ = server
    report = validate_url(f"{url}?access_token={TOKEN}", duration=10, headers={"Authorization": SECRET})
    assert report.ok, report.to_json()
    assert TOKEN not in report.to_json()


@pytest.mark.parametrize("userinfo", ["user:pa55word@", "t0ken@", ":pa55word@"])
def test_user_information_is_refused_with_a_hint(userinfo: str, server: tuple[str, type[_Auth]],  # noqa: F811
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    url, handler = server
    bad = url.replace("http://", "http://" + userinfo)
    rc = cli_main(["validate", "--no-progress", "--sse-url", bad])
    out, err = capsys.readouterr()
    assert rc == 2 and "--header 'Authorization: Basic" in err
    assert "pa55word" not in out + err and "t0ken" not in out + err
    with pytest.raises(ValueError, match="--header") as exc:
        validate_url(bad, duration=1)
    assert "pa55word" not in str(exc.value)
    assert not handler.seen  # refused before any request
