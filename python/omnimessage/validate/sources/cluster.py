"""Reaching the Dask cluster of `omnimessage validate --dask SPEC`: the trust check of its address,
the connection, and the connection made in the background while the inputs are discovered.

`SPEC` is `local[:N]` (a cluster of our own on this machine), a scheduler address or a scheduler file.
The scheduler is trusted with code execution in this process (Dask's protocol unpickles what it sends):
an address that is not authenticated is refused before any connection (:func:`check_address`).

:class:`Connecting` does the connection in a thread of its own: importing `distributed` and reaching the
scheduler take 0.4 to 0.7 s (measured with `bench/scaling.py`'s archive: 0.68 s of the client's 13.7 s
under cProfile), which a run otherwise spends before it can send the first task, while the listing of
the inputs (1.3 s for that archive's 24,100 sessions) waits on the same core. The address is checked
first, in the caller's thread, so a refusal still comes before any connection and before any input is
read.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import os
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from omnimessage.extras import install_hint
from omnimessage.text.sanitize import sanitize

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "INSTALL_HINT",
    "TRUST_HINT",
    "Connecting",
    "DaskUnavailable",
    "announce",
    "check_address",
    "connect",
    "dashboard_link",
    "distributed_module",
    "resolve",
]

INSTALL_HINT: Final = f"--dask needs the dask extra: {install_hint('dask')}"


class DaskUnavailable(Exception):
    """`distributed` is not installed, or the scheduler cannot be reached (a usage error, exit 2)."""


def distributed_module() -> Any:
    """`distributed`, imported; :class:`DaskUnavailable` (naming the extra) when it is not installed."""
    try:
        import distributed
    except ImportError:
        raise DaskUnavailable(INSTALL_HINT) from None
    return distributed


TRUST_HINT: Final = (
    "a Dask scheduler runs code in this process (its protocol unpickles what the scheduler sends): use "
    "tls:// with the Dask TLS configuration (distributed.comm.tls.ca-file, client cert and key), or pass "
    "--dask-insecure if you trust every host that can answer at this address (docs/scale.md)"
)
MAX_SCHEDULER_FILE_BYTES: Final = 1 << 20


def _tls_configured() -> bool:
    import dask.config

    return bool(dask.config.get("distributed.comm.tls.ca-file", None))


def check_address(spec: str, address: str, *, insecure: bool) -> None:
    """Refuse a scheduler address that is not authenticated: anything but `tls://` with a CA file
    configured, unless `insecure` (`--dask-insecure`). Raised before any connection is made."""
    scheme = address.partition("://")[0].lower() if "://" in address else "tcp"
    if insecure:
        return
    if scheme != "tls":
        raise DaskUnavailable(f"--dask {sanitize(spec[:200])}: refusing a plain {sanitize(scheme[:20])}:// scheduler: "
                              f"{TRUST_HINT}")
    if not _tls_configured():
        raise DaskUnavailable(f"--dask {sanitize(spec[:200])}: tls:// without a CA file (distributed.comm.tls.ca-file) "
                              f"does not authenticate the scheduler: {TRUST_HINT}")


def _scheduler_file_address(spec: str) -> str:
    """The `address` of a scheduler file (read once, bounded: the address checked is the one used)."""
    try:
        with open(spec, "rb") as fh:
            data = fh.read(MAX_SCHEDULER_FILE_BYTES + 1)
        doc = json.loads(data) if len(data) <= MAX_SCHEDULER_FILE_BYTES else None
    except (OSError, ValueError, RecursionError) as exc:
        raise DaskUnavailable(f"--dask {sanitize(spec[:200])}: not a scheduler file ({exc.__class__.__name__})") \
            from None
    address = doc.get("address") if isinstance(doc, dict) else None
    if not isinstance(address, str) or "://" not in address:
        raise DaskUnavailable(f"--dask {sanitize(spec[:200])}: not a scheduler file (no \"address\")")
    return address


def resolve(spec: str, *, insecure: bool = False) -> str:
    """The `--dask SPEC` to connect to, checked: a scheduler file's address read, an address that is not
    authenticated refused (:func:`check_address`) unless `insecure`; `local[:N]` as it is. Makes no
    connection (what :func:`connect` and :class:`Connecting` do first)."""
    if spec == "local" or spec.startswith("local:"):
        _local_workers(spec)
        return spec
    if "://" in spec:
        check_address(spec, spec, insecure=insecure)
    elif os.path.isfile(spec):
        address = _scheduler_file_address(spec)
        check_address(spec, address, insecure=insecure)
        return address
    return spec


def _local_workers(spec: str) -> int:
    """N of `local:N` (`local`: the number of cores)."""
    n_text = spec[len("local:"):] if ":" in spec else ""
    try:
        n = int(n_text) if n_text else (os.cpu_count() or 1)
    except ValueError:
        raise DaskUnavailable(f"--dask {sanitize(spec[:200])}: expected local or local:N with N a number of "
                              f"workers") from None
    if n < 1:
        raise DaskUnavailable("--dask local:N needs N >= 1")
    return n


def connect(spec: str, *, insecure: bool = False) -> tuple[Client, Callable[[], None]]:
    """A client for `--dask SPEC` and the function that closes it (and the cluster it started).

    SPEC is `local` or `local:N` (a `LocalCluster` of N single-threaded worker processes on this
    machine; N defaults to the number of cores), a scheduler address (`tls://host:8786`; `tcp://`
    and the other unauthenticated protocols only with `insecure`) or the path of a scheduler file
    (`dask scheduler --scheduler-file`), whose address is checked the same way. The scheduler is
    trusted with code execution in this process (see :func:`check_address`): an address that is
    refused is refused before any connection. Raises :class:`DaskUnavailable` when `distributed`
    is missing, the address is refused or the scheduler does not answer.
    """
    return _open(resolve(spec, insecure=insecure))


def _open(spec: str) -> tuple[Client, Callable[[], None]]:
    """:func:`connect` of a SPEC :func:`resolve` returned."""
    distributed = distributed_module()
    cluster: Any = None
    try:
        if spec == "local" or spec.startswith("local:"):
            cluster = distributed.LocalCluster(n_workers=_local_workers(spec), threads_per_worker=1, processes=True,
                                               dashboard_address=":0", silence_logs=logging.ERROR)
            client = distributed.Client(cluster)
        elif "://" in spec:
            client = distributed.Client(spec, timeout="20s")
        else:
            raise DaskUnavailable(f"--dask {sanitize(spec[:200])}: expected local[:N], a scheduler address "
                                  f"(tcp://host:8786) or a scheduler file")
    except DaskUnavailable:
        if cluster is not None:
            cluster.close()
        raise
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close()
        raise DaskUnavailable(f"--dask {sanitize(spec[:200])}: cannot reach the scheduler: "
                              f"{exc.__class__.__name__}: {sanitize(str(exc)[:300])}") from None

    def close() -> None:
        with contextlib.suppress(Exception):
            client.close()
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close()

    return client, close


class Connecting:
    """`connect(spec)` in a thread of its own, started at once (see the module): the address is checked
    here, before the thread starts, so a refusal is raised by the constructor; :meth:`result` waits for
    the connection and raises what connecting raised. A run that stops before it asks for the result
    calls :meth:`close`, which waits for the connection and closes it."""

    def __init__(self, spec: str, *, insecure: bool = False) -> None:
        resolved = resolve(spec, insecure=insecure)
        if importlib.util.find_spec("distributed") is None:  # told now, not after the inputs are listed
            raise DaskUnavailable(INSTALL_HINT)
        self._outcome: tuple[Client, Callable[[], None]] | BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(resolved,), name="omnimessage-dask-connect",
                                        daemon=True)
        self._thread.start()

    def _run(self, spec: str) -> None:
        try:
            self._outcome = _open(spec)
        except BaseException as exc:  # raised again by result(), in the caller's thread
            self._outcome = exc

    def result(self) -> tuple[Client, Callable[[], None]]:
        """(client, close), as :func:`connect` returns them, once connected; `close` is :meth:`close`."""
        self._thread.join()
        outcome = self._outcome
        if isinstance(outcome, BaseException):
            raise outcome
        assert outcome is not None
        return outcome[0], self.close

    def close(self) -> None:
        """Close the connection (waiting for it to be made) and the cluster it started, once: nothing the
        second time, nor when connecting failed."""
        self._thread.join()
        outcome, self._outcome = self._outcome, None
        if isinstance(outcome, tuple):
            outcome[1]()


def dashboard_link(client: Client) -> str | None:
    """The scheduler's dashboard URL, or None when it serves none (no bokeh, or turned off)."""
    try:
        services = client.scheduler_info().get("services", {})
        if "dashboard" not in services:
            return None
        link = client.dashboard_link
    except Exception:
        return None
    return str(link) if link else None



def announce(client: Client, stream: Any = None) -> None:
    """Print the dashboard link to stderr when the cluster serves one."""
    link = dashboard_link(client)
    if link:
        (stream or sys.stderr).write(f"omnimessage validate: Dask dashboard: {sanitize(link)}\n")
