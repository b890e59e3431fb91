"""The store's layout: a SQLite catalog, Parquet parts per table, DuckDB queries."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analyzer.checks.audit import AUDIT_VERSION
from analyzer.runs import store_parts
from analyzer.runs.batch import RunSummary, audit_many
from analyzer.runs.store import DB_NAME, Store, StoreError, compact, query, stats, write_part
from analyzer.runs.store_catalog import InputRecord
from reports.cli import main

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus" / "tenhou-xml"
SAMPLES = REPO / "sample_logs"


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    d = tmp_path / "logs"
    d.mkdir()
    found = sorted(CORPUS.glob("*.xml"))[:8] if CORPUS.is_dir() else []
    for p in found or sorted(SAMPLES.glob("*.xml")):
        shutil.copy(p, d / p.name)
    return d


def run(paths: list[str], store: Path, **kw: object) -> RunSummary:
    summary = RunSummary()
    for _ in audit_many(paths, store=str(store), summary=summary, progress=False, **kw):  # type: ignore[arg-type]
        pass
    return summary


def parts(st: Path, table: str) -> list[Path]:
    return sorted((st / f"v{AUDIT_VERSION}" / table).glob("*.parquet"))


def test_layout_catalog_and_one_part_per_table(logs: Path, tmp_path: Path) -> None:
    st = tmp_path / "store"
    run([str(logs)], st)
    assert (st / DB_NAME).is_file()
    for table in ("games", "hands", "findings"):
        assert len(parts(st, table)) == 1
    leftovers = [p for p in st.rglob("*") if p.suffix in (".tmp", ".csv")]
    assert leftovers == []
    _, rows = query(st, "SELECT count(*), sum(games) FROM parts")
    assert next(rows) == (1, len(list(logs.iterdir())))


def test_a_part_file_the_catalog_does_not_list_is_not_read(logs: Path, tmp_path: Path) -> None:
    st = tmp_path / "store"
    run([str(logs)], st)
    before = stats(st)
    for table in ("games", "hands", "findings"):
        (p,) = parts(st, table)
        shutil.copy(p, p.with_name("part-orphan.parquet"))  # a crash before registering
    assert stats(st) == before


def records(logs: Path, st: Path) -> list[InputRecord]:
    """The inputs under ``logs`` audited in this process, with their rows for ``st``."""
    from analyzer.runs.batch import BatchOptions, audit_batch
    from parsers.containers import iter_locators

    opts = BatchOptions(store=str(st.resolve()))
    return [o.record for o in audit_batch(list(iter_locators([str(logs)])), opts).outcomes]


def test_rows_are_visible_once_their_part_is_registered(logs: Path, tmp_path: Path) -> None:
    st = tmp_path / "store"
    with Store(st, part_games=10**6, part_seconds=10**6) as writer:
        writer.add(records(logs, st))
        assert stats(st)["games"] == 0  # staged, not yet a part
        writer.flush()
        assert stats(st)["games"] == len(list(logs.iterdir()))


def test_small_parts_compact_into_one(logs: Path, tmp_path: Path) -> None:
    whole, st = tmp_path / "whole", tmp_path / "store"
    run([str(logs)], whole)
    with Store(st, part_games=2) as writer:
        for r in records(logs, st):
            writer.add([r])
    n = len(list(logs.iterdir()))
    assert len(parts(st, "hands")) == (n + 1) // 2
    assert stats(st) == stats(whole)
    assert main(["compact", "--store", str(st)]) == 0
    assert len(parts(st, "hands")) == 1
    assert stats(st) == stats(whole)
    hands = "SELECT count(*), sum(delta) FROM hands"
    assert list(query(st, hands)[1]) == list(query(whole, hands)[1])
    assert compact(st) == {"parts_before": 0, "parts_after": 0}


def test_worker_parts_with_a_game_already_held_are_trimmed(logs: Path, tmp_path: Path) -> None:
    from analyzer.runs.batch import BatchOptions, audit_batch
    from parsers.containers import iter_locators

    st = tmp_path / "store"
    locs = list(iter_locators([str(logs)]))
    with Store(st) as s:
        root = str(s.root.resolve())
    opts = BatchOptions(store=root, part_dir=str(Path(root) / "parts"))
    a = audit_batch(locs[:3], opts)
    b = audit_batch(locs[2:], opts)  # locs[2] in both: written twice, registered once
    with Store(st) as s:
        for part in a.parts + b.parts:
            s.ingest_part(part)
    doc = stats(st)
    assert doc["games"] == len(locs)
    _, rows = query(st, "SELECT count(*) FROM (SELECT DISTINCT game, hand, seat FROM hands)")
    (distinct,) = next(rows)
    _, rows = query(st, "SELECT count(*) FROM hands")
    assert next(rows) == (distinct,)
    assert not list((Path(root) / "parts").glob("*"))


def test_write_part_of_a_batch_without_games(tmp_path: Path) -> None:
    with Store(tmp_path / "st") as s:
        manifest = tmp_path / "st" / "parts" / "part-x.json"
        manifest.parent.mkdir()
        write_part(manifest, [InputRecord("k", "bad.xml", None, "error", "boom", None)])
        s.ingest_part(manifest)
    assert stats(tmp_path / "st")["inputs"] == {"error": 1}


def test_queries_never_fetch_extensions(logs: Path, tmp_path: Path) -> None:
    con = store_parts.connect()
    settings = con.execute(
        "SELECT current_setting('autoinstall_known_extensions'), "
        "current_setting('autoload_known_extensions')"
    ).fetchall()
    assert settings == [(False, False)]
    st = tmp_path / "store"
    run([str(logs)], st)
    with pytest.raises(StoreError):
        next(query(st, "SELECT * FROM sqlite_scan('x.db', 'logs')")[1])
    with pytest.raises(StoreError, match="read-only"):
        query(st, "INSTALL sqlite_scanner")


def test_an_empty_store_answers(tmp_path: Path) -> None:
    Store(tmp_path / "st").close()
    doc = stats(tmp_path / "st")
    assert doc["games"] == 0 and doc["codes"] == []
    columns, rows = query(tmp_path / "st", "SELECT * FROM hands")
    assert "player" in columns and list(rows) == []
