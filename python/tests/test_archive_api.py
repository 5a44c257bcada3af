"""`omnimessage.validate.validate_archive`: the Python API of a whole-archive run (validate/archive.py).
It returns the same `Report` as `validate_path`, here or on a Dask cluster, from a local root, a
`memory://` root or an S3 bucket (moto's server on loopback, read through s3fs by the workers)."""

from __future__ import annotations

import logging
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import boto3
import distributed
import pytest
from fsspec.implementations.memory import MemoryFileSystem
from moto.server import ThreadedMotoServer

from omnimessage.validate import validate_archive, validate_path
from omnimessage.validate.reporting.report import Report
from omnimessage.validate.reporting.summary import GroupedReport
from omnimessage.validate.sources.inputs import UnitResult
from omnimessage.validate.sources.objects import StorageUnavailable
from omnimessage_dev.archive import build_archive


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("archive")
    build_archive(root, sessions=40, seed=11)
    (root / "loose.jsonl").write_bytes(b"x\n")
    return root


def _as_local(report: Report, url: str, local: Path) -> Report:
    return Report.from_json(report.to_json().replace(url, str(local)))


def test_a_local_root_gives_the_report_of_validate_path(archive: Path) -> None:
    seen: list[UnitResult] = []
    report = validate_archive(archive, on_result=seen.append)
    assert report == validate_path(str(archive))
    assert type(report) is Report
    assert len(seen) == report.inputs > 40
    assert {"OM111", "OM203", "OM702", "OM801", "OM802", "OM804", "OM805"} <= set(report.by_rule)


def test_summary_by_groups_the_same_report(archive: Path) -> None:
    report = validate_archive(str(archive), summary_by=["producer", "rule"], max_findings=3)
    assert isinstance(report, GroupedReport)
    assert report == validate_path(str(archive), max_findings=3)
    groups = report.groups.to_dict()
    assert sum(int(r["inputs"]) for r in groups["producer"]) == report.inputs  # type: ignore[call-overload]
    assert {r["group"]: int(r["errors"]) + int(r["warnings"]) for r in groups["rule"]} == report.by_rule  # type: ignore[call-overload]
    assert "groups" in report.summary_dict()


def test_memory_root_with_options_in_either_form(archive: Path) -> None:
    prefix = f"api-{uuid.uuid4().hex[:12]}"
    fs = MemoryFileSystem()
    for p in archive.rglob("*.jsonl"):
        fs.pipe(f"/{prefix}/{p.relative_to(archive).as_posix()}", p.read_bytes())
    try:
        url = f"memory://{prefix}"
        local = validate_path(str(archive))
        assert _as_local(validate_archive(url), url, archive) == local
        assert _as_local(validate_archive(url, storage_options={"skip_instance_cache": False}), url, archive) == local
        assert _as_local(validate_archive([url], storage_options=["skip_instance_cache=false"]), url,
                         archive) == local
    finally:
        fs.rm(f"/{prefix}", recursive=True)


def test_bad_arguments_raise(archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="profile"):
        validate_archive(archive, profile="nope")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="KEY=VALUE"):
        validate_archive(archive, storage_options=["no-equals-sign"])
    with pytest.raises(ValueError, match="summary-by"):
        validate_archive(archive, summary_by=["model"])
    monkeypatch.setitem(sys.modules, "fsspec", None)
    monkeypatch.setitem(sys.modules, "fsspec.core", None)
    with pytest.raises(StorageUnavailable, match=r"pip install 'fsspec.*\(the 'archive' extra's packages\)"):
        validate_archive("memory://anything/")
    missing = validate_archive(archive / "nope")
    assert not missing.ok and missing.failures == [f"{archive / 'nope'}: no such file or directory"]


# ------------------------------------------------------------------ S3 on loopback, on a Dask cluster


@pytest.fixture(scope="module")
def bucket_url(archive: Path) -> Iterator[tuple[str, str]]:
    """(s3:// URL of the archive in a fresh bucket, the loopback endpoint)."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    mp = pytest.MonkeyPatch()
    mp.setenv("AWS_ACCESS_KEY_ID", "testing-key-id")  # inherited by the worker processes
    mp.setenv("AWS_SECRET_ACCESS_KEY", "testing-secret-value")
    mp.setenv("AWS_DEFAULT_REGION", "us-east-1")
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    name = f"b-{uuid.uuid4().hex[:12]}"
    s3.create_bucket(Bucket=name)
    for p in archive.rglob("*.jsonl"):
        s3.put_object(Bucket=name, Key=f"traces/{p.relative_to(archive).as_posix()}", Body=p.read_bytes())
    try:
        yield f"s3://{name}/traces", endpoint
    finally:
        server.stop()
        mp.undo()


def test_an_s3_archive_on_a_dask_cluster_equals_the_local_run(archive: Path, bucket_url: tuple[str, str]) -> None:
    url, endpoint = bucket_url
    local = validate_path(str(archive))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as cluster, distributed.Client(cluster) as client:
        seen: list[UnitResult] = []
        remote = validate_archive(url, client=client, storage_options={"endpoint_url": endpoint},
                                  summary_by=["producer"], on_result=seen.append)
    assert _as_local(remote, url, archive) == local
    assert len(seen) == local.inputs
    assert isinstance(remote, GroupedReport)
    assert sum(int(r["inputs"]) for r in remote.groups.to_dict()["producer"]) == local.inputs  # type: ignore[call-overload]
    # here, without a cluster: the same report
    assert _as_local(validate_archive(url, storage_options={"endpoint_url": endpoint}), url, archive) == local
