"""Running the same batches on a Dask cluster (the optional extra ``mjaudit[dask]``).

``Client.get_executor()`` is a ``concurrent.futures.Executor``, so the bounded
window of :mod:`analyzer.runs.batch` runs on it unchanged. Workers read their own
inputs (so the paths must be visible to them) and, with a store, write their own
part files beside it; the driver only sees small manifests.

Dask retries a task whose worker died (``distributed.scheduler.allowed-failures``)
and gives up with ``KilledWorker``. The scheduler may also blame tasks that were
only queued on the dead worker, so the driver lets the window drain and runs each
such batch alone; one that still kills its worker is split until the one log
that does it is reported as ``crashed``. The per-file time limit is not
enforced on Dask: tasks run in worker threads, where no alarm signal reaches them.

``distributed`` is imported only when this module's functions run, so the core
works without it.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

__all__ = ["DaskUnavailable", "dask_executor"]


class DaskUnavailable(RuntimeError):
    """``--executor dask`` without the ``dask`` extra installed."""


def _client(scheduler: str, workers: int) -> tuple[Any, Any]:
    try:
        # Imported by name: typed as Any, whether or not the extra is installed.
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise DaskUnavailable(
            "--executor dask needs the dask extra: pip install 'mjaudit[dask]'"
        ) from None
    if scheduler == "local":
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
        )
        return distributed.Client(cluster), cluster
    if os.path.isfile(scheduler):
        return distributed.Client(scheduler_file=scheduler), None
    return distributed.Client(scheduler), None


@contextmanager
def dask_executor(scheduler: str, workers: int = 2) -> Iterator[tuple[Callable[[], Executor], int]]:
    """An executor factory on a Dask cluster and the cluster's thread count.

    ``scheduler`` is an address (``tcp://host:8786``), a scheduler file, or
    ``local`` for a LocalCluster of ``workers`` single-threaded processes.
    """
    client, cluster = _client(scheduler, workers)
    try:
        info = client.scheduler_info()
        threads = sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()) or 1
        # pure=False: a batch re-submitted after a failure must run again, not
        # be answered from the failed task of the same name.
        executor: Executor = client.get_executor(pure=False)
        yield (lambda: executor), threads
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
