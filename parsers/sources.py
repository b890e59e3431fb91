"""Reading inputs: files, gzip, stdin, directories; sniffing the format."""

from __future__ import annotations

import gzip
import json
import sys
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from mjaudit.errors import LogFormatError
from mjaudit.events import GameLog
from parsers.tenhou_xml import parse_tenhou_xml

__all__ = ["LOG_SUFFIXES", "iter_inputs", "load", "load_bytes", "read_input"]

LOG_SUFFIXES = (".xml", ".mjlog", ".json", ".jsonl", ".mjson")


def _is_log_name(name: str) -> bool:
    name = name.lower().removesuffix(".gz")
    return name.endswith(LOG_SUFFIXES)


def iter_inputs(paths: Iterable[str]) -> Iterator[str]:
    """Yield each path; directories are walked recursively for log files, sorted."""
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


def read_input(path: str) -> bytes:
    """The bytes of a file (or stdin for ``-``), gunzipped when they are gzip."""
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise LogFormatError(path, "", f"cannot read: {exc.strerror or exc}") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise LogFormatError(path, "gzip", f"broken gzip data: {exc}") from None
    return data


def load_bytes(data: bytes, path: str) -> GameLog:
    """Parse already-read bytes, sniffing the format from the content."""
    head = data.lstrip()[:1]
    if data.startswith(b"\xef\xbb\xbf"):
        head = data[3:].lstrip()[:1]
    if head == b"<":
        return parse_tenhou_xml(data, path)
    if head in (b"{", b"["):
        return _load_json(data, path)
    if not head:
        raise LogFormatError(path, "byte 0", "empty file")
    raise LogFormatError(
        path, "byte 0", "not a mahjong log: expected Tenhou XML, Tenhou JSON or mjai JSON lines"
    )


def _load_json(data: bytes, path: str) -> GameLog:
    """Tenhou JSON or mjai: an mjai log's first line is one event with a ``type``."""
    first = data.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
    try:
        event = json.loads(first)
    except (ValueError, UnicodeDecodeError, RecursionError):
        event = None  # a pretty-printed document (Tenhou JSON), or its parser words the error
    # Imported here: a run over Tenhou XML alone never needs the JSON readers.
    if isinstance(event, dict) and "type" in event and "log" not in event:
        from parsers.mjai import parse_mjai

        return parse_mjai(data, path)
    from parsers.tenhou_json import parse_tenhou_json

    return parse_tenhou_json(data, path)


def load(path: str) -> GameLog:
    """Read and parse one log file."""
    return load_bytes(read_input(path), path)
