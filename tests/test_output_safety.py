"""Outputs on a full disk and stores with rotten parts: what was there is kept, and the
one line on stderr says what could not be written or read, and what to do.

A full disk is simulated, not mounted: the file objects the code under test opens
for writing take at most ``room`` bytes in all (what a nearly full disk takes), then
raise ``OSError(ENOSPC)``; the catalog is filled with SQLite's ``max_page_count``,
which fails as a full disk does ("database or disk is full", rolled back by SQLite).
"""

from __future__ import annotations

import errno
import io
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from analyzer.runs import store_catalog, store_parts
from analyzer.runs.batch import BatchOptions, audit_batch
from analyzer.runs.store import DB_NAME, Store, StoreError, stats, write_part
from analyzer.runs.store_catalog import InputRecord, write_failure
from parsers.containers import iter_locators
from parsers.convert import convert_log, replacing
from reports.cli import main
from tests.conftest import SAMPLES, run_store

GAME = SAMPLES / "clean_game.xml"
OTHER = SAMPLES / "kans.xml"
NO_SPACE = os.strerror(errno.ENOSPC)
KEPT = "what was audited before is kept, and the next run goes on from there"

_real_open = io.open


class _Disk:
    """The bytes a nearly full disk still takes."""

    def __init__(self, room: int) -> None:
        self.room = room


class _Limited(io.RawIOBase):
    """A file that writes while its disk has room, then fails as a full disk does."""

    def __init__(self, raw: io.FileIO, disk: _Disk) -> None:
        self._raw = raw
        self._disk = disk

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._raw.fileno()

    def write(self, b: Any) -> int:
        data = bytes(b)
        if data and self._disk.room <= 0:
            raise OSError(errno.ENOSPC, NO_SPACE)
        n = self._raw.write(data[: self._disk.room]) or 0
        self._disk.room -= n
        return n

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


def _full_disk_open(disk: _Disk) -> Callable[..., Any]:
    """``open`` whose files opened for writing share ``disk``'s room."""

    def fake_open(
        file: Any,
        mode: str = "r",
        buffering: int = -1,
        encoding: str | None = None,
        errors: str | None = None,
        newline: str | None = None,
        closefd: bool = True,
        opener: Any = None,
    ) -> Any:
        if not any(c in mode for c in "wax+"):
            return _real_open(file, mode, buffering, encoding, errors, newline, closefd, opener)
        binary = mode.replace("t", "") + ("" if "b" in mode else "b")
        raw = _real_open(file, binary, 0, None, None, None, closefd, opener)
        buffered = io.BufferedWriter(_Limited(cast(io.FileIO, raw), disk))
        if "b" in mode:
            return buffered
        return io.TextIOWrapper(buffered, encoding=encoding, errors=errors, newline=newline)

    return fake_open


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], _Disk]:
    """``full_disk(room)``: from now on, files opened for writing take ``room`` bytes
    in all (``io.open`` is what ``Path.open`` and ``os.fdopen`` call)."""

    def fill(room: int) -> _Disk:
        disk = _Disk(room)
        monkeypatch.setattr(io, "open", _full_disk_open(disk))
        return disk

    return fill


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def last_line(err: str) -> str:
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# ---- convert: the old file is kept --------------------------------------------------


def test_convert_on_a_full_disk_keeps_the_old_file(
    tmp_path: Path, full_disk: Callable[[int], _Disk], capsys: pytest.CaptureFixture[str]
) -> None:
    """It was truncated to 0 bytes (then half written): the old content was gone."""
    out = tmp_path / "existing.jsonl"
    out.write_bytes(b'{"type":"start_game"}\n')
    full_disk(100)
    code, _, err = cli(["convert", str(GAME), "--to", "mjai", "-o", str(out)], capsys)
    assert code == 2
    assert last_line(err) == f"mjaudit: {out}: cannot write: {NO_SPACE}"
    assert listing(tmp_path) == {"existing.jsonl": b'{"type":"start_game"}\n'}


def test_convert_on_a_full_disk_leaves_no_half_file(
    tmp_path: Path, full_disk: Callable[[int], _Disk], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "game.jsonl"
    full_disk(100)
    code, _, err = cli(["convert", str(GAME), "--to", "mjai", "-o", str(out)], capsys)
    assert code == 2 and str(out) in last_line(err)
    assert list(tmp_path.iterdir()) == []


def test_cases_export_on_a_full_disk_keeps_the_old_file(
    tmp_path: Path, full_disk: Callable[[int], _Disk], capsys: pytest.CaptureFixture[str]
) -> None:
    """It was cut mid-line (the old cases gone); and a cases file of an earlier run
    in a folder it reads is still left out of its inputs."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "game.xml").write_bytes(GAME.read_bytes())
    out = logs / "cases.jsonl"
    code, _, _ = cli(["cases", "export", str(logs), "-o", str(out)], capsys)
    assert code == 0
    before = out.read_bytes()
    code, _, err = cli(["cases", "export", str(logs), "-o", str(out)], capsys)
    assert code == 0 and out.read_bytes() == before, err
    full_disk(1000)
    code, _, err = cli(["cases", "export", str(logs), "-o", str(out)], capsys)
    assert code == 2
    assert last_line(err) == f"mjaudit: {out}: cannot write: {NO_SPACE}"
    assert listing(logs) == {"cases.jsonl": before, "game.xml": GAME.read_bytes()}


def test_a_replaced_output_keeps_its_mode_its_link_and_special_files(tmp_path: Path) -> None:
    """A file's permissions are kept, a link's target is written (the link stays),
    and what is no regular file is written in place, never replaced."""
    target = tmp_path / "target.jsonl"
    target.write_bytes(b"old\n")
    target.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    assert main(["convert", str(GAME), "--to", "mjai", "-o", str(link)]) == 0
    assert link.is_symlink() and stat.S_IMODE(target.stat().st_mode) == 0o640
    from parsers import load

    assert target.read_bytes() == convert_log(load(str(GAME)), "mjai")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "target.jsonl"]
    assert main(["convert", str(GAME), "--to", "mjai", "-o", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_replacing_removes_its_temporary_file_on_any_error(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    out.write_bytes(b"before")
    with pytest.raises(KeyboardInterrupt), replacing(out) as f:
        f.write(b"half of a page")
        raise KeyboardInterrupt
    assert listing(tmp_path) == {"page.html": b"before"}


# ---- report: whole pages or none, and the page named --------------------------------


@pytest.fixture
def two_logs(tmp_path: Path) -> Path:
    logs = tmp_path / "logs"
    logs.mkdir()
    for p in (GAME, OTHER):
        (logs / p.name).write_bytes(p.read_bytes())
    return logs


def test_report_on_a_full_disk_names_the_page_and_leaves_no_empty_one(
    two_logs: Path,
    tmp_path: Path,
    full_disk: Callable[[int], _Disk],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It left zero-byte pages and no index, and named only the folder."""
    site = tmp_path / "site"
    full_disk(0)
    code, _, err = cli(["report", str(two_logs), "-o", str(site)], capsys)
    assert code == 2
    line = last_line(err)
    assert line.startswith(f"mjaudit: {site / 'clean_game.xml.html'}: cannot write: ")
    assert line.endswith(NO_SPACE)
    assert list(site.iterdir()) == []


def test_report_on_a_full_disk_keeps_the_previous_pages_whole(
    two_logs: Path,
    tmp_path: Path,
    full_disk: Callable[[int], _Disk],
    capsys: pytest.CaptureFixture[str],
) -> None:
    site = tmp_path / "site"
    assert main(["report", str(two_logs), "-o", str(site)]) == 0
    before = listing(site)
    # Room for the first page and half of the second.
    full_disk(len(before["clean_game.xml.html"]) + len(before["kans.xml.html"]) // 2)
    code, _, err = cli(["report", str(two_logs), "-o", str(site)], capsys)
    assert code == 2 and f"{site / 'kans.xml.html'}: cannot write" in last_line(err)
    assert listing(site) == before


def test_a_single_game_page_on_a_full_disk_keeps_the_old_page(
    tmp_path: Path, full_disk: Callable[[int], _Disk], capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "game.html"
    page.write_bytes(b"<p>the page of yesterday</p>")
    full_disk(1000)
    code, _, err = cli(["report", str(GAME), "-o", str(page)], capsys)
    assert code == 2 and last_line(err) == f"mjaudit: {page}: cannot write: {NO_SPACE}"
    assert listing(tmp_path) == {"game.html": b"<p>the page of yesterday</p>"}


# ---- the store on a full disk: said as such, never called damaged ------------------


class _FullCatalog(sqlite3.Connection):
    """A catalog on a full disk: every write fails with SQLITE_FULL, and SQLite has
    rolled the transaction back by itself, as it does on a full disk."""

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "COMMIT"):
            if self.in_transaction:
                super().execute("ROLLBACK")
            raise _sqlite_error("database or disk is full", 13)
        return super().execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
        return self.execute(sql)


def _full_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    """Writers' catalog connections (readers open theirs by URI) cannot write."""
    connect = sqlite3.connect

    def full(*args: Any, **kw: Any) -> sqlite3.Connection:
        if not kw.get("uri"):
            kw["factory"] = _FullCatalog
        conn: sqlite3.Connection = connect(*args, **kw)
        return conn

    monkeypatch.setattr(sqlite3, "connect", full)


def _sqlite_error(message: str, code: int) -> sqlite3.OperationalError:
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code
    return exc


@pytest.mark.parametrize("stage_too", [False, True], ids=["catalog-full", "stage-and-catalog"])
def test_a_full_disk_while_storing_is_said_as_such_and_the_next_run_goes_on(
    logs: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stage_too: bool,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It said "catalog.sqlite: not a readable store catalog (cannot rollback - no
    transaction is active); ... move the store aside": the catalog was fine."""
    st = tmp_path / "st"
    whole = tmp_path / "whole"
    run_store([str(logs)], whole)
    run_store([str(sorted(logs.iterdir())[0])], st)  # the store holds a game already
    _full_catalog(monkeypatch)
    if stage_too:  # the staged rows hit the full disk first
        monkeypatch.setattr(store_parts, "open", _full_disk_open(_Disk(2000)), raising=False)
    code, _, err = cli(["audit", "-j", "1", "--store", str(st), str(logs)], capsys)
    assert code == 2
    assert last_line(err) == f"mjaudit: {st}: cannot write the store: {NO_SPACE}; {KEPT}"
    assert "catalog" not in err and "aside" not in err
    assert not (st / "tmp").exists()  # the staged rows are not left behind
    monkeypatch.undo()  # space was freed
    code, _, err = cli(["audit", "-j", "1", "--store", str(st), str(logs)], capsys)
    assert code in (0, 1) and "mjaudit:" not in err
    assert stats(st)["games"] == stats(whole)["games"]
    assert stats(st)["codes"] == stats(whole)["codes"]


def _records(path: Path, st: Path) -> list[InputRecord]:
    """What the workers of an ``audit --store st`` of ``path`` hand the store."""
    opts = BatchOptions(store=str(st.resolve()))
    return [o.record for o in audit_batch(list(iter_locators([str(path)])), opts).outcomes]


def test_no_input_is_recorded_as_done_without_its_rows(
    logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the part failed to be written, closing the store registered its inputs
    as audited (``ok``) without their rows: the next run skipped them for good."""
    st = tmp_path / "st"
    Store(st).close()
    records = _records(logs, st)
    writer = Store(st)
    writer.add(records)

    def no_room(*args: object) -> None:
        raise OSError(errno.ENOSPC, NO_SPACE)

    monkeypatch.setattr(store_parts, "write_csv_part", no_room)
    with pytest.raises(StoreError, match=NO_SPACE):
        writer.flush()
    writer.close()
    monkeypatch.undo()
    assert stats(st)["inputs"] == {}
    again = run_store([str(logs)], st)
    assert again.by_status.get("ok") == len(records)


def test_a_workers_part_on_a_full_disk_is_a_store_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st = tmp_path / "st"
    Store(st).close()
    records = _records(GAME, st)
    parts = tmp_path / "parts"
    parts.mkdir()
    monkeypatch.setattr(store_parts, "open", _full_disk_open(_Disk(100)), raising=False)
    with pytest.raises(StoreError, match=f"cannot write the store: {NO_SPACE}"):
        write_part(parts / "part-0123.json", records)
    assert list(parts.iterdir()) == []


@pytest.mark.parametrize(
    "number",
    [
        pytest.param(errno.ENOSPC, id="disk-full"),
        pytest.param(errno.EDQUOT, id="quota"),
        pytest.param(errno.EIO, id="io-error"),
    ],
)
def test_os_write_errors_are_write_failures(number: int) -> None:
    assert write_failure(OSError(number, os.strerror(number))) == os.strerror(number)


def test_sqlite_write_failures_are_told_from_damage() -> None:
    assert write_failure(_sqlite_error("database or disk is full", 13)) == NO_SPACE
    assert write_failure(_sqlite_error("disk I/O error", 10 | (3 << 8))) == "disk I/O error"
    rollback = _sqlite_error("cannot rollback - no transaction is active", 1)
    assert write_failure(rollback) is None
    rollback.__context__ = _sqlite_error("database or disk is full", 13)
    assert write_failure(rollback) == NO_SPACE
    assert write_failure(sqlite3.DatabaseError("file is not a database")) is None
    assert write_failure(_sqlite_error("database disk image is malformed", 11)) is None


def test_merge_into_a_full_disk_is_no_damaged_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shard, out = tmp_path / "s1", tmp_path / "out"
    run_store([str(GAME)], shard)
    run_store([str(OTHER)], out)
    _full_catalog(monkeypatch)
    code, _, err = cli(["merge", str(shard), "--into", str(out)], capsys)
    assert code == 2
    line = last_line(err)
    assert line.startswith(f"mjaudit: {out}: cannot write the store: {NO_SPACE}; ")
    assert "aside" not in line


# ---- merge and compact: a rotten part is named, with the fix ------------------------


def _rot(store: Path, table: str = "hands") -> Path:
    """Bytes changed inside a part file: its size and its PAR1 magic are kept."""
    (part,) = (store / f"v{store_catalog.AUDIT_VERSION}" / table).glob("*.parquet")
    b = bytearray(part.read_bytes())
    for i in range(100, len(b) - 100, 7):
        b[i] = 0xAB
    part.write_bytes(bytes(b))
    return part


@pytest.fixture
def shards(tmp_path: Path) -> Iterator[tuple[Path, Path, Path]]:
    """A good shard, a shard with a rotten part, and that part."""
    good, bad = tmp_path / "s1", tmp_path / "s2"
    run_store([str(GAME)], good)
    run_store([str(OTHER)], bad)
    yield good, bad, _rot(bad)


def _fix(store: Path) -> str:
    return f"run `mjaudit compact --repair --store {store}`"


def test_merge_of_a_rotten_shard_names_it_and_merges_nothing(
    shards: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said only "mjaudit: TProtocolException: Invalid data", and had committed the
    good shard."""
    good, bad, part = shards
    out = tmp_path / "out"
    code, stdout, err = cli(["merge", str(good), str(bad), "--into", str(out)], capsys)
    assert (code, stdout) == (2, "")
    line = last_line(err)
    assert line.startswith(f"mjaudit: {bad}: not merged")
    assert f"{part}: corrupt" in line and _fix(bad) in line
    assert stats(out)["games"] == 0
    code, _, _ = cli(["compact", "--repair", "--store", str(bad)], capsys)
    assert code == 0
    assert main(["merge", str(good), str(bad), "--into", str(out)]) == 0
    assert stats(out)["games"] == 1


def test_merge_names_the_shard_and_part_duckdb_cannot_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Damage no check sees (a store without checksums, a good footer) shows only when
    DuckDB reads the part: it is named with its shard and the fix all the same."""
    import duckdb

    shard = tmp_path / "s1"
    run_store([str(GAME)], shard)

    def unreadable(con: object, source: Path, dest: Path, games: object) -> None:
        raise duckdb.InvalidInputException("Invalid Input Error: Invalid data")

    monkeypatch.setattr(store_parts, "copy_part", unreadable)
    code, _, err = cli(["merge", str(shard), "--into", str(tmp_path / "out")], capsys)
    assert code == 2
    line = last_line(err)
    assert line.startswith(f"mjaudit: {shard}: not merged whole: {shard}/v")
    assert ".parquet: Invalid Input Error: Invalid data" in line
    assert f"`mjaudit compact --repair --store {shard}`" in line


def test_compact_names_a_rotten_part_instead_of_compacting_nothing(
    shards: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "compacted 0 parts into 0" and exit 0."""
    _, bad, part = shards
    code, out, err = cli(["compact", "--store", str(bad)], capsys)
    assert (code, out) == (2, "")
    line = last_line(err)
    assert line.startswith(f"mjaudit: {part}: corrupt") and _fix(bad) in line
    code, out, _ = cli(["compact", "--repair", "--store", str(bad)], capsys)
    assert code == 0 and "dropped 1 damaged parts" in out
    code, out, _ = cli(["compact", "--store", str(bad)], capsys)
    assert (code, out) == (0, "compacted 0 parts into 0\n")
    assert (bad / DB_NAME).is_file()


def test_a_full_disk_in_a_worker_ends_the_run_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # With -j N a worker that could not write its part made each of its inputs a
    # "not audited: its batch failed: ... No space left on device" line, its batch
    # split and run again, before the run ended. The store's error ends it at once.
    import threading

    from analyzer.runs import store as store_module
    from analyzer.runs.store_catalog import write_error
    from reports.cli import main

    if threading.active_count() != 1:
        pytest.skip("workers are forked only from a single-threaded driver")

    def full(path: Path, records: object) -> None:
        raise write_error(path.parent, "No space left on device")

    monkeypatch.setattr(store_module, "write_part", full)  # inherited by forked workers
    logs = tmp_path / "logs"
    logs.mkdir()
    for name in ("clean_game.xml", "kans.xml"):
        (logs / name).write_bytes((SAMPLES / name).read_bytes())
    code = main(["audit", "-j", "2", "--store", str(tmp_path / "store"), str(logs)])
    err = capsys.readouterr().err
    assert code == 2
    assert "batch failed" not in err
    assert err.count("cannot write the store: No space left on device") == 1, err
