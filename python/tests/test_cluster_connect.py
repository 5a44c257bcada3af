"""Reaching the cluster of `omnimessage validate --dask` (validate/sources/cluster.py): the connection made
while the inputs are listed and closed however the run stops, usage errors before any connection, and the
documented commands of a cluster of one's own (docs/scale.md)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pytest

from omnimessage.cli.validate import main as validate_main
from omnimessage.validate.sources import cluster as cl
from omnimessage_dev.archive import Manifest, build_archive

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.Client]:
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=40) as lc, distributed.Client(lc) as client:
        client.wait_for_workers(1)
        yield client


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Manifest:
    return build_archive(tmp_path_factory.mktemp("archive"), sessions=20, seed=5)


def _address(client: distributed.Client) -> str:
    return str(client.scheduler.address)


def test_missing_extra_names_it(archive: Manifest, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    assert validate_main([archive.root, "--dask", "local:1"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'dask[distributed]" in err and "Traceback" not in err


@pytest.mark.parametrize("spec", ["local:0", "local:x", "no-such-scheduler-file"])
def test_bad_dask_spec_is_a_usage_error(archive: Manifest, spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert validate_main([archive.root, "--dask", spec]) == 2
    assert "--dask" in capsys.readouterr().err


def test_connecting_in_the_background_closes_once(cluster: distributed.Client) -> None:
    """`cluster.Connecting` (the connection made while the inputs are listed): `result()` is the connected
    client; `close()` closes it, and again does nothing."""
    connecting = cl.Connecting(_address(cluster), insecure=True)
    client, close = connecting.result()
    assert client.status == "running" and client.scheduler.address == _address(cluster)
    close()
    assert client.status == "closed"
    connecting.close()  # a second time: nothing
    with pytest.raises(cl.DaskUnavailable, match="refusing a plain tcp"):  # checked before any thread starts
        cl.Connecting(_address(cluster))


@pytest.mark.parametrize("stops", ["listing", "output", "report"])
def test_a_run_that_stops_closes_its_connection(archive: Manifest, cluster: distributed.Client, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch, stops: str) -> None:
    """However a `--dask` run stops after its connection started (an input that cannot be listed, an output
    that cannot be opened, or a finished report), the connection is closed, once."""
    made: list[Any] = []

    class Recorded(cl.Connecting):
        closed = 0

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

        def close(self) -> None:
            self.closed += 1
            super().close()

    monkeypatch.setattr(cl, "Connecting", Recorded)
    target = {"listing": "nosuchprotocol://bucket/traces/", "output": archive.root, "report": archive.root}[stops]
    out = tmp_path / ("no-such-dir/out.json" if stops == "output" else "out.json")
    code = validate_main([target, "--dask", _address(cluster), "--dask-insecure", "--no-progress", "-o", str(out)])
    assert code == (1 if stops == "report" else 2)
    assert len(made) == 1 and made[0].closed >= 1
    assert made[0]._outcome is None  # the client was closed (and dropped)


def _documented_commands() -> list[str]:
    """The commands of docs/scale.md's "Machines of your own" block, continuation lines joined."""
    text = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
    block = re.search(r"Machines of your own:\n\n```sh\n(.*?)```", text, re.S)
    assert block is not None
    joined = block.group(1).replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.startswith("#")]


def _wait_for_address(path: str, scheduler: subprocess.Popen[bytes]) -> None:
    """Until the scheduler has written its file whole (it does once it listens): a readiness wait, not a
    time limit on anything measured; a scheduler that exits first fails the test at once."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert scheduler.poll() is None, f"the scheduler exited ({scheduler.returncode})"
        try:
            if "://" in json.loads(Path(path).read_bytes()).get("address", ""):
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    pytest.fail("the scheduler wrote no address in 300 s")


def test_the_documented_cluster_of_ones_own(tmp_path: Path) -> None:
    """docs/scale.md's scheduler, workers and command, as written (the scheduler file and the archive
    moved here, one worker): the report equals a local run's."""
    scheduler, worker, command = _documented_commands()
    man = build_archive(tmp_path / "traces", sessions=20, seed=9)
    sched_file = str(tmp_path / "scheduler.json")

    def argv(line: str) -> tuple[dict[str, str], list[str]]:
        words = shlex.split(line.replace("/shared/scheduler.json", sched_file)
                            .replace("s3://bucket/traces/", man.root).replace("--nworkers auto", "--nworkers 1"))
        env = dict(os.environ)
        while "=" in words[0]:
            key, _, value = words.pop(0).partition("=")
            env[key] = value
        return env, words

    bindir = Path(sys.executable).parent
    procs = []
    try:
        for line in (scheduler, worker):
            env, words = argv(line)
            assert words[0] == "dask"
            procs.append(subprocess.Popen([str(bindir / "dask"), *words[1:], "--no-dashboard"], env=env, cwd=tmp_path,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            if line is scheduler:
                _wait_for_address(sched_file, procs[0])
        with distributed.Client(scheduler_file=sched_file, timeout="30s") as client:
            client.wait_for_workers(1, timeout=60)
        env, words = argv(command)
        assert words[0] == "omnimessage"
        got = subprocess.run([sys.executable, "-m", "omnimessage", *words[1:], "--format", "json"], env=env,
                             capture_output=True, cwd=ROOT, timeout=120)
        local = subprocess.run([sys.executable, "-m", "omnimessage", "validate", "--format", "json",
                                "--summary-by", "producer", man.root], capture_output=True, cwd=ROOT, timeout=120)
        assert got.returncode == local.returncode == 1, got.stderr
        assert b"Traceback" not in got.stderr
        one, two = json.loads(got.stdout), json.loads(local.stdout)
        assert sorted(map(json.dumps, one["findings"])) == sorted(map(json.dumps, two["findings"]))
        assert one["summary"]["inputs"] == two["summary"]["inputs"] == man.sessions
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
