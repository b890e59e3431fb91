"""Keeping a results store whole: the writers' lock, part checks, repair, clean-up.

- **Lock.** Every writer (``audit --store``, ``merge --into``, ``compact``) holds an
  exclusive ``flock`` on ``DIR/writer.lock`` from the moment it opens the store to
  the moment it closes it. A second writer waits for it, saying once on stderr
  which process holds it, and gives up with a clear error after ``lock_wait``
  seconds. Readers (``stats``, ``query``) take no lock: the catalog's WAL and the
  immutable part files let them read during a write.
- **Checks.** The catalog records each part file's size and SHA-256
  (``part_files``). Opening a store checks every registered part of the current
  audit version cheaply: the file is there, has the recorded size and starts and
  ends with the Parquet magic ``PAR1``. ``compact --repair`` checks fully (the
  checksum and the row counts too) and drops what is damaged.
- **Clean-up.** Under the lock no other writer runs, so staging files, half-written
  parts and part files the catalog does not list are leftovers of a dead run and
  are removed when a writer opens the store.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from analyzer.runs.store_catalog import StoreError, rollback

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "CANNOT_READ",
    "LOCK_NAME",
    "LOCK_WAIT",
    "Damage",
    "PartFile",
    "StoreLock",
    "check_parts",
    "clean",
    "damage_message",
    "file_sum",
    "fill_checksums",
    "find_damage",
    "registered_files",
    "repair",
    "row_count_problem",
    "run_dir",
]

LOCK_NAME = "writer.lock"
# How long a writer waits for another writer's lock before giving up (--lock-wait).
LOCK_WAIT = 600.0
_POLL = 0.2
_MAGIC = b"PAR1"
_TABLES = ("games", "hands", "findings")


# ---- the writers' lock ----------------------------------------------------------

_held: set[int] = set()


def _close_in_child() -> None:
    # A forked worker must not keep the driver's lock alive after the driver died.
    for fd in _held:
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_in_child)


def _stderr(message: str) -> None:
    stream: TextIO = sys.stderr
    stream.write(message + "\n")
    stream.flush()


class StoreLock:
    """An exclusive ``flock`` on ``root/writer.lock``, waited for up to ``wait`` seconds.

    The holder writes its pid into the file, so a waiting writer can say who holds it.
    """

    def __init__(
        self, root: Path, wait: float = LOCK_WAIT, on_wait: Callable[[str], None] | None = None
    ) -> None:
        self.path = root / LOCK_NAME
        try:
            self.fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot open the store's lock: {exc.strerror}") from None
        try:
            self._acquire(root, wait, on_wait or _stderr)
        except BaseException:
            os.close(self.fd)
            self.fd = None
            raise
        _held.add(self.fd)
        with contextlib.suppress(OSError):  # the pid is only for messages
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    def _acquire(self, root: Path, wait: float, on_wait: Callable[[str], None]) -> None:
        assert self.fd is not None
        deadline = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            except OSError as exc:  # a file system without flock
                raise StoreError(
                    f"{self.path}: cannot lock the store: {exc.strerror}; use a folder on a "
                    f"file system that supports flock"
                ) from None
            holder = self._holder()
            if time.monotonic() >= deadline:
                raise StoreError(
                    f"{root}: the store is locked by {holder} (another audit --store, merge or "
                    f"compact is writing to it); gave up after {wait:g} s (see --lock-wait)"
                )
            if not told:
                on_wait(f"mjaudit: {root}: waiting up to {wait:g} s for the store's lock, "
                        f"held by {holder}")  # fmt: skip
                told = True
            time.sleep(min(_POLL, max(0.0, deadline - time.monotonic())))

    def _holder(self) -> str:
        try:
            text = self.path.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            text = ""
        return f"pid {text}" if text.isdigit() else "another process"

    def release(self) -> None:
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        _held.discard(fd)
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the last descriptor releases the flock


def run_dir(root: Path) -> Path:
    """Where the workers of this process's run write their own parts."""
    return root / "parts" / f"run-{os.getpid()}"


# ---- what the catalog lists, and what is on disk --------------------------------


@dataclass(frozen=True, slots=True)
class PartFile:
    """One table's file of a registered part, with what the catalog recorded about it."""

    version: str
    part: str
    table: str
    path: Path
    size: int | None
    sha256: str | None
    rows: int


#: How a part file that could not be opened or read (no permission) is said: it is
#: not known to be damaged, and a repair never drops it.
CANNOT_READ = "cannot read: "


@dataclass(frozen=True, slots=True)
class Damage:
    """A registered part that is damaged, or that cannot be read, and why."""

    file: PartFile
    problem: str
    games: int

    @property
    def unread(self) -> bool:
        """Whether the file could not be read (:data:`CANNOT_READ`): not damage."""
        return self.problem.startswith(CANNOT_READ)


def file_sum(path: Path) -> tuple[int, str]:
    """A file's size and SHA-256."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


def _has_part_files(conn: sqlite3.Connection) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'part_files'"
    ).fetchone()
    return row is not None


def registered_files(conn: sqlite3.Connection, root: Path, version: str | None) -> list[PartFile]:
    """Every file of the parts registered at ``version`` (every version with None).

    A store written before checksums were recorded, opened read-only, has no
    ``part_files`` table: its files are checked by size and magic only.
    """
    sums: dict[tuple[str, str, str], tuple[int, str]] = {}
    if _has_part_files(conn):
        for v, p, t, size, sha in conn.execute(
            "SELECT audit_version, part, tbl, size, sha256 FROM part_files"
        ):
            sums[(str(v), str(p), str(t))] = (int(size), str(sha))
    where, args = ("WHERE audit_version = ?", (version,)) if version is not None else ("", ())
    out: list[PartFile] = []
    for p, v, games, hands, findings in conn.execute(
        f"SELECT part, audit_version, games, hands, findings FROM parts {where} "
        "ORDER BY audit_version, part",
        args,
    ):
        rows = {"games": games, "hands": hands, "findings": findings}
        for t in _TABLES:
            size, sha = sums.get((str(v), str(p), t), (None, None))
            path = root / f"v{v}" / t / f"{p}.parquet"
            out.append(PartFile(str(v), str(p), t, path, size, sha, int(rows[t] or 0)))
    return out


def _problem(f: PartFile, full: bool) -> str | None:
    """What is wrong with a part file, or None; ``full`` reads it all for its checksum."""
    try:
        size = f.path.stat().st_size
        if f.size is not None and size != f.size:
            return f"corrupt: {size} bytes where the catalog recorded {f.size}"
        if size < 12:
            return "corrupt: not a Parquet file (too short)"
        with open(f.path, "rb") as fh:
            head = fh.read(4)
            fh.seek(-4, os.SEEK_END)
            tail = fh.read(4)
    except FileNotFoundError:
        return "missing"
    except OSError as exc:  # no permission, say: the file may well be whole
        return f"{CANNOT_READ}{exc.strerror or exc}"
    if head != _MAGIC or tail != _MAGIC:
        return "corrupt: not a Parquet file (no PAR1 at both ends)"
    if full and f.sha256 is not None:
        try:
            _, sha = file_sum(f.path)
        except OSError as exc:
            return f"{CANNOT_READ}{exc.strerror or exc}"
        if sha != f.sha256:
            return "corrupt: its SHA-256 is not the one the catalog recorded"
    return None


def check_parts(
    conn: sqlite3.Connection, root: Path, version: str | None, full: bool = False
) -> list[Damage]:
    """The damaged parts among those registered (one entry per part, its first bad file)."""
    games = {
        (str(v), str(p)): int(n or 0)
        for p, v, n in conn.execute("SELECT part, audit_version, games FROM parts")
    }
    out: list[Damage] = []
    bad: set[tuple[str, str]] = set()
    for f in registered_files(conn, root, version):
        if (f.version, f.part) in bad:
            continue
        problem = _problem(f, full)
        if problem is not None:
            bad.add((f.version, f.part))
            out.append(Damage(f, problem, games.get((f.version, f.part), 0)))
    return out


def damage_message(root: Path, damaged: Sequence[Damage]) -> str:
    """One line: the first damaged part, how many there are, and the fix; or, where a
    part file cannot be read at all, the first such file: it is not called damaged
    (access to it is the fix, and a repair would not drop it)."""
    unread = [d for d in damaged if d.unread]
    if unread:
        d = unread[0]
        more = f" (and {len(unread) - 1} more parts)" if len(unread) > 1 else ""
        return (
            f"{d.file.path}: {d.problem}{more}; this part of the store holds {d.games} "
            f"games and is not known to be damaged: give this user access to the files "
            f"under {root}, then run the command again"
        )
    d = damaged[0]
    more = f" (and {len(damaged) - 1} more damaged parts)" if len(damaged) > 1 else ""
    return (
        f"{d.file.path}: {d.problem}{more}; this part holds {d.games} games of the store: "
        f"run `mjaudit compact --repair --store {root}` to drop the damaged parts, then "
        f"`mjaudit audit --store {root}` over the same inputs to audit again what they held"
    )


def row_count_problem(con: duckdb.DuckDBPyConnection, f: PartFile) -> str | None:
    """What is wrong with the file's footer as DuckDB reads it (rows the catalog did not
    record, or no footer at all), or None."""
    from analyzer.runs.store_parts import error, is_interrupt, sql_str

    try:
        got = con.execute(f"SELECT count(*) FROM read_parquet({sql_str(str(f.path))})").fetchall()
    except error() as exc:
        if is_interrupt(exc):  # Ctrl-C, not a damaged part (repair would drop it)
            raise KeyboardInterrupt from None
        return "corrupt: " + str(exc).splitlines()[0]
    n = int(got[0][0])
    return None if n == f.rows else f"corrupt: {n} rows where the catalog recorded {f.rows}"


# ---- writers: migration, clean-up, repair ---------------------------------------


def fill_checksums(conn: sqlite3.Connection, root: Path) -> int:
    """Record size and SHA-256 of the part files a store written before checksums lacks.

    Files that fail the cheap check are left without a record: the check reports them.
    """
    todo = [
        f for f in registered_files(conn, root, None)
        if f.sha256 is None and _problem(f, full=False) is None
    ]  # fmt: skip
    if not todo:
        return 0
    rows = [(f.version, f.part, f.table, *file_sum(f.path)) for f in todo]
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("INSERT OR REPLACE INTO part_files VALUES (?, ?, ?, ?, ?)", rows)
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
    return len(rows)


def _unlink(path: Path) -> int:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        return 0
    return 1


def clean(conn: sqlite3.Connection, root: Path) -> int:
    """Remove what dead runs left: staging, half-written parts, unregistered parts.

    Call only under the lock: the driver's CSV stage (``tmp/``), the folders its
    workers wrote parts into (``parts/run-<pid>/``), ``*.tmp`` files and part files
    the catalog does not list. Files directly in ``parts/`` belong to tasks that
    Spark or Ray run without the lock (docs/scale.md) and are left for
    :meth:`Store.ingest_part`.
    """
    removed = 0
    tmp = root / "tmp"
    if tmp.is_dir():
        removed += sum(_unlink(p) for p in list(tmp.iterdir()))
    removed += sum(_unlink(p) for p in list(root.glob("parts/run-*")))
    registered = {
        (str(v), str(p)) for p, v in conn.execute("SELECT part, audit_version FROM parts")
    }
    for folder in root.glob("v*"):
        version = folder.name[1:]
        for t in _TABLES:
            sub = folder / t
            if not sub.is_dir():
                continue
            for p in list(sub.iterdir()):
                orphan = p.suffix == ".parquet" and (version, p.stem) not in registered
                if orphan or p.name.endswith(".tmp"):
                    removed += _unlink(p)
    return removed


def find_damage(
    conn: sqlite3.Connection, con: duckdb.DuckDBPyConnection, root: Path, version: str | None
) -> list[Damage]:
    """The damaged parts of ``version`` (every version with None), checked fully: the
    cheap check, then the checksum, then the row counts DuckDB reads from each file's
    footer (what a store without checksums still has)."""
    damaged = check_parts(conn, root, version, full=True)
    seen = {(d.file.version, d.file.part) for d in damaged}
    for f in registered_files(conn, root, version):
        if (f.version, f.part) in seen:
            continue
        problem = row_count_problem(con, f)
        if problem is not None:
            seen.add((f.version, f.part))
            n = conn.execute(
                "SELECT games FROM parts WHERE audit_version = ? AND part = ?", (f.version, f.part)
            ).fetchone()
            damaged.append(Damage(f, problem, int(n[0]) if n else 0))
    return damaged


def repair(
    conn: sqlite3.Connection, con: duckdb.DuckDBPyConnection, root: Path, version: str
) -> tuple[list[Damage], int]:
    """Drop the damaged parts of ``version`` and forget the inputs whose games they held.

    A full check: the cheap one, then the checksum, then the row counts DuckDB
    reads from each file's footer. Returns the dropped parts and how many inputs
    the next ``audit --store`` audits again.
    """
    damaged = find_damage(conn, con, root, version)
    if any(d.unread for d in damaged):
        # A file that could not be read is not known to be damaged: nothing is dropped.
        raise StoreError(f"{damage_message(root, damaged)}; nothing was repaired")
    forgotten = 0
    for d in damaged:
        v, part = d.file.version, d.file.part
        conn.execute("BEGIN IMMEDIATE")
        try:
            cur = conn.execute(
                "DELETE FROM inputs WHERE audit_version = ? AND status IN ('ok', 'known') AND "
                "game IN (SELECT game FROM contents WHERE audit_version = ? AND part = ?)",
                (v, v, part),
            )
            forgotten += cur.rowcount
            for table in ("contents", "parts", "part_files"):
                conn.execute(f"DELETE FROM {table} WHERE audit_version = ? AND part = ?", (v, part))
            conn.execute("COMMIT")
        except BaseException:
            rollback(conn)
            raise
        for t in _TABLES:
            _unlink(root / f"v{v}" / t / f"{part}.parquet")
    return damaged, forgotten
