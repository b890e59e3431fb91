"""Batches through worker processes: same results as one process, faults isolated."""

from __future__ import annotations

import gc
import io
import os
import shutil
import time
from pathlib import Path

import pytest

from analyzer.checks.audit import audit_path
from analyzer.runs.batch import BatchOptions, RunSummary, Shard, audit_many
from reports.audit_output import render_json
from reports.cli import main

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "tenhou-xml"
SAMPLES = REPO / "sample_logs"


def faulty(name: str, data: bytes) -> None:
    """A probe (runs in the worker) that makes logs misbehave by their file name."""
    base = os.path.basename(name)
    if base.startswith("raises"):
        raise ValueError("the parser met something it never expected")
    if base.startswith("kills"):
        os._exit(7)  # as a segfault or the OOM killer would
    if base.startswith("hangs"):
        time.sleep(60)


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not available: {CORPUS} (CI has ../shared beside the repo)")
    d = tmp_path_factory.mktemp("corpus")
    for p in sorted(CORPUS.glob("*.xml"))[:24]:
        shutil.copy(p, d / p.name)
    return d


@pytest.fixture
def faulty_dir(tmp_path: Path) -> Path:
    clean = (SAMPLES / "clean_game.xml").read_bytes()
    for i in range(6):
        (tmp_path / f"ok{i}.xml").write_bytes(clean)
    for name in ("raises.xml", "kills.xml", "hangs.xml"):
        (tmp_path / name).write_bytes(clean)
    return tmp_path


def run_json(paths: list[str], **kw: object) -> str:
    outcomes = audit_many(paths, progress=False, **kw)  # type: ignore[arg-type]
    return render_json([o.audit for o in outcomes if o.audit is not None])


def test_two_workers_give_what_one_gives(corpus_dir: Path) -> None:
    one = run_json([str(corpus_dir)])
    assert run_json([str(corpus_dir)], jobs=2, batch_size=3) == one
    assert run_json([str(corpus_dir)], jobs=2, batch_size=1, window=2) == one


def test_cli_jobs_two_prints_what_jobs_one_prints(
    corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", "--format", "json", str(corpus_dir)]) == 0
    one = capsys.readouterr().out
    assert main(["audit", "--format", "json", "-j", "2", "--batch", "4", str(corpus_dir)]) == 0
    assert capsys.readouterr().out == one


def test_a_raising_log_a_killing_log_and_a_hanging_log_are_reported(faulty_dir: Path) -> None:
    opts = BatchOptions(probe=faulty, time_limit=1.0)
    summary = RunSummary()
    outcomes = list(
        audit_many([str(faulty_dir)], opts, jobs=2, batch_size=4, summary=summary, progress=False)
    )
    status = {Path(o.record.name).name: o.status for o in outcomes}
    assert status == {
        "hangs.xml": "timeout",
        "kills.xml": "crashed",
        "raises.xml": "error",
        **{f"ok{i}.xml": "ok" for i in range(6)},
    }
    errors = {Path(o.record.name).name: o.audit.error for o in outcomes if o.audit is not None}
    assert "worker process died" in str(errors["kills.xml"])
    assert "ValueError" in str(errors["raises.xml"])
    assert "1 s limit" in str(errors["hangs.xml"])
    # in input order, like -j 1
    assert [Path(o.record.name).name for o in outcomes] == sorted(status)


def test_time_limit_in_one_process(tmp_path: Path) -> None:
    (tmp_path / "hangs.xml").write_bytes((SAMPLES / "clean_game.xml").read_bytes())
    opts = BatchOptions(probe=faulty, time_limit=0.2)
    (o,) = audit_many([str(tmp_path)], opts, progress=False)
    assert o.status == "timeout"


def test_unreadable_inputs_are_errors_and_the_rest_completes(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_bytes((SAMPLES / "clean_game.xml").read_bytes())
    (tmp_path / "b.xml").write_bytes(b"<mjloggm><INIT broken")
    (tmp_path / "c.mjlog").write_bytes(b"\x1f\x8bnot gzip at all")
    outcomes = list(audit_many([str(tmp_path)], jobs=2, batch_size=1, progress=False))
    assert [o.status for o in outcomes] == ["ok", "error", "error"]


def test_shards_split_the_inputs(corpus_dir: Path) -> None:
    names = [o.record.name for o in audit_many([str(corpus_dir)], progress=False)]
    parts = [
        [o.record.name for o in audit_many([str(corpus_dir)], shard=Shard(k, 3), progress=False)]
        for k in range(3)
    ]
    assert sorted(n for p in parts for n in p) == sorted(names)
    assert all(parts)
    with pytest.raises(ValueError, match="K must be"):
        Shard.parse("3/3")


def test_no_progress_bar_when_stderr_is_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(SAMPLES / "clean_game.xml", tmp_path / "a.xml")
    list(audit_many([str(tmp_path)]))
    assert capsys.readouterr().err == ""


def test_progress_bar_on_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(SAMPLES / "clean_game.xml", tmp_path / "a.xml")
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    list(audit_many([str(tmp_path)], progress=True))
    assert "1 inputs" in err.getvalue()


def test_the_core_does_not_import_dask() -> None:
    import subprocess
    import sys

    code = (
        "import sys, analyzer.runs.batch, analyzer.runs.dask_exec, reports.cli;"
        "assert 'distributed' not in sys.modules and 'dask' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_automatic_jobs_start_a_pool_only_for_more_than_one_batch(
    corpus_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import analyzer.runs.batch as batch

    pools: list[int] = []
    real = batch.process_pool

    def counting(jobs: int) -> object:
        pools.append(jobs)
        return real(jobs)

    monkeypatch.setattr(batch, "process_pool", counting)
    monkeypatch.setattr(batch, "available_cpus", lambda: 2)
    one = [o.status for o in audit_many([str(corpus_dir)], jobs=0, batch_size=24, progress=False)]
    assert one == ["ok"] * 24 and pools == []  # one batch: audited in this process
    names = [o.record.name for o in audit_many([str(corpus_dir)], jobs=0, batch_size=5)]
    assert pools == [2]  # five batches: a pool of one worker per CPU
    assert names == sorted(names) and len(names) == 24


def test_an_audit_makes_no_reference_cycles(corpus_dir: Path, tmp_path: Path) -> None:
    # Batches run with automatic garbage collection off and collect once a batch
    # (analyzer.runs.batch._collecting_by_batch). That is only cheap if an audit frees what
    # it makes by reference counting alone: real logs of each format, the review
    # notes, kept replays, and files that fail to parse.
    shared = CORPUS.parent
    paths = [str(p) for p in sorted(corpus_dir.glob("*.xml"))]
    for sub in ("tenhou-json", "mjai"):
        paths += [str(p) for p in sorted((shared / sub).rglob("*.json*"))[:6]]
    truncated = tmp_path / "truncated.xml"
    truncated.write_bytes(Path(paths[0]).read_bytes()[:5000])
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b"<mjloggm><INIT seed='x'/></mjloggm>")
    paths += [str(truncated), str(bad)]
    for path in paths:  # import lazily loaded modules first (a slots dataclass leaves a cycle)
        audit_path(path)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        audited = errors = 0
        for path in paths:
            for keep in (False, True):
                audit = audit_path(path, keep_replay=keep)
                audited += 1
                errors += audit.error is not None
                del audit
        unreachable = gc.collect()
    finally:
        if enabled:
            gc.enable()
    assert audited == 2 * len(paths) and errors == 4
    assert unreachable == 0


def test_batches_run_without_automatic_collection_and_restore_it(corpus_dir: Path) -> None:
    seen: list[bool] = []
    opts = BatchOptions(probe=lambda name, data: seen.append(gc.isenabled()))
    outcomes = list(audit_many([str(corpus_dir)], opts, jobs=1, batch_size=5))
    assert len(outcomes) == 24 and len(seen) == 24 and not any(seen)
    assert gc.isenabled()
