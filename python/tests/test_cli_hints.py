"""The command-line details users hit: the likely profile, compressed input, a URL given as a PATH,
a misspelt option of a subcommand, the subcommands' help."""

from __future__ import annotations

import gzip
import lzma
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from omnimessage.cli.main import main as cli_main
from omnimessage.validate.sources.hints import missing_input, profile_hint

EXAMPLES = ROOT / "examples"
PROFILE_NOTE = "validate it with --profile stream"


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = cli_main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


# ------------------------------------------------------------------ (a) the likely profile


def test_a_stream_under_the_default_profile_gets_one_note(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = cli(capsys, "validate", "--no-progress", "--color", "never", str(EXAMPLES / "stream.jsonl"))
    assert rc == 1
    assert out.count(PROFILE_NOTE) == 1
    assert "note: this looks like a stream" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--profile", "trace", str(EXAMPLES / "stream.jsonl")],  # chosen on purpose: no second guessing
        ["--profile", "stream", str(EXAMPLES / "stream.jsonl")],
        [str(EXAMPLES / "trace.jsonl")],
        [str(EXAMPLES / "invalid.jsonl")],
    ],
    ids=["explicit-trace", "stream", "trace", "invalid-trace"],
)
def test_no_profile_note_otherwise(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    _, out, _ = cli(capsys, "validate", "--no-progress", "--color", "never", *argv)
    assert PROFILE_NOTE not in out


def test_profile_hint_needs_both_signs() -> None:
    assert profile_hint(None, ["OM203", "OM201"]) and profile_hint(None, ["OM204", "OM201"])
    assert not profile_hint(None, ["OM203"])  # it opens with session_meta: a trace with partials in it
    assert not profile_hint(None, ["OM201"])
    assert not profile_hint("trace", ["OM203", "OM201"])


# ------------------------------------------------------------------ (b) compressed input


@pytest.mark.parametrize(("suffix", "compress", "name"), [(".gz", gzip.compress, "gzip"), (".xz", lzma.compress, "xz")])
def test_a_compressed_file_is_refused_once(capsys: pytest.CaptureFixture[str], tmp_path: Path, suffix: str,
                                           compress: object, name: str) -> None:
    path = tmp_path / f"trace.jsonl{suffix}"
    path.write_bytes(compress((EXAMPLES / "trace.jsonl").read_bytes()))  # type: ignore[operator]
    rc, out, err = cli(capsys, "validate", "--no-progress", "--color", "never", str(path))
    assert rc == 2
    assert "invalid-utf8" not in out and "OM101" not in out
    assert f"compressed ({name}), not JSON Lines: decompress first" in err
    assert err.count("decompress first") == 1
    assert f"`{name} -dc {path} | omnimessage validate -`" in err  # the command, ready to run


def test_the_decompress_hint_keeps_the_stream_profile(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "capture.jsonl.gz"
    path.write_bytes(gzip.compress((EXAMPLES / "stream.jsonl").read_bytes()))
    rc, _, err = cli(capsys, "validate", "--no-progress", "--profile", "stream", str(path))
    assert rc == 2
    assert f"`gzip -dc {path} | omnimessage validate --profile stream -`" in err


def test_a_plain_file_is_not_taken_for_compressed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    assert cli(capsys, "validate", "--no-progress", str(path))[0] == 0
    shutil.copy(EXAMPLES / "trace.jsonl", path)
    assert cli(capsys, "validate", "--no-progress", str(path))[0] == 0


# ------------------------------------------------------------------ (e) a URL given as a PATH


def test_a_url_path_points_to_sse_url(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = cli(capsys, "validate", "--no-progress", "http://127.0.0.1:9/events")
    assert rc == 2
    assert "http://127.0.0.1:9/events: not a file but a URL" in err
    assert "--sse-url" in err
    assert "no such file" not in err


def test_missing_input_wording() -> None:
    assert missing_input("nothing.jsonl") == "nothing.jsonl: no such file or directory"
    assert "--sse-url" in missing_input("https://example.com/stream")
    assert "--sse-url" not in missing_input("notes:http.jsonl")


# ------------------------------------------------------------------ (c), (d) the subcommands' usage and help


def test_a_misspelt_option_shows_the_subcommands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli_main(["canonicalize", "--inplace", "x.jsonl"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: omnimessage canonicalize ")
    assert "--in-place" in err
    assert "omnimessage canonicalize: error: unrecognized arguments: --inplace" in err


@pytest.mark.parametrize("command", ["canonicalize", "schema"])
def test_subcommand_help_has_a_description(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit):
        cli_main([command, "--help"])
    out = capsys.readouterr().out
    paragraphs = out.split("\n\n")
    assert paragraphs[0].startswith(f"usage: omnimessage {command}")
    assert not paragraphs[1].startswith(("positional arguments", "options")), out
    assert len(paragraphs[1].split()) >= 10


# ------------------------------------------------------------------ issue 24: the frictions


def test_a_misspelt_validate_option_gets_a_suggestion_not_the_whole_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli_main(["validate", "--proflie", "stream", "x.jsonl"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --proflie; --proflie: did you mean --profile?" in err
    assert len(err.splitlines()) == 2 and "'omnimessage validate --help' lists the options" in err


def test_an_unreadable_input_is_reported_once_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    rc, out, err = cli(capsys, "validate", "--color", "never", "--no-progress", str(tmp_path / "missing.jsonl"))
    assert rc == 2
    assert (out + err).count("missing.jsonl: no such file") == 1, out + err
