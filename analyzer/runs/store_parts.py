"""Parquet part files of the results store, and DuckDB over them.

A part is one immutable Parquet file per table (``games``, ``hands``,
``findings``) under ``v{audit_version}/{table}/part-<id>.parquet``. Rows are
staged as CSV (no pyarrow needed), turned into Parquet by DuckDB's ``COPY``, and
written to a temporary name then renamed, so no reader sees half a file.

DuckDB runs in memory with extension auto-loading and auto-install turned off:
Parquet is built into the wheel, so nothing is downloaded at run time.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "TABLES",
    "CsvStage",
    "connect",
    "copy_part",
    "copy_part_select",
    "count_rows",
    "define_views",
    "empty_table",
    "error",
    "is_interrupt",
    "load_rows",
    "part_file",
    "sql_str",
    "write_csv_part",
]

Row = Sequence[object]

# Column names and DuckDB types of the three analytic tables.
TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "games": (
        ("game", "BIGINT"), ("sha256", "VARCHAR"), ("audit_version", "VARCHAR"),
        ("path", "VARCHAR"), ("format", "VARCHAR"), ("game_id", "VARCHAR"),
        ("rules", "VARCHAR"), ("players", "INTEGER"), ("hanchan", "INTEGER"),
        ("rounds", "INTEGER"), ("wins", "INTEGER"), ("draws", "INTEGER"),
        ("errors", "INTEGER"), ("warnings", "INTEGER"), ("infos", "INTEGER"),
    ),
    "hands": (
        ("game", "BIGINT"), ("hand", "INTEGER"), ("round", "VARCHAR"), ("seat", "INTEGER"),
        ("player", "VARCHAR"), ("dealer", "INTEGER"), ("score_before", "INTEGER"),
        ("delta", "INTEGER"), ("riichi", "INTEGER"), ("won", "INTEGER"),
        ("dealt_in", "INTEGER"), ("han", "INTEGER"), ("fu", "INTEGER"), ("points", "INTEGER"),
        ("result", "VARCHAR"), ("derived_delta", "INTEGER"), ("derived_han", "INTEGER"),
        ("derived_fu", "INTEGER"), ("derived_points", "INTEGER"),
    ),
    "findings": (
        ("game", "BIGINT"), ("code", "VARCHAR"), ("severity", "VARCHAR"), ("round", "VARCHAR"),
        ("event", "INTEGER"), ("seat", "INTEGER"), ("message", "VARCHAR"),
        ("expected", "VARCHAR"), ("actual", "VARCHAR"), ("source", "VARCHAR"),
        ("finding", "INTEGER"), ("cause", "INTEGER"),
    ),
}  # fmt: skip


def connect() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB that never fetches an extension, on one thread.

    One thread: the driver forks its workers, and a store writer or a query must
    not leave a pool of native threads behind in it. DuckDB is imported here, not
    with the module (it takes about 0.3 s): a re-run with nothing to write, and
    the workers of a local run, never load it.
    """
    import duckdb

    return duckdb.connect(
        ":memory:",
        config={
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
            "threads": 1,
        },
    )


def error() -> type[Exception]:
    """DuckDB's base exception (for ``except``; imports DuckDB only when one is raised)."""
    import duckdb

    return duckdb.Error


def is_interrupt(exc: BaseException) -> bool:
    """Whether DuckDB stopped a statement because of Ctrl-C: it raises an error of its
    own (``InterruptException``, or a ``RuntimeError("Query interrupted")`` from a
    statement it was running) rather than KeyboardInterrupt."""
    duckdb = sys.modules.get("duckdb")
    if duckdb is not None and isinstance(exc, duckdb.InterruptException):
        return True
    return isinstance(exc, RuntimeError) and str(exc) == "Query interrupted"


def sql_str(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def part_file(root: Path, version: str, table: str, part: str) -> Path:
    return root / f"v{version}" / table / f"{part}.parquet"


def _field(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, str):
        return '"' + v.replace('"', '""') + '"'
    if isinstance(v, bool):
        return str(int(v))
    return str(v)


class CsvStage:
    """Rows of the three tables appended to CSV files as they arrive (memory stays flat).

    A NULL is an empty field and every string is quoted, so an empty string
    stays an empty string.
    """

    def __init__(self, folder: Path, name: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.paths = {t: folder / f"{name}.{t}.csv" for t in TABLES}
        self.counts = dict.fromkeys(TABLES, 0)
        self._files = {
            t: open(p, "w", encoding="utf-8", errors="backslashreplace", newline="")  # noqa: SIM115
            for t, p in self.paths.items()
        }

    def write(self, table: str, rows: Iterable[Row]) -> None:
        f = self._files[table]
        n = 0
        for row in rows:
            f.write(",".join(map(_field, row)) + "\n")
            n += 1
        self.counts[table] += n

    def close(self) -> None:
        for f in self._files.values():
            f.close()

    def discard(self) -> None:
        """Close and remove the staged files, whatever the files say (a full disk fails
        the flush of what is still buffered: it is thrown away all the same)."""
        for f in self._files.values():
            with contextlib.suppress(OSError):
                f.close()
        for p in self.paths.values():
            with contextlib.suppress(OSError):
                p.unlink(missing_ok=True)

    def to_parquet(self, con: duckdb.DuckDBPyConnection, dest: dict[str, Path]) -> None:
        """Close the stage and write each table's Parquet file atomically."""
        try:
            self.close()
            for table, csv in self.paths.items():
                write_csv_part(con, table, csv, dest[table])
        finally:
            self.discard()


def _read_csv(table: str, csv: Path) -> str:
    cols = ", ".join(f"{sql_str(n)}: {sql_str(t)}" for n, t in TABLES[table])
    return (
        f"read_csv({sql_str(str(csv))}, header=false, auto_detect=false, delim=',', "
        f"quote='\"', escape='\"', allow_quoted_nulls=false, columns={{{cols}}})"
    )


def _copy(con: duckdb.DuckDBPyConnection, select: str, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    try:
        con.execute(f"COPY ({select}) TO {sql_str(str(tmp))} (FORMAT parquet, COMPRESSION zstd)")
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):  # half a file (a full disk): not left behind
            tmp.unlink(missing_ok=True)
        raise


def write_csv_part(con: duckdb.DuckDBPyConnection, table: str, csv: Path, dest: Path) -> None:
    """A staged CSV as a Parquet part (tmp, then rename)."""
    _copy(con, f"SELECT * FROM {_read_csv(table, csv)}", dest)


def copy_part_select(con: duckdb.DuckDBPyConnection, select: str, dest: Path) -> None:
    """The rows of ``select`` as a Parquet part (tmp, then rename)."""
    _copy(con, select, dest)


def copy_part(
    con: duckdb.DuckDBPyConnection, source: Path, dest: Path, games: Sequence[int] | None
) -> None:
    """A part copied to ``dest``, keeping only ``games`` (all of them with None)."""
    where = ""
    if games is not None:
        listed = ",".join(str(int(g)) for g in games) or "NULL"
        where = f" WHERE game IN ({listed})"
    _copy(con, f"SELECT * FROM read_parquet({sql_str(str(source))}){where}", dest)


def empty_table(table: str) -> str:
    """The columns of ``table`` with no rows, for a store with no parts yet."""
    cols = ", ".join(f"NULL::{t} AS {n}" for n, t in TABLES[table])
    return f"SELECT {cols} WHERE false"


def define_views(con: duckdb.DuckDBPyConnection, files: dict[str, list[Path]]) -> None:
    """Views ``games``, ``hands`` and ``findings`` over the given part files."""
    for table, paths in files.items():
        if paths:
            listed = ", ".join(sql_str(str(p)) for p in paths)
            body = f"SELECT * FROM read_parquet([{listed}])"
        else:
            body = empty_table(table)
        con.execute(f"CREATE OR REPLACE TEMP VIEW {table} AS {body}")


def load_rows(
    con: duckdb.DuckDBPyConnection,
    name: str,
    columns: Sequence[tuple[str, str]],
    rows: Iterable[Row],
    folder: Path,
) -> None:
    """A temporary DuckDB table filled from Python rows, staged as CSV (bulk, not row by row)."""
    folder.mkdir(parents=True, exist_ok=True)
    csv = folder / f"{name}.csv"
    with open(csv, "w", encoding="utf-8", errors="backslashreplace", newline="") as f:
        for row in rows:
            f.write(",".join(map(_field, row)) + "\n")
    cols = ", ".join(f"{sql_str(n)}: {sql_str(t)}" for n, t in columns)
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM read_csv({sql_str(str(csv))}, "
        f"header=false, auto_detect=false, delim=',', quote='\"', escape='\"', "
        f"allow_quoted_nulls=false, columns={{{cols}}})"
    )
    csv.unlink()


def count_rows(con: duckdb.DuckDBPyConnection, part: Path) -> int:
    rows: list[tuple[Any, ...]] = con.execute(
        f"SELECT count(*) FROM read_parquet({sql_str(str(part))})"
    ).fetchall()
    return int(rows[0][0])
