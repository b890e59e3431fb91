"""mjai draw and discard lines looked up (parsers.mjai._PLAIN_LINES) against decoding them.

A line spelt as mjai writes it is read without the JSON decoder; the result must be
what decoding every line gives: the same events at the same positions, the same
errors, for the corpus and for mutated logs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import parsers.mjai as mjai
from mjaudit.errors import LogFormatError, SourcePos
from mjaudit.events import with_pos
from parsers.mjai_names import tile_of
from tests.conftest import CORPUS
from tests.fuzzing import mutate

MJAI = CORPUS / "mjai"
_NOWHERE = SourcePos("", 0)


def _read(data: bytes, plain: bool, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The events (with their positions) and errors of a log, or its error message."""
    with monkeypatch.context() as patch:
        if not plain:
            patch.setattr(mjai, "_PLAIN_LINES", {})
        try:
            log = mjai.parse_mjai(data, "x.jsonl")
        except LogFormatError as exc:
            return str(exc)
    # The source object is each reading's own: compared by the positions it gives.
    events = [(with_pos(e, _NOWHERE), e.pos) for e in log.events]
    return events, [(str(pos), message) for pos, message in log.errors]


def _logs() -> list[Path]:
    if not MJAI.is_dir():
        pytest.skip(f"corpus not available at {MJAI}")
    return sorted(p for p in MJAI.rglob("*") if p.suffix in (".json", ".jsonl"))


def test_every_plain_line_decodes_to_what_it_is_read_as() -> None:
    for line, (is_draw, seat, tile, flag) in mjai._PLAIN_LINES.items():
        ev = json.loads(line)
        assert set(ev) <= {"type", "actor", "pai", "tsumogiri"}
        assert ev["type"] == ("tsumo" if is_draw else "dahai")
        assert ev["actor"] == seat and tile_of(ev["pai"]) is tile
        assert ev.get("tsumogiri") is flag


def test_corpus_logs_read_the_same_with_and_without_the_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looked_up = 0
    for path in _logs():
        data = path.read_bytes()
        assert _read(data, True, monkeypatch) == _read(data, False, monkeypatch), path.name
        looked_up += sum(line in mjai._PLAIN_LINES for line in data.decode().splitlines())
    assert looked_up > 20_000  # the lookup is what reads most of the corpus


def test_mutated_logs_read_the_same_with_and_without_the_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    logs = _logs()
    for seed in range(800):
        path = logs[seed % len(logs)]
        _, data = mutate(path.read_bytes(), "mjai", seed)
        expected = _read(data, False, monkeypatch)
        assert _read(data, True, monkeypatch) == expected, (path.name, seed)


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"tsumo","actor":3,"pai":"1m"}',  # a seat a three-player game has not
        '{"type":"dahai","actor":0,"pai":"1m","tsumogiri":true}',  # before the hand
    ],
)
def test_a_plain_line_where_the_hand_does_not_take_it_is_refused_as_decoded(
    line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = (
        '{"type":"start_game","names":["a","b","c"]}\n'
        '{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,'
        '"dora_marker":"1p","tehais":['
        + ",".join(['["1m","1m","1m","2m","2m","2m","3m","3m","3m","4m","4m","4m","5m"]'] * 3)
        + "]}\n"
    )
    data = (line + "\n" + start if "dahai" in line else start + line + "\n").encode()
    plain = _read(data, True, monkeypatch)
    assert isinstance(plain, str)  # refused, as decoding the line refuses it
    assert plain == _read(data, False, monkeypatch)
