"""Convert a log between the formats mjaudit reads: parse, then write.

The writers transcribe; they never complete a claim the source lacks. So a
conversion fails (:class:`ConvertError`, naming the event) when the target needs
something the source does not record: Tenhou XML needs physical tile ids (only an
mjlog has them), Tenhou JSON needs each win's yaku and deltas and a result for
every hand. mjai can be written from anything.

An output file is written whole or not at all (:func:`replacing`): a full disk
leaves the file that was there before, never half of a new one.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from mjaudit.errors import MjauditError
from mjaudit.events import GameLog, RoundStart
from parsers.containers import DEFAULT_MAX_INPUT, load_single
from parsers.mjai_writer import write_mjai
from parsers.tenhou_json_writer import write_tenhou_json
from parsers.tenhou_xml_writer import write_tenhou_xml

__all__ = ["TARGETS", "ConvertError", "convert_file", "convert_log", "replacing"]

TARGETS: dict[str, Callable[[GameLog], bytes]] = {
    "mjai": write_mjai,
    "tenhou-json": write_tenhou_json,
    "tenhou-xml": write_tenhou_xml,
}


class ConvertError(MjauditError):
    """The source does not record something the target format needs."""


_ARTICLE = {"mjai": "an"}


def _without_ids(log: GameLog) -> bool:
    """Whether the log's hands carry no physical tile ids (all but mjlog XML's)."""
    first = next((ev for ev in log.events if isinstance(ev, RoundStart)), None)
    return first is not None and first.hand_ids is None


def convert_log(log: GameLog, to: str) -> bytes:
    """The bytes of ``log`` in the format ``to`` (``mjai``, ``tenhou-json``, ``tenhou-xml``)."""
    writer = TARGETS.get(to)
    if writer is None:
        raise ConvertError(f"unknown target format {to!r} (known: {', '.join(TARGETS)})")
    if to == "tenhou-xml" and _without_ids(log):
        raise ConvertError(
            f"{log.path}: cannot write {to}: {_ARTICLE.get(log.format, 'a')} {log.format} log "
            "records no physical tile ids (0..135), by which mjlog XML names every tile: only "
            "a Tenhou XML log can be written as tenhou-xml (tenhou-json and mjai take any log)"
        )
    unread = next(
        (ev for ev in log.events if isinstance(ev, RoundStart) and ev.unreadable is not None),
        None,
    )
    if unread is not None:
        # Its play was not read: written out, the hand would be a deal and a result
        # with nothing played between them, which the source does not say.
        raise ConvertError(
            f"{log.path}: cannot write {to}: the play of {unread.label} ({unread.pos.where}) "
            f"cannot be read: {unread.unreadable}"
        )
    try:
        return writer(log)
    except ValueError as exc:
        raise ConvertError(f"{log.path}: cannot write {to}: {exc}") from None


def convert_file(path: str, to: str, out: str, max_size: int = DEFAULT_MAX_INPUT) -> GameLog:
    """Read ``path`` (any supported format; a file, ``-``, or a container that holds
    one log), write it to ``out`` as ``to``; ``-`` = stdout."""
    log = load_single(path, max_size)
    data = convert_log(log, to)
    if out == "-":
        import sys

        sys.stdout.buffer.write(data)
    else:
        with replacing(out) as f:
            f.write(data)
    return log


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file whose content becomes ``path`` only once it is complete.

    It is a temporary file in ``path``'s folder, renamed over ``path`` (os.replace)
    when the ``with`` block ends without an error; on any error it is removed, so a
    full disk, a quota or Ctrl-C leaves the file that was there before (or none),
    never half of one. The new file keeps the old one's permissions; a symbolic link
    is followed (its target is replaced). An OSError names ``path``, not the
    temporary file (a failed ``write`` names no file at all). A path that exists but
    is no regular file (``/dev/null``, a FIFO, a terminal) cannot be replaced and is
    written in place.
    """
    target = Path(path)
    real = Path(os.path.realpath(target))
    try:
        mode: int | None = real.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise _naming(exc, target) from None
    if mode is not None and not stat.S_ISREG(mode):
        try:
            with open(real, "wb") as f:
                yield f
        except OSError as exc:
            raise _naming(exc, target, real) from None
        return
    # Hidden, and short enough for the file system's longest name.
    tmp = real.with_name(f".{real.name[:200]}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        raise _naming(exc, target, tmp) from None
    try:
        with os.fdopen(fd, "wb") as f:
            if mode is not None:
                os.fchmod(f.fileno(), stat.S_IMODE(mode))
            yield f
        os.replace(tmp, real)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _naming(exc, target, tmp) from None
        raise


def _naming(exc: OSError, path: Path, tmp: Path | None = None) -> OSError:
    """``exc`` naming ``path`` where it names no file, or ``tmp`` (the file written)."""
    named = exc.filename is not None and (tmp is None or str(exc.filename) != str(tmp))
    if exc.errno is None or named:
        return exc
    return OSError(exc.errno, exc.strerror or str(exc), str(path))
