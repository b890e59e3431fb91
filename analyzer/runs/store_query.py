"""What ``mjaudit query`` lets through: one read-only statement, on a locked-down DuckDB.

Two independent fences:

1. **The statement.** Exactly one statement, parsed by DuckDB itself: a ``SELECT``
   (with CTEs; ``FROM``-first, ``VALUES``, ``DESCRIBE``, ``SUMMARIZE`` and ``SHOW``
   parse as ``SELECT`` too) or a plain ``EXPLAIN`` of one. ``EXPLAIN ANALYZE`` runs
   the statement it explains, so it is refused, as is any ``EXPLAIN`` with options.
   The statement's syntax tree (``json_serialize_sql``) is searched for table
   functions: only those in :data:`TABLE_FUNCTIONS`, which read no file and no
   network, are allowed; ``read_csv``, ``read_text``, ``glob``, ``read_parquet``
   and the rest are refused by name.
2. **The connection.** Before the statement runs, external access is disabled with
   only the store's own part folder allowed (the views read it), and the
   configuration is locked, so no statement can turn access back on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.runs.store_catalog import StoreError

if TYPE_CHECKING:
    import duckdb

__all__ = ["TABLE_FUNCTIONS", "check_statement", "lock_down"]

# Table functions that compute rows from their arguments alone, or describe the
# in-memory database: no file, no network, no setting is touched.
TABLE_FUNCTIONS = frozenset({
    "range", "generate_series", "unnest", "repeat", "repeat_row",
    "duckdb_columns", "duckdb_tables", "duckdb_views", "duckdb_types", "duckdb_functions",
    "duckdb_keywords", "pragma_table_info", "pragma_version",
})  # fmt: skip

_EXPLAIN = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*EXPLAIN\b", re.I | re.S)


def _refuse(why: str) -> StoreError:
    return StoreError(f"the store is read-only: {why}")


def check_statement(con: duckdb.DuckDBPyConnection, sql: str) -> str:
    """The one SELECT to run (the statement itself, or what a plain EXPLAIN explains).

    Raises :class:`StoreError` with one line saying what was refused.
    """
    import duckdb

    try:
        sql.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StoreError(f"query: the SQL is not valid UTF-8 (at character {exc.start})") from None
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise StoreError(str(exc).splitlines()[0]) from None
    if len(statements) != 1:
        raise StoreError(f"query takes exactly one SQL statement, not {len(statements)}")
    st = statements[0]
    kind = st.type.name
    if kind == "EXPLAIN":
        m = _EXPLAIN.match(st.query)
        inner_sql = st.query[m.end() :] if m else ""
        try:
            inner = duckdb.extract_statements(inner_sql) if inner_sql.strip() else []
        except duckdb.Error:
            inner = []
        if len(inner) != 1 or inner[0].type.name != "SELECT":
            raise _refuse(
                "only a plain EXPLAIN of a SELECT runs here (EXPLAIN ANALYZE runs the "
                "statement it explains)"
            )
        _check_functions(con, inner[0].query)
        return st.query
    if kind != "SELECT":
        raise _refuse(f"only SELECT and EXPLAIN run here, not {kind}")
    _check_functions(con, st.query)
    return st.query


def _check_functions(con: duckdb.DuckDBPyConnection, select: str) -> None:
    row = con.execute("SELECT json_serialize_sql(?::VARCHAR)", [select]).fetchone()
    tree = json.loads(str(row[0])) if row else {"error": True}
    if tree.get("error"):
        msg = str(tree.get("error_message") or "not a statement DuckDB can check")
        raise StoreError(f"query: {msg.splitlines()[0]}")
    for name in sorted(_table_functions(tree)):
        if name.lower() not in TABLE_FUNCTIONS:
            raise _refuse(
                f"the table function {name}() is not allowed in a query (it may read files "
                f"or the network); query the tables games, hands, findings, inputs, runs, "
                f"parts and part_files, or use range, generate_series or unnest"
            )


def _table_functions(node: object) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if n.get("type") == "TABLE_FUNCTION":
                fn = n.get("function")
                name = fn.get("function_name") if isinstance(fn, dict) else None
                found.add(str(name or "?"))
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return found


def lock_down(con: duckdb.DuckDBPyConnection, allowed: Path) -> None:
    """No file or network access but ``allowed`` (a folder), and no more settings."""
    from analyzer.runs.store_parts import sql_str

    folder = str(allowed).rstrip("/") + "/"
    con.execute(f"SET allowed_directories = [{sql_str(folder)}]")
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
