"""Finding the logs below a folder: which files are listed, which are left out.

A walk lists, depth first and sorted, every file with a log's or a container's name,
and the files whose names leave open what they hold (no suffix, ``.log``, ``.txt``,
perhaps gzip'd: :func:`is_untold_name`) when their first bytes are a log's. It
leaves out:

- what the command itself writes (``leave_out`` of :func:`parsers.containers.iter_locators`,
  made by :func:`file_ids`: a store, a cases file, an output redirected into the folder
  being read), matched by device and inode, not by name;
- a file or folder named on the command line beside the folder (it is read where it
  is named: :func:`named_ids`);
- the metadata macOS keeps beside a file (``._NAME``, an AppleDouble file);
- a results store found below the folder (a folder holding :data:`STORE_MARKS` whose
  catalog has the store's tables): its files are no logs.

Opening what is listed is :mod:`parsers.containers`' work.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path

from parsers.sources import HEAD_SIZE, MAX_LAYERS, is_mac_metadata, looks_like_log

__all__ = [
    "NO_SKIP",
    "STORE_MARKS",
    "STORE_TABLES",
    "TAR_SUFFIXES",
    "FileId",
    "Head",
    "Skip",
    "catalog_tables",
    "file_ids",
    "has_log_name",
    "is_archive_name",
    "is_container_name",
    "is_log_file",
    "is_mac_file",
    "is_store",
    "is_untold_name",
    "named_ids",
    "walk",
]

TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz")
_LOG_SUFFIXES = (".xml", ".mjlog", ".json", ".jsonl", ".mjson")
_CONTAINER_SUFFIXES = (".zip", ".db", ".sqlite", ".sqlite3", *TAR_SUFFIXES)
_UNTOLD_SUFFIXES = ("", ".log", ".txt")

#: The files that make a folder a results store (``audit --store``: its catalog and
#: its writer's lock, analyzer.runs.store_catalog and store_guard): walked into, such
#: a folder is passed over, as its files are no logs.
STORE_MARKS = frozenset({"catalog.sqlite", "writer.lock"})


def has_log_name(name: str) -> bool:
    """A log's name, perhaps gzip'd or bz2'd (``x.mjlog``, ``x.xml.gz``, ``x.json.bz2``)."""
    return _uncompressed(name).endswith(_LOG_SUFFIXES)


def _uncompressed(name: str) -> str:
    """``name`` in lower case without the suffixes of its compression layers."""
    stem = name.lower()
    for _ in range(MAX_LAYERS):
        stem = stem.removesuffix(".gz").removesuffix(".bz2")
    return stem


def is_container_name(name: str) -> bool:
    return name.lower().endswith(_CONTAINER_SUFFIXES)


def is_archive_name(name: str) -> bool:
    """A zip's or a tar's name (an archive inside an archive is named, not read)."""
    return name.lower().endswith((".zip", *TAR_SUFFIXES))


#: A file or folder as the system knows it: (device, inode), whatever its name.
FileId = tuple[int, int]


def file_ids(paths: Iterable[str | None] = (), streams: Iterable[object] = ()) -> frozenset[FileId]:
    """What a command writes, to leave out of the folders it reads: each of ``paths``
    that exists (a file or a folder; None and ``-`` are none) and each of ``streams``
    that is open on a regular file (stdout redirected to a file, say)."""
    ids: set[FileId] = set()
    for path in paths:
        if path is None or path == "-":
            continue
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            continue
        ids.add((st.st_dev, st.st_ino))
    for stream in streams:
        try:
            st = os.fstat(stream.fileno())  # type: ignore[attr-defined]
        except (AttributeError, OSError, ValueError):  # no file behind it (a test's buffer)
            continue
        if stat.S_ISREG(st.st_mode):
            ids.add((st.st_dev, st.st_ino))
    return frozenset(ids)


def named_ids(paths: Iterable[str]) -> dict[str, FileId]:
    """Each path's file or folder, where it has one (not ``-``, nor a missing path)."""
    found: dict[str, FileId] = {}
    for raw in paths:
        if raw != "-":
            try:
                st = os.stat(raw)
            except (OSError, ValueError):
                continue
            found[raw] = (st.st_dev, st.st_ino)
    return found


class Skip:
    """The files and folders a walk passes over, by device and inode: the inodes alone
    are tried first, which a folder's listing gives without a stat. ``own`` are those
    the command writes (the rest are named on the command line)."""

    __slots__ = ("ids", "inodes", "own")

    def __init__(self, ids: Iterable[FileId] = (), own: Iterable[FileId] = ()) -> None:
        self.own = frozenset(own)
        self.ids = frozenset(ids) | self.own
        self.inodes = frozenset(ino for _, ino in self.ids)

    def holds(self, entry: os.DirEntry[str]) -> bool:
        """Whether ``entry`` (or what its link points to) is one of them."""
        try:
            if not entry.is_symlink() and entry.inode() not in self.inodes:
                return False
            st = entry.stat()
        except OSError:
            return False
        return (st.st_dev, st.st_ino) in self.ids


NO_SKIP = Skip()

# The tables of a results store's catalog (analyzer.runs.store_catalog).
STORE_TABLES = frozenset({"inputs", "contents", "parts", "runs"})


def catalog_tables(conn: sqlite3.Connection) -> set[str]:
    return {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master")}


def is_store(folder: Path) -> bool:
    """Whether ``folder``, which holds the files of :data:`STORE_MARKS`, is a results
    store: its catalog has the store's tables. Anything else (a database of logs that
    happens to be named so, a catalog that cannot be read) is walked as any folder."""
    catalog = folder / "catalog.sqlite"
    try:
        # A FIFO would block the open, a device worse: only a regular file is opened.
        if not stat.S_ISREG(catalog.stat().st_mode):
            return False
        # Read-only, but not immutable: a new store's tables may still be in its
        # write-ahead log.
        conn = sqlite3.connect(catalog.absolute().as_uri() + "?mode=ro", uri=True)
        try:
            return catalog_tables(conn) >= STORE_TABLES
        finally:
            conn.close()
    except (sqlite3.Error, OSError, ValueError):
        return False


def walk(
    top: Path, seen: set[FileId], skip: Skip = NO_SKIP, named: bool = False
) -> Iterator[tuple[str, str | None]]:
    """Files below ``top`` that are logs or containers, depth first, sorted per folder,
    each with None; or a folder that could not be listed, with why (its logs are not
    read, and the caller says so).

    Folders are entered once each (a symbolic link back up is not followed again).
    Anything with a log's name is listed, even if it is not a regular file: it is
    then refused by the reader (parsers.containers), by its type, without being
    opened. Files and folders in ``skip`` are not listed or entered, nor a results
    store below the folder ``named`` on the command line (that one is read: its
    catalog then says what it is). The walk keeps its own stack, so a folder nested
    however deep is walked.
    """
    first = _listing(top, seen, named)
    if isinstance(first, str):
        if first:
            yield str(top), first
        return
    if skip.own and _file_id(top) in skip.own:
        # The folder named is the command's own store (`audit --store games games`):
        # the logs beside it are read, its catalog is not.
        first = [e for e in first if e.name not in STORE_MARKS]
    stack = [iter(first)]
    while stack:
        for e in stack[-1]:
            if skip.ids and skip.holds(e):
                continue
            try:
                is_dir = e.is_dir(follow_symlinks=True)
            except OSError:
                is_dir = False
            if is_dir:
                inner = _listing(Path(e.path), seen, False)
                if isinstance(inner, str):
                    if inner:
                        yield e.path, inner
                    continue
                stack.append(iter(inner))
                break  # into the folder; this one goes on where it stopped
            head = _entry_head(e)
            listed = is_container_name(e.name) or is_log_file(e.name, head)
            if listed and not is_mac_file(e.name, head):
                yield e.path, None
        else:
            stack.pop()


def _file_id(path: Path) -> FileId | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _listing(folder: Path, seen: set[FileId], named: bool) -> list[os.DirEntry[str]] | str:
    """The entries of ``folder``, sorted by name; ``""`` for a folder not to enter (met
    before, or a results store below the named one); why it cannot be listed."""
    try:
        st = folder.stat()
        if (st.st_dev, st.st_ino) in seen:
            return ""
        seen.add((st.st_dev, st.st_ino))
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        return f"cannot read the folder: {exc.strerror or exc}"
    if not named and {e.name for e in entries} >= STORE_MARKS and is_store(folder):
        return ""
    return entries


def is_untold_name(name: str) -> bool:
    """Whether a file's name leaves open what it holds: no suffix (a Tenhou log kept
    under its bare id), ``.log`` or ``.txt`` (a Mahjong Soul record as in-client
    exporters save it), each perhaps with ``.gz`` or ``.bz2`` after it (``x.gz``).
    Such a file is listed when its first bytes are a log's
    (:func:`parsers.sources.looks_like_log`)."""
    return os.path.splitext(_uncompressed(name))[1] in _UNTOLD_SUFFIXES


#: A file's first bytes (HEAD_SIZE of them), read when first asked for; None where
#: they cannot be read.
Head = Callable[[], bytes | None]


def is_log_file(name: str, head: Head) -> bool:
    """Whether a file or an archive member is read as a log: by a log's name, or by an
    untold name (:func:`is_untold_name`) and a log's first bytes
    (:func:`parsers.sources.looks_like_log`). One whose first bytes cannot be read
    (``head()`` None) is read, so that its problem is named."""
    base = os.path.basename(name)
    if has_log_name(base):
        return True
    if not is_untold_name(base):
        return False
    first = head()
    return first is None or looks_like_log(first)


def is_mac_file(name: str, head: Head) -> bool:
    """Whether a file is the metadata macOS keeps beside another (``._NAME``): no log.
    Its first bytes are read only for such a name."""
    base = os.path.basename(name)
    if not base.startswith("._"):
        return False
    first = head()
    return first is not None and is_mac_metadata(base, first)


def _entry_head(entry: os.DirEntry[str]) -> Head:
    """A folder entry's first bytes, read once: nothing (``b""``) for what is not a
    regular file (a FIFO is never opened; a walk leaves one of an untold name out, and
    lists one of a log's name for the reader to refuse by its type), None for a file
    that cannot be read (listed, so that the reader says why: no log is lost without
    a word)."""

    @cache
    def head() -> bytes | None:
        try:
            if not entry.is_file():
                return b""
        except OSError:
            return b""
        try:
            with open(entry.path, "rb") as fh:
                return fh.read(HEAD_SIZE)
        except OSError:
            return None

    return head
