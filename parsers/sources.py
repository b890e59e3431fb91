"""Reading inputs: files, gzip and bz2, stdin, directories; sniffing the format.

Every read is bounded: a plain file or stdin by its size, a compressed one while it
is decompressed (never after), so a 4 MB gzip that would become 4 GiB stops at the
limit. One compressed layer, or one inside another (a gzip'd ``.mjlog`` in a gzip),
is undone; a third is refused. Files that are not regular files (a FIFO, a device,
a socket) are refused by their type and never opened for reading.
"""

from __future__ import annotations

import bz2
import json
import os
import re
import stat
import sys
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from mjaudit.errors import LogFormatError
from mjaudit.events import GameLog
from parsers.tenhou_xml import parse_tenhou_xml

__all__ = [
    "APPLE_DOUBLE",
    "DEFAULT_MAX_INPUT",
    "HEAD_SIZE",
    "LOG_SUFFIXES",
    "MAX_LAYERS",
    "SQLITE_MAGIC",
    "ZIP_MAGIC",
    "InputTooLarge",
    "bunzip2",
    "decompress",
    "format_size",
    "is_mac_metadata",
    "iter_inputs",
    "load",
    "load_bytes",
    "looks_like_log",
    "read_input",
    "read_regular_file",
    "read_stream",
    "regular_file_problem",
    "too_large",
]

LOG_SUFFIXES = (".xml", ".mjlog", ".json", ".jsonl", ".mjson")

#: The default decompressed-size limit of one input (``--max-input-size``): the
#: largest real log seen is under 1 MiB, so this leaves room without risking memory.
DEFAULT_MAX_INPUT = 64 * 1024 * 1024

#: Compressed layers undone at most: a gzip'd log, or a gzip'd log gzip'd again.
MAX_LAYERS = 2

#: The first bytes of a zip (its first member's header) and of an SQLite database.
ZIP_MAGIC = b"PK\x03\x04"
SQLITE_MAGIC = b"SQLite format 3\x00"

#: The first bytes of an AppleDouble file (:func:`is_mac_metadata`).
APPLE_DOUBLE = b"\x00\x05\x16\x07"

#: How much of a file is read to tell whether it is a log, when its name does not say.
HEAD_SIZE = 4096

_CHUNK = 1 << 20


class InputTooLarge(LogFormatError):
    """An input larger than the size limit, raw or once decompressed."""


def format_size(n: int) -> str:
    """``64 MiB``, ``1 GiB``, ``1000 bytes``: a limit as a person would write it."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} bytes"


def too_large(
    where: str, limit: int, size: int | None = None, unpacked: bool = False
) -> InputTooLarge:
    """``x.xml: 70000000 bytes, larger than the 64 MiB input limit (--max-input-size)``."""
    what = f"{size} bytes, larger" if size is not None else "larger"
    when = " once decompressed" if unpacked else ""
    return InputTooLarge(
        where, "", f"{what} than the {format_size(limit)} input limit{when} (--max-input-size)"
    )


def _is_log_name(name: str) -> bool:
    name = name.lower()
    for _ in range(MAX_LAYERS):
        name = name.removesuffix(".gz").removesuffix(".bz2")
    return name.endswith(LOG_SUFFIXES)


def iter_inputs(paths: Iterable[str]) -> Iterator[str]:
    """Yield each path; directories are walked recursively for log files, sorted.

    Only plain files and folders: archives and databases are expanded by
    :func:`parsers.containers.iter_locators`, which every command uses.
    """
    for raw in paths:
        if raw == "-":
            yield raw
            continue
        p = Path(raw)
        if p.is_dir():
            found = sorted(str(f) for f in p.rglob("*") if f.is_file() and _is_log_name(f.name))
            yield from found
        else:
            yield raw


def regular_file_problem(mode: int) -> str | None:
    """Why a file of this ``st_mode`` is not read (a FIFO, a device...), or None."""
    if stat.S_ISREG(mode):
        return None
    kind = (
        "a folder" if stat.S_ISDIR(mode)
        else "a FIFO" if stat.S_ISFIFO(mode)
        else "a socket" if stat.S_ISSOCK(mode)
        else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "not a regular file"
    )  # fmt: skip
    # A pipe (``<(zcat x.gz)`` names one) may block its reader for ever; stdin is read.
    hint = " (give a pipe as -, standard input)" if stat.S_ISFIFO(mode) else ""
    return f"not read: {kind}, not a regular file{hint}"


def read_stream(fh: IO[bytes], limit: int, where: str) -> bytes:
    """At most ``limit`` bytes of a stream (stdin, an archive member), in chunks."""
    parts: list[bytes] = []
    total = 0
    while chunk := fh.read(min(_CHUNK, limit + 1 - total)):
        parts.append(chunk)
        total += len(chunk)
        if total > limit:
            raise too_large(where, limit)
    return b"".join(parts)


def read_regular_file(path: str, limit: int = DEFAULT_MAX_INPUT) -> bytes:
    """The raw bytes of a regular file, refused by type or size before they are read.

    The file is opened without blocking and checked with ``fstat`` on the open
    descriptor, so a FIFO put in its place after a ``stat`` is refused all the same.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise LogFormatError(path, "", f"cannot read: {exc.strerror or exc}") from None
    try:
        # Before the descriptor becomes a file object, which refuses a folder with
        # an exception of its own.
        problem = regular_file_problem(os.fstat(fd).st_mode)
    except OSError as exc:
        os.close(fd)
        raise LogFormatError(path, "", f"cannot read: {exc.strerror or exc}") from None
    if problem is not None:
        os.close(fd)
        raise LogFormatError(path, "", problem)
    with os.fdopen(fd, "rb", buffering=0) as fh:
        try:
            st = os.fstat(fd)
            if st.st_size > limit:
                raise too_large(path, limit, st.st_size)
            data = fh.read(st.st_size + 1)
            if len(data) > st.st_size:  # it grew since the stat
                data += fh.read(max(limit + 1 - len(data), 0))
                if len(data) > limit:
                    raise too_large(path, limit)
        except OSError as exc:
            raise LogFormatError(path, "", f"cannot read: {exc.strerror or exc}") from None
    return data


def read_input(path: str, limit: int = DEFAULT_MAX_INPUT) -> bytes:
    """The bytes of a file (or stdin for ``-``), decompressed, within ``limit``."""
    if path == "-":
        data = read_stream(sys.stdin.buffer, limit, "-")
    else:
        data = read_regular_file(path, limit)
    return decompress(data, path, limit)


def _compression(data: bytes) -> str | None:
    if data[:2] == b"\x1f\x8b":
        return "gzip"
    if data[:3] == b"BZh":
        return "bz2"
    return None


def decompress(data: bytes, where: str, limit: int = DEFAULT_MAX_INPUT) -> bytes:
    """Undo gzip or bz2 (by their magic bytes), one layer or two, within ``limit``.

    Anything else is returned as it is. Raises LogFormatError for broken data, a
    third layer, or more than ``limit`` bytes of output (found while inflating).
    """
    for layer in range(MAX_LAYERS + 1):
        kind = _compression(data)
        if kind is None:
            return data
        if layer == MAX_LAYERS:
            raise LogFormatError(
                where, "", f"more than {MAX_LAYERS} layers of compression (gzip or bz2)"
            )
        try:
            data = _gunzip(data, where, limit) if kind == "gzip" else bunzip2(data, where, limit)
        except LogFormatError:
            raise
        except (OSError, EOFError, ValueError, zlib.error) as exc:
            raise LogFormatError(where, "", f"broken {kind} data: {exc}") from None
        except MemoryError:
            raise LogFormatError(where, "", f"out of memory while undoing {kind}") from None
    return data  # not reached


def _gunzip(data: bytes, where: str, limit: int) -> bytes:
    """Every member of a gzip stream, inflated with a bound on the output."""
    out: list[bytes] = []
    total = 0
    rest = data
    while rest:
        if rest[:2] != b"\x1f\x8b":
            if rest.strip(b"\x00"):  # zero padding after the last member is allowed
                raise LogFormatError(where, "", "broken gzip data: garbage after the last member")
            break
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        chunk = d.decompress(rest, limit + 1 - total)
        total += len(chunk)
        if total > limit:
            raise too_large(where, limit, unpacked=True)
        if not d.eof:
            raise LogFormatError(where, "", "broken gzip data: it ends before its end marker")
        out.append(chunk)
        rest = d.unused_data
    return b"".join(out)


def bunzip2(data: bytes, where: str, limit: int) -> bytes:
    """Every stream of a bzip2 file, decompressed with a bound on the output.

    Raises InputTooLarge past ``limit``, LogFormatError or OSError for broken data.
    """
    out: list[bytes] = []
    total = 0
    rest = data
    while rest:
        d = bz2.BZ2Decompressor()
        try:
            chunk = d.decompress(rest, limit + 1 - total)
        except OSError:
            if out:  # what follows the last stream is not bzip2: ignored, as bz2 does
                break
            raise
        total += len(chunk)
        if total > limit:
            raise too_large(where, limit, unpacked=True)
        if not d.eof:
            raise LogFormatError(where, "", "broken bz2 data: it ends before its end marker")
        out.append(chunk)
        rest = d.unused_data
    return b"".join(out)


def _wide_codec(data: bytes) -> str | None:
    """``utf-32`` or ``utf-16`` for data that starts with its byte order mark."""
    if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "utf-32"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    return None


def _archive_kind(data: bytes) -> tuple[str, str] | None:
    """(what, suffix) of a zip, a tar or an SQLite database given where a log was
    expected (on standard input, or under a log's name), by its magic bytes."""
    if data.startswith(ZIP_MAGIC):
        return "a zip archive", ".zip"
    if data[257:262] == b"ustar":
        return "a tar archive", ".tar"
    if data.startswith(SQLITE_MAGIC):
        return "an SQLite database", ".db"
    return None


def is_mac_metadata(name: str, head: bytes) -> bool:
    """Whether a file is the metadata macOS keeps beside another as ``._NAME`` (an
    AppleDouble file; a zip made with its Finder holds them in ``__MACOSX/``):
    by its name and its first four bytes."""
    return os.path.basename(name).startswith("._") and head.startswith(APPLE_DOUBLE)


def load_bytes(data: bytes, path: str) -> GameLog:
    """Parse already-read bytes, sniffing the format from the content."""
    if data.startswith(APPLE_DOUBLE):
        raise LogFormatError(path, "byte 0", "macOS metadata (AppleDouble), not a game log")
    wide = _wide_codec(data)
    if wide is not None:
        # Text saved as UTF-16 or UTF-32 with its byte order mark (Windows editors'
        # "Unicode"). XML declares and marks its own encoding, which lxml reads;
        # JSON is read as UTF-8 (RFC 8259 §8.1), so it is re-encoded.
        try:
            text = data.decode(wide)
        except UnicodeDecodeError as exc:
            raise LogFormatError(
                path, f"byte {exc.start}", f"not {wide.upper()} text, though it starts as such"
            ) from None
        if text.lstrip()[:1] == "<":
            return parse_tenhou_xml(data, path)
        data = text.encode("utf-8")
    head = data.lstrip()[:1]
    if data.startswith(b"\xef\xbb\xbf"):
        head = data[3:].lstrip()[:1]
    if head == b"<":
        return parse_tenhou_xml(data, path)
    if head in (b"{", b"["):
        return _load_json(data, path)
    if not head:
        raise LogFormatError(path, "byte 0", "empty file")
    archive = _archive_kind(data)
    if archive is not None:
        what, suffix = archive
        hint = (
            "archives and databases are read from files, not from standard input"
            if path == "-"
            else f"give the file a {suffix} name to have it read as one"
        )
        raise LogFormatError(path, "byte 0", f"{what}, not a log: {hint}")
    raise LogFormatError(
        path,
        "byte 0",
        "not a mahjong log: expected Tenhou XML, Tenhou JSON, mjai JSON lines or a "
        "Mahjong Soul record",
    )


# A log's own marks near its start: mjlog XML's root; a Tenhou JSON game's ``log``; an
# mjai log's first event (``start_game``, or ``start_kyoku`` for a hand cut out);
# Mahjong Soul's record keys (_MAHJONGSOUL_MARK).
_XML_MARK = re.compile(rb"<mjloggm[\s>/]")
_JSON_MARK = re.compile(rb'"log"\s*:\s*\[|"type"\s*:\s*"start_(game|kyoku)"')


def _inflated_start(head: bytes, kind: str) -> bytes | None:
    """What the first bytes of compressed data inflate to (at most HEAD_SIZE bytes);
    None where nothing can be read out of them."""
    d = zlib.decompressobj(16 + zlib.MAX_WBITS) if kind == "gzip" else bz2.BZ2Decompressor()
    try:
        out: bytes = d.decompress(head, HEAD_SIZE)
    except (OSError, EOFError, ValueError, zlib.error):
        return None
    return out if out or d.eof else None


def looks_like_log(head: bytes, layers: int = MAX_LAYERS) -> bool:
    """Whether a file's first bytes are those of a game log (any format mjaudit reads,
    plain or compressed): for a file whose name does not say what it holds (a bare
    Tenhou log id, ``x.gz``, ``x.log``, ``x.txt``; parsers.walk).

    Compressed data is judged by what its start inflates to; compressed data out of
    which nothing can be read (broken, or too little of it to tell) counts as a log,
    so that the reader names its problem rather than the file being passed over.
    """
    kind = _compression(head)
    if kind is not None:
        if not layers:
            return True  # one layer too many: the reader says so
        inner = _inflated_start(head, kind)
        return inner is None or looks_like_log(inner, layers - 1)
    wide = _wide_codec(head)
    if wide is not None:  # UTF-16 or UTF-32 text (load_bytes reads it)
        head = head.decode(wide, errors="ignore").encode("utf-8")
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:HEAD_SIZE]
    if text[:1] == b"<":
        return bool(_XML_MARK.search(text))
    if text[:1] == b"{":
        return bool(_JSON_MARK.search(text) or _MAHJONGSOUL_MARK.search(text))
    return False


def _load_json(data: bytes, path: str) -> GameLog:
    """Mahjong Soul, Tenhou JSON or mjai: an mjai log's first line is one event with a
    ``type``; a Mahjong Soul record shows its keys near its start (and is often one
    line: it is tried first, so that it is parsed once)."""
    # Imported here: a run over Tenhou XML alone never needs the JSON readers.
    if _MAHJONGSOUL_MARK.search(data[:4096]):
        from parsers.json_text import BadJson, json_reader
        from parsers.mahjongsoul import is_mahjongsoul, parse_mahjongsoul_object

        try:
            # The reader looks for long numbers in the bytes as they are (no second
            # encoding of the decoded text).
            whole = json_reader(data)(data.decode("utf-8-sig"))
        except (BadJson, UnicodeDecodeError):
            whole = None  # the Tenhou JSON reader words the error
        if is_mahjongsoul(whole):
            return parse_mahjongsoul_object(whole, path)
        if isinstance(whole, list) and len(whole) > 1 and all(map(is_mahjongsoul, whole)):
            raise LogFormatError(
                path, "top level", f"a list of {len(whole)} Mahjong Soul records: one game per file"
            )
    first = data.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
    try:
        event = json.loads(first)
    except (ValueError, UnicodeDecodeError, RecursionError):
        event = None  # a pretty-printed document (Tenhou JSON), or its parser words the error
    own = _own_output(data, event)
    if own is not None:
        raise LogFormatError(path, "line 1", f"not a game log: {own}")
    if isinstance(event, dict) and "type" in event and "log" not in event:
        from parsers.mjai import parse_mjai

        return parse_mjai(data, path)
    from parsers.tenhou_json import parse_tenhou_json

    return parse_tenhou_json(data, path)


# What mjaudit itself writes as JSON starts with its schema (docs/cases.md, the audit's
# JSON): such a file found among logs (a cases file kept beside the games) is named
# for what it is rather than read as a game and refused for a missing key.
_OWN_SCHEMA = re.compile(
    rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"schema"\s*:\s*"(mjaudit\.[a-z_-]{1,40}/[0-9]{1,4})"'
)
_OWN_KINDS = {
    "cases": "conformance cases, for score --batch or cases check",
    "audit": "an audit's JSON output",
    "cases-check": "the JSON output of cases check",
}


def _own_output(data: bytes, first: object) -> str | None:
    """What a file of mjaudit's own output is, in words; None for anything else.

    ``first`` is the file's first line as JSON (None where it is not JSON). An
    answers file (``score --batch``'s, or another scorer's: docs/cases.md) has no
    schema: its lines are objects with an ``id`` and a ``result``, or an ``error``
    and its ``message``, and none of an mjai event's ``type`` or a game's ``log``.
    """
    found = _OWN_SCHEMA.match(data[:256])
    if found is not None:
        schema = found.group(1).decode("ascii")
        kind = _OWN_KINDS.get(schema[len("mjaudit.") :].split("/")[0])
        return f"mjaudit's output ({schema}{': ' + kind if kind else ''})"
    if (
        isinstance(first, dict)
        and isinstance(first.get("id"), str)
        and "type" not in first
        and "log" not in first
        and (isinstance(first.get("result"), dict) or ("error" in first and "message" in first))
    ):
        return "a scorer's answers to conformance cases, for cases check"
    return None


# The keys that start a Mahjong Soul record (its ``head``, ``meta``, ``actions`` or
# ``records``): only a file that shows one near its start is tried as one.
_MAHJONGSOUL_MARK = re.compile(rb'"(head|meta|actions|records)"\s*:|GameDetailRecords')


def load(path: str, limit: int = DEFAULT_MAX_INPUT) -> GameLog:
    """Read and parse one log file (plain, gzip or bz2; ``-`` for stdin)."""
    return load_bytes(read_input(path, limit), path)
