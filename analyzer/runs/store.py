"""The results store: audit once, query many times.

A store is a folder (docs/scale.md):

- ``catalog.sqlite`` (stdlib SQLite, WAL): the bookkeeping. ``inputs`` holds every
  input seen, by its cheap key (no read needed to skip it), with the SHA-256 of
  its decompressed content, the audit version, a status (ok, error, timeout,
  crashed, filtered, known) and the game it holds; ``contents`` which games each
  audit version holds and in which part; ``parts`` the part files; ``runs`` the
  runs.
- ``v{audit_version}/{games,hands,findings}/part-<id>.parquet``: immutable Parquet
  part files, one per table and part, written to a temporary name then renamed.
  ``games`` has one row per distinct game content, keyed by the first 8 bytes of
  its SHA-256 (so the same log in a folder, a zip and a database is one game, and
  shard stores merge without renumbering); ``hands`` one row per (game, hand,
  seat); ``findings`` one row per finding.

A part becomes visible when the catalog registers it, in the same transaction
that records its inputs as done: readers (``stats``, ``query``, DuckDB over the
registered files) see whole parts only, and can read while an audit writes. A
file that was written but never registered (a crash in between) is ignored.

A re-run skips inputs whose cheap key is known for this AUDIT_VERSION (those that
failed are tried again), and a worker skips auditing a content hash the store
already holds. A new AUDIT_VERSION re-audits into a new ``v{N}/`` folder; queries
read the current version's parts.

Writers hold the store's lock; parts carry checksums and are checked when the
store is opened (:mod:`analyzer.runs.store_guard`); ``query`` runs one read-only
statement on a locked-down DuckDB (:mod:`analyzer.runs.store_read`,
:mod:`analyzer.runs.store_query`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.runs import store_catalog as cat
from analyzer.runs import store_guard as guard
from analyzer.runs import store_parts as sp
from analyzer.runs.store_catalog import (
    DB_NAME,
    GameRows,
    InputRecord,
    StoreError,
    game_key,
    game_rows,
    known_content,
)
from analyzer.runs.store_read import query, stats, stats_text
from mjaudit.errors import WRITE_ERRNOS

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "DB_NAME",
    "GameRows",
    "InputRecord",
    "Store",
    "StoreError",
    "compact",
    "game_key",
    "game_rows",
    "known_content",
    "merge",
    "query",
    "stats",
    "stats_text",
    "write_part",
]

# A part holds about this many games (~40 k hand rows), or what arrived in this
# many seconds, so a store being written shows progress.
PART_GAMES = 1000
PART_SECONDS = 10.0


class Store:
    """A results store opened for writing by one driver process.

    Rows are staged as CSV as batches arrive and written as one Parquet part per
    table every ``part_games`` games (or ``part_seconds``); the inputs of a batch
    are recorded as done when its part is registered.

    Opening takes the store's lock (waiting up to ``lock_wait`` seconds for another
    writer, telling ``on_wait`` once), records the checksums an older store lacks,
    removes what dead runs left, and, with ``check``, refuses a store whose
    registered parts are missing or damaged (:class:`StoreError` naming the part
    and the fix).

    A failure to write (a full disk, a quota, an I/O error) is a :class:`StoreError`
    that says so and ends with ``kept``, what it leaves: the parts and inputs
    registered before it are whole, those in flight are dropped (never an input
    recorded as done without its rows), and the store is written no more.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        part_games: int = PART_GAMES,
        part_seconds: float = PART_SECONDS,
        lock_wait: float = guard.LOCK_WAIT,
        on_wait: Callable[[str], None] | None = None,
        check: bool = True,
        kept: str = cat.AUDITED_KEPT,
    ) -> None:
        self.root = Path(root)
        self.kept = kept
        self._failed: str | None = None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{self.root}: cannot create the store: {exc.strerror}") from None
        self.path = self.root / DB_NAME
        self.run_dir = guard.run_dir(self.root.resolve())
        self._lock = guard.StoreLock(self.root, lock_wait, on_wait)
        try:
            new_ok = not any(self.root.glob("v*/*/part-*.parquet"))
            self._conn = cat.connect(self.path, new_ok=new_ok, kept=kept)
            try:
                with self._catalog():
                    try:
                        guard.fill_checksums(self._conn, self.root)
                        guard.clean(self._conn, self.root)
                    except OSError as exc:
                        raise _opening_error(self.root, exc, kept) from None
                    damaged = guard.check_parts(self._conn, self.root, cat.AUDIT_VERSION)
                if check and damaged:
                    raise StoreError(guard.damage_message(self.root, damaged))
            except BaseException:
                self._conn.close()
                raise
        except BaseException:
            self._lock.release()
            raise
        self.part_games = part_games
        self.part_seconds = part_seconds
        self._stage: sp.CsvStage | None = None
        self._games: dict[int, str] = {}
        self._inputs: list[tuple[object, ...]] = []
        self._since = time.monotonic()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _catalog(self) -> Iterator[None]:
        """A catalog that breaks while in use is a :class:`StoreError`, not a traceback;
        one that cannot be written (a full disk) is not called broken."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise cat.catalog_error(self.path, exc, self.kept) from None

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Around what writes the store: a failure to write is a :class:`StoreError`
        that says so (not a damaged catalog, nor standard output), and any failure
        drops what is in flight, so that nothing is registered without its rows."""
        if self._failed is not None:
            raise StoreError(self._failed)
        try:
            with self._catalog():
                yield
        except StoreError as exc:
            self._abandon(str(exc))
            raise
        except OSError as exc:
            error = cat.write_error(self.root, cat.write_failure(exc) or str(exc), self.kept)
            self._abandon(str(error))
            raise error from None
        except BaseException as exc:
            reason = cat.write_failure(exc)  # DuckDB's, writing a part
            self._abandon(reason or f"{self.root}: the store was not written to after an error")
            if reason is not None:
                raise cat.write_error(self.root, reason, self.kept) from None
            if sp.is_interrupt(exc):  # Ctrl-C while DuckDB ran a statement
                raise KeyboardInterrupt from None
            raise

    def _abandon(self, message: str) -> None:
        """Drop the staged rows and the inputs not yet registered (the next run audits
        them again); the store is not written to any more."""
        self._failed = message
        if self._stage is not None:
            self._stage.discard()
            self._stage = None
        self._games, self._inputs = {}, []

    def close(self) -> None:
        if self._lock.fd is None:
            return
        try:
            if self._failed is None:
                with self._writing():
                    self.flush()
        finally:
            if self._stage is not None:
                self._stage.discard()
                self._stage = None
            self._conn.close()
            shutil.rmtree(self.run_dir, ignore_errors=True)
            with contextlib.suppress(OSError):
                (self.root / "tmp").rmdir()  # if empty
            self._lock.release()

    def seen(self, key: str) -> bool:
        """Whether an input with this cheap key was audited at this cat.AUDIT_VERSION.

        Only inputs that were audited (``ok``) or whose content the store holds
        (``known``) count: those left out by a game selection, and those that
        failed (an error, a timeout, a crashed worker: the cause may lie in the run,
        the machine, or a bug since fixed), are tried again.
        """
        if not key:
            return False
        with self._catalog():
            row = self._conn.execute(
                "SELECT 1 FROM inputs WHERE key = ? AND audit_version = ? "
                "AND status IN ('ok', 'known')",
                (cat.storable(key), cat.AUDIT_VERSION),
            ).fetchone()
        return row is not None

    def add(self, records: Sequence[InputRecord]) -> None:
        """Take one batch's rows; they are written with the next part."""
        with self._writing():
            self._add(records)

    def _add(self, records: Sequence[InputRecord]) -> None:
        for r in records:
            rows = r.rows
            if rows is not None:
                g = int(str(rows.game[0]))
                new = g not in self._games and cat.fresh(self._conn, cat.AUDIT_VERSION, (g,))
                if new:
                    if self._stage is None:
                        self._stage = sp.CsvStage(self.root / "tmp", f"stage-{os.getpid()}")
                    self._stage.write("games", (rows.game,))
                    self._stage.write("hands", rows.hands)
                    self._stage.write("findings", rows.findings)
                    self._games[g] = str(rows.game[1])
            self._inputs.append(cat.input_row(r, cat.AUDIT_VERSION))
        if (
            len(self._games) >= self.part_games
            or time.monotonic() - self._since >= self.part_seconds
        ):
            self._flush()

    def flush(self) -> None:
        """Write the staged rows as a part and record their inputs."""
        if self._failed is None:
            with self._writing():
                self._flush()

    def _flush(self) -> None:
        self._since = time.monotonic()
        part: str | None = None
        counts = dict.fromkeys(sp.TABLES, 0)
        files: list[tuple[str, int, str]] = []
        if self._stage is not None and self._games:
            stage, self._stage = self._stage, None
            counts = dict(stage.counts)
            part = cat.part_id(self._games.values())
            dest = {t: sp.part_file(self.root, cat.AUDIT_VERSION, t, part) for t in sp.TABLES}
            con = sp.connect()
            try:
                stage.to_parquet(con, dest)
            finally:
                con.close()
            files = _sums(dest)
        if part is None and not self._inputs:
            return
        cat.register(self._conn, cat.AUDIT_VERSION, part, list(self._games.items()),
                     counts, self._inputs, files)  # fmt: skip
        self._games, self._inputs = {}, []

    def ingest_part(self, part: str | os.PathLike[str]) -> None:
        """Register a part a worker wrote (its manifest, see :func:`write_part`)."""
        with self._writing():
            self._ingest_part(Path(part))

    def _ingest_part(self, manifest: Path) -> None:
        doc = json.loads(manifest.read_text(encoding="utf-8"))
        version, name = str(doc["version"]), str(doc["part"])
        games = {int(g): str(sha) for g, sha in doc["games"]}
        fresh = cat.fresh(self._conn, version, games)
        staged = {t: manifest.with_name(f"{name}.{t}.parquet") for t in sp.TABLES}
        registered: str | None = None
        files: list[tuple[str, int, str]] = []
        counts = {t: int(doc["counts"][t]) for t in sp.TABLES}
        if fresh:
            registered = name
            dest = {t: sp.part_file(self.root, version, t, name) for t in sp.TABLES}
            if fresh == set(games):
                for t in sp.TABLES:
                    dest[t].parent.mkdir(parents=True, exist_ok=True)
                    os.replace(staged[t], dest[t])
            else:  # another batch brought some of these games first
                con = sp.connect()
                try:
                    for t in sp.TABLES:
                        sp.copy_part(con, staged[t], dest[t], sorted(fresh))
                        # the rows written, not the manifest's: the checks compare them
                        counts[t] = sp.count_rows(con, dest[t])
                finally:
                    con.close()
            files = _sums(dest)
        inputs = [tuple(row) for row in doc["inputs"]]
        cat.register(self._conn, version, registered, [(g, games[g]) for g in sorted(fresh)],
                     counts, inputs, files)  # fmt: skip
        for p in staged.values():
            p.unlink(missing_ok=True)
        manifest.unlink()

    def record_run(self, started: str, audited: int, skipped: int, failed: int) -> None:
        """Flush, and record the run (not after a failure to write: its error is the
        one the run ends with)."""
        if self._failed is not None:
            return
        with self._writing():
            self._flush()
            self._conn.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?)",
                (started, cat.AUDIT_VERSION, audited, skipped, failed),
            )


def _sums(dest: dict[str, Path]) -> list[tuple[str, int, str]]:
    """Each table's file of a part: its size and SHA-256, for the catalog."""
    return [(t, *guard.file_sum(p)) for t, p in dest.items()]


def write_part(path: Path, records: Sequence[InputRecord]) -> None:
    """Write a batch's rows as a part of its own (for distributed workers).

    The Parquet files go beside ``path`` (``<stem>.<table>.parquet``), then the
    manifest ``path`` (JSON: the version, the games, the inputs), each to a
    temporary name then renamed; the driver registers the part with
    :meth:`Store.ingest_part`. A retried batch rewrites the same files. A failure
    leaves none of them; a failure to write (a full disk) is a :class:`StoreError`
    that says so.
    """
    name = path.name.split(".")[0]
    files = {t: path.with_name(f"{name}.{t}.parquet") for t in sp.TABLES}
    tmp = path.with_name(path.name + ".tmp")
    stage = sp.CsvStage(path.parent, f".{name}.{os.getpid()}")
    try:
        _write_part(path, tmp, name, stage, files, records)
    except BaseException as exc:
        stage.discard()
        for f in (*files.values(), tmp):
            with contextlib.suppress(OSError):
                f.unlink(missing_ok=True)
        reason = cat.write_failure(exc)
        if reason is None or sp.is_interrupt(exc):
            raise
        raise cat.write_error(path.parent, reason) from None


def _write_part(
    path: Path,
    tmp: Path,
    name: str,
    stage: sp.CsvStage,
    files: dict[str, Path],
    records: Sequence[InputRecord],
) -> None:
    games: dict[int, str] = {}
    for r in records:
        if r.rows is not None and int(str(r.rows.game[0])) not in games:
            games[int(str(r.rows.game[0]))] = str(r.rows.game[1])
            stage.write("games", (r.rows.game,))
            stage.write("hands", r.rows.hands)
            stage.write("findings", r.rows.findings)
    counts = dict(stage.counts)
    con = sp.connect()
    try:
        stage.to_parquet(con, files)
    finally:
        con.close()
    doc = {
        "version": cat.AUDIT_VERSION,
        "part": name,
        "games": sorted(games.items()),
        "counts": counts,
        "inputs": [cat.input_row(r, cat.AUDIT_VERSION) for r in records],
    }
    tmp.write_text(json.dumps(doc), encoding="utf-8")
    os.replace(tmp, path)


# ---- merge and compact ----------------------------------------------------------

# What a merge or a compact that cannot write the target leaves (cat.write_error).
_MERGED_KEPT = (
    "what was merged before is kept; merge again to go on (games the target holds are "
    "not copied twice)"
)
_COMPACTED_KEPT = "the store is whole: what was compacted before is kept, the rest is as it was"


def merge(
    into: str | os.PathLike[str],
    sources: Sequence[str | os.PathLike[str]],
    *,
    lock_wait: float = guard.LOCK_WAIT,
) -> dict[str, int]:
    """Join shard stores into one (``mjaudit merge``); games already present are kept.

    A shard that is no store at all is refused before the target is made; a shard
    with a missing or damaged part (checked fully: each file's checksum and the row
    counts in its footer) before anything is merged into it, naming the shard, the
    part and the fix. A part DuckDB still cannot read while it is copied is named with its
    shard; the shards and parts merged before it are kept.
    """
    for src in sources:
        _existing(src)
    target = Store(into, lock_wait=lock_wait, kept=_MERGED_KEPT)
    games = inputs = 0
    try:
        for src in sources:
            _check_shard(Path(src))
        for src in sources:
            g, i = _merge_one(target, Path(src))
            games, inputs = games + g, inputs + i
    except sp.error() as exc:
        raise _duckdb_error(target.root, exc, _MERGED_KEPT) from None
    except sqlite3.DatabaseError as exc:
        raise cat.catalog_error(target.path, exc, _MERGED_KEPT) from None
    except OSError as exc:
        raise _os_error(target.root, exc, _MERGED_KEPT) from None
    finally:
        target.close()
    return {"stores": len(sources), "games_added": games, "inputs": inputs}


def _existing(root: str | os.PathLike[str]) -> None:
    """StoreError unless ``root`` holds a store's catalog: for the commands that work on
    a store already made (``merge``'s shards, ``compact``), which `audit --store` makes."""
    if not (Path(root) / DB_NAME).is_file():
        raise StoreError(cat.not_a_store(root))


def _check_shard(root: Path) -> None:
    """Refuse a shard with a missing or damaged part, checked fully (as ``compact
    --repair`` checks): the cheap check alone misses bytes changed inside a file."""
    src = cat.connect(root / DB_NAME, read_only=True)
    try:
        con = sp.connect()
        try:
            damaged = guard.find_damage(src, con, root, None)
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise cat.catalog_error(root / DB_NAME, exc) from None
    finally:
        src.close()
    if damaged:
        message = guard.damage_message(root, damaged)
        raise StoreError(f"{root}: not merged, nor any other shard: {message}")


def _opening_error(root: Path, exc: OSError, kept: str) -> StoreError:
    """A file or folder of the store that could not be read or written while it was
    opened (checked, its leftovers removed): one line, never a traceback."""
    if exc.errno in WRITE_ERRNOS or exc.errno == errno.EROFS:
        return cat.write_error(root, exc.strerror or str(exc), kept)
    where = exc.filename if exc.filename is not None else root
    return StoreError(
        f"{where}: cannot read: {exc.strerror or exc}; give this user access to the files "
        f"under {root}, then run the command again"
    )


def _os_error(root: Path, exc: OSError, kept: str) -> StoreError:
    return cat.write_error(root, cat.write_failure(exc) or str(exc), kept)


def _duckdb_error(root: Path, exc: Exception, kept: str) -> StoreError:
    """DuckDB's error while a writer wrote ``root``: Ctrl-C is raised as what it is, a
    full disk is said as such, anything else is its first line."""
    if sp.is_interrupt(exc):  # Ctrl-C while DuckDB ran a statement
        raise KeyboardInterrupt from None
    reason = cat.write_failure(exc)
    if reason is not None:
        return cat.write_error(root, reason, kept)
    text = str(exc)
    return StoreError(text.splitlines()[0] if text else type(exc).__name__)


def _unreadable(
    root: Path, part: Path, exc: Exception, con: duckdb.DuckDBPyConnection, what: str
) -> StoreError:
    """A part of the store at ``root`` that DuckDB could not read, named with the fix
    (as ``query`` names it, analyzer.runs.store_read): checked fully, the damage found,
    or DuckDB's own words. ``what``: what was not done."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    try:
        src = cat.connect(root / DB_NAME, read_only=True)
        try:
            damaged = guard.find_damage(src, con, root, None)
        finally:
            src.close()
    except (StoreError, OSError, sqlite3.Error, sp.error()):
        damaged = []
    if damaged:
        return StoreError(f"{root}: {what}: {guard.damage_message(root, damaged)}")
    return StoreError(
        f"{root}: {what}: {part}: {text}; if a part of the store is damaged, run "
        f"`mjaudit compact --repair --store {root}`"
    )


def _merge_one(target: Store, root: Path) -> tuple[int, int]:
    src = cat.connect(root / DB_NAME, read_only=True)

    def read(sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        try:  # the shard's catalog, not the target's
            rows: list[tuple[object, ...]] = src.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise cat.catalog_error(root / DB_NAME, exc) from None
        return rows

    try:
        parts = read("SELECT part, audit_version FROM parts ORDER BY 2, 1")
        added = 0
        con = sp.connect()
        try:
            for part, version in parts:
                members = {
                    int(str(g)): str(sha)
                    for g, sha in read(
                        "SELECT game, sha256 FROM contents WHERE audit_version = ? AND part = ?",
                        (version, part),
                    )
                }
                fresh = cat.fresh(target._conn, str(version), members)
                if not fresh:
                    continue
                name = cat.part_id(members[g] for g in fresh)
                keep = None if fresh == set(members) else sorted(fresh)
                dest = {t: sp.part_file(target.root, str(version), t, name) for t in sp.TABLES}
                for t in sp.TABLES:
                    source = sp.part_file(root, str(version), t, str(part))
                    try:
                        sp.copy_part(con, source, dest[t], keep)
                    except sp.error() as exc:
                        if sp.is_interrupt(exc) or cat.write_failure(exc) is not None:
                            raise
                        raise _unreadable(root, source, exc, con, "not merged whole") from None
                counts = dict.fromkeys(sp.TABLES, 0)
                for t, f in dest.items():
                    counts[t] = sp.count_rows(con, f)
                cat.register(target._conn, str(version), name,
                             [(g, members[g]) for g in sorted(fresh)], counts, [],
                             _sums(dest))  # fmt: skip
                added += len(fresh)
        finally:
            con.close()
        rows = read("SELECT * FROM inputs")
        cat.register(target._conn, cat.AUDIT_VERSION, None, [], {}, rows)
        return added, len(rows)
    finally:
        src.close()


def compact(
    root: str | os.PathLike[str],
    part_games: int = 20 * PART_GAMES,
    *,
    repair: bool = False,
    lock_wait: float = guard.LOCK_WAIT,
) -> dict[str, int]:
    """Rewrite the current version's small parts as fewer, larger ones (``mjaudit compact``).

    The new parts are registered before the old files are removed; a query that
    started before the switch and is still reading an old file may fail.

    The current version's parts are checked fully first (the checksum of each file,
    the row counts in its footer). A damaged part is a :class:`StoreError` naming it
    and the fix; with ``repair``, damaged parts are dropped from the catalog with
    their files, and the inputs whose games they held are forgotten, so the next
    ``audit --store`` audits them again.
    """
    _existing(root)  # a mistyped folder is not made a store to compact
    store = Store(root, check=not repair, lock_wait=lock_wait, kept=_COMPACTED_KEPT)
    dropped: list[guard.Damage] = []
    forgotten = 0
    try:
        conn = store._conn
        con = sp.connect()
        try:
            if repair:
                dropped, forgotten = guard.repair(conn, con, store.root, cat.AUDIT_VERSION)
            else:
                damaged = guard.find_damage(conn, con, store.root, cat.AUDIT_VERSION)
                if damaged:
                    raise StoreError(guard.damage_message(store.root, damaged))
        finally:
            con.close()
        small = conn.execute(
            "SELECT part, games FROM parts WHERE audit_version = ? AND games < ? ORDER BY part",
            (cat.AUDIT_VERSION, part_games // 2),
        ).fetchall()
        groups: list[list[str]] = []
        size = part_games
        for part, n in small:
            if size + int(n) > part_games:
                groups.append([])
                size = 0
            groups[-1].append(str(part))
            size += int(n)
        groups = [g for g in groups if len(g) > 1]
        con = sp.connect()
        try:
            for group in groups:
                try:
                    _compact_group(store, con, group)
                except sp.error() as exc:
                    if sp.is_interrupt(exc) or cat.write_failure(exc) is not None:
                        raise
                    where = store.root / f"v{cat.AUDIT_VERSION}"
                    raise _unreadable(store.root, where, exc, con, "not compacted") from None
        finally:
            con.close()
    except sp.error() as exc:
        raise _duckdb_error(store.root, exc, _COMPACTED_KEPT) from None
    except sqlite3.DatabaseError as exc:
        raise cat.catalog_error(store.path, exc, _COMPACTED_KEPT) from None
    except OSError as exc:
        raise _os_error(store.root, exc, _COMPACTED_KEPT) from None
    finally:
        store.close()
    done = {"parts_before": sum(len(g) for g in groups), "parts_after": len(groups)}
    if repair:
        done |= {
            "damaged_parts": len(dropped),
            "games_dropped": sum(d.games for d in dropped),
            "inputs_forgotten": forgotten,
        }
    return done


def _compact_group(store: Store, con: duckdb.DuckDBPyConnection, group: list[str]) -> None:
    conn, v = store._conn, cat.AUDIT_VERSION
    marks = ", ".join("?" * len(group))
    games = conn.execute(
        f"SELECT sha256 FROM contents WHERE audit_version = ? AND part IN ({marks})", (v, *group)
    ).fetchall()
    name = cat.part_id(str(s) for (s,) in games)
    counts = dict.fromkeys(sp.TABLES, 0)
    dest = {t: sp.part_file(store.root, v, t, name) for t in sp.TABLES}
    for t in sp.TABLES:
        files = ", ".join(sp.sql_str(str(sp.part_file(store.root, v, t, p))) for p in group)
        sp.copy_part_select(con, f"SELECT * FROM read_parquet([{files}])", dest[t])
        counts[t] = sp.count_rows(con, dest[t])
    sums = _sums(dest)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            "INSERT OR REPLACE INTO parts VALUES (?, ?, ?, ?, ?, ?)",
            (name, v, counts["games"], counts["hands"], counts["findings"],
             time.strftime("%Y-%m-%dT%H:%M:%S")),
        )  # fmt: skip
        conn.execute(
            f"UPDATE contents SET part = ? WHERE audit_version = ? AND part IN ({marks})",
            (name, v, *group),
        )
        for table in ("parts", "part_files"):
            conn.execute(
                f"DELETE FROM {table} WHERE audit_version = ? AND part IN ({marks})", (v, *group)
            )
        conn.executemany(
            "INSERT OR REPLACE INTO part_files VALUES (?, ?, ?, ?, ?)",
            [(v, name, t, size, sha) for t, size, sha in sums],
        )
        conn.execute("COMMIT")
    except BaseException:
        cat.rollback(conn)
        raise
    for p in group:
        for t in sp.TABLES:
            sp.part_file(store.root, v, t, p).unlink(missing_ok=True)
