"""Inputs by the thousand: folders, zip and tar archives, and downloader databases.

Every command (``audit``, ``report``, ``replay``, ``convert``) finds and opens its
inputs here. A :class:`Locator` names one log without holding it: a file, a member
of a zip, or a row of a phoenix-logs / houou-logs SQLite database. Enumeration is
lazy and reads no log; a worker reads its own locators with :func:`read_locator`,
straight from the archive or the database (nothing is unpacked to disk).

Tar archives have no index, so their members are streamed by the enumerating
process and travel with the locator (``data``); stdin does the same.

Each locator has a *cheap key* that changes when the log may have changed and
costs no read of the log: ``path:size:mtime_ns`` for a file, the member's CRC
and size for a zip, the row id and blob length for a database row.

Nothing about one input may stop the others: a container that cannot be opened,
a damaged tar header, a corrupt database page or a file that is not a regular file
becomes a locator with an ``error``, which reads as that error; reading a member
turns every failure (an encrypted or unsupported zip member, a broken stream,
running out of memory) into a :class:`LogFormatError` naming it. Two members or
rows with one name get distinct names: ``a.zip!x.mjlog``, then ``a.zip!x.mjlog (2)``.

Which files of a folder are listed, and which are left out (what the command itself
writes, a results store), is :mod:`parsers.walk`.
"""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import IO

from mjaudit.errors import LogFormatError, MjauditError
from mjaudit.events import GameLog, RulesHint
from parsers.sources import (
    DEFAULT_MAX_INPUT,
    HEAD_SIZE,
    SQLITE_MAGIC,
    ZIP_MAGIC,
    bunzip2,
    decompress,
    load_bytes,
    looks_like_log,
    read_regular_file,
    read_stream,
    regular_file_problem,
    too_large,
)
from parsers.walk import (
    NO_SKIP,
    STORE_MARKS,
    STORE_TABLES,
    TAR_SUFFIXES,
    FileId,
    Head,
    Skip,
    catalog_tables,
    file_ids,
    has_log_name,
    is_archive_name,
    is_container_name,
    is_log_file,
    is_mac_file,
    is_untold_name,
    named_ids,
    walk,
)

__all__ = [
    "DEFAULT_MAX_INPUT",
    "STORE_MARKS",
    "FileId",
    "Locator",
    "Selection",
    "UnreadableInput",
    "container_kind",
    "decompress",
    "failure",
    "file_ids",
    "iter_locators",
    "load_single",
    "read_locator",
]


@dataclass(frozen=True, slots=True)
class Locator:
    """Where one log is. ``kind`` is file, stdin, zip, tar or sqlite.

    ``member`` is the member's (or row's) distinct name; ``index`` is how it is
    read back: its position in the zip's directory, or the database row id (-1
    where there is none). ``error`` is set when the input is known to be
    unreadable already (a broken container, a FIFO, a damaged tar header).
    """

    kind: str
    source: str
    member: str = ""
    key: str = ""
    data: bytes | None = None
    index: int = -1
    error: str = ""

    @property
    def name(self) -> str:
        """The name findings use: ``a.zip!x.mjlog``, ``2009.db#2009022023gm-…``."""
        if self.kind in ("zip", "tar") and self.member:
            return f"{self.source}!{self.member}"
        if self.kind == "sqlite" and self.member:
            return f"{self.source}#{self.member}"
        return self.source


def _unreadable(source: str, message: str) -> Locator:
    return Locator("file", source, error=message)


class UnreadableInput(LogFormatError):
    """An input found unreadable; ``message`` is the whole line and names it."""

    def __init__(self, name: str, message: str) -> None:
        MjauditError.__init__(self, message)
        self.path = name
        self.position = ""
        self.message = message


def failure(name: str, step: str, exc: BaseException) -> str:
    """The one line for an input that failed: its own message, or an internal error.

    ``step`` is what was being done (reading, parsing, auditing, rendering...).
    """
    if isinstance(exc, MjauditError):
        text = str(exc)
        return text if name in text else f"{name}: {text}"
    if isinstance(exc, MemoryError):
        return f"{name}: out of memory while {step}"
    said = " ".join(str(exc).splitlines())
    return f"{name}: internal error while {step}: {type(exc).__name__}: {said}"


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


class _CallerFailed(BaseException):
    """An exception of the caller's ``want`` (a store's): not the input's fault.

    A BaseException, so the guard that turns an input's failures into an
    unreadable locator lets it through; :func:`iter_locators` re-raises the original.
    """

    def __init__(self, original: Exception) -> None:
        self.original = original


Want = Callable[[Locator], bool]


def _guarded(want: Want | None) -> Want | None:
    if want is None:
        return None

    def ask(loc: Locator) -> bool:
        try:
            return want(loc)
        except Exception as exc:
            raise _CallerFailed(exc) from exc

    return ask


def iter_locators(
    paths: Iterable[str],
    selection: Selection = Selection(),
    want: Want | None = None,
    max_size: int = DEFAULT_MAX_INPUT,
    leave_out: Collection[FileId] = frozenset(),
) -> Iterator[Locator]:
    """Every log under ``paths``, lazily, in a stable order.

    ``want`` sees each locator before its data is read (a store's "already
    audited?" check, or a shard filter); tar members it refuses are not read.
    An input that cannot be enumerated gives one locator with an ``error``; the
    other paths go on. Files and folders in ``leave_out`` (:func:`file_ids`: what
    the command itself writes) are passed over where a folder is walked; a path
    named in ``paths`` is read whatever it is.

    Each file or folder is read once: one named twice (``a.xml ./a.xml``) is read
    where it is first named, and one named that also lies in a named folder is read
    where it is named, not again in the folder's walk (``games/ games/2019/``).
    """
    ask = _guarded(want)
    paths = list(paths)
    named = named_ids(paths)
    skip = Skip(named.values(), own=leave_out)
    done: set[FileId | str] = set()
    for raw in paths:
        ident: FileId | str | None = "-" if raw == "-" else named.get(raw)
        if ident is not None:
            if ident in done:  # named twice: read once (stdin would be empty the second time)
                continue
            done.add(ident)
        listed = 0

        def counted(loc: Locator) -> bool:
            nonlocal listed
            listed += 1  # whether or not the caller takes it (a store's done inputs)
            return ask is None or ask(loc)

        try:
            for loc in _one_path(raw, selection, counted, max_size, skip):
                listed += 1
                yield loc
        except _CallerFailed as exc:
            raise exc.original from None
        except Exception as exc:  # a bug, or memory: this path only
            yield _unreadable(raw, failure(raw, "listing its logs", exc))
            continue
        if not listed and selection.everything and not _holds_named(raw, paths):
            # An empty folder, zip or tar named on the command line was "0 games",
            # exit 0: a job auditing the wrong folder passed.
            yield _unreadable(raw, f"{raw}: holds no log")


def _holds_named(folder: str, paths: Sequence[str]) -> bool:
    """Whether another of ``paths`` lies inside ``folder`` (its walk then leaves it to
    be read where it is named, and may list nothing of its own)."""
    if not os.path.isdir(folder):
        return False
    inside = os.path.join(os.path.realpath(folder), "")
    return any(p != folder and p != "-" and os.path.realpath(p).startswith(inside) for p in paths)


def _one_path(
    raw: str,
    selection: Selection,
    want: Want | None,
    max_size: int,
    skip: Skip = NO_SKIP,
) -> Iterator[Locator]:
    if raw == "-":
        loc = Locator("stdin", "-")
        if want is None or want(loc):
            try:
                data = read_stream(sys.stdin.buffer, max_size, "-")
            except LogFormatError as exc:
                yield replace(loc, error=str(exc))
                return
            yield replace(loc, data=data)
        return
    if os.path.isdir(raw):
        for f, problem in walk(Path(raw), set(), skip, named=True):
            if problem is not None:
                yield _unreadable(f, f"{f}: {problem}")
            else:
                yield from _expand(f, selection, want, explicit=False, max_size=max_size)
    else:
        yield from _expand(raw, selection, want, explicit=True, max_size=max_size)


# A web address given as a path (a Tenhou replay link, say): it is not fetched.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_URL_HINT = " (a web address: mjaudit reads files and does not download; save the log first)"


def _expand(
    path: str, selection: Selection, want: Want | None, explicit: bool, max_size: int
) -> Iterator[Locator]:
    try:
        st = os.stat(path)
    except OSError as exc:
        hint = _URL_HINT if _URL.match(path) else ""
        yield _unreadable(path, f"{path}: cannot read: {exc.strerror or exc}{hint}")
        return
    problem = regular_file_problem(st.st_mode)
    if problem is not None:
        yield _unreadable(path, f"{path}: {problem}")
        return
    base = os.path.basename(path)
    try:
        kind = _container_kind(path)
        if kind is None and is_container_name(base) and not has_log_name(base):
            misnamed = _misnamed(path)
            if misnamed is not None:
                yield _unreadable(path, f"{path}: {misnamed}")
                return
    except OSError as exc:
        if not (explicit or has_log_name(path) or is_untold_name(base)):
            # A container's name (a log's is read below, and its reader says the same)
            yield _unreadable(path, f"{path}: cannot read: {exc.strerror or exc}")
            return
        kind = None
    if kind == "zip":
        yield from _zip_members(path, want)
    elif kind == "tar":
        yield from _tar_members(path, want, max_size)
    elif kind == "sqlite":
        yield from _db_rows(path, selection, want)
    elif explicit or has_log_name(path) or is_untold_name(base) or is_container_name(base):
        # (an untold name is here because the walk found a log's first bytes in it, a
        # container's name because the file holds a log: _misnamed)
        key = f"{os.path.abspath(path)}:{st.st_size}:{st.st_mtime_ns}"
        loc = Locator("file", path, key=key)
        if want is None or want(loc):
            yield loc


def container_kind(path: str) -> str | None:
    """``zip``, ``tar`` or ``sqlite`` when ``path`` is such a container, else None.

    Only regular files are looked into (a FIFO is never opened); None for one that
    cannot be read.
    """
    try:
        return _container_kind(path)
    except OSError:
        return None


def _container_kind(path: str) -> str | None:
    """:func:`container_kind`; OSError where the file cannot be read."""
    if regular_file_problem(os.stat(path).st_mode) is not None:
        return None
    lower = path.lower()
    if lower.endswith(TAR_SUFFIXES):
        return "tar"
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb", buffering=0) as fh:
        head = fh.read(16)
    if head == SQLITE_MAGIC:
        return "sqlite"
    if head[:4] == ZIP_MAGIC or (lower.endswith(".zip") and head[:4] == b"PK\x05\x06"):
        return "zip"
    if lower.endswith(".zip") and head and zipfile.is_zipfile(path):
        return "zip"  # data before the zip: a self-extracting archive
    return None


def _misnamed(path: str) -> str | None:
    """Why a file with a zip's or a database's name that is no such thing is not read
    (a download that failed, an error page saved under the archive's name); None for
    a log kept under such a name, which is read as one. OSError where it cannot be
    read."""
    zip_name = path.lower().endswith(".zip")
    with open(path, "rb") as fh:
        head = fh.read(HEAD_SIZE)
    if looks_like_log(head):
        return None
    kind, what = ("zip", "a zip archive") if zip_name else ("database", "an SQLite database")
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:64].lower()
    if not head:
        return f"unreadable {kind}: an empty file, not {what}"
    if start.startswith((b"<!doctype html", b"<html", b"<head")):
        return f"unreadable {kind}: a web page, not {what} (a download that failed?)"
    return f"unreadable {kind}: its first bytes are neither {what}'s nor a log's"


class _Names:
    """Distinct names for members that share one: ``x.mjlog``, ``x.mjlog (2)``, ...

    The first keeps its plain name; a later one takes the lowest free number (a
    member really called ``x.mjlog (2)`` is not confused with one of them).
    """

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.next: dict[str, int] = {}

    def __call__(self, name: str) -> str:
        label = name
        if label in self.used:
            n = self.next.get(name, 2)
            while (label := f"{name} ({n})") in self.used:
                n += 1
            self.next[name] = n + 1
        self.used.add(label)
        return label


def _zip_members(path: str, want: Want | None) -> Iterator[Locator]:
    where = os.path.abspath(path)
    try:
        with zipfile.ZipFile(path) as zf:
            shared = _overlapping(zf.infolist())
            infos = [
                (i, info)
                for i, info in enumerate(zf.infolist())
                if not info.is_dir() and _member_kind(info.filename, _zip_head(zf, info))
            ]
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        why = str(exc)
        if isinstance(exc, zipfile.BadZipFile) and _starts_as_zip(path):
            # A download cut short keeps its first members but loses the central
            # directory, which a zip is read by; one that has it may have it damaged.
            why = (
                "it starts as a zip, but the index a zip ends with is missing "
                "(the file was cut short?)"
                if why == "File is not a zip file"
                else f"its index (the central directory) is damaged: {why}"
            )
        yield _unreadable(path, f"{path}: unreadable zip: {why}")
        return
    except Exception as exc:
        yield _unreadable(path, failure(path, "opening it as a zip", exc))
        return
    names = _Names()
    # sorted by name; members that share a name keep their order in the archive
    for i, info in sorted(infos, key=lambda item: item[1].filename):
        member = names(info.filename)
        key = f"{where}!{member}:{info.CRC:08x}:{info.file_size}"
        loc = Locator("zip", path, member, key, index=i)
        if want is None or want(loc):
            if i in shared:
                yield replace(loc, error=f"{loc.name}: {_SHARED}")
            else:
                yield _nested(loc) if _is_nested(info.filename) else loc


_SHARED = (
    "not read: it shares its data with another member (the zip's entries overlap, "
    "as a zip bomb's do)"
)


def _overlapping(infos: list[zipfile.ZipInfo]) -> set[int]:
    """The directory indices of the entries whose data starts inside an earlier
    entry's (one read): a zip bomb lists one compressed member thousands of times,
    each read in full. A member's local header is at least 30 bytes before its data."""
    order = sorted(range(len(infos)), key=lambda i: (infos[i].header_offset, i))
    shared: set[int] = set()
    reach: int | None = None  # (a damaged index may give an offset below 0)
    for i in order:
        info = infos[i]
        if reach is not None and info.header_offset < reach:
            shared.add(i)
        else:
            reach = info.header_offset + 30 + info.compress_size
    return shared


# An archive found inside an archive is named rather than passed over; it is not
# opened (its logs would need a third kind of name and a second bound on memory).
_NESTED = "not read: an archive inside an archive (unpack the outer one first)"
# A database of logs (phoenix-logs) inside an archive is named too: SQLite reads a file.
_DB_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def _nested(loc: Locator) -> Locator:
    if loc.name.lower().endswith(_DB_SUFFIXES):
        why = "not read: a database inside an archive (unpack the archive first)"
        return replace(loc, error=f"{loc.name}: {why}")
    return replace(loc, error=f"{loc.name}: {_NESTED}")


def _starts_as_zip(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(ZIP_MAGIC)) == ZIP_MAGIC
    except OSError:
        return False


def _member_kind(name: str, head: Head) -> str | None:
    """What a zip or tar member is to a run: ``log`` (read, by the walk's rule:
    parsers.walk.is_log_file), ``nested`` (an archive inside the archive: named, not
    read) or None (left out: not a log, or macOS's metadata)."""
    if name.startswith("__MACOSX/") or "/__MACOSX/" in name or is_mac_file(name, head):
        return None  # what macOS adds beside a file, and its Finder to a zip: no logs
    if _is_nested(name):
        return "nested"
    return "log" if is_log_file(name, head) else None


def _is_nested(name: str) -> bool:
    base = os.path.basename(name)
    return is_archive_name(base) or base.lower().endswith(_DB_SUFFIXES)


def _zip_head(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> Head:
    @cache
    def head() -> bytes | None:
        try:
            with zf.open(info) as fh:
                return fh.read(HEAD_SIZE)
        except Exception:  # encrypted, broken, an unknown method: the reader says which
            return None

    return head


class _TarInfo(tarfile.TarInfo):
    """Remembers a damaged header: tarfile ends the archive there without a word."""

    @classmethod
    def fromtarfile(cls, archive: tarfile.TarFile) -> _TarInfo:
        try:
            return super().fromtarfile(archive)
        except tarfile.HeaderError as exc:
            # An end-of-archive block or the end of the data is how a tar ends;
            # a bad checksum or a header cut short is damage.
            if type(exc).__name__ in ("InvalidHeaderError", "TruncatedHeaderError"):
                _damage[id(archive)] = (archive.offset, str(exc))
            raise


# The damage an open tar met, by the id of its TarFile (an entry lives while it is open).
_damage: dict[int, tuple[int, str]] = {}


class _TarHead:
    """A tar member's first bytes, read once from the stream, then the rest after them."""

    def __init__(self, tf: tarfile.TarFile, info: tarfile.TarInfo) -> None:
        self.tf = tf
        self.info = info
        self.fh: IO[bytes] | None = None
        self.head = b""

    def __call__(self) -> bytes:
        if self.fh is None:
            self.fh = self.tf.extractfile(self.info)
            self.head = self.fh.read(HEAD_SIZE) if self.fh is not None else b""
        return self.head

    def rest(self) -> bytes:
        """The whole member: the first bytes read, if any, and what follows them."""
        if self.fh is None:
            fh = self.tf.extractfile(self.info)
            return fh.read() if fh is not None else b""
        return self.head + self.fh.read()


def _tar_members(path: str, want: Want | None, max_size: int) -> Iterator[Locator]:
    links: list[tuple[tarfile.TarInfo, str]] = []
    yield from _tar_pass(path, want, max_size, links)
    if links:
        yield from _tar_links(path, links, want, max_size)


def _tar_pass(
    path: str, want: Want | None, max_size: int, links: list[tuple[tarfile.TarInfo, str]]
) -> Iterator[Locator]:
    tf: tarfile.TarFile | None = None
    try:
        # Stream mode: one pass, no seeking; members come in archive order.
        with tarfile.open(path, mode="r|*", tarinfo=_TarInfo) as opened:
            tf = opened
            yield from _tar_stream(tf, path, want, max_size, links)
            hurt = _damage.get(id(tf))
            if hurt is not None:
                offset, why = hurt
                yield _unreadable(path, f"{path} (byte {offset}): damaged tar header ({why}); "
                                  "the members after it were not read")  # fmt: skip
            else:
                cut = _cut_short(tf)
                if cut is not None:
                    yield _unreadable(path, f"{path} (byte {tf.offset}): damaged tar: {cut}; "
                                      "the members before it were read")  # fmt: skip
    except Exception as exc:
        at = f" (byte {tf.offset})" if tf is not None else ""
        if tf is None and isinstance(exc, OSError) and exc.strerror:  # opening it
            msg = f"{path}: cannot read: {exc.strerror}"
        elif str(exc) == "empty file" and _nonempty(path):
            # tarfile's word for compressed data that ends before a first header.
            msg = f"{path}: unreadable tar: its data ends before its first member (cut short?)"
        elif isinstance(exc, tarfile.TarError | OSError | EOFError | ValueError):
            msg = f"{path}{at}: unreadable tar: {exc}"
        else:
            msg = failure(f"{path}{at}", "reading it as a tar", exc)
        if tf is not None:
            msg += "; the members after it were not read"
        yield _unreadable(path, msg)
    finally:
        if tf is not None:
            _damage.pop(id(tf), None)


# What is read past a tar's end-of-archive blocks, at most, to reach the end of its
# compressed stream: a record's padding is at most 10 KiB; more is not judged.
_TAR_TAIL = 1 << 20


def _cut_short(tf: tarfile.TarFile) -> str | None:
    """Why a compressed tar read to its end is cut short, or None: its gzip, bz2 or xz
    stream ends before its end marker (a download stopped at a flush point reads as a
    tar that simply ends; tarfile's stream does not check). A plain tar without its
    end-of-archive blocks is not judged: GNU tar reads one so without a word."""
    stream = tf.fileobj
    kind = getattr(stream, "comptype", "tar")
    decompressor = getattr(stream, "cmp", None)
    if kind not in ("gz", "bz2", "xz") or decompressor is None:
        return None
    try:
        drained = 0
        while drained <= _TAR_TAIL:  # the rest of the last record, to the stream's end
            block = stream.read(1 << 16)
            if not block:
                break
            drained += len(block)
        else:
            return None
    except Exception:  # data after the stream's end (a second stream): not judged
        return None
    name = {"gz": "gzip", "bz2": "bz2", "xz": "xz"}[kind]
    if not getattr(decompressor, "eof", True):
        return f"its {name} data ends before its end marker (the file was cut short?)"
    if kind == "gz" and len(getattr(decompressor, "unused_data", b"\0" * 8)) < 8:
        return "its gzip data ends without its checksum (the file was cut short?)"
    return None


def _nonempty(path: str) -> bool:
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


def _no_head() -> bytes | None:
    return None


def _tar_stream(
    tf: tarfile.TarFile,
    path: str,
    want: Want | None,
    max_size: int,
    links: list[tuple[tarfile.TarInfo, str]],
) -> Iterator[Locator]:
    """The members of a tar that are read as logs, in archive order; hard links that
    may be logs go to ``links`` (their data is an earlier member's: read afterwards)."""
    where = os.path.abspath(path)
    names = _Names()
    headers: list[tarfile.TarInfo] = getattr(tf, "members")  # noqa: B009
    while (info := tf.next()) is not None:
        headers.clear()  # a stream keeps every header it read otherwise
        if not info.isfile():
            if info.isdir() or _member_kind(info.name, _no_head) is None:
                continue  # (a name that may be a log's is looked into below)
            if info.islnk():
                links.append((info, names(info.name)))
                continue
            if has_log_name(os.path.basename(info.name)):
                # A symbolic link, a device or a FIFO: there is no log in it to read.
                member = names(info.name)
                key = f"{where}!{member}:{info.type!r}:{int(info.mtime)}"
                loc = Locator("tar", path, member, key)
                if want is None or want(loc):
                    yield replace(
                        loc, error=f"{loc.name}: {_tar_type(info)} inside the tar: not read"
                    )
            continue
        # Its first bytes, where its name leaves it open, are read here: a stream is
        # read once, in order, so the rest of the member is read on from them.
        read = _TarHead(tf, info)
        kind = _member_kind(info.name, read)
        if kind is None:
            continue
        member = names(info.name)
        key = f"{where}!{member}:{info.size}:{int(info.mtime)}"
        loc = Locator("tar", path, member, key)
        if want is not None and not want(loc):
            continue
        if kind == "nested":
            yield _nested(loc)
            continue
        if info.size > max_size:  # refused by its header, before it is read
            yield replace(loc, error=str(too_large(loc.name, max_size, info.size)))
            continue
        yield replace(loc, data=read.rest())


def _tar_type(info: tarfile.TarInfo) -> str:
    """What a tar member that holds no data is, for the line that names it."""
    if info.issym():
        return f"a symbolic link (to {info.linkname})"
    if info.islnk():
        return f"a hard link (to {info.linkname})"
    if info.ischr():
        return "a character device"
    if info.isblk():
        return "a block device"
    if info.isfifo():
        return "a FIFO"
    return f"a member of type {info.type.decode('latin-1')!r}"


def _tar_links(
    path: str, links: list[tuple[tarfile.TarInfo, str]], want: Want | None, max_size: int
) -> Iterator[Locator]:
    """Hard links inside a tar, read as the member each links to (the same file under a
    second name, as a folder walk reads both names of a file).

    A tar stores a hard link's data once, in the member it links to, which comes before
    it; a stream cannot go back, so the archive is read a second time, keeping the data
    of linked members only (one per name, the latest before each link), and each link
    is read where it stands. A link to no member before it is named, not read.
    """
    where = os.path.abspath(path)
    pending = {info.offset: (info, member) for info, member in links}
    targets = {info.linkname for info, _ in links}
    kept: dict[str, tuple[int, bytes | None]] = {}  # name: (size, data within the limit)
    try:
        with tarfile.open(path, mode="r|*") as tf:
            headers: list[tarfile.TarInfo] = getattr(tf, "members")  # noqa: B009
            while pending and (info := tf.next()) is not None:
                headers.clear()
                if info.isfile() and info.name in targets:
                    fh = tf.extractfile(info) if info.size <= max_size else None
                    kept[info.name] = (info.size, fh.read() if fh is not None else None)
                    continue
                link = pending.pop(info.offset, None)
                if link is not None and info.islnk():
                    yield from _tar_link(path, where, link, kept.get(info.linkname), want, max_size)
    except Exception as exc:  # the first pass said what is wrong with the archive
        why = f"{type(exc).__name__}: {exc}" if not isinstance(exc, OSError) else str(exc)
        for info, member in pending.values():
            loc = Locator("tar", path, member)
            yield replace(
                loc, error=f"{loc.name}: {_tar_type(info)} inside the tar: not read: {why}"
            )
        return
    for info, member in pending.values():  # the second pass ended before them
        yield from _tar_link(path, where, (info, member), None, want, max_size)


def _tar_link(
    path: str,
    where: str,
    link: tuple[tarfile.TarInfo, str],
    target: tuple[int, bytes | None] | None,
    want: Want | None,
    max_size: int,
) -> Iterator[Locator]:
    info, member = link
    if target is None:
        if has_log_name(os.path.basename(info.name)):
            loc = Locator("tar", path, member, f"{where}!{member}:link:{int(info.mtime)}")
            if want is None or want(loc):
                what = _tar_type(info)
                yield replace(loc, error=f"{loc.name}: {what} inside the tar, to no member "
                              "before it: not read")  # fmt: skip
        return
    size, data = target
    head = data[:HEAD_SIZE] if data is not None else None
    kind = _member_kind(info.name, lambda: head)
    if kind is None:
        return
    loc = Locator("tar", path, member, f"{where}!{member}:{size}:{int(info.mtime)}")
    if want is not None and not want(loc):
        return
    if kind == "nested":
        yield _nested(loc)
    elif data is None:
        yield replace(loc, error=str(too_large(loc.name, max_size, size)))
    else:
        yield replace(loc, data=data)


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
    rowid: bool
    unique_id: bool


def _db_layout(conn: sqlite3.Connection, selection: Selection) -> _DbLayout:
    row = conn.execute(
        "SELECT type, sql FROM sqlite_master WHERE name = 'logs' COLLATE NOCASE"
    ).fetchone()
    if row is None:
        if catalog_tables(conn) >= STORE_TABLES:
            raise ValueError("a results store's catalog (audit --store), not a database of logs")
        raise ValueError("no logs table")
    kind, sql = str(row[0]), str(row[1] or "").upper()
    # A view may be endless (a recursive one never ends): only a real table is read.
    if kind != "table" or sql.startswith("CREATE VIRTUAL"):
        what = "a view" if kind == "view" else "a virtual table" if kind == "table" else kind
        raise ValueError(f"its logs is {what}, not a table: refused")
    info = list(conn.execute("PRAGMA table_info(logs)"))
    cols = {r[1] for r in info}
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
    rowid = "WITHOUT ROWID" not in sql
    pk = [r[1] for r in info if r[5]]
    unique = pk == [id_col] or any(
        idx[2] and not idx[4] and _index_columns(conn, str(idx[1])) == [id_col]
        for idx in list(conn.execute("PRAGMA index_list(logs)"))
    )
    return _DbLayout(id_col, content_col, " AND ".join(where), rowid, unique or not rowid)


def _index_columns(conn: sqlite3.Connection, index: str) -> list[str]:
    quoted = index.replace('"', '""')
    return [str(c[2]) for c in conn.execute(f'PRAGMA index_info("{quoted}")')]


def _open_db(path: str) -> sqlite3.Connection:
    uri = Path(os.path.abspath(path)).as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True)


def _db_rows(path: str, selection: Selection, want: Want | None) -> Iterator[Locator]:
    where = os.path.abspath(path)
    conn: sqlite3.Connection | None = None
    count = 0
    try:
        conn = _open_db(path)
        layout = _db_layout(conn, selection)
        cols = f"{layout.id_col}, length({layout.content_col}) FROM logs WHERE {layout.where}"
        rows = conn.execute(
            f"SELECT rowid, {cols} ORDER BY rowid"
            if layout.rowid
            else f"SELECT -1, {cols} ORDER BY {layout.id_col}"
        )
        # Ids that may repeat (no unique constraint) are told apart by row id.
        names = None if layout.unique_id else _Names()
        for rowid, log_id, size in rows:
            count += 1
            member = str(log_id) if names is None else names(str(log_id))
            loc = Locator("sqlite", path, member, f"{where}#{member}:{size}", index=int(rowid))
            if want is None or want(loc):
                yield loc
    except (sqlite3.Error, ValueError) as exc:
        after = f" (after row {count})" if count else ""
        rest = "; the rows after it were not read" if count else ""
        yield _unreadable(path, f"{path}{after}: unreadable database: {exc}{rest}")
    finally:
        if conn is not None:
            conn.close()


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


def read_locator(loc: Locator, max_size: int = DEFAULT_MAX_INPUT) -> bytes:
    """The decompressed bytes of one log, at most ``max_size`` of them.

    Raises LogFormatError naming the input for every way it can fail.
    """
    if loc.error:
        raise UnreadableInput(loc.name, loc.error)
    try:
        return decompress(_raw(loc, max_size), loc.name, max_size)
    except LogFormatError:
        raise
    except MemoryError:
        raise LogFormatError(loc.name, "", "out of memory while reading it") from None
    except (OSError, KeyError, zipfile.BadZipFile, sqlite3.Error, EOFError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if loc.kind == "zip" and (
            (isinstance(exc, OSError) and exc.errno == errno.EINVAL)
            or str(exc).startswith("Bad magic number for file header")
        ):
            # The index sends the reader where the member is not (a seek before the
            # file's start, another member's bytes): the zip is damaged there.
            why = f"the zip's index does not point at this member ({why}): the zip is damaged"
        raise LogFormatError(loc.name, "", f"cannot read: {why}") from None
    except zlib.error as exc:
        raise LogFormatError(loc.name, "", f"cannot read: broken deflate data: {exc}") from None
    except Exception as exc:  # an encrypted member, a method zipfile lacks, a broken stream
        raise LogFormatError(loc.name, "", f"cannot read: {type(exc).__name__}: {exc}") from None


def _raw(loc: Locator, max_size: int) -> bytes:
    """The bytes of one input as stored (maybe compressed), bounded by ``max_size``."""
    if loc.data is not None:
        return loc.data
    if loc.kind == "file":
        return read_regular_file(loc.source, max_size)
    _caches_for_this_process()
    if loc.kind == "zip":
        return _zip_member(loc, max_size)
    if loc.kind == "sqlite":
        return _db_content(loc, max_size)
    raise LogFormatError(loc.name, "", f"unknown input kind {loc.kind}")


# What zipfile can undo: stored, deflate, bzip2, lzma.
_ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)


def _zip_member(loc: Locator, max_size: int) -> bytes:
    zf = _open_zips.get(loc.source)
    if zf is None:
        if len(_open_zips) >= 8:
            _open_zips.pop(next(iter(_open_zips))).close()
        zf = _open_zips[loc.source] = zipfile.ZipFile(loc.source)
    infos = zf.infolist()
    info = infos[loc.index] if 0 <= loc.index < len(infos) else zf.getinfo(loc.member)
    if loc.member != info.filename and not loc.member.startswith(f"{info.filename} ("):
        raise LogFormatError(loc.name, "", "cannot read: the archive changed since it was listed")
    if info.file_size > max_size:
        raise too_large(loc.name, max_size, info.file_size)
    if info.flag_bits & 0x1:
        raise LogFormatError(loc.name, "", "cannot read: the member is encrypted")
    if info.compress_type not in _ZIP_METHODS:
        raise LogFormatError(
            loc.name, "", f"cannot read: compression method {info.compress_type} is not supported"
        )
    if info.compress_type == zipfile.ZIP_BZIP2:
        return _zip_bzip2_member(loc, info, max_size)
    # Read in chunks: a member may hold far more than its header says (a zip bomb).
    # zipfile inflates deflate with a bound per chunk.
    with zf.open(info) as fh:
        return read_stream(fh, max_size, loc.name)


def _zip_bzip2_member(loc: Locator, info: zipfile.ZipInfo, max_size: int) -> bytes:
    """A bzip2 member, undone by our own bounded decompressor.

    zipfile gives each chunk of bzip2 data to its decompressor without a bound on
    the output, and a few KB of bzip2 can stand for gigabytes.
    """
    if info.compress_size > max_size:
        raise too_large(loc.name, max_size, info.compress_size)
    with open(loc.source, "rb") as fh:
        fh.seek(info.header_offset)
        head = fh.read(30)
        if head[: len(ZIP_MAGIC)] != ZIP_MAGIC:
            raise LogFormatError(loc.name, "", "cannot read: bad local header")
        skip = int.from_bytes(head[26:28], "little") + int.from_bytes(head[28:30], "little")
        fh.seek(skip, os.SEEK_CUR)
        packed = fh.read(info.compress_size)
    data = bunzip2(packed, loc.name, max_size)  # the member's bytes, maybe a .mjlog's gzip
    if zlib.crc32(data) != info.CRC:
        raise LogFormatError(loc.name, "", "cannot read: bad CRC-32")
    return data


def _db_content(loc: Locator, max_size: int) -> bytes:
    entry = _open_dbs.get(loc.source)
    if entry is None:
        conn = _open_db(loc.source)
        entry = _open_dbs[loc.source] = (conn, _db_layout(conn, Selection()))
    conn, layout = entry
    col = layout.content_col
    # The length is asked first, in the same statement: a row over the limit is
    # never fetched.
    sql = f"SELECT length({col}), CASE WHEN length({col}) <= ? THEN {col} END FROM logs WHERE "
    if loc.index >= 0 and layout.rowid:
        row = conn.execute(sql + "rowid = ?", (max_size, loc.index)).fetchone()
    else:
        row = conn.execute(sql + f"{layout.id_col} = ?", (max_size, loc.member)).fetchone()
    if row is None:
        raise LogFormatError(loc.name, "", "no such log in the database")
    size, content = row
    if content is None:
        raise too_large(loc.name, max_size, size)
    data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
    if len(data) > max_size:  # text: length() counted characters
        raise too_large(loc.name, max_size, len(data))
    return data


def load_single(path: str, max_size: int = DEFAULT_MAX_INPUT) -> GameLog:
    """The one log at ``path``: a file, ``-``, or a container that holds exactly one.

    For ``replay`` and ``convert``. Raises MjauditError (one line, naming the
    input) for every failure, an unexpected one included.
    """
    wanted: list[str] = []

    def want(loc: Locator) -> bool:  # counts the logs, reads only the first
        wanted.append(loc.name)
        return len(wanted) == 1

    found = list(iter_locators([path], want=want, max_size=max_size))
    if len(wanted) > 1:
        raise MjauditError(
            f"{path}: holds {len(wanted)} logs; give one log (or a container that holds one)"
        )
    broken = [loc for loc in found if loc.error]
    if broken:
        raise UnreadableInput(broken[0].name, broken[0].error)
    if not found:
        raise MjauditError(f"{path}: holds no log")
    loc = found[0]
    step = "reading"
    try:
        data = read_locator(loc, max_size)
        step = "parsing"
        return load_bytes(data, loc.name)
    except Exception as exc:
        raise MjauditError(failure(loc.name, step, exc)) from None
