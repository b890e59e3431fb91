"""Inputs by the thousand: folders, zip and tar archives, and downloader databases.

A :class:`Locator` names one log without holding it: a file, a member of a zip,
or a row of a phoenix-logs / houou-logs SQLite database. Enumeration is lazy and
reads no log; a worker reads its own locators with :func:`read_locator`, straight
from the archive or the database (nothing is unpacked to disk).

Tar archives have no index, so their members are streamed by the enumerating
process and travel with the locator (``data``); stdin does the same.

Each locator has a *cheap key* that changes when the log may have changed and
costs no read of the log: ``path:size:mtime_ns`` for a file, the member's CRC
and size for a zip, the row id and blob length for a database row.
"""

from __future__ import annotations

import bz2
import gzip
import os
import sqlite3
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from mjaudit.errors import LogFormatError
from mjaudit.events import RulesHint
from parsers.sources import read_input

__all__ = [
    "Locator",
    "Selection",
    "decompress",
    "iter_locators",
    "read_locator",
]

_SQLITE_MAGIC = b"SQLite format 3\x00"
_TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz")
_LOG_SUFFIXES = (".xml", ".mjlog", ".json", ".jsonl", ".mjson")
_CONTAINER_SUFFIXES = (".zip", ".db", ".sqlite", ".sqlite3", *_TAR_SUFFIXES)


@dataclass(frozen=True, slots=True)
class Locator:
    """Where one log is. ``kind`` is file, stdin, zip, tar or sqlite."""

    kind: str
    source: str
    member: str = ""
    key: str = ""
    data: bytes | None = None

    @property
    def name(self) -> str:
        """The name findings use: ``a.zip!x.mjlog``, ``2009.db#2009022023gm-…``."""
        if self.kind in ("zip", "tar"):
            return f"{self.source}!{self.member}"
        if self.kind == "sqlite":
            return f"{self.source}#{self.member}"
        return self.source


@dataclass(frozen=True, slots=True)
class Selection:
    """Which games to audit: ``players`` 3 or 4, ``length`` hanchan or tonpu."""

    players: int | None = None
    length: str | None = None

    def __post_init__(self) -> None:
        if self.players not in (None, 3, 4):
            raise ValueError(f"players must be 3 or 4, not {self.players}")
        if self.length not in (None, "hanchan", "tonpu"):
            raise ValueError(f"length must be hanchan or tonpu, not {self.length}")

    @property
    def everything(self) -> bool:
        return self.players is None and self.length is None

    def accepts(self, hint: RulesHint) -> bool:
        """Whether a parsed game is selected (for inputs with no cheap columns)."""
        if self.players is not None and hint.players != self.players:
            return False
        if self.length is not None and hint.hanchan is not None:
            return hint.hanchan == (self.length == "hanchan")
        return True


def _has_log_name(name: str) -> bool:
    return name.lower().removesuffix(".gz").endswith(_LOG_SUFFIXES)


def _is_container_name(name: str) -> bool:
    return name.lower().endswith(_CONTAINER_SUFFIXES)


def iter_locators(
    paths: Iterable[str],
    selection: Selection = Selection(),
    want: Callable[[Locator], bool] | None = None,
) -> Iterator[Locator]:
    """Every log under ``paths``, lazily, in a stable order.

    ``want`` sees each locator before its data is read (a store's "already
    audited?" check, or a shard filter); tar members it refuses are not read.
    """
    for raw in paths:
        if raw == "-":
            loc = Locator("stdin", "-")
            if want is None or want(loc):
                yield replace(loc, data=sys.stdin.buffer.read())
            continue
        p = Path(raw)
        if p.is_dir():
            for f in _walk(p):
                yield from _expand(f, selection, want, explicit=False)
        else:
            yield from _expand(raw, selection, want, explicit=True)


def _walk(top: Path) -> Iterator[str]:
    """Files below ``top`` that are logs or containers, depth first, sorted per folder."""
    try:
        entries = sorted(os.scandir(top), key=lambda e: e.name)
    except OSError:
        return
    for e in entries:
        if e.is_dir(follow_symlinks=True):
            yield from _walk(Path(e.path))
        elif _has_log_name(e.name) or _is_container_name(e.name):
            yield e.path


def _expand(
    path: str, selection: Selection, want: Callable[[Locator], bool] | None, explicit: bool
) -> Iterator[Locator]:
    kind = _container_kind(path)
    if kind == "zip":
        yield from _zip_members(path, want)
    elif kind == "tar":
        yield from _tar_members(path, want)
    elif kind == "sqlite":
        yield from _db_rows(path, selection, want)
    elif explicit or _has_log_name(path):
        loc = Locator("file", path, key=_file_key(path))
        if want is None or want(loc):
            yield loc


def _container_kind(path: str) -> str | None:
    lower = path.lower()
    if lower.endswith(_TAR_SUFFIXES):
        return "tar"
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
    except OSError:
        return None
    if head == _SQLITE_MAGIC:
        return "sqlite"
    if head[:4] == b"PK\x03\x04" or (lower.endswith(".zip") and head[:4] == b"PK\x05\x06"):
        return "zip"
    return None


def _file_key(path: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return ""  # unreadable: the worker reports it; never skipped
    return f"{os.path.abspath(path)}:{st.st_size}:{st.st_mtime_ns}"


def _zip_members(path: str, want: Callable[[Locator], bool] | None) -> Iterator[Locator]:
    where = os.path.abspath(path)
    try:
        with zipfile.ZipFile(path) as zf:
            infos = [i for i in zf.infolist() if not i.is_dir() and _has_log_name(i.filename)]
    except (OSError, zipfile.BadZipFile) as exc:
        yield Locator("file", path, data=b"", key="", member=f"unreadable zip: {exc}")
        return
    for info in sorted(infos, key=lambda i: i.filename):
        key = f"{where}!{info.filename}:{info.CRC:08x}:{info.file_size}"
        loc = Locator("zip", path, info.filename, key)
        if want is None or want(loc):
            yield loc


def _tar_members(path: str, want: Callable[[Locator], bool] | None) -> Iterator[Locator]:
    where = os.path.abspath(path)
    try:
        # Stream mode: one pass, no seeking; members come in archive order.
        with tarfile.open(path, mode="r|*") as tf:
            for info in tf:
                if not info.isfile() or not _has_log_name(info.name):
                    continue
                key = f"{where}!{info.name}:{info.size}:{int(info.mtime)}"
                loc = Locator("tar", path, info.name, key)
                if want is not None and not want(loc):
                    continue
                fh = tf.extractfile(info)
                yield replace(loc, data=fh.read() if fh is not None else b"")
    except (OSError, tarfile.TarError, EOFError, zlib.error) as exc:
        yield Locator("file", path, data=b"", key="", member=f"unreadable tar: {exc}")


# Column names of the two downloaders' ``logs`` tables (see docs/scale.md):
# MahjongRepository/phoenix-logs and its successor Apricot-S/houou-logs.
_ID_COLUMNS = ("log_id", "id")
_CONTENT_COLUMNS = ("log_content", "log")


@dataclass(frozen=True, slots=True)
class _DbLayout:
    """Which columns of a database's ``logs`` table hold the ids and the logs."""

    id_col: str
    content_col: str
    where: str


def _db_layout(conn: sqlite3.Connection, selection: Selection) -> _DbLayout:
    cols = {row[1] for row in conn.execute("PRAGMA table_info(logs)")}
    id_col = next((c for c in _ID_COLUMNS if c in cols), None)
    content_col = next((c for c in _CONTENT_COLUMNS if c in cols), None)
    if id_col is None or content_col is None:
        raise ValueError("no logs table with a log id and a log content column")
    where = [f"{content_col} IS NOT NULL", f"length({content_col}) > 0"]
    if "is_processed" in cols:
        where.append("is_processed = 1")
    if "was_error" in cols:
        where.append("was_error = 0")
    if selection.players is not None:
        sanma = next((c for c in ("is_sanma", "is_hirosima") if c in cols), None)
        if "num_players" in cols:
            where.append(f"num_players = {selection.players}")
        elif sanma is not None:
            where.append(f"{sanma} = {int(selection.players == 3)}")
    if selection.length is not None:
        tonpu = next((c for c in ("is_tonpusen", "is_tonpu") if c in cols), None)
        if tonpu is not None:
            where.append(f"{tonpu} = {int(selection.length == 'tonpu')}")
    return _DbLayout(id_col, content_col, " AND ".join(where))


def _open_db(path: str) -> sqlite3.Connection:
    uri = Path(os.path.abspath(path)).as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True)


def _db_rows(
    path: str, selection: Selection, want: Callable[[Locator], bool] | None
) -> Iterator[Locator]:
    where = os.path.abspath(path)
    try:
        conn = _open_db(path)
        layout = _db_layout(conn, selection)
        rows = conn.execute(
            f"SELECT {layout.id_col}, length({layout.content_col}) FROM logs "
            f"WHERE {layout.where} ORDER BY rowid"
            if _has_rowid(conn)
            else f"SELECT {layout.id_col}, length({layout.content_col}) FROM logs "
            f"WHERE {layout.where} ORDER BY {layout.id_col}"
        )
    except (sqlite3.Error, ValueError) as exc:
        yield Locator("file", path, data=b"", key="", member=f"unreadable database: {exc}")
        return
    try:
        for log_id, size in rows:
            loc = Locator("sqlite", path, str(log_id), f"{where}#{log_id}:{size}")
            if want is None or want(loc):
                yield loc
    finally:
        conn.close()


def _has_rowid(conn: sqlite3.Connection) -> bool:
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'logs'").fetchone()
    return sql is None or "WITHOUT ROWID" not in str(sql[0]).upper()


def decompress(data: bytes, where: str) -> bytes:
    """Undo gzip or bz2 by their magic bytes; anything else is returned as it is."""
    try:
        if data[:2] == b"\x1f\x8b":
            return gzip.decompress(data)
        if data[:3] == b"BZh":
            return bz2.decompress(data)
    except (OSError, EOFError, ValueError, zlib.error) as exc:
        raise LogFormatError(where, "", f"broken compressed data: {exc}") from None
    return data


# One open archive and one connection per worker process: opening a zip reads its
# whole central directory, so it is done once per process, not once per log.
_open_zips: dict[str, zipfile.ZipFile] = {}
_open_dbs: dict[str, tuple[sqlite3.Connection, _DbLayout]] = {}
_cache_pid = 0


def _caches_for_this_process() -> None:
    global _cache_pid
    if _cache_pid != os.getpid():  # inherited through fork: not ours to use
        _open_zips.clear()
        _open_dbs.clear()
        _cache_pid = os.getpid()


def read_locator(loc: Locator) -> bytes:
    """The decompressed bytes of one log. Raises LogFormatError when unreadable."""
    if loc.data is not None:
        if loc.member.startswith("unreadable"):
            raise LogFormatError(loc.source, "", loc.member)
        return decompress(loc.data, loc.name)
    if loc.kind == "file":
        return decompress(read_input(loc.source), loc.name)
    _caches_for_this_process()
    try:
        if loc.kind == "zip":
            zf = _open_zips.get(loc.source)
            if zf is None:
                if len(_open_zips) >= 8:
                    _open_zips.pop(next(iter(_open_zips))).close()
                zf = _open_zips[loc.source] = zipfile.ZipFile(loc.source)
            return decompress(zf.read(loc.member), loc.name)
        if loc.kind == "sqlite":
            entry = _open_dbs.get(loc.source)
            if entry is None:
                conn = _open_db(loc.source)
                entry = _open_dbs[loc.source] = (conn, _db_layout(conn, Selection()))
            conn, layout = entry
            row = conn.execute(
                f"SELECT {layout.content_col} FROM logs WHERE {layout.id_col} = ?",
                (loc.member,),
            ).fetchone()
            if row is None:
                raise LogFormatError(loc.name, "", "no such log in the database")
            content = row[0]
            data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
            return decompress(data, loc.name)
    except (OSError, KeyError, zipfile.BadZipFile, sqlite3.Error, ValueError) as exc:
        raise LogFormatError(loc.name, "", f"cannot read: {exc}") from None
    raise LogFormatError(loc.name, "", f"unknown input kind {loc.kind}")
