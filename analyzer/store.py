"""The results store: audit once, query many times.

A store is a folder holding ``results.sqlite`` (stdlib SQLite in WAL mode, so
``stats`` and ``query`` can read it while an audit writes to it). It keeps:

- ``inputs``: every input seen, by its cheap key (no read needed to skip it), with
  the SHA-256 of its decompressed content, the audit version, a status (ok,
  error, timeout, crashed, filtered) and the game it holds;
- ``games``: one row per distinct game content, keyed by the first 8 bytes of
  its SHA-256 (so the same log in a folder, a zip and a database is one game, and
  shard stores merge without renumbering);
- ``hands``: one row per (game, hand, seat): who, dealer, score before, delta,
  riichi, won, dealt in, and for a win its han, fu and points as the log claims;
- ``findings``: one row per finding.

A re-run skips inputs whose cheap key is known for this AUDIT_VERSION, and a
worker skips auditing a content hash the store already holds. A new AUDIT_VERSION
re-audits and replaces a game's rows.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from analyzer.audit import AUDIT_VERSION, FileAudit
from mjaudit.events import GameLog, RiichiAccepted, RoundDraw, RoundStart, Win
from mjaudit.findings import JsonValue

__all__ = [
    "DB_NAME",
    "GameRows",
    "Store",
    "game_key",
    "game_rows",
    "merge",
    "query",
    "stats",
    "stats_text",
]

DB_NAME = "results.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs(
  key TEXT PRIMARY KEY, name TEXT, sha256 TEXT, audit_version TEXT,
  status TEXT, error TEXT, game INTEGER);
CREATE TABLE IF NOT EXISTS games(
  game INTEGER PRIMARY KEY, sha256 TEXT, audit_version TEXT, path TEXT, format TEXT,
  game_id TEXT, rules TEXT, players INTEGER, hanchan INTEGER, rounds INTEGER,
  wins INTEGER, draws INTEGER, errors INTEGER, warnings INTEGER, infos INTEGER);
CREATE TABLE IF NOT EXISTS hands(
  game INTEGER, hand INTEGER, round TEXT, seat INTEGER, player TEXT, dealer INTEGER,
  score_before INTEGER, delta INTEGER, riichi INTEGER, won INTEGER, dealt_in INTEGER,
  han INTEGER, fu INTEGER, points INTEGER, result TEXT);
CREATE INDEX IF NOT EXISTS hands_game ON hands(game);
CREATE TABLE IF NOT EXISTS findings(
  game INTEGER, code TEXT, severity TEXT, round TEXT, event INTEGER, seat INTEGER,
  message TEXT, expected TEXT, actual TEXT);
CREATE INDEX IF NOT EXISTS findings_game ON findings(game);
CREATE TABLE IF NOT EXISTS runs(
  started TEXT, audit_version TEXT, audited INTEGER, skipped INTEGER, failed INTEGER);
"""

_GAME_COLS = 15
_HAND_COLS = 15
_FINDING_COLS = 9


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
    """Per-game, per-hand and per-finding rows, from what the log claims."""
    g = game_key(sha256_hex)
    hint = log.start.rules_hint
    players = hint.players
    names = [p.name for p in log.start.players] + [""] * 4
    hands: list[tuple[object, ...]] = []
    start: RoundStart | None = None
    hand_no = -1
    riichi: set[int] = set()
    wins: list[Win] = []
    draw: RoundDraw | None = None

    def close() -> None:
        if start is None:
            return
        delta = [0] * players
        for w in wins:
            for s, d in enumerate(w.claims.deltas or ()):
                if s < players:
                    delta[s] += d
        if draw is not None:
            for s, d in enumerate(draw.claims.deltas or ()):
                if s < players:
                    delta[s] += d
        result = "win" if wins else "draw" if draw is not None else None
        for seat in range(players):
            won = next((w for w in wins if w.seat == seat), None)
            dealt_in = any(not w.tsumo and w.from_seat == seat for w in wins)
            score = start.scores[seat] if seat < len(start.scores) else None
            hands.append((
                g, hand_no, start.label, seat, names[seat], int(seat == start.dealer),
                score, delta[seat], int(seat in riichi), int(won is not None), int(dealt_in),
                won.claims.han if won else None, won.claims.fu if won else None,
                won.claims.points if won else None, result,
            ))  # fmt: skip

    for ev in log.events:
        if isinstance(ev, RoundStart):
            close()
            start, hand_no, draw = ev, hand_no + 1, None
            riichi, wins = set(), []
        elif isinstance(ev, RiichiAccepted):
            riichi.add(ev.seat)
        elif isinstance(ev, Win):
            wins.append(ev)
        elif isinstance(ev, RoundDraw):
            draw = ev
    close()
    by_sev = {"error": 0, "warning": 0, "info": 0}
    findings: list[tuple[object, ...]] = []
    for f in audit.findings:
        by_sev[f.severity.value] += 1
        findings.append((
            g, f.code, f.severity.value, f.round, f.event, f.seat, f.message,
            _json(f.expected), _json(f.actual),
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


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    if read_only:
        if not path.exists():
            raise FileNotFoundError(f"{path.parent}: not a results store (no {path.name})")
        conn = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True, timeout=30)
    else:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(_SCHEMA)
    return conn


@dataclass(frozen=True, slots=True)
class InputRecord:
    """What a worker found out about one input, for the ``inputs`` table."""

    key: str
    name: str
    sha256: str | None
    status: str
    error: str | None
    rows: GameRows | None


class Store:
    """A results store opened for writing by one driver process."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.path = self.root / DB_NAME
        self._conn = _connect(self.path)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._conn.close()

    def seen(self, key: str) -> bool:
        """Whether an input with this cheap key was audited at this AUDIT_VERSION.

        Inputs left out by a game selection, and those that timed out or crashed
        their worker (which may depend on the machine), are tried again.
        """
        if not key:
            return False
        row = self._conn.execute(
            "SELECT 1 FROM inputs WHERE key = ? AND audit_version = ? "
            "AND status IN ('ok', 'known', 'error')",
            (key, AUDIT_VERSION),
        ).fetchone()
        return row is not None

    def add(self, records: Sequence[InputRecord]) -> None:
        """Record one batch in one transaction."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            _write_games(conn, [r.rows for r in records if r.rows is not None])
            _write_inputs(conn, records)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def ingest_part(self, part: str | os.PathLike[str]) -> None:
        """Copy a worker's part file into the store, then remove it."""
        merge_into(self._conn, Path(part))
        os.remove(part)

    def record_run(self, started: str, audited: int, skipped: int, failed: int) -> None:
        self._conn.execute(
            "INSERT INTO runs VALUES (?, ?, ?, ?, ?)",
            (started, AUDIT_VERSION, audited, skipped, failed),
        )


def _write_games(conn: sqlite3.Connection, rows: Iterable[GameRows]) -> None:
    for r in rows:
        g = r.game[0]
        # A game audited at another version is replaced; at this version it is kept.
        old = conn.execute("SELECT audit_version FROM games WHERE game = ?", (g,)).fetchone()
        if old is not None and old[0] == AUDIT_VERSION:
            continue
        if old is not None:
            for table in ("games", "hands", "findings"):
                conn.execute(f"DELETE FROM {table} WHERE game = ?", (g,))
        conn.execute(f"INSERT INTO games VALUES ({_marks(_GAME_COLS)})", r.game)
        conn.executemany(f"INSERT INTO hands VALUES ({_marks(_HAND_COLS)})", r.hands)
        conn.executemany(f"INSERT INTO findings VALUES ({_marks(_FINDING_COLS)})", r.findings)


def _write_inputs(conn: sqlite3.Connection, records: Iterable[InputRecord]) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO inputs VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (
                r.key or f"!{r.name}",
                r.name,
                r.sha256,
                AUDIT_VERSION,
                r.status,
                r.error,
                game_key(r.sha256) if r.sha256 and r.status in ("ok", "known") else None,
            )
            for r in records
        ],
    )


def _marks(n: int) -> str:
    return ", ".join("?" * n)


def known_content(root: str, sha256_hex: str) -> bool:
    """Whether the store at ``root`` holds this content at this AUDIT_VERSION (for workers)."""
    conn = _reader(root)
    row = conn.execute(
        "SELECT 1 FROM games WHERE game = ? AND sha256 = ? AND audit_version = ?",
        (game_key(sha256_hex), sha256_hex, AUDIT_VERSION),
    ).fetchone()
    return row is not None


_readers: dict[tuple[int, str], sqlite3.Connection] = {}


def _reader(root: str) -> sqlite3.Connection:
    """One read-only connection per process and store (never shared across a fork)."""
    k = (os.getpid(), root)
    conn = _readers.get(k)
    if conn is None:
        conn = _readers[k] = _connect(Path(root) / DB_NAME, read_only=True)
    return conn


def write_part(path: Path, records: Sequence[InputRecord]) -> None:
    """Write a batch's rows to a part file of its own, atomically (tmp, then rename).

    Used by distributed workers, which write their results where the store is
    instead of sending them back; a retried batch rewrites the same file.
    """
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)
    conn = _connect(tmp)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")
        conn.execute("BEGIN")
        _write_games(conn, [r.rows for r in records if r.rows is not None])
        _write_inputs(conn, records)
        conn.execute("COMMIT")
    finally:
        conn.close()
    os.replace(tmp, path)


def merge_into(conn: sqlite3.Connection, source: Path) -> tuple[int, int]:
    """Copy another store's (or part's) rows in; games already present are kept.

    Returns (games added, inputs added or updated).
    """
    if not source.exists():
        raise FileNotFoundError(f"{source}: no such results store")
    conn.execute("ATTACH DATABASE ? AS src", (str(source),))
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "CREATE TEMP TABLE fresh AS SELECT game FROM src.games "
            "WHERE game NOT IN (SELECT game FROM main.games)"
        )
        added = conn.execute("SELECT count(*) FROM temp.fresh").fetchone()[0]
        for table in ("games", "hands", "findings"):
            conn.execute(
                f"INSERT INTO main.{table} SELECT * FROM src.{table} "
                "WHERE game IN (SELECT game FROM temp.fresh)"
            )
        before = conn.total_changes
        conn.execute("INSERT OR REPLACE INTO main.inputs SELECT * FROM src.inputs")
        inputs = conn.total_changes - before
        conn.execute("DROP TABLE temp.fresh")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.execute("DETACH DATABASE src")
    return int(added), inputs


def _store_db(root: str | os.PathLike[str]) -> Path:
    return Path(root) / DB_NAME


def merge(
    into: str | os.PathLike[str], sources: Sequence[str | os.PathLike[str]]
) -> dict[str, int]:
    """Join shard stores into one (``mjaudit merge``)."""
    target = Store(into)
    games = inputs = 0
    try:
        for src in sources:
            g, i = merge_into(target._conn, _store_db(src))
            games, inputs = games + g, inputs + i
    finally:
        target.close()
    return {"stores": len(sources), "games_added": games, "inputs": inputs}


def query(root: str | os.PathLike[str], sql: str) -> tuple[list[str], Iterator[tuple[object, ...]]]:
    """Run read-only SQL over a store: column names and a row iterator."""
    conn = _connect(_store_db(root), read_only=True)
    cur = conn.execute(sql)
    columns = [d[0] for d in cur.description or ()]
    return columns, iter(cur)


def stats(root: str | os.PathLike[str]) -> dict[str, JsonValue]:
    """What a store holds: inputs by status, games, hands, findings by severity and code."""
    conn = _connect(_store_db(root), read_only=True)
    try:
        by_status = dict(conn.execute("SELECT status, count(*) FROM inputs GROUP BY 1 ORDER BY 1"))
        g = conn.execute(
            "SELECT count(*), coalesce(sum(rounds), 0), coalesce(sum(wins), 0), "
            "coalesce(sum(draws), 0), coalesce(sum(errors), 0), coalesce(sum(warnings), 0), "
            "coalesce(sum(infos), 0), count(DISTINCT audit_version) FROM games"
        ).fetchone()
        by_players = dict(conn.execute("SELECT players, count(*) FROM games GROUP BY 1"))
        codes = conn.execute(
            "SELECT code, severity, count(*) FROM findings GROUP BY 1, 2 ORDER BY 3 DESC, 1"
        ).fetchall()
        failed = conn.execute(
            "SELECT name, status, error FROM inputs WHERE status IN ('error', 'timeout', "
            "'crashed') ORDER BY name LIMIT 20"
        ).fetchall()
    finally:
        conn.close()
    return {
        "schema": "mjaudit.stats/1",
        "inputs": {str(k): int(v) for k, v in by_status.items()},
        "games": int(g[0]),
        "games_by_players": {str(k): int(v) for k, v in by_players.items()},
        "rounds": int(g[1]),
        "wins": int(g[2]),
        "draws": int(g[3]),
        "findings": {"error": int(g[4]), "warning": int(g[5]), "info": int(g[6])},
        "codes": [{"code": c, "severity": s, "count": int(n)} for c, s, n in codes],
        "audit_versions": int(g[7]),
        "failed": [{"input": n, "status": s, "error": e} for n, s, e in failed],
    }


def stats_text(doc: dict[str, JsonValue]) -> str:
    """``mjaudit stats`` as a few lines of text."""
    f = doc["findings"]
    inputs = doc["inputs"]
    assert isinstance(f, dict) and isinstance(inputs, dict)
    lines = [
        "inputs: " + ", ".join(f"{n} {status}" for status, n in inputs.items()),
        f"{doc['games']} games, {doc['rounds']} rounds, {doc['wins']} wins, "
        f"{doc['draws']} draws: {f['error']} errors, {f['warning']} warnings, {f['info']} notes",
    ]
    codes = doc["codes"]
    assert isinstance(codes, list)
    for c in codes:
        assert isinstance(c, dict)
        lines.append(f"  {c['count']:>8}  {c['severity']:<7} {c['code']}")
    failed = doc["failed"]
    assert isinstance(failed, list)
    for x in failed:
        assert isinstance(x, dict)
        lines.append(f"  {x['status']}: {x['input']}: {x['error']}")
    return "\n".join(lines)
