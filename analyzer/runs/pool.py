"""Local worker processes: how many CPUs there are, and a pool to run on them.

Kept apart from :mod:`analyzer.runs.batch` so that a command that only scores
(``score --batch``) or renders can start workers without importing the audit.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a run that starts no pool does not import concurrent.futures
    from concurrent.futures import Executor

__all__ = ["available_cpus", "process_pool"]


def process_pool(jobs: int) -> Callable[[], Executor]:
    """A factory of local worker pools.

    Workers are forked when the driver runs no other thread (they start at once
    and share its imported modules); a driver with threads forks through a
    forkserver instead, since forking a threaded process can deadlock the child.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    single = threading.active_count() == 1 and "fork" in methods and sys.platform == "linux"
    method = "fork" if single else "forkserver" if "forkserver" in methods else None
    ctx = multiprocessing.get_context(method)
    return lambda: ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)
