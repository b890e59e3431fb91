"""Reading a results store: ``stats`` and ``query`` (docs/scale.md).

Readers take no lock: they read the catalog read-only (SQLite's WAL lets them read
during a write) and the registered part files, which never change. Every part is
checked cheaply before it is read, and a part DuckDB cannot read is checked fully
and named, with the fix (:mod:`analyzer.runs.store_guard`). ``query`` runs one
statement that :mod:`analyzer.runs.store_query` accepts, on a DuckDB that can read
nothing but the store's part folder.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.runs import store_catalog as cat
from analyzer.runs import store_guard as guard
from analyzer.runs import store_parts as sp
from analyzer.runs.store_catalog import DB_NAME, StoreError
from analyzer.runs.store_query import check_statement, lock_down
from mjaudit.findings import Finding, JsonValue, Severity

if TYPE_CHECKING:
    import duckdb

    from analyzer.checks.audit import FileAudit

__all__ = ["query", "stats", "stats_text", "stored_audits"]


def _store_db(root: str | os.PathLike[str]) -> Path:
    return Path(root) / DB_NAME


def _open(
    root: str | os.PathLike[str], tables: Iterable[str]
) -> tuple[sqlite3.Connection, duckdb.DuckDBPyConnection]:
    """The catalog (read-only) and a DuckDB with views over the current version's parts.

    The part list is read once, so a query sees the parts registered when it began.
    Every part is checked cheaply first; a missing or damaged one is a
    :class:`StoreError` naming it and the fix. (A part a ``compact`` replaced while
    the list was read is gone without being damaged: the list is read again.)
    """
    path = _store_db(root)
    base = path.parent.resolve()
    for attempt in range(3):
        conn = cat.connect(path, read_only=True)
        try:
            parts = [
                str(p) for (p,) in conn.execute(
                    "SELECT part FROM parts WHERE audit_version = ? ORDER BY part",
                    (cat.AUDIT_VERSION,),
                )
            ]  # fmt: skip
            damaged = guard.check_parts(conn, base, cat.AUDIT_VERSION)
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise cat.catalog_error(path, exc) from None
        if not damaged:
            break
        conn.close()
        if attempt == 2:
            raise StoreError(guard.damage_message(Path(root), damaged))
        time.sleep(0.1)
    con = sp.connect()
    try:  # a view reads each file's footer
        sp.define_views(
            con, {t: [sp.part_file(base, cat.AUDIT_VERSION, t, p) for p in parts] for t in tables}
        )
    except sp.error() as exc:
        conn.close()
        con.close()
        raise _read_error(root, exc) from None
    return conn, con


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def query(root: str | os.PathLike[str], sql: str) -> tuple[list[str], Iterator[tuple[object, ...]]]:
    """Run one read-only statement (DuckDB SQL) over a store: column names and a row iterator.

    ``games``, ``hands`` and ``findings`` are the current version's Parquet parts;
    ``inputs``, ``runs``, ``parts`` and ``part_files`` are copied from the catalog
    when the SQL names them. Only a SELECT or a plain EXPLAIN of one runs, on a
    DuckDB that can read nothing but the store's part files
    (:mod:`analyzer.runs.store_query`); anything else is a :class:`StoreError`.
    """
    conn, con = _open(root, sp.TABLES)
    try:
        select = check_statement(con, sql)
        words = {w.lower() for w in _WORD.findall(sql)}
        with tempfile.TemporaryDirectory(prefix="mjaudit-query-") as tmp:
            for name, cols in cat.CATALOG_TABLES.items():
                if name in words:
                    names = ", ".join(n for n, _ in cols)
                    try:
                        rows = conn.execute(f"SELECT {names} FROM {name}")
                    except sqlite3.OperationalError:  # a store older than the table
                        rows = conn.execute("SELECT 1 WHERE 0")
                    sp.load_rows(con, name, cols, rows, Path(tmp))
        lock_down(con, _store_db(root).parent.resolve() / f"v{cat.AUDIT_VERSION}")
        cur = con.execute(select)
        columns = [d[0] for d in cur.description or ()]
    except sp.error() as exc:
        con.close()
        raise _read_error(root, exc) from None
    except sqlite3.DatabaseError as exc:
        con.close()
        raise cat.catalog_error(_store_db(root), exc) from None
    except BaseException:
        con.close()
        raise
    finally:
        conn.close()
    return columns, _rows(root, con)


def _read_error(root: str | os.PathLike[str], exc: Exception) -> StoreError:
    """DuckDB's error as one line; a part it could not read is checked fully and named.
    Ctrl-C while DuckDB ran a statement is raised as the KeyboardInterrupt it is."""
    import duckdb

    if sp.is_interrupt(exc):
        raise KeyboardInterrupt from None

    text = str(exc)
    folder = str(_store_db(root).parent.resolve() / f"v{cat.AUDIT_VERSION}")
    reading = (duckdb.IOException, duckdb.InvalidInputException, duckdb.InternalException,
               duckdb.SerializationException)  # fmt: skip
    if folder in text or type(exc) is duckdb.Error or isinstance(exc, reading):
        try:
            conn = cat.connect(_store_db(root), read_only=True)
            con = sp.connect()
            try:  # the checksums, and the footers of the parts that have none recorded
                damaged = guard.find_damage(conn, con, Path(folder).parent, cat.AUDIT_VERSION)
            finally:
                con.close()
                conn.close()
        except (StoreError, OSError, sqlite3.Error, duckdb.Error):
            damaged = []
        if damaged:
            return StoreError(guard.damage_message(Path(root), damaged))
        return StoreError(
            f"{text.splitlines()[0]}; if a part of the store is damaged, run "
            f"`mjaudit compact --repair --store {root}`"
        )
    return StoreError(text.splitlines()[0] if text else type(exc).__name__)


def _rows(
    root: str | os.PathLike[str], con: duckdb.DuckDBPyConnection
) -> Iterator[tuple[object, ...]]:
    try:
        while chunk := con.fetchmany(4096):
            yield from chunk
    except sp.error() as exc:
        raise _read_error(root, exc) from None
    finally:
        con.close()


def stats(root: str | os.PathLike[str]) -> dict[str, JsonValue]:
    """What a store holds: inputs by status, games, hands, findings by severity and code."""
    conn, con = _open(root, ("games", "findings"))
    try:
        by_status = dict(conn.execute("SELECT status, count(*) FROM inputs GROUP BY 1 ORDER BY 1"))
        failed = conn.execute(
            "SELECT name, status, error FROM inputs WHERE status IN ('error', 'timeout', "
            "'crashed') ORDER BY name LIMIT 20"
        ).fetchall()
        versions = conn.execute("SELECT count(DISTINCT audit_version) FROM contents").fetchone()
        g = con.execute(
            "SELECT count(*), coalesce(sum(rounds), 0), coalesce(sum(wins), 0), "
            "coalesce(sum(draws), 0), coalesce(sum(errors), 0), coalesce(sum(warnings), 0), "
            "coalesce(sum(infos), 0) FROM games"
        ).fetchall()[0]
        by_players = dict(con.execute("SELECT players, count(*) FROM games GROUP BY 1 ORDER BY 1")
                          .fetchall())  # fmt: skip
        codes = con.execute(
            "SELECT code, severity, count(*) FROM findings GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2"
        ).fetchall()
    except sp.error() as exc:
        raise _read_error(root, exc) from None
    except sqlite3.DatabaseError as exc:
        raise cat.catalog_error(_store_db(root), exc) from None
    finally:
        conn.close()
        con.close()
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
        "audit_versions": int(versions[0]) if versions else 0,
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
        # On one line whatever the name holds (a line break would forge a line).
        lines.append(" ".join(f"  {x['status']}: {x['input']}: {x['error']}".splitlines()))
    return "\n".join(lines)


def stored_audits(root: str | os.PathLike[str], keys: Collection[str]) -> list[FileAudit]:
    """The audits a store holds for the inputs ``keys`` (those a re-run skipped, or
    whose content it held under another name), rebuilt from its ``games`` and
    ``findings`` tables, in the order of ``keys``, each under the input's own name.

    What the tables do not keep stays empty: the checks' counts. The rows asked for
    are picked in the query, not after it.
    """
    from analyzer.checks.audit import FileAudit

    # Keyed as the catalog holds them (a file name's undecodable bytes written out).
    wanted = {k: n for n, k in enumerate(dict.fromkeys(map(cat.storable, keys)))}
    if not wanted:
        return []
    listed = ", ".join(sp.sql_str(k) for k in wanted)
    _, rows = query(
        root,
        "SELECT i.key, g.game, i.name, g.format, g.game_id, g.rules, g.rounds, g.wins, "
        f"g.draws FROM inputs i JOIN games g ON g.sha256 = i.sha256 WHERE i.key IN ({listed})",
    )
    heads: dict[str, tuple[object, ...]] = {}
    games: dict[object, list[str]] = {}
    for row in rows:
        key = str(row[0])
        if key not in heads:
            heads[key] = row
            games.setdefault(row[1], []).append(key)
    found: dict[object, list[Finding]] = {g: [] for g in games}
    if games:
        ids = ", ".join(str(int(str(g))) for g in games)
        _, rows = query(
            root,
            "SELECT game, code, severity, round, event, seat, message, expected, actual, "
            f"source, cause FROM findings WHERE game IN ({ids}) ORDER BY game, finding",
        )
        for (
            game,
            code,
            severity,
            rnd,
            event,
            seat,
            message,
            expected,
            actual,
            source,
            cause,
        ) in rows:
            found[game].append(
                Finding(
                    str(code),
                    Severity(str(severity)),
                    str(message),
                    "",
                    None if rnd is None else str(rnd),
                    None if event is None else int(str(event)),
                    None if seat is None else int(str(seat)),
                    _stored_value(expected),
                    _stored_value(actual),
                    cause=None if cause is None else int(str(cause)),
                    source=None if source is None else str(source),
                )
            )
    out: list[FileAudit] = []
    for key in sorted(heads, key=wanted.__getitem__):
        _, game, path, fmt, game_id, rules, rounds, wins, draws = heads[key]
        name = str(path)
        findings = tuple(
            Finding(
                f.code, f.severity, f.message, name, f.round, f.event, f.seat,
                f.expected, f.actual, f.cause, f.source,
            )
            for f in found[game]
        )  # fmt: skip
        out.append(
            FileAudit(
                name,
                None if fmt is None else str(fmt),
                None if game_id is None else str(game_id),
                None if rules is None else str(rules),
                int(str(rounds or 0)),
                int(str(wins or 0)),
                int(str(draws or 0)),
                findings=findings,
            )
        )
    return out


def _stored_value(text: object) -> JsonValue:
    """A finding's expected or actual value as the store wrote it (JSON text)."""
    if text is None:
        return None
    try:
        value: JsonValue = json.loads(str(text))
    except ValueError:
        return str(text)
    return value
