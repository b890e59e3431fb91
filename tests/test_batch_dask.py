"""The same batches on a Dask LocalCluster (``pytest -m dask``; needs the dask extra)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from analyzer.runs.batch import BatchOptions, RunSummary, audit_many
from analyzer.runs.store import stats
from reports.audit_output import render_json
from tests.test_batch import faulty

distributed: Any = pytest.importorskip("distributed", reason="the dask extra is not installed")
dask: Any = pytest.importorskip("dask")

pytestmark = pytest.mark.dask

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "tenhou-xml"
SAMPLES = REPO / "sample_logs"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    # One retry instead of three: a poison log then costs two worker restarts.
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        lc = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
        )
        try:
            yield lc
        finally:
            lc.close()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("logs")
    found = sorted(CORPUS.glob("*.xml"))[:16] if CORPUS.is_dir() else []
    clean = [p for p in sorted(SAMPLES.glob("*.xml")) if p.name != "broken_dora.xml"]
    for p in found or clean:  # broken_dora.xml is broken on purpose
        shutil.copy(p, d / p.name)
    return d


def audits_json(paths: list[str], **kw: Any) -> str:
    outcomes = audit_many(paths, progress=False, **kw)
    return render_json([o.audit for o in outcomes if o.audit is not None])


def test_dask_gives_what_one_process_gives(cluster: Any, logs: Path) -> None:
    one = audits_json([str(logs)])
    on_dask = audits_json(
        [str(logs)], executor="dask", scheduler=cluster.scheduler_address, batch_size=3
    )
    assert on_dask == one


def test_a_scheduler_file_works(cluster: Any, logs: Path, tmp_path: Path) -> None:
    sched = tmp_path / "scheduler.json"  # what `dask scheduler --scheduler-file` writes
    sched.write_text(json.dumps({"type": "Scheduler", "address": cluster.scheduler_address}))
    got = audits_json([str(logs)], executor="dask", scheduler=str(sched))
    assert got == audits_json([str(logs)])


def test_workers_write_parts_that_the_store_takes_in(
    cluster: Any, logs: Path, tmp_path: Path
) -> None:
    local, remote = tmp_path / "local", tmp_path / "remote"
    for _ in audit_many([str(logs)], store=str(local), progress=False):
        pass
    summary = RunSummary()
    outcomes = audit_many(
        [str(logs)], store=str(remote), executor="dask", scheduler=cluster.scheduler_address,
        batch_size=4, summary=summary, progress=False,
    )  # fmt: skip
    for _ in outcomes:
        pass
    assert summary.by_status == {"ok": len(os.listdir(logs))}
    assert stats(remote) == stats(local)
    assert list((remote / "parts").iterdir()) == []  # every part was taken in


def test_a_poison_log_is_isolated_and_a_killed_worker_retried(cluster: Any, tmp_path: Path) -> None:
    clean = (SAMPLES / "clean_game.xml").read_bytes()
    for i in range(5):
        (tmp_path / f"ok{i}.xml").write_bytes(clean)
    (tmp_path / "kills.xml").write_bytes(clean)
    (tmp_path / "raises.xml").write_bytes(clean)
    opts = BatchOptions(probe=faulty)
    outcomes = list(
        audit_many(
            [str(tmp_path)], opts, executor="dask", scheduler=cluster.scheduler_address,
            batch_size=2, progress=False,
        )
    )  # fmt: skip
    status = {Path(o.record.name).name: o.status for o in outcomes}
    assert status == {
        "kills.xml": "crashed",
        "raises.xml": "error",
        **{f"ok{i}.xml": "ok" for i in range(5)},
    }


def test_cli_executor_dask(cluster: Any, logs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from reports.cli import main

    assert main(["audit", "--format", "json", str(logs)]) == 0
    one = capsys.readouterr().out
    addr = cluster.scheduler_address
    assert (
        main(["audit", "--format", "json", "--executor", "dask", "--scheduler", addr, str(logs)])
        == 0
    )
    assert capsys.readouterr().out == one
