"""URL inputs through fsspec (python/omnimessage/validate/sources/storage.py): `memory://` roots, a real S3
endpoint on loopback (moto's standalone server, read through s3fs exactly as a bucket would be),
hostile listings and reads, missing extras, credentials never shown, and memory that stays flat."""

from __future__ import annotations

import gzip
import io
import json
import logging
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import fsspec
import pytest
from conftest import ROOT
from fsspec.implementations.memory import MemoryFileSystem
from moto.server import ThreadedMotoServer

from omnimessage.cli.main import main as cli_main
from omnimessage.validate import validate_path
from omnimessage.validate.archive import validate_archive
from omnimessage.validate.reporting.report import Report
from omnimessage.validate.sources.inputs import Options, index_root, run_unit
from omnimessage.validate.sources.objects import parse_storage_options, redacted, typed_options
from omnimessage.validate.sources.storage import discover_any, index_url_root
from omnimessage_dev.archive import build_archive

SESSIONS = 40  # top-level sessions of the generated archive (children come on top): every planted defect


# ------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated archive (producers, rotations, subagents, planted defects) plus hostile extras."""
    root = tmp_path_factory.mktemp("archive")
    build_archive(root, sessions=SESSIONS, seed=5)
    (root / "loose.jsonl").write_bytes(b'{"not": "a message"}\n')  # OM801 + a decode error
    (root / "notes.txt").write_bytes(b"not a trace\n")  # ignored: not .jsonl
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x_001.jsonl").write_bytes(b"x\n")  # ignored: hidden
    (root / "2026-07-18" / "deeper").mkdir(parents=True, exist_ok=True)
    (root / "2026-07-18" / "deeper" / "s_001.jsonl").write_bytes(b"x\n")  # loose: not at depth 1
    return root


def _files(root: Path) -> Iterator[tuple[str, bytes]]:
    for p in sorted(root.rglob("*")):
        if p.is_file():
            yield p.relative_to(root).as_posix(), p.read_bytes()


@pytest.fixture
def memory_root(archive: Path) -> Iterator[str]:
    """The archive copied into the in-memory filesystem under a fresh prefix."""
    prefix = f"t-{uuid.uuid4().hex[:12]}"
    fs = MemoryFileSystem()
    for rel, data in _files(archive):
        fs.pipe(f"/{prefix}/{rel}", data)
    yield f"memory://{prefix}"
    fs.rm(f"/{prefix}", recursive=True)


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    """moto's S3 server on a free loopback port, started and stopped here."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request in a failure's log
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def s3_env(monkeypatch: pytest.MonkeyPatch, s3_endpoint: str) -> str:
    """Dummy credentials in the environment, as a real deployment has real ones."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing-key-id")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing-secret-value")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    for var in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(var, raising=False)
    return s3_endpoint


def _s3(endpoint: str) -> Any:
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")


@pytest.fixture
def bucket(s3_env: str, archive: Path) -> str:
    """A fresh bucket holding the archive under `traces/` (and a "directory" marker object)."""
    name = f"b-{uuid.uuid4().hex[:12]}"
    s3 = _s3(s3_env)
    s3.create_bucket(Bucket=name)
    for rel, data in _files(archive):
        s3.put_object(Bucket=name, Key=f"traces/{rel}", Body=data)
    s3.put_object(Bucket=name, Key="traces/2026-07-18/", Body=b"")  # a console-made folder marker
    return name


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = cli_main(["validate", "--no-progress", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def _as_local(report: Report, url: str, local: Path) -> Report:
    """`report` with the URL prefix of every path read as the local root's."""
    return Report.from_json(report.to_json().replace(url, str(local)))


# ------------------------------------------------------------------ the listing


def test_url_root_indexes_as_a_local_root(archive: Path, memory_root: str) -> None:
    local = index_root(str(archive))
    remote = index_url_root(memory_root)
    rel = len(str(archive))
    assert {sid: [(i, p[rel:]) for i, p in files] for sid, files in local.sessions.items()} == {
        sid: [(i, p[len(memory_root):]) for i, p in files] for sid, files in remote.sessions.items()}
    assert [p[rel:] for p in local.loose] == [p[len(memory_root):] for p in remote.loose]
    assert [p[len(memory_root):] for p in remote.loose] == ["/loose.jsonl", "/2026-07-18/deeper/s_001.jsonl"]
    assert len(remote.sessions) > SESSIONS  # subagent children are sessions too
    assert any(len(files) > 1 for files in remote.sessions.values())  # rotations


# ------------------------------------------------------------------ memory://


def test_memory_root_report_equals_the_local_one(archive: Path, memory_root: str) -> None:
    local = validate_path(str(archive))
    remote = validate_archive(memory_root)
    assert remote.inputs == local.inputs and remote.sessions == local.sessions > SESSIONS
    assert remote.bytes == local.bytes > 0 and remote.lines == local.lines
    assert {"OM111", "OM203", "OM702", "OM801", "OM802", "OM804", "OM805"} <= set(remote.by_rule)
    assert _as_local(remote, memory_root, archive) == local
    assert all(f.path.startswith(memory_root + "/") for f in remote.findings)


def test_memory_root_on_the_command_line(capsys: pytest.CaptureFixture[str], archive: Path,
                                         memory_root: str) -> None:
    rc_local, out_local, _ = _cli(capsys, "--format", "json", f"{archive}/")  # a trailing slash on both sides
    rc, out, err = _cli(capsys, "--format", "json", memory_root + "/")
    assert rc == rc_local == 1, err
    assert Report.from_json(out.replace(memory_root, str(archive))) == Report.from_json(out_local)
    # a single object as an input
    one = next(p for p in index_url_root(memory_root).loose)
    rc, out, _ = _cli(capsys, one)
    assert rc == 1 and "OM110" in out and "OM801" not in out  # named alone: no layout warning


def test_canonicalize_check_reads_urls(capsys: pytest.CaptureFixture[str], archive: Path, memory_root: str) -> None:
    name = next(iter(index_url_root(memory_root).sessions.values()))[0][1]
    assert cli_main(["canonicalize", "--check", name]) == 0
    _, err = capsys.readouterr()
    assert " 0 not canonical, 0 invalid" in err
    assert cli_main(["canonicalize", "--check", f"{memory_root}/loose.jsonl"]) == 1
    assert cli_main(["canonicalize", "--check", f"{memory_root}/missing.jsonl"]) == 2
    _, err = capsys.readouterr()
    assert f"{memory_root}/missing.jsonl" in err and "Traceback" not in err
    assert cli_main(["canonicalize", "--in-place", f"{memory_root}/loose.jsonl"]) == 2


def test_a_compressed_object_is_refused_once(capsys: pytest.CaptureFixture[str], memory_root: str) -> None:
    MemoryFileSystem().pipe(f"/{memory_root[len('memory://'):]}/z.jsonl", gzip.compress(b"x\n" * 1000))
    rc, out, err = _cli(capsys, f"{memory_root}/z.jsonl")
    assert rc == 2
    assert "compressed (gzip)" in err and f"{memory_root}/z.jsonl" in err
    assert "OM102" not in out


# ------------------------------------------------------------------ s3:// on a loopback moto server


def test_s3_bucket_report_equals_the_local_one(capsys: pytest.CaptureFixture[str], archive: Path, bucket: str,
                                               s3_env: str) -> None:
    url = f"s3://{bucket}/traces"
    local = validate_path(str(archive))
    remote = validate_archive(url, storage_options={"endpoint_url": s3_env})
    assert remote.inputs == local.inputs and remote.bytes == local.bytes  # the folder marker is no input
    assert _as_local(remote, url, archive) == local
    # the command line, options as strings
    rc, out, err = _cli(capsys, "--format", "json", url, "--storage-option", f"endpoint_url={s3_env}",
                        "--storage-option", "use_ssl=false")
    assert rc == 1, err
    assert Report.from_json(out.replace(url, str(archive))) == local
    # --jobs 2: the units and the storage options pickle to worker processes, which open their own s3fs
    rc, out, err = _cli(capsys, "--format", "json", "-j", "2", url, "--storage-option", f"endpoint_url={s3_env}")
    assert rc == 1, err
    assert Report.from_json(out.replace(url, str(archive))) == local
    rc, _, err = _cli(capsys, f"s3://{bucket}/traces/nothing-here/", "--storage-option", f"endpoint_url={s3_env}")
    assert rc == 2 and "no such object" in err


def test_s3_object_gone_before_its_read_is_a_failure(archive: Path, bucket: str, s3_env: str) -> None:
    url = f"s3://{bucket}/traces"
    opts = Options(storage_options=(("endpoint_url", s3_env),))
    units, roots, problems = discover_any([url], "trace", opts.storage_options)
    assert not problems and roots
    unit = next(u for u in units if u.name.endswith("loose.jsonl"))
    _s3(s3_env).delete_object(Bucket=bucket, Key="traces/loose.jsonl")
    res = run_unit(unit, opts)
    assert res.failure.startswith(f"{url}/loose.jsonl: ")
    assert not res.findings


def test_s3_credentials_are_never_shown(capsys: pytest.CaptureFixture[str], bucket: str, s3_env: str) -> None:
    rc, out, err = _cli(capsys, f"s3://{bucket}/traces/", "--storage-option", f"endpoint_url={s3_env}",
                        "--storage-option", "secret=SUPER-SECRET-VALUE", "--storage-option", "key=KEY-ID-VALUE",
                        "--storage-option", "no_such_option=1")
    assert rc == 2
    assert "SUPER-SECRET-VALUE" not in out + err and "KEY-ID-VALUE" not in out + err
    assert "testing-secret-value" not in out + err
    assert "Traceback" not in err
    assert "secret=***" in err and "key=***" in err  # the options are echoed, redacted


def test_nested_and_url_credentials_are_never_shown(capsys: pytest.CaptureFixture[str], bucket: str,
                                                    s3_env: str) -> None:
    """Issue 23: secrets nested in a JSON value, user info and query credentials inside a value, and
    exception texts quoting them are redacted on stderr and in the JSON report."""
    hidden = ["TOK-NESTED-1", "PW-DEEP-2", "KEYID-3", "SECRETX-4", "QTOKEN-5"]
    rc, out, err = _cli(
        capsys, f"s3://{bucket}/traces/", "--format", "json", "--storage-option", f"endpoint_url={s3_env}",
        "--storage-option", 'client_kwargs={"aws_session_token": "TOK-NESTED-1", "x": [{"password": "PW-DEEP-2"}]}',
        "--storage-option", "proxy=http://KEYID-3:SECRETX-4@127.0.0.1:9/?access_token=QTOKEN-5",
        "--storage-option", "no_such_option=KEYID-3")  # refused: the exception text echoes the options
    assert rc == 2
    assert not [h for h in hidden if h in out + err], out + err
    assert '"aws_session_token": "***"' in err and "http://***@127.0.0.1:9/?access_token=***" in err


def test_redaction_is_recursive_and_scrubs_texts() -> None:
    from omnimessage.validate.sources.secrets import has_secrets, redacted_options, scrub, secrets_of

    pairs = [("client_kwargs", '{"a": {"b": [{"aws_secret_access_key": "S1-xx"}]}, "region_name": "eu"}'),
             ("endpoint_url", "https://u-xx:p-xx@h/x?X-Amz-Signature=sig-xx&n=1"), ("anon", "false")]
    assert redacted_options(pairs) == [
        ("client_kwargs", '{"a": {"b": [{"aws_secret_access_key": "***"}]}, "region_name": "eu"}'),
        ("endpoint_url", "https://***@h/x?X-Amz-Signature=***&n=1"), ("anon", "false")]
    assert scrub("refused S1-xx, p-xx, sig-xx", secrets_of(pairs)) == "refused ***, ***, ***"
    assert has_secrets(pairs) and not has_secrets([("anon", "true"), ("endpoint_url", "http://127.0.0.1:9000")])
    deep = "[" * 100_000 + "]" * 100_000  # no RecursionError: masked or left as text
    assert redacted_options([("k2", deep)])[0][0] == "k2"


# ------------------------------------------------------------------ hostile objects


class _Flaky(MemoryFileSystem):
    """A memory filesystem whose `*boom*` objects fail after their first 100 bytes."""

    protocol = "flaky"

    @classmethod
    def _strip_protocol(cls, path: str) -> str:
        if path.startswith("flaky://"):
            path = "memory://" + path[len("flaky://"):]
        return str(super()._strip_protocol(path))

    def _open(self, path: str, mode: str = "rb", **kwargs: Any) -> Any:
        f = super()._open(path, mode, **kwargs)
        if "boom" not in path:
            return f
        data = f.getvalue()

        class Breaking(io.BytesIO):
            def read(self, n: int | None = -1) -> bytes:
                if self.tell() >= 100:
                    raise ConnectionResetError("the peer went away")
                return super().read(min(n if n is not None and n >= 0 else len(data), 100 - self.tell()))

        return Breaking(data)


@pytest.fixture
def flaky_root(archive: Path) -> Iterator[str]:
    fsspec.register_implementation("flaky", _Flaky, clobber=True)
    prefix = f"f-{uuid.uuid4().hex[:12]}"
    fs = _Flaky()
    for rel, data in _files(archive):
        fs.pipe(f"/{prefix}/{rel}", data)
    fs.pipe(f"/{prefix}/boom.jsonl", b"".join(
        b'{"timestamp":"2026-07-18T03:10:22.531Z","type":"event_msg","payload":{"type":"request_begin"}}\n'
        for _ in range(50)))
    yield f"flaky://{prefix}"
    fs.rm(f"/{prefix}", recursive=True)


def test_an_object_failing_mid_read_is_that_inputs_failure(capsys: pytest.CaptureFixture[str], archive: Path,
                                                           flaky_root: str) -> None:
    rc, out, err = _cli(capsys, "--format", "json", flaky_root)
    assert rc == 2, err
    doc = json.loads(out)
    assert doc["summary"]["unreadable"] == [f"{flaky_root}/boom.jsonl: ConnectionResetError: the peer went away"]
    assert "Traceback" not in err
    # every other input was validated as the local root is
    local = validate_path(str(archive))
    assert doc["summary"]["inputs"] == local.inputs + 1
    assert doc["summary"]["sessions"] == local.sessions


def test_storage_options_are_typed_as_fsspec_reads_them() -> None:
    pairs = parse_storage_options(["anon=true", "n=3", "f=0.5", 'client_kwargs={"region_name": "eu"}', "s=a=b",
                                   "none=none"])
    assert typed_options(pairs) == {"anon": True, "n": 3, "f": 0.5, "client_kwargs": {"region_name": "eu"},
                                    "s": "a=b", "none": None}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_storage_options(["novalue"])
    # Options travel to workers, whose schedulers may log a task's arguments: no option value in the repr
    assert "S3CR3T" not in repr(Options(storage_options=(("secret", "S3CR3T"),)))
    assert redacted([("endpoint_url", "http://x"), ("secret", "s"), ("aws_access_key_id", "k"), ("token", "t"),
                     ("password", "p")]) == "endpoint_url=http://x, secret=***, aws_access_key_id=***, token=***, password=***"


def test_a_bad_storage_option_is_a_usage_error(capsys: pytest.CaptureFixture[str], memory_root: str) -> None:
    rc, _, err = _cli(capsys, memory_root, "--storage-option", "=x")
    assert rc == 2 and "KEY=VALUE" in err
    rc, _, err = _cli(capsys, "nosuchproto://x/y")
    assert rc == 2 and "nosuchproto" in err and "Traceback" not in err


# ------------------------------------------------------------------ missing extras


@pytest.mark.parametrize(("hidden", "url", "extra"), [
    ("fsspec", "memory://x/", "archive"),
    ("fsspec", "s3://bucket/x/", "s3"),
    ("s3fs", "s3://bucket/x/", "s3"),
])
def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], hidden: str,
                                  url: str, extra: str) -> None:
    registry = sys.modules["fsspec.registry"]._registry  # type: ignore[attr-defined]
    monkeypatch.delitem(registry, "s3", raising=False)  # as if s3fs had never been imported
    for mod in list(sys.modules):
        if mod == hidden or mod.startswith(hidden + "."):
            monkeypatch.setitem(sys.modules, mod, None)
    monkeypatch.setitem(sys.modules, hidden, None)  # `import hidden` now raises ImportError
    rc, _, err = _cli(capsys, url)
    assert rc == 2
    assert f"(the '{extra}' extra's packages)" in err and "pip install 'fsspec" in err
    assert "Traceback" not in err


# ------------------------------------------------------------------ memory stays flat


_FLAT = """\
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
sys.path.insert(0, {dev!r})
import fsspec
from fsspec.spec import AbstractBufferedFile, AbstractFileSystem
from omnimessage_dev.synth.sessions import trace_lines
PATTERN = b"".join(trace_lines(1 << 20, seed=7))
SIZE = {repeat} * len(PATTERN)

class Lazy(AbstractBufferedFile):
    # the object's bytes, made as they are asked for: nothing of it is in memory before a read
    def _fetch_range(self, start, end):
        out = bytearray()
        pos, end = start, min(end, SIZE)
        while pos < end:
            off = pos % len(PATTERN)
            take = min(len(PATTERN) - off, end - pos)
            out += PATTERN[off:off + take]
            pos += take
        return bytes(out)

class LazyFS(AbstractFileSystem):
    protocol = "lazytrace"
    def info(self, path, **kw):
        return {{"name": path, "size": SIZE, "type": "file"}}
    def _open(self, path, mode="rb", block_size=None, autocommit=True, cache_options=None, **kw):
        return Lazy(self, path, mode, block_size=block_size, size=SIZE, **kw)

fsspec.register_implementation("lazytrace", LazyFS, clobber=True)
from omnimessage.cli.validate import main
rc = main(sys.argv[1:])
sys.stderr.write("\\nLINES_PER_PATTERN %d\\n" % PATTERN.count(b"\\n"))
sys.stderr.write("SIZE %d\\n" % SIZE)
sys.exit(rc)
"""


def test_memory_stays_flat_on_an_object_larger_than_the_address_space(tmp_path: Path) -> None:
    """A ~100 MB object validated under a 96 MiB address-space limit: it can only pass streaming."""
    limit = 96 << 20
    script = _FLAT.format(limit=limit, dev=str(ROOT / "dev"), repeat=100)
    report = tmp_path / "r.json"
    p = subprocess.run([sys.executable, "-c", script, "--no-progress", "--format", "json", "-o", str(report),
                        "lazytrace://big/trace.jsonl"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 1, p.stderr[-2000:]  # errors found (each repeat opens with a session_meta), no crash
    size = int(p.stderr.rsplit("SIZE ", 1)[1])
    per = int(p.stderr.rsplit("LINES_PER_PATTERN ", 1)[1].split()[0])
    assert size > limit
    summary = json.loads(report.read_text())["summary"]
    assert summary["bytes"] == size
    assert summary["lines"] == 100 * per
    assert summary["unreadable"] == []
    assert {r["rule"]: r["count"] for r in summary["by_rule"]}["OM202"] == 99

