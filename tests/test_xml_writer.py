"""The mjlog writer is the inverse of the parser: parse -> write -> parse is the identity."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mjaudit.errors import SourcePos
from mjaudit.events import DrawTile, Event, GameLog, RulesHint, with_pos
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile
from parsers import load
from parsers.tenhou_xml import decode_meld, parse_tenhou_xml
from parsers.tenhou_xml_writer import encode_meld, go_type, write_tenhou_xml

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "tenhou-xml"
_NOWHERE = SourcePos("", 0)


def without_pos(events: tuple[Event, ...]) -> list[Event]:
    """The events with their source positions blanked, for comparing two parses."""
    return [with_pos(ev, _NOWHERE) for ev in events]


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.iterdir() if p.suffix in (".xml", ".mjlog", ".gz"))


def _round_trip(log: GameLog) -> GameLog:
    return parse_tenhou_xml(write_tenhou_xml(log), log.path)


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus folder {CORPUS} is absent")
def test_corpus_round_trip() -> None:
    files = _corpus_files()
    assert len(files) >= 300
    failures: list[str] = []
    for path in files:
        log = load(str(path))
        again = _round_trip(log)
        first, second = without_pos(log.events), without_pos(again.events)
        if first != second:
            k = next(
                (i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b), None
            )
            where = f"event {k}: {first[k]!r} != {second[k]!r}" if k is not None else "length"
            failures.append(f"{path.name}: {where}")
    assert not failures, "\n".join(failures[:5])


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus folder {CORPUS} is absent")
def test_writing_is_deterministic_and_idempotent() -> None:
    path = _corpus_files()[0]
    log = load(str(path))
    once = write_tenhou_xml(log)
    assert once == write_tenhou_xml(log)
    assert once == write_tenhou_xml(_round_trip(log))
    assert once.startswith(b'<mjloggm ver="2.3">')


def _all_melds() -> list[tuple[int, Meld]]:
    """Every meld shape the bitfield can hold, decoded from a raw value."""
    out: list[tuple[int, Meld]] = []
    who = 2
    for suit in range(3):
        for rank in range(7):
            for called in range(3):
                for copies in range(64):
                    m = (((suit * 7 + rank) * 3 + called) << 10) | 0x4 | 3 | (copies << 3)
                    out.append((who, decode_meld(who, m)))
    for kind in range(34):
        for called in range(3):
            for t4 in range(4):
                for rel in (1, 2, 3):
                    for flag in (0x8, 0x10):
                        m = ((kind * 3 + called) << 9) | (t4 << 5) | flag | rel
                        out.append((who, decode_meld(who, m)))
    for tile_id in range(136):
        for rel in range(4):
            out.append((who, decode_meld(who, (tile_id << 8) | rel)))
    for tile_id in range(120, 124):
        out.append((who, decode_meld(who, (tile_id << 8) | 0x20)))
    return out


@pytest.mark.parametrize("aka", [True, False], ids=["aka", "no-aka"])
def test_encode_meld_inverts_decode_meld(aka: bool) -> None:
    for who, meld in _all_melds():
        m = encode_meld(who, meld)
        assert decode_meld(who, m, aka).tile_ids == meld.tile_ids
        assert decode_meld(who, m) == meld, f"{meld} -> {m}"


def test_encode_meld_kinds() -> None:
    seen = {meld.kind for _, meld in _all_melds()}
    assert seen == set(MeldKind)


def test_encode_meld_needs_ids() -> None:
    meld = Meld(MeldKind.PON, (Tile("5z"),) * 3, Tile("5z"), 1)
    with pytest.raises(ValueError, match="no physical tile ids"):
        encode_meld(0, meld)


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus folder {CORPUS} is absent")
def test_missing_tile_id_names_the_event() -> None:
    log = load(str(_corpus_files()[0]))
    k = next(i for i, ev in enumerate(log.events) if isinstance(ev, DrawTile))
    ev = log.events[k]
    assert isinstance(ev, DrawTile)
    broken = (*log.events[:k], dataclasses.replace(ev, tile_id=None), *log.events[k + 1 :])
    with pytest.raises(ValueError, match=r"DrawTile of seat \d has no tile id"):
        write_tenhou_xml(GameLog(log.path, log.format, broken))


@pytest.mark.parametrize(
    ("hint", "expected"),
    [
        pytest.param(
            RulesHint("tenhou-xml", 4, True, True, True, False, "houou", description="x"),
            0xA9,
            id="houou-hanchan",
        ),
        pytest.param(
            RulesHint("tenhou-xml", 3, False, True, False, True, "joukyuu"),
            0x80 | 0x40 | 0x10 | 0x02 | 0x01,
            id="sanma-joukyuu-fast-no-aka",
        ),
        pytest.param(
            RulesHint(
                "tenhou-xml", 4, True, True, True, False, "tokujou", description="(GO type 553)"
            ),
            553,
            id="special-lobby-kept",
        ),
        pytest.param(
            RulesHint(
                "tenhou-xml", 4, True, False, False, False, "ippan", description="(GO type 1)"
            ),
            0x05,
            id="note-disagrees-with-fields",
        ),
    ],
)
def test_go_type(hint: RulesHint, expected: int) -> None:
    assert go_type(hint) == expected


def test_a_shown_hand_with_a_tile_the_game_has_not_got_is_refused_by_the_writer() -> None:
    """A draw that shows one red five twice (a log's mistake, which the audit reports):
    its ids cannot be written, and the writer says so (a traceback before)."""
    from parsers.convert import ConvertError, convert_log
    from tests.conftest import corpus_file

    data = corpus_file("2022060100gm-00a9-0000-afa8349e.xml").read_bytes()
    shown = b'hai3="14,16,20,52,53,79,83,85,86,88,93,96,106"'
    assert shown in data
    log = parse_tenhou_xml(
        data.replace(shown, shown.replace(b",83,", b",88,")), "bad.xml"
    )  # 88 is the red 5s: shown twice
    with pytest.raises(
        ConvertError, match=r"seat 3 shows 0s at the draw more times than the game has"
    ):
        convert_log(log, "tenhou-xml")
