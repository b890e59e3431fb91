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
    ) -> None:
        self.root = Path(root)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"{self.root}: cannot create the store: {exc.strerror}") from None
        self.path = self.root / DB_NAME
        self.run_dir = guard.run_dir(self.root.resolve())
        self._lock = guard.StoreLock(self.root, lock_wait, on_wait)
        try:
            new_ok = not any(self.root.glob("v*/*/part-*.parquet"))
            self._conn = cat.connect(self.path, new_ok=new_ok)
            try:
                with self._catalog():
                    guard.fill_checksums(self._conn, self.root)
                    guard.clean(self._conn, self.root)
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
        """A catalog that breaks while in use is a :class:`StoreError`, not a traceback."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise cat.catalog_error(self.path, exc) from None

    def close(self) -> None:
        if self._lock.fd is None:
            return
        try:
            with self._catalog():
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
        for r in records:
            rows = r.rows
            if rows is not None:
                g = int(str(rows.game[0]))
                with self._catalog():
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
            self.flush()

    def flush(self) -> None:
        """Write the staged rows as a part and record their inputs."""
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
        with self._catalog():
            cat.register(self._conn, cat.AUDIT_VERSION, part, list(self._games.items()),
                         counts, self._inputs, files)  # fmt: skip
        self._games, self._inputs = {}, []

    def ingest_part(self, part: str | os.PathLike[str]) -> None:
        """Register a part a worker wrote (its manifest, see :func:`write_part`)."""
        manifest = Path(part)
        doc = json.loads(manifest.read_text(encoding="utf-8"))
        version, name = str(doc["version"]), str(doc["part"])
        games = {int(g): str(sha) for g, sha in doc["games"]}
        with self._catalog():
            fresh = cat.fresh(self._conn, version, games)
        staged = {t: manifest.with_name(f"{name}.{t}.parquet") for t in sp.TABLES}
        registered: str | None = None
        files: list[tuple[str, int, str]] = []
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
                finally:
                    con.close()
            files = _sums(dest)
        counts = {t: int(doc["counts"][t]) for t in sp.TABLES}
        inputs = [tuple(row) for row in doc["inputs"]]
        with self._catalog():
            cat.register(self._conn, version, registered, [(g, games[g]) for g in sorted(fresh)],
                         counts, inputs, files)  # fmt: skip
        for p in staged.values():
            p.unlink(missing_ok=True)
        manifest.unlink()

    def record_run(self, started: str, audited: int, skipped: int, failed: int) -> None:
        self.flush()
        with self._catalog():
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
    :meth:`Store.ingest_part`. A retried batch rewrites the same files.
    """
    name = path.name.split(".")[0]
    stage = sp.CsvStage(path.parent, f".{name}.{os.getpid()}")
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
        stage.to_parquet(con, {t: path.with_name(f"{name}.{t}.parquet") for t in sp.TABLES})
    finally:
        con.close()
    doc = {
        "version": cat.AUDIT_VERSION,
        "part": name,
        "games": sorted(games.items()),
        "counts": counts,
        "inputs": [cat.input_row(r, cat.AUDIT_VERSION) for r in records],
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc), encoding="utf-8")
    os.replace(tmp, path)


# ---- merge and compact ----------------------------------------------------------


def merge(
    into: str | os.PathLike[str],
    sources: Sequence[str | os.PathLike[str]],
    *,
    lock_wait: float = guard.LOCK_WAIT,
) -> dict[str, int]:
    """Join shard stores into one (``mjaudit merge``); games already present are kept.

    A shard with a missing or damaged part is refused before anything is copied from it;
    a shard that is no store at all, before the target is made.
    """
    for src in sources:
        _existing(src)
    target = Store(into, lock_wait=lock_wait)
    games = inputs = 0
    try:
        for src in sources:
            g, i = _merge_one(target, Path(src))
            games, inputs = games + g, inputs + i
    except sp.error() as exc:
        if sp.is_interrupt(exc):  # Ctrl-C while DuckDB ran a statement
            raise KeyboardInterrupt from None
        raise StoreError(str(exc).splitlines()[0]) from exc
    except sqlite3.DatabaseError as exc:
        raise cat.catalog_error(target.path, exc) from None
    finally:
        target.close()
    return {"stores": len(sources), "games_added": games, "inputs": inputs}


def _existing(root: str | os.PathLike[str]) -> None:
    """StoreError unless ``root`` holds a store's catalog: for the commands that work on
    a store already made (``merge``'s shards, ``compact``), which `audit --store` makes."""
    if not (Path(root) / DB_NAME).is_file():
        raise StoreError(cat.not_a_store(root))


def _merge_one(target: Store, root: Path) -> tuple[int, int]:
    src = cat.connect(root / DB_NAME, read_only=True)
    try:
        try:
            damaged = guard.check_parts(src, root, None)
        except sqlite3.DatabaseError as exc:
            raise cat.catalog_error(root / DB_NAME, exc) from None
        if damaged:
            raise StoreError("not merged: " + guard.damage_message(root, damaged))
        parts = src.execute("SELECT part, audit_version FROM parts ORDER BY 2, 1").fetchall()
        added = 0
        con = sp.connect()
        try:
            for part, version in parts:
                members = dict(
                    src.execute(
                        "SELECT game, sha256 FROM contents WHERE audit_version = ? AND part = ?",
                        (version, part),
                    ).fetchall()
                )
                fresh = cat.fresh(target._conn, version, members)
                if not fresh:
                    continue
                name = cat.part_id(members[g] for g in fresh)
                keep = None if fresh == set(members) else sorted(fresh)
                for t in sp.TABLES:
                    sp.copy_part(con, sp.part_file(root, version, t, part),
                                 sp.part_file(target.root, version, t, name), keep)  # fmt: skip
                counts = dict.fromkeys(sp.TABLES, 0)
                dest = {t: sp.part_file(target.root, version, t, name) for t in sp.TABLES}
                for t, f in dest.items():
                    counts[t] = sp.count_rows(con, f)
                cat.register(target._conn, version, name, [(g, members[g]) for g in sorted(fresh)],
                             counts, [], _sums(dest))  # fmt: skip
                added += len(fresh)
        finally:
            con.close()
        rows = src.execute("SELECT * FROM inputs").fetchall()
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

    With ``repair``, the current version's parts are checked fully first; damaged
    ones are dropped from the catalog with their files, and the inputs whose games
    they held are forgotten, so the next ``audit --store`` audits them again.
    """
    _existing(root)  # a mistyped folder is not made a store to compact
    store = Store(root, check=not repair, lock_wait=lock_wait)
    dropped: list[guard.Damage] = []
    forgotten = 0
    try:
        conn = store._conn
        if repair:
            con = sp.connect()
            try:
                dropped, forgotten = guard.repair(conn, con, store.root, cat.AUDIT_VERSION)
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
                _compact_group(store, con, group)
        finally:
            con.close()
    except sp.error() as exc:
        if sp.is_interrupt(exc):  # Ctrl-C while DuckDB ran a statement
            raise KeyboardInterrupt from None
        raise StoreError(str(exc).splitlines()[0]) from exc
    except sqlite3.DatabaseError as exc:
        raise cat.catalog_error(store.path, exc) from None
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
        conn.execute("ROLLBACK")
        raise
    for p in group:
        for t in sp.TABLES:
            sp.part_file(store.root, v, t, p).unlink(missing_ok=True)
