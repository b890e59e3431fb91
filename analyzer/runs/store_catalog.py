"""The results store's catalog (``catalog.sqlite``) and the rows a worker builds.

See :mod:`analyzer.runs.store` for the layout. This module is what workers need:
the rows of one audited game, and whether the store already holds a content.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import sqlite3
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from analyzer.checks.audit import AUDIT_VERSION, FileAudit
from mjaudit.errors import WRITE_ERRNOS
from mjaudit.events import GameLog, seat_name
from mjaudit.findings import JsonValue

__all__ = [
    "AUDITED_KEPT",
    "AUDIT_VERSION",
    "CATALOG_TABLES",
    "DB_NAME",
    "GameRows",
    "InputRecord",
    "StoreError",
    "catalog_error",
    "connect",
    "fresh",
    "game_key",
    "game_rows",
    "input_row",
    "known_content",
    "not_a_store",
    "part_id",
    "register",
    "rollback",
    "storable",
    "write_error",
    "write_failure",
]

DB_NAME = "catalog.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs(
  key TEXT PRIMARY KEY, name TEXT, sha256 TEXT, audit_version TEXT,
  status TEXT, error TEXT, game INTEGER);
CREATE TABLE IF NOT EXISTS contents(
  audit_version TEXT, game INTEGER, sha256 TEXT, part TEXT,
  PRIMARY KEY (audit_version, game)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS parts(
  part TEXT, audit_version TEXT, games INTEGER, hands INTEGER, findings INTEGER,
  created TEXT, PRIMARY KEY (audit_version, part));
CREATE TABLE IF NOT EXISTS runs(
  started TEXT, audit_version TEXT, audited INTEGER, skipped INTEGER, failed INTEGER);
CREATE TABLE IF NOT EXISTS part_files(
  audit_version TEXT, part TEXT, tbl TEXT, size INTEGER, sha256 TEXT,
  PRIMARY KEY (audit_version, part, tbl)) WITHOUT ROWID;
"""

# The catalog's tables as ``query`` shows them (loaded into DuckDB when named).
CATALOG_TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "inputs": (
        ("key", "VARCHAR"), ("name", "VARCHAR"), ("sha256", "VARCHAR"),
        ("audit_version", "VARCHAR"), ("status", "VARCHAR"), ("error", "VARCHAR"),
        ("game", "BIGINT"),
    ),
    "runs": (
        ("started", "VARCHAR"), ("audit_version", "VARCHAR"), ("audited", "BIGINT"),
        ("skipped", "BIGINT"), ("failed", "BIGINT"),
    ),
    "parts": (
        ("part", "VARCHAR"), ("audit_version", "VARCHAR"), ("games", "BIGINT"),
        ("hands", "BIGINT"), ("findings", "BIGINT"), ("created", "VARCHAR"),
    ),
    "part_files": (
        ("audit_version", "VARCHAR"), ("part", "VARCHAR"), ("tbl", "VARCHAR"),
        ("size", "BIGINT"), ("sha256", "VARCHAR"),
    ),
}  # fmt: skip


class StoreError(Exception):
    """A store that cannot be read, or a query it cannot run."""


@dataclass(frozen=True, slots=True)
class GameRows:
    """The store's rows for one audited game (built in the worker)."""

    game: tuple[object, ...]
    hands: tuple[tuple[object, ...], ...]
    findings: tuple[tuple[object, ...], ...]


def game_key(sha256_hex: str) -> int:
    """A game's key: the first 8 bytes of its content hash as a signed 64-bit int."""
    return int.from_bytes(bytes.fromhex(sha256_hex[:16]), "big", signed=True)


def game_rows(log: GameLog, audit: FileAudit, sha256_hex: str) -> GameRows:
    """Per-game, per-hand and per-finding rows, from the audit's records: each hand's
    claims as the log records them, beside what the audit derived."""
    g = game_key(sha256_hex)
    hint = log.start.rules_hint
    players = hint.players
    names = [seat_name(log.start.players, s) for s in range(4)]  # as the reports name them
    hands: list[tuple[object, ...]] = []
    for hand_no, h in enumerate(audit.hands):
        for seat in range(players):
            won = next((w for w in h.wins if w.seat == seat), None)
            dealt_in = any(not w.tsumo and w.from_seat == seat for w in h.wins)
            hands.append((
                g, hand_no, h.label, seat, names[seat], int(seat == h.dealer),
                h.scores_before[seat] if seat < len(h.scores_before) else None,
                h.deltas[seat] if h.deltas is not None else None,  # none recorded
                int(seat in h.riichi), int(won is not None), int(dealt_in),
                won.han if won else None, won.fu if won else None,
                won.points if won else None, h.result,
                h.derived_deltas[seat] if h.derived_deltas is not None else None,
                won.derived_han if won else None, won.derived_fu if won else None,
                won.derived_points if won else None,
            ))  # fmt: skip
    by_sev = {"error": 0, "warning": 0, "info": 0}
    findings: list[tuple[object, ...]] = []
    for n, f in enumerate(audit.findings):
        by_sev[f.severity.value] += 1
        findings.append((
            g, f.code, f.severity.value, f.round, f.event, f.seat, f.message,
            _json(f.expected), _json(f.actual), f.source, n, f.cause,
        ))  # fmt: skip
    hanchan = None if hint.hanchan is None else int(hint.hanchan)
    game = (
        g, sha256_hex, AUDIT_VERSION, audit.path, audit.format, audit.game_id, audit.rules,
        players, hanchan, audit.rounds, audit.wins, audit.draws,
        by_sev["error"], by_sev["warning"], by_sev["info"],
    )  # fmt: skip
    return GameRows(game, tuple(hands), tuple(findings))


def _json(value: JsonValue) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def not_a_store(root: str | os.PathLike[str]) -> str:
    """What every command says of a folder with no catalog where a store was asked for."""
    return f"{Path(root)}: not a results store (no {DB_NAME})"


def connect(
    path: Path, read_only: bool = False, new_ok: bool = True, kept: str | None = None
) -> sqlite3.Connection:
    """The catalog; a file that is not a readable catalog is a :class:`StoreError`.

    A writer creates the tables of a new catalog; with ``new_ok`` false (the store
    already holds part files) a catalog without them is lost, not new. A writer that
    cannot write it (a full disk) is told so, with ``kept`` (:func:`write_error`).
    """
    if read_only and not path.exists():
        raise FileNotFoundError(not_a_store(path.parent))
    try:
        if read_only:
            conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=30)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        else:
            conn = sqlite3.connect(path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            names = {str(n) for (n,) in conn.execute("SELECT name FROM sqlite_master")}
            if "inputs" not in names and names:
                conn.close()
                raise StoreError(
                    f"{path}: not a store catalog (it holds other tables: "
                    f"{', '.join(sorted(names)[:3])}); give --store a folder of its own"
                )
            if "inputs" not in names and not new_ok:
                conn.close()
                raise StoreError(
                    f"{path}: the catalog is missing or empty, but the store holds part files: "
                    f"restore it from a backup, or move the store aside and audit again into a "
                    f"new one"
                )
            conn.executescript(_SCHEMA)
        for name in ("inputs", "contents", "parts"):
            conn.execute(f"SELECT 1 FROM {name} LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        raise catalog_error(path, exc, None if read_only else (kept or AUDITED_KEPT)) from None
    return conn


def catalog_error(path: Path, exc: sqlite3.Error, kept: str | None = None) -> StoreError:
    """A damaged or foreign catalog, as one line with what to do.

    For a writer (``kept``: what a failed write leaves, see :func:`write_error`), a
    catalog that could not be written (a full disk, an I/O error) is no damaged one:
    advising to move the store aside would throw a good store away.
    """
    if kept is not None and (reason := write_failure(exc)) is not None:
        return write_error(path.parent, reason, kept)
    return StoreError(
        f"{path}: not a readable store catalog ({exc}); restore it from a backup, or move "
        f"the store aside and audit again into a new one"
    )


# What ``audit --store`` leaves when it cannot write: every part and input
# registered before is whole (one transaction each); those in flight are dropped and
# audited again by the next run.
AUDITED_KEPT = "what was audited before is kept, and the next run goes on from there"


def write_error(root: Path, reason: str, kept: str = AUDITED_KEPT) -> StoreError:
    """A store that could not be written (``reason``: a full disk, an I/O error), and
    what that left (``kept``)."""
    return StoreError(f"{root}: cannot write the store: {reason}; {kept}")


# A full disk, a quota, a file grown too large, a device that failed, a read-only
# file system (mjaudit.errors.WRITE_ERRNOS, and EROFS).
_WRITE_ERRNOS = WRITE_ERRNOS | {errno.EROFS}
_SQLITE_IOERR = 10  # sqlite3.SQLITE_IOERR; the extended codes keep it in the low byte
_SQLITE_FULL = 13
_SQLITE_READONLY = 8
_DUCKDB_ERRNO = re.compile(r'"errno"\s*:\s*"?(\d+)')


def write_failure(exc: BaseException) -> str | None:
    """Why the store could not be written, when ``exc`` says it could not (else None).

    - an OSError (the disk is full, a quota, an I/O error, ...): its ``strerror``;
    - SQLite's SQLITE_FULL ("database or disk is full"), SQLITE_IOERR ("disk I/O
      error") and SQLITE_READONLY. SQLite rolls the transaction back by itself after
      the first two, so a ROLLBACK that follows says "cannot rollback - no transaction
      is active": the failure it follows is the one to tell;
    - DuckDB's IOException that carries one of the errnos above (a part file it could
      not write).

    Anything else (a catalog that is no database, a malformed page, a part DuckDB
    cannot read) is damage, or a bug, and gets its own message.
    """
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    if isinstance(exc, sqlite3.Error):
        code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
        if code == _SQLITE_FULL:
            return os.strerror(errno.ENOSPC)
        if code in (_SQLITE_IOERR, _SQLITE_READONLY):
            return str(exc)
        if "cannot rollback" in str(exc) and exc.__context__ is not None:
            return write_failure(exc.__context__)
        return None
    duckdb = sys.modules.get("duckdb")
    if duckdb is not None and isinstance(exc, duckdb.IOException):
        text = str(exc)
        found = _DUCKDB_ERRNO.search(text)
        if found is not None and int(found.group(1)) in _WRITE_ERRNOS:
            return os.strerror(int(found.group(1)))
        for number in _WRITE_ERRNOS:
            if os.strerror(number) in text:
                return os.strerror(number)
    return None


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already (it does by itself
    after a full disk or an I/O error): the error that caused it is the one raised."""
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


@dataclass(frozen=True, slots=True)
class InputRecord:
    """What a worker found out about one input, for the ``inputs`` table."""

    key: str
    name: str
    sha256: str | None
    status: str
    error: str | None
    rows: GameRows | None


def storable(text: str) -> str:
    """``text`` as SQLite can hold it: a lone surrogate (an undecodable byte of a file
    name, kept by Python as U+DC80..U+DCFF) written as ``\\udcff``, as the part
    files' CSV stage writes it (store_parts.CsvStage). The same name gives the same
    text, so a re-run finds what it stored."""
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def input_row(r: InputRecord, version: str) -> tuple[object, ...]:
    game = game_key(r.sha256) if r.sha256 and r.status in ("ok", "known") else None
    key = storable(r.key or f"!{r.name}")
    error = storable(r.error) if r.error is not None else None
    return (key, storable(r.name), r.sha256, version, r.status, error, game)


def part_id(games: Iterable[str]) -> str:
    return "part-" + hashlib.sha256("\n".join(sorted(games)).encode()).hexdigest()[:24]


def register(
    conn: sqlite3.Connection,
    version: str,
    part: str | None,
    games: Sequence[tuple[int, str]],
    counts: dict[str, int],
    inputs: Sequence[tuple[object, ...]],
    files: Sequence[tuple[str, int, str]] = (),
) -> None:
    """One transaction: a part (if any), its games, its files (table, size, SHA-256),
    and the inputs now done."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if part is not None:
            conn.execute(
                "INSERT OR REPLACE INTO parts VALUES (?, ?, ?, ?, ?, ?)",
                (part, version, counts["games"], counts["hands"], counts["findings"],
                 time.strftime("%Y-%m-%dT%H:%M:%S")),
            )  # fmt: skip
            conn.executemany(
                "INSERT OR IGNORE INTO contents VALUES (?, ?, ?, ?)",
                [(version, g, sha, part) for g, sha in games],
            )
        conn.executemany(
            "INSERT OR REPLACE INTO part_files VALUES (?, ?, ?, ?, ?)",
            [(version, part, t, size, sha) for t, size, sha in files],
        )
        conn.executemany("INSERT OR REPLACE INTO inputs VALUES (?, ?, ?, ?, ?, ?, ?)", inputs)
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise


def fresh(conn: sqlite3.Connection, version: str, games: Iterable[int]) -> set[int]:
    """Those of ``games`` the store does not hold at ``version``."""
    out: set[int] = set()
    for g in games:
        row = conn.execute(
            "SELECT 1 FROM contents WHERE audit_version = ? AND game = ?", (version, g)
        ).fetchone()
        if row is None:
            out.add(g)
    return out


def known_content(root: str, sha256_hex: str) -> bool:
    """Whether the store at ``root`` holds this content at this AUDIT_VERSION (for workers)."""
    conn = _reader(root)
    row = conn.execute(
        "SELECT 1 FROM contents WHERE audit_version = ? AND game = ? AND sha256 = ?",
        (AUDIT_VERSION, game_key(sha256_hex), sha256_hex),
    ).fetchone()
    return row is not None


_readers: dict[tuple[int, str], sqlite3.Connection] = {}


def _reader(root: str) -> sqlite3.Connection:
    """One read-only connection per process and store (never shared across a fork)."""
    k = (os.getpid(), root)
    conn = _readers.get(k)
    if conn is None:
        conn = _readers[k] = connect(Path(root) / DB_NAME, read_only=True)
    return conn
