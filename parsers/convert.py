"""Convert a log between the formats mjaudit reads: parse, then write.

The writers transcribe; they never complete a claim the source lacks. So a
conversion fails (:class:`ConvertError`, naming the event) when the target needs
something the source does not record: Tenhou XML needs physical tile ids (only an
mjlog has them), Tenhou JSON needs each win's yaku and deltas and a result for
every hand. mjai can be written from anything.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mjaudit.errors import MjauditError
from mjaudit.events import GameLog, RoundStart
from parsers.containers import DEFAULT_MAX_INPUT, load_single
from parsers.mjai_writer import write_mjai
from parsers.tenhou_json_writer import write_tenhou_json
from parsers.tenhou_xml_writer import write_tenhou_xml

__all__ = ["TARGETS", "ConvertError", "convert_file", "convert_log"]

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
        Path(out).write_bytes(data)
    return log
