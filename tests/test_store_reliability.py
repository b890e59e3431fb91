"""The store under attack and damage: a read-only query, one writer at a time, parts
that go missing or rot, a broken catalog, and what killed runs leave behind."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from analyzer.checks.audit import AUDIT_VERSION
from analyzer.runs import store_parts
from analyzer.runs.batch import BatchOptions
from analyzer.runs.store import DB_NAME, Store, StoreError, query, stats
from reports.cli import main
from tests.conftest import SAMPLES, TENHOU_XML, run_store

REPO = Path(__file__).resolve().parents[1]


run = run_store


@pytest.fixture
def store(logs: Path, tmp_path: Path) -> Path:
    st = tmp_path / "store"
    run([str(logs)], st)
    return st


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def part_files(st: Path, table: str) -> list[Path]:
    return sorted((st / f"v{AUDIT_VERSION}" / table).glob("*.parquet"))


# ---- query: one read-only statement, nothing outside the store ------------------


@pytest.mark.parametrize("target", ["catalog.sqlite", "elsewhere.csv"])
def test_explain_analyze_copy_writes_no_file(
    store: Path, logs: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = store / target
    before = path.read_bytes() if path.exists() else None
    sql = f"EXPLAIN ANALYZE COPY (SELECT 'x' AS l) TO '{path}' (HEADER false)"
    code, _, err = cli(["query", "--store", str(store), sql], capsys)
    assert code == 2
    assert "EXPLAIN ANALYZE" in one_line(err)
    assert (path.read_bytes() if path.exists() else None) == before
    assert stats(store)["games"] == len(list(logs.iterdir()))  # the store still opens


@pytest.mark.parametrize(
    "statement",
    [
        pytest.param("EXPLAIN ANALYZE INSTALL httpfs", id="install"),
        pytest.param("EXPLAIN ANALYZE LOAD parquet", id="load"),
        pytest.param("EXPLAIN ANALYZE SET threads = 2", id="set"),
        pytest.param("explain /* a comment */ analyse SELECT 1", id="analyse-after-comment"),
        pytest.param("EXPLAIN (ANALYZE) SELECT 1", id="analyze-option"),
    ],
)
def test_explain_analyze_runs_nothing(
    store: Path, statement: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(["query", "--store", str(store), statement], capsys)
    assert code == 2
    line = one_line(err)
    assert "read-only" in line and "EXPLAIN ANALYZE" in line


def _outside_parquet(tmp_path: Path) -> Path:
    con = store_parts.connect()
    try:
        p = tmp_path / "outside.parquet"
        con.execute(f"COPY (SELECT 42 AS secret) TO '{p}' (FORMAT parquet)")
    finally:
        con.close()
    return p


@pytest.mark.parametrize(
    ("sql", "function"),
    [
        ("SELECT * FROM read_csv('/etc/passwd')", "read_csv"),
        ("SELECT * FROM read_text('/etc/passwd')", "read_text"),
        ("SELECT * FROM read_blob('/etc/passwd')", "read_blob"),
        ("SELECT * FROM glob('/etc/*')", "glob"),
        ("SELECT * FROM read_parquet('{outside}')", "read_parquet"),
        ("SELECT count(*) FROM games WHERE game IN (SELECT 1 FROM read_csv('/etc/passwd'))",
         "read_csv"),
        ("WITH x AS (SELECT * FROM read_text('/etc/hostname')) SELECT * FROM x", "read_text"),
        ("EXPLAIN SELECT * FROM read_csv_auto('/etc/passwd')", "read_csv_auto"),
    ],
)  # fmt: skip
def test_file_reading_table_functions_are_refused_by_name(
    store: Path, tmp_path: Path, sql: str, function: str, capsys: pytest.CaptureFixture[str]
) -> None:
    sql = sql.format(outside=_outside_parquet(tmp_path))
    code, out, err = cli(["query", "--store", str(store), sql], capsys)
    assert code == 2
    assert out == ""
    line = one_line(err)
    assert f"table function {function}()" in line and "read-only" in line


def test_files_outside_the_store_cannot_be_read_even_by_name(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = _outside_parquet(tmp_path)
    code, out, err = cli(["query", "--store", str(store), f"SELECT * FROM '{outside}'"], capsys)
    assert code == 2 and "42" not in out
    one_line(err)


def test_exactly_one_statement(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["query", "--store", str(store), "SELECT 1; SELECT 2"], capsys)
    assert code == 2 and out == ""
    assert "exactly one SQL statement, not 2" in one_line(err)
    with pytest.raises(StoreError, match="only SELECT and EXPLAIN run here, not PRAGMA"):
        query(store, "PRAGMA version")


def test_sql_that_is_not_utf8_is_one_line(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(["query", "--store", str(store), "SELECT '\udcff'"], capsys)
    assert code == 2 and "not valid UTF-8" in one_line(err)


def test_the_connection_is_locked_down(store: Path) -> None:
    _, rows = query(
        store,
        "SELECT current_setting('enable_external_access'), current_setting('lock_configuration')",
    )
    assert list(rows) == [(False, True)]


def test_legitimate_queries_still_run(store: Path, logs: Path) -> None:
    n = len(list(logs.iterdir()))
    _, rows = query(
        store,
        "WITH g AS (SELECT game, rounds FROM games) "
        "SELECT count(DISTINCT i.key), count(DISTINCT g.game), sum(g.rounds) "
        "FROM inputs i JOIN g ON g.game = i.game",
    )
    inputs, games, rounds = next(rows)
    assert inputs == games == n
    _, rows = query(
        store,
        "SELECT count(DISTINCT h.game || '/' || h.hand) FROM hands h "
        "JOIN games g USING (game) LEFT JOIN findings f USING (game)",
    )
    assert next(rows) == (rounds,)
    columns, rows = query(store, "EXPLAIN SELECT code, count(*) FROM findings GROUP BY 1")
    assert columns[0] == "explain_key" and list(rows)
    _, rows = query(store, "SELECT sum(x) FROM range(4) t(x), unnest([1]) u(y)")
    assert list(rows) == [(6,)]
    _, rows = query(store, "SELECT count(*) FROM parts JOIN part_files USING (part)")
    assert list(rows) == [(3,)]  # one part, one file per table


# ---- one writer at a time --------------------------------------------------------


def test_two_concurrent_audits_leave_one_row_per_game(logs: Path, tmp_path: Path) -> None:
    st = tmp_path / "store"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    # Different batch sizes give the two runs differently composed parts: without a
    # lock both register their rows for the same games.
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "mjaudit", "audit", "-j", "2", "--batch", batch,
             "--store", str(st), "--fail-on", "never", str(logs)],
            env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for batch in ("2", "3")
    ]  # fmt: skip
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    for _, err in results:
        assert "Traceback" not in err
    n = len(list(logs.iterdir()))
    doc = stats(st)
    assert doc["games"] == n and doc["inputs"] == {"ok": n}
    _, rows = query(st, "SELECT count(*), count(DISTINCT (game, hand, seat)) FROM hands")
    total, distinct = next(rows)
    assert total == distinct
    _, rows = query(st, "SELECT sum(games) FROM parts")
    assert list(rows) == [(n,)]


def test_a_second_writer_waits_then_gives_up_naming_the_holder(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    told: list[str] = []
    with Store(store):
        with pytest.raises(StoreError, match=f"locked by pid {os.getpid()}"):
            Store(store, lock_wait=0.3, on_wait=told.append)
        assert len(told) == 1 and f"held by pid {os.getpid()}" in told[0]
        for args in (
            ["compact", "--store", str(store)],
            ["merge", str(store), "--into", str(store)],
            ["audit", "--store", str(store), str(SAMPLES / "clean_game.xml")],
        ):
            code, _, err = cli([*args, "--lock-wait", "0"], capsys)
            assert code == 2
            assert "gave up after 0 s" in one_line(err.splitlines()[-1] + "\n")
    with Store(store, lock_wait=0):  # released on close
        pass


def test_a_waiting_writer_says_so_once_and_goes_on_when_the_lock_is_free(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from analyzer.runs.store_guard import StoreLock

    holder = StoreLock(store)  # as a writer in another process holds it
    timer = threading.Timer(0.6, holder.release)
    timer.start()
    try:
        code, out, err = cli(["compact", "--store", str(store), "--lock-wait", "60"], capsys)
    finally:
        timer.join()
    assert code == 0 and out.startswith("compacted")
    assert one_line(err) == (
        f"mjaudit: {store}: waiting up to 60 s for the store's lock, held by pid {os.getpid()}"
    )


# ---- checksums, damaged parts, repair --------------------------------------------


def test_the_catalog_records_each_part_file_with_its_checksum(store: Path) -> None:
    conn = sqlite3.connect(store / DB_NAME)
    rows = conn.execute("SELECT part, tbl, size, sha256 FROM part_files").fetchall()
    conn.close()
    assert sorted(t for _, t, _, _ in rows) == ["findings", "games", "hands"]
    for part, table, size, sha in rows:
        data = (store / f"v{AUDIT_VERSION}" / table / f"{part}.parquet").read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (size, sha)


def test_a_store_written_before_checksums_still_opens(store: Path, logs: Path) -> None:
    conn = sqlite3.connect(store / DB_NAME)
    conn.execute("DROP TABLE part_files")  # the catalog as 73450a7 wrote it
    conn.commit()
    conn.close()
    before = stats(store)  # read-only: checked by size and magic
    assert before["games"] == len(list(logs.iterdir()))
    with Store(store):  # a writer records the checksums
        pass
    conn = sqlite3.connect(store / DB_NAME)
    assert conn.execute("SELECT count(*) FROM part_files").fetchone() == (3,)
    conn.close()
    assert stats(store) == before


def _delete(p: Path) -> None:
    p.unlink()


def _truncate(p: Path) -> None:
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _rot_middle(p: Path) -> None:
    data = bytearray(p.read_bytes())
    for i in range(8, len(data) - 8):
        data[i] ^= 0x5A
    p.write_bytes(bytes(data))


def _no_magic(p: Path) -> None:
    data = bytearray(p.read_bytes())
    data[:4] = b"JUNK"
    p.write_bytes(bytes(data))


@pytest.mark.skipif(
    not TENHOU_XML.is_dir(),
    reason="needs a dozen corpus logs, several store parts (../shared/corpus is absent)",
)
@pytest.mark.parametrize(
    ("table", "damage", "problem"),
    [
        pytest.param("hands", _delete, "missing", id="missing-hands"),
        pytest.param("games", _truncate, "corrupt", id="truncated-games"),
        pytest.param("findings", _rot_middle, "SHA-256", id="rotten-findings"),
        pytest.param("hands", _no_magic, "not a Parquet file", id="no-magic-hands"),
    ],
)
def test_a_damaged_part_is_named_with_the_fix_and_repair_makes_the_store_whole(
    logs: Path,
    tmp_path: Path,
    table: str,
    damage: object,
    problem: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    whole = tmp_path / "whole"
    run([str(logs)], whole)
    st = tmp_path / "store"
    with Store(st, part_games=5) as writer:  # several parts: only one is lost
        from analyzer.runs.batch import audit_batch
        from parsers.containers import iter_locators

        opts = BatchOptions(store=str(st.resolve()))
        for o in audit_batch(list(iter_locators([str(logs)])), opts).outcomes:
            writer.add([o.record])
    victim = part_files(st, table)[0]
    assert callable(damage)
    damage(victim)
    n = len(list(logs.iterdir()))
    for args in (
        ["stats", "--store", str(st)],
        ["query", "--store", str(st), "SELECT count(*), sum(rounds) FROM games"],
    ):
        code, out, err = cli(args, capsys)
        assert code == 2 and out == ""
        line = one_line(err)
        assert str(victim) in line and problem in line
        assert f"mjaudit compact --repair --store {st}" in line
    if damage is not _rot_middle:  # the cheap check (size, magic) sees the rest
        # A re-run notices it too, and audits nothing until the store is repaired.
        code, out, err = cli(["audit", "--store", str(st), str(logs)], capsys)
        assert code == 2 and str(victim) in one_line(err)
    code, out, _ = cli(["compact", "--repair", "--store", str(st)], capsys)
    assert code == 0 and "dropped 1 damaged parts" in out
    assert not victim.exists()
    kept = stats(st)["games"]
    assert isinstance(kept, int)
    lost = n - kept
    assert 0 < lost < n
    again = run([str(logs)], st)
    assert again.by_status == {"ok": lost}
    assert stats(st) == stats(whole)
    code, out, _ = cli(["compact", "--repair", "--store", str(st)], capsys)
    assert code == 0 and "dropped 0 damaged parts (0 games); 0 inputs" in out
    hands = "SELECT count(*), sum(delta) FROM hands"
    assert list(query(st, hands)[1]) == list(query(whole, hands)[1])


def test_merge_refuses_a_damaged_shard(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = part_files(store, "games")[0]
    victim.unlink()
    code, _, err = cli(["merge", str(store), "--into", str(tmp_path / "merged")], capsys)
    assert code == 2
    assert str(victim) in one_line(err) and "compact --repair" in err


def test_compact_and_merge_make_no_store_of_a_mistyped_folder(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """They made an empty store there and said "compacted 0 parts into 0" (exit 0), or
    made the target before finding that a shard was no store."""
    empty = tmp_path / "empty"
    empty.mkdir()
    for folder in (empty, tmp_path / "absent"):
        code, out, err = cli(["compact", "--store", str(folder)], capsys)
        assert (code, out) == (2, "")
        assert err == f"mjaudit: {folder}: not a results store (no {DB_NAME})\n"
    assert list(empty.iterdir()) == [] and not (tmp_path / "absent").exists()
    target = tmp_path / "merged"
    code, _, err = cli(["merge", str(store), str(empty), "--into", str(target)], capsys)
    assert code == 2 and err == f"mjaudit: {empty}: not a results store (no {DB_NAME})\n"
    assert not target.exists() and list(empty.iterdir()) == []


def _foreign(p: Path) -> None:
    p.unlink()
    conn = sqlite3.connect(p)
    conn.execute("CREATE TABLE logs (log_id TEXT, log_content BLOB)")
    conn.commit()
    conn.close()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(_foreign, id="another-programs-database"),
        pytest.param(lambda p: p.write_bytes(os.urandom(4096)), id="garbage"),
        pytest.param(lambda p: p.write_bytes(b"\0" * 100 + p.read_bytes()[100:]), id="header"),
        pytest.param(lambda p: p.write_bytes(b""), id="empty"),
    ],
)
def test_a_corrupt_catalog_is_one_clear_line_in_every_command(
    store: Path, tmp_path: Path, damage: object, capsys: pytest.CaptureFixture[str]
) -> None:
    for p in store.glob(DB_NAME + "-*"):
        p.unlink()
    catalog = store / DB_NAME
    held = part_files(store, "games")
    assert callable(damage)
    damage(catalog)
    other = tmp_path / "other"
    commands = [
        ["stats", "--store", str(store)],
        ["query", "--store", str(store), "SELECT count(*) FROM games"],
        ["audit", "--store", str(store), str(SAMPLES / "clean_game.xml")],
        ["compact", "--store", str(store)],
        ["merge", str(store), "--into", str(other)],
        ["merge", str(other), "--into", str(store)],
    ]
    for args in commands:
        code, _, err = cli(args, capsys)
        assert code == 2, args
        line = one_line(err)
        if "merge" not in args or args[-1] == str(store) or args[1] == str(store):
            assert f"{catalog}: " in line and "catalog" in line.split(": ", 2)[2], args
    assert part_files(store, "games") == held  # nothing was taken for a leftover


# ---- leftovers of killed runs ------------------------------------------------------

_KILLED_RUN = """
import os, signal, sys
from analyzer.runs.batch import BatchOptions, audit_many

victim = sys.argv[3]

def probe(name, data):
    if name.endswith(victim):  # the run and its workers are killed at once
        os.killpg(0, signal.SIGKILL)

jobs = 2 if sys.argv[4] == "pool" else 1
for _ in audit_many([sys.argv[1]], BatchOptions(probe=probe), jobs=jobs, batch_size=2,
                    store=sys.argv[2], progress=False):
    pass
"""


@pytest.mark.skipif(
    not TENHOU_XML.is_dir(),
    reason="needs a dozen corpus logs to be killed mid-run (../shared/corpus is absent)",
)
@pytest.mark.parametrize("mode", ["driver", "pool"])
def test_what_a_killed_run_left_is_cleaned_by_the_next(
    logs: Path, tmp_path: Path, mode: str
) -> None:
    st = tmp_path / "store"
    names = sorted(p.name for p in logs.iterdir())
    script = tmp_path / "killed.py"
    script.write_text(textwrap.dedent(_KILLED_RUN), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run(
        [sys.executable, str(script), str(logs), str(st), names[-1], mode],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300,
        start_new_session=True,
    )  # fmt: skip
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    left = {p.relative_to(st).parts[0] for p in st.rglob("*") if p.is_file()}
    if mode == "driver":
        assert "tmp" in left  # its CSV stage: a part is written every 1,000 games
    else:  # a worker killed while staging its batch (the driver may have taken the rest)
        run_dir = st / "parts" / "run-4194300"
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / ".part-0123.4194301.games.csv").write_text("1,2\n")
    # and a part renamed into place but never registered (killed in between)
    orphan_src = tmp_path / "whole"
    run([str(logs)], orphan_src)
    for t in ("games", "hands", "findings"):
        (st / f"v{AUDIT_VERSION}" / t).mkdir(parents=True, exist_ok=True)
        shutil.copy(
            part_files(orphan_src, t)[0], st / f"v{AUDIT_VERSION}" / t / "part-orphan.parquet"
        )
        (st / f"v{AUDIT_VERSION}" / t / "part-half.parquet.tmp").write_bytes(b"PAR1")
    again = run([str(logs)], st)
    assert again.by_status == {"ok": len(names)} or again.skipped > 0
    assert stats(st) == stats(orphan_src)
    files = sorted(str(p.relative_to(st)) for p in st.rglob("*") if p.is_file())
    assert not [f for f in files if f.startswith(("tmp", "parts"))], files
    assert not [f for f in files if "orphan" in f or f.endswith(".tmp")], files


def test_a_run_leaves_no_staging_of_its_own(logs: Path, tmp_path: Path) -> None:
    st = tmp_path / "store"
    run([str(logs)], st, jobs=2, batch_size=2)
    assert not (st / "tmp").exists()
    assert list((st / "parts").iterdir()) == []


# ---- failed inputs are tried again -------------------------------------------------

_UNLUCKY: list[str] = []


def _fail_unlucky(name: str, data: bytes) -> None:
    if _UNLUCKY and name.endswith(_UNLUCKY[0]):
        raise RuntimeError("a failure of this run, not of the log")


def test_an_input_recorded_as_an_error_is_audited_again(logs: Path, tmp_path: Path) -> None:
    st = tmp_path / "store"
    _UNLUCKY[:] = [sorted(p.name for p in logs.iterdir())[0]]
    try:
        one = run([str(logs)], st, opts=BatchOptions(probe=_fail_unlucky))
    finally:
        _UNLUCKY.clear()
    n = len(list(logs.iterdir()))
    assert one.by_status == {"ok": n - 1, "error": 1}
    assert stats(st)["inputs"] == {"error": 1, "ok": n - 1}
    two = run([str(logs)], st)
    assert two.by_status == {"ok": 1} and two.skipped == n - 1
    doc = stats(st)
    assert doc["inputs"] == {"ok": n} and doc["games"] == n and doc["failed"] == []


def test_a_game_two_parallel_batches_bring_is_stored_once_and_the_store_stays_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Batches of two over 1, 2, 3, 4 where 3 is 1 again: the second batch's part
    # is registered without the game the first one brought.
    a, b, c = sorted(TENHOU_XML.glob("*.xml"))[:3]
    games = tmp_path / "games"
    games.mkdir()
    for name, src in (("1.xml", a), ("2.xml", b), ("3.xml", a), ("4.xml", c)):
        shutil.copyfile(src, games / name)
    st = tmp_path / "store"
    # Whether the second batch finds the game known already is a race between the
    # workers: where they are forked, they are told it is not (so both batches audit
    # it, the case this test is about); elsewhere either way must keep the store whole.
    import multiprocessing

    import analyzer.runs.batch

    forked = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
    if forked:
        monkeypatch.setattr(analyzer.runs.batch, "known_content", lambda store, sha: False)
    summary = run([str(games)], st, jobs=2, batch_size=2)
    if forked:
        assert summary.by_status == {"ok": 4}
    else:
        assert sum(summary.by_status.values()) == 4
        assert set(summary.by_status) <= {"ok", "known"}
    assert stats(st)["games"] == 3
    for args in (
        ["stats", "--store", str(st)],
        ["merge", str(st), "--into", str(tmp_path / "merged")],
        ["compact", "--store", str(st)],
        ["compact", "--repair", "--store", str(st)],
    ):
        code, _, err = cli(args, capsys)
        assert (code, err) == (0, ""), args
    assert stats(tmp_path / "merged")["games"] == 3
    counts = query(
        st, "SELECT (SELECT count(*) FROM games), (SELECT count(DISTINCT game) FROM hands)"
    )
    assert list(counts[1]) == [(3, 3)]


def _deny(monkeypatch: pytest.MonkeyPatch, denied: Path) -> None:
    """``denied`` (a part file, or a folder of the store) cannot be opened or listed, as
    one of mode 000 for a user (the tests may run as root, whom modes do not stop)."""
    import builtins

    real_open, real_iterdir = builtins.open, Path.iterdir

    def open_(file: object, *args: object, **kw: object) -> object:
        if isinstance(file, str | os.PathLike) and Path(os.fspath(file)) == denied:
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real_open(file, *args, **kw)  # type: ignore[call-overload]

    def iterdir(self: Path) -> object:
        if self == denied:
            raise PermissionError(13, "Permission denied", str(self))
        return real_iterdir(self)

    monkeypatch.setattr(builtins, "open", open_)
    monkeypatch.setattr(Path, "iterdir", iterdir)


def test_a_store_folder_that_cannot_be_listed_is_one_line(
    store: Path, logs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = store / f"v{AUDIT_VERSION}" / "games"
    _deny(monkeypatch, folder)
    code, out, err = cli(["audit", "--store", str(store), str(logs)], capsys)
    assert code == 2 and out == ""
    assert one_line(err) == (
        f"mjaudit: {folder}: cannot read: Permission denied; give this user access to the "
        f"files under {store}, then run the command again"
    )


def test_a_part_that_cannot_be_read_is_not_called_damaged_nor_dropped_by_repair(
    store: Path, logs: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = stats(store)
    victim = part_files(store, "games")[0]
    _deny(monkeypatch, victim)
    for args in (
        ["stats", "--store", str(store)],
        ["audit", "--store", str(store), str(logs)],
        ["compact", "--store", str(store)],
        ["compact", "--repair", "--store", str(store)],
    ):
        code, _, err = cli(args, capsys)
        assert code == 2, args
        line = one_line(err)
        assert line.startswith(f"mjaudit: {victim}: cannot read: Permission denied; "), args
        assert "not known to be damaged" in line and "compact --repair" not in line, args
    assert line.endswith("; nothing was repaired")
    monkeypatch.undo()
    assert victim.exists() and stats(store) == before
