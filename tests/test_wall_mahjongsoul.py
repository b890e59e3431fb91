"""Mahjong Soul walls: every corpus hand matches the wall its record commits to, and
every kind of edit to a record (in memory, written to a temporary file) is caught.

The records are in ../shared/corpus/mahjongsoul (SOURCES.md). Two layouts: the whole
wall (the GameDetailRecords files, sha256) and the wall after the deal (the older
records, md5); 3- and 4-player in each.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from analyzer.checks.audit import FileAudit, audit_log, resolve_rules
from analyzer.checks.audit_wall_ms import (
    MsRoundWall,
    MsWall,
    _Trace,
    expected_reds,
    ms_round_walls,
    read_wall,
)
from analyzer.engine.replay import replay
from mjaudit.events import round_label
from mjaudit.findings import Finding, Severity
from mjaudit.tiles import Tile, tiles
from parsers import load
from reports.cli import main
from reports.wall_text import render_round_wall
from tests.ms_records import GDR_3P, GDR_4P, MS, ms_doc, ms_path, ms_records, raw_files

REC_4P = "raw-records/220418-a0451071-1198-45ea-9a24-161d1004ab83.json"
REC_4P_KANS = "raw-records/220418-af771e11-3355-4754-b3c1-5b15fda67855.json"
REC_4P_DRAWN = "raw-records/220419-c7d0fa72-9b5b-4669-8653-82bdc19d3f53.json"
REC_4P_URA = "raw-records/220420-078d1393-c456-4ecb-b1a4-90364c4365fb.json"
REC_3P = "raw-records/220507-5375d110-e849-4f69-aa6d-838f813a81da.json"


def _hand(doc: Any, n: int) -> list[tuple[str, dict[str, Any]]]:
    """The records of hand ``n`` (0-based), its RecordNewRound first."""
    hands: list[list[tuple[str, dict[str, Any]]]] = []
    for name, data in ms_records(doc):
        if name == "RecordNewRound":
            hands.append([])
        if hands:
            hands[-1].append((name, data))
    return hands[n]


def _new_round(doc: Any, n: int) -> dict[str, Any]:
    return _hand(doc, n)[0][1]


def _label(data: dict[str, Any]) -> str:
    """The hand's label from its RecordNewRound (a field left out is 0)."""
    return round_label(4 * data.get("chang", 0) + data.get("ju", 0), data.get("ben", 0))


def _algorithm(data: dict[str, Any]) -> str:
    return "sha256" if data.get("sha256") else "md5"


def _rehash(data: dict[str, Any]) -> None:
    """Commit the hand to its (edited) wall, as the server would have."""
    alg = _algorithm(data)
    data[alg] = hashlib.new(alg, data["paishan"].encode()).hexdigest()


def _swap(data: dict[str, Any], a: int, b: int) -> None:
    pairs = [data["paishan"][k : k + 2] for k in range(0, len(data["paishan"]), 2)]
    assert pairs[a] != pairs[b], "swap two different tiles"
    pairs[a], pairs[b] = pairs[b], pairs[a]
    data["paishan"] = "".join(pairs)


def _set(data: dict[str, Any], position: int, tile: str) -> None:
    text = data["paishan"]
    data["paishan"] = text[: 2 * position] + tile + text[2 * position + 2 :]


def _audit(doc: Any, tmp_path: Path, name: str) -> FileAudit:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    log = load(str(path))
    return audit_log(log, resolve_rules(log, "auto"))


def _walls(result: FileAudit) -> list[Finding]:
    return [f for f in result.findings if f.code == "wall-mismatch"]


def _others(result: FileAudit) -> Counter[tuple[str, str | None, str]]:
    return Counter(
        (f.code, f.round, f.message) for f in result.findings if f.code != "wall-mismatch"
    )


def _one_wall_finding(name: str, doc: Any, tmp_path: Path) -> Finding:
    """The single wall-mismatch of the edited record; everything else as untouched."""
    before = _audit(ms_doc(name), tmp_path, "untouched.json")
    assert _walls(before) == []
    after = _audit(doc, tmp_path, "tampered.json")
    found = _walls(after)
    assert len(found) == 1, [f.message for f in found]
    assert found[0].severity is Severity.ERROR
    assert _others(after) == _others(before)
    return found[0]


# -- the corpus ------------------------------------------------------------------------


@pytest.mark.corpus
def test_every_corpus_hand_with_a_wall_is_checked_and_matches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = raw_files()
    with_wall = sum(
        1
        for path in files
        for name, data in ms_records(json.loads(path.read_text(encoding="utf-8-sig")))
        if name == "RecordNewRound" and data.get("paishan")
    )
    assert (len(files), with_wall) == (30, 194)
    main(["audit", "--format", "json", "--fail-on", "never", *map(str, files)])
    doc = json.loads(capsys.readouterr().out)
    assert doc["totals"]["files"] == 30
    assert doc["totals"]["unreadable"] == 0
    assert doc["totals"]["checks"]["wall_checked_rounds"] == 194
    assert [f["message"] for f in doc["findings"] if f["code"] == "wall-mismatch"] == []


@pytest.mark.corpus
def test_corpus_walls_by_layout_and_what_was_compared() -> None:
    hands: Counter[tuple[int, bool, str | None]] = Counter()
    live = replaced = kan_doras = 0
    for path in raw_files():
        log = load(str(path))
        game = replay(log, resolve_rules(log, "auto"))
        assert game.players == log.players
        for trace in ms_round_walls(log, game):
            assert trace.mismatch is None, trace.mismatch
            assert trace.wall is not None and trace.hash_ok
            hands[trace.wall.players, trace.wall.full, trace.hash_algorithm] += 1
            live += trace.live_drawn
            replaced += trace.replaced
            kan_doras += trace.revealed - 1
    assert hands == {
        (4, True, "sha256"): 16,  # whole walls, newer records
        (3, True, "sha256"): 14,
        (4, False, "md5"): 149,  # walls after the deal, older records
        (3, False, "md5"): 15,
    }
    assert (live, replaced, kan_doras) == (7985, 107, 34)


@pytest.mark.corpus
def test_bulk_check_agrees_with_the_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand gives the same result whether the bulk check or the walk judges it."""
    verify = _Trace.verify
    passed: list[bool] = []

    def spy(self: _Trace, first: int, last: int, deal_draw: int) -> MsRoundWall | None:
        found = verify(self, first, last, deal_draw)
        passed.append(found is not None)
        return found

    for path in raw_files():
        log = load(str(path))
        game = replay(log, resolve_rules(log, "auto"))
        with monkeypatch.context() as patch:
            patch.setattr(_Trace, "verify", spy)
            fast = ms_round_walls(log, game)
        with monkeypatch.context() as patch:
            patch.setattr(_Trace, "verify", lambda self, first, last, deal_draw: None)
            assert ms_round_walls(log, game) == fast
    assert (len(passed), sum(passed)) == (194, 140)  # 140 hands without a kan or a kita


@pytest.mark.corpus
def test_converter_json_carries_no_wall() -> None:
    path = next(iter(sorted((MS / "tenhou-json").glob("*.json"))), None)
    if path is None:
        pytest.skip(f"corpus not available: {MS}")
    log = load(str(path))
    assert ms_round_walls(log, replay(log, resolve_rules(log, "auto"))) == []


# -- positions -------------------------------------------------------------------------


def _wall(players: int, dealer: int, size: int) -> MsWall:
    kinds = [k for k in range(34) if players == 4 or not 1 <= k <= 7]
    return MsWall(tuple(Tile(kinds[k % len(kinds)]) for k in range(size)), players, dealer, True)


def test_deal_positions_whole_wall() -> None:
    wall = _wall(4, 1, 136)
    # South's 4-blocks come first when South deals; the dealer's 14th is tile 52.
    assert wall.deal_positions(1) == (0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48, 52)
    assert wall.deal_positions(0) == (12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 51)
    sanma = _wall(3, 2, 108)
    assert sanma.deal_positions(2) == (0, 1, 2, 3, 12, 13, 14, 15, 24, 25, 26, 27, 36, 39)
    assert sanma.deal_positions(1) == (8, 9, 10, 11, 20, 21, 22, 23, 32, 33, 34, 35, 38)
    assert (wall.first_live, sanma.first_live) == (53, 40)


@pytest.mark.parametrize(
    ("players", "size", "live", "replacements", "indicators", "ura"),
    [
        pytest.param(4, 136, 69, (135, 134, 133, 132), (131, 129, 127), (130, 128), id="4p"),
        pytest.param(4, 83, 69, (82, 81, 80, 79), (78, 76, 74), (77, 75), id="4p-after-deal"),
        pytest.param(3, 108, 54, (107, 106, 105, 104), (99, 97, 95), (98, 96), id="3p"),
        pytest.param(3, 68, 54, (67, 66, 65, 64), (59, 57, 55), (58, 56), id="3p-after-deal"),
    ],
)
def test_dead_wall_positions(
    players: int,
    size: int,
    live: int,
    replacements: tuple[int, ...],
    indicators: tuple[int, ...],
    ura: tuple[int, ...],
) -> None:
    wall = MsWall(_wall(players, 0, size).tiles, players, 0, size in (136, 108))
    assert wall.live_count(0) == live
    assert wall.live_count(2) == live - 2  # each replacement draw shortens the live wall
    assert tuple(wall.replacement_position(r) for r in range(4)) == replacements
    assert tuple(wall.dora_position(k) for k in range(3)) == indicators
    assert tuple(wall.ura_position(k) for k in range(2)) == ura
    assert wall.max_replacements == (4 if players == 4 else 8)


def test_read_wall_and_red_fives() -> None:
    assert read_wall("1m0p7z") == tiles("1m0p7z")
    with pytest.raises(ValueError, match="pair 1 '8z'"):
        read_wall("1m8z")
    with pytest.raises(ValueError, match="not mpsz pairs"):
        read_wall("1m2")
    assert expected_reds(4, (), True) == 3  # a ranked room
    assert expected_reds(3, (), True) == 2
    assert expected_reds(4, (("dora_count", "4"),), True) == 4
    assert expected_reds(4, (), False) == 0
    assert expected_reds(4, (("fandian", "30000"),), None) is None  # not stated: not guessed


# -- tampering -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "first_live", "message"),
    [
        pytest.param(
            GDR_4P,
            53,
            "draw 1 by South (seat 1) at action 12 <RecordDealTile>: record 2p, "
            "wall 5z (paishan[53])",
            id="4p-whole",
        ),
        pytest.param(
            REC_4P,
            0,
            "draw 1 by South (seat 1) at record 2 <RecordDealTile>: record 6s, "
            "wall 4z (paishan[0])",
            id="4p-after-deal",
        ),
        pytest.param(
            GDR_3P,
            40,
            "draw 1 by South (seat 1) at action 13 <RecordDealTile>: record 3z, "
            "wall 9s (paishan[40])",
            id="3p-whole",
        ),
        pytest.param(
            REC_3P,
            0,
            "draw 1 by South (seat 1) at record 2 <RecordDealTile>: record 4p, "
            "wall 6z (paishan[0])",
            id="3p-after-deal",
        ),
    ],
)
def test_swapped_draw_with_a_fixed_hash(
    name: str, first_live: int, message: str, tmp_path: Path
) -> None:
    doc = ms_doc(name)
    data = _new_round(doc, 0)
    _swap(data, first_live, first_live + 1)
    _rehash(data)
    found = _one_wall_finding(name, doc, tmp_path)
    assert found.message == f"E1-0: {message}"
    assert (found.round, found.seat) == ("E1-0", 1)


@pytest.mark.parametrize("name", [GDR_4P, REC_4P, GDR_3P, REC_3P])
def test_changed_paishan_without_its_hash(name: str, tmp_path: Path) -> None:
    doc = ms_doc(name)
    data = _new_round(doc, 1)
    stated = data[_algorithm(data)]
    _swap(data, 10, 11 if data["paishan"][20:22] != data["paishan"][22:24] else 12)
    computed = hashlib.new(_algorithm(data), data["paishan"].encode()).hexdigest()
    found = _one_wall_finding(name, doc, tmp_path)
    assert found.round == _label(data)
    assert (found.expected, found.actual) == (stated, computed)
    assert f"the wall does not match the {_algorithm(data)} committed before the hand" in (
        found.message
    )
    assert stated in found.message and computed in found.message


@pytest.mark.parametrize(
    ("name", "hand", "new", "message"),
    [
        pytest.param(
            GDR_4P,
            0,
            "4p",
            "E1-0: dora indicator at action 9 <RecordNewRound>: record 4p, wall 3s (paishan[131])",
            id="4p-whole",
        ),
        pytest.param(
            REC_4P,
            0,
            "4m",
            "E1-0: dora indicator at record 0 <RecordNewRound>: record 4m, wall 2z (paishan[78])",
            id="4p-after-deal",
        ),
        pytest.param(
            REC_4P_DRAWN,
            5,
            "8m",
            "E4-1: dora indicator at record 289 <RecordNewRound>: record 8m, wall 3m (paishan[78])",
            id="4p-after-deal-exhaustive-draw",
        ),
        pytest.param(
            GDR_3P,
            0,
            "1m",
            "E1-0: dora indicator at action 3 <RecordNewRound>: record 1m, wall 7z (paishan[99])",
            id="3p-whole",
        ),
        pytest.param(
            REC_3P,
            0,
            "6p",
            "E1-0: dora indicator at record 0 <RecordNewRound>: record 6p, wall 8s (paishan[59])",
            id="3p-after-deal",
        ),
    ],
)
def test_edited_dora_indicator_at_the_start(
    name: str, hand: int, new: str, message: str, tmp_path: Path
) -> None:
    """The first indicator changed wherever the record shows it (an indicator whose
    dora no hand holds, so that the wall check alone can catch it)."""
    doc = ms_doc(name)
    old = _new_round(doc, hand)["doras"][0]
    for _, data in _hand(doc, hand):
        for shown in [data, *data.get("hules", [])]:
            if shown.get("doras"):
                assert shown["doras"][0] == old
                shown["doras"] = [new, *shown["doras"][1:]]
    found = _one_wall_finding(name, doc, tmp_path)
    assert found.message == message
    assert (found.expected, found.actual) == (old, new)


@pytest.mark.parametrize(
    ("name", "hand", "old", "new", "message"),
    [
        pytest.param(
            REC_4P_KANS,
            0,
            "2m",
            "6m",
            "E1-0: kan dora indicator 1 at record 61 <RecordDiscardTile>: record 6m, "
            "wall 2m (paishan[76])",
            id="4p-after-deal",
        ),
        pytest.param(
            GDR_3P,
            0,
            "5z",
            "1m",
            "E1-0: kan dora indicator 1 at action 45 <RecordDealTile>: record 1m, "
            "wall 5z (paishan[97])",
            id="3p-whole",
        ),
    ],
)
def test_edited_kan_dora_indicator(
    name: str, hand: int, old: str, new: str, message: str, tmp_path: Path
) -> None:
    doc = ms_doc(name)
    edited = 0
    for _, data in _hand(doc, hand)[1:]:
        shown = data.get("doras") or []
        if old in shown[1:]:
            data["doras"] = [new if k and t == old else t for k, t in enumerate(shown)]
            edited += 1
        for win in data.get("hules", []):
            if old in win.get("doras", [])[1:]:
                win["doras"] = [new if k and t == old else t for k, t in enumerate(win["doras"])]
                edited += 1
    assert edited == 2  # where the record turns it, and the win that lists it
    found = _one_wall_finding(name, doc, tmp_path)
    assert found.message == message


def test_edited_ura_indicator(tmp_path: Path) -> None:
    doc = ms_doc(REC_4P_URA)
    hule = next(d for n, d in _hand(doc, 0) if n == "RecordHule")
    win = hule["hules"][0]
    assert win["liDoras"] == ["0s", "1m"]
    win["liDoras"] = ["0s", "4m"]
    found = _one_wall_finding(REC_4P_URA, doc, tmp_path)
    assert found.message == (
        "E1-0: win by East (seat 0) at record 101 <RecordHule>: "
        "ura indicators record 0s 4m, wall 0s 1m"
    )
    assert (found.expected, found.actual) == (["0s", "1m"], ["0s", "4m"])


def test_swapped_replacement_draw(tmp_path: Path) -> None:
    doc = ms_doc(REC_4P_KANS)
    data = _new_round(doc, 0)  # one kan, its replacement tile the wall's last
    _swap(data, 82, 80)
    _rehash(data)
    found = _one_wall_finding(REC_4P_KANS, doc, tmp_path)
    assert "replacement draw 1 by " in found.message
    assert found.message.endswith("record 1s, wall 6m (paishan[82])")


def test_swapped_starting_tile(tmp_path: Path) -> None:
    doc = ms_doc(GDR_4P)
    data = _new_round(doc, 0)
    _swap(data, 0, 4)  # East's first tile with South's
    _rehash(data)
    found = _one_wall_finding(GDR_4P, doc, tmp_path)
    assert found.message.startswith(
        "E1-0: starting hand of East (seat 0): the record deals 8s where the wall deals 5m"
    )
    assert found.seat == 0


@pytest.mark.parametrize(
    ("name", "position", "tile", "message"),
    [
        pytest.param(
            GDR_4P,
            70,
            "9m",
            "the wall is not a full 4-player tile set: 5 of 9m (not 4), ",
            id="4p-whole",
        ),
        pytest.param(
            REC_3P,
            30,
            "5m",
            "the wall and the starting hands are not a full 3-player tile "
            "set: 3 of 1m (not 4), 1 of 5m (not 0)",
            id="3p-after-deal",
        ),
    ],
)
def test_wall_that_is_not_a_tile_set(
    name: str, position: int, tile: str, message: str, tmp_path: Path
) -> None:
    doc = ms_doc(name)
    data = _new_round(doc, 0)
    _set(data, position, tile)
    _rehash(data)
    found = _one_wall_finding(name, doc, tmp_path)
    assert message in found.message


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        pytest.param(
            lambda text: text[:20] + "8z" + text[22:],
            "E1-0: the record's wall cannot be read: pair 10 '8z' is not a tile",
            id="not-a-tile",
        ),
        pytest.param(
            lambda text: text[:-2],
            "E1-0: the wall has 82 tiles; a 4-player wall has 136, or 83 after the deal",
            id="short",
        ),
    ],
)
def test_wall_that_is_not_a_wall(edit: Any, message: str, tmp_path: Path) -> None:
    doc = ms_doc(REC_4P)
    data = _new_round(doc, 0)
    data["paishan"] = edit(data["paishan"])
    _rehash(data)
    assert _one_wall_finding(REC_4P, doc, tmp_path).message == message


def test_red_five_made_plain(tmp_path: Path) -> None:
    doc = ms_doc(REC_4P)
    data = _new_round(doc, 0)
    at = [data["paishan"][k : k + 2] for k in range(0, len(data["paishan"]), 2)].index("0p")
    _set(data, at, "5p")
    _rehash(data)
    found = _one_wall_finding(REC_4P, doc, tmp_path)
    assert found.message == (
        "E1-0: the wall and the starting hands are not a full 4-player tile set: "
        "2 red fives (the game has 3)"
    )


def test_exhaustive_draw_before_the_wall_is_used_up(tmp_path: Path) -> None:
    doc = ms_doc(REC_4P_DRAWN)
    records = doc["records"]
    notile = next(k for k, r in enumerate(records) if r["name"] == "RecordNoTile")
    draw, discard = records[notile - 2], records[notile - 1]
    # The last turn was a tsumogiri: without it every hand stays as it was.
    assert draw["data"]["tile"] == discard["data"]["tile"] and discard["data"]["moqie"]
    del records[notile - 2 : notile]
    before = _audit(ms_doc(REC_4P_DRAWN), tmp_path, "untouched.json")
    after = _audit(doc, tmp_path, "tampered.json")
    found = _walls(after)
    assert [f.message for f in found] == [
        f"E4-1: exhaustive draw at record {notile - 2} <RecordNoTile>: after 68 live draws, "
        "the wall holds 69 (0 replacement draws)"
    ]
    # The replay's own count of the live wall says so too, without the wall.
    assert _others(after) - _others(before) == Counter(
        {("draw-mismatch", "E4-1", "E4-1: exhaustive draw with 1 tiles still in the live wall"): 1}
    )
    # One fault: the wall finding names the draw finding as its cause.
    wall = next(f for f in after.findings if f.code == "wall-mismatch")
    assert wall.cause is not None and after.findings[wall.cause].code == "draw-mismatch"


def test_later_hands_are_checked_afresh(tmp_path: Path) -> None:
    doc = ms_doc(REC_4P)
    for hand in (0, 2):
        data = _new_round(doc, hand)
        _swap(data, 0, 1)
        _rehash(data)
    after = _audit(doc, tmp_path, "two.json")
    labels = [_label(_new_round(doc, hand)) for hand in (0, 2)]
    assert [f.round for f in _walls(after)] == labels
    assert all(
        f.message.startswith(f"{label}: draw 1 by ")
        for f, label in zip(_walls(after), labels, strict=True)
    )


# -- replay --wall ---------------------------------------------------------------------


def test_replay_wall_whole_layout(capsys: pytest.CaptureFixture[str]) -> None:
    path = ms_path(GDR_4P)
    assert main(["replay", str(path), "--round", "E1-0", "--wall"]) in (0, None)
    text = capsys.readouterr().out
    stated = _new_round(ms_doc(GDR_4P), 0)["sha256"]
    assert "E1-0 wall: Mahjong Soul, 4 players, 136 tiles (the whole wall), dealer seat 0" in text
    assert f"hash: sha256 {stated} matches the paishan" in text
    assert "8s 5p 1m 9m 3s 5s 6p 1s 8p 3z 6m 1m 9m 0s" in text  # East's 14, as dealt
    assert "live wall: 69 draws, paishan[53] to paishan[121]" in text
    assert "paishan[131] 3s  dora indicator 1 (turned)" in text
    assert "paishan[135] 6z  replacement 1" in text


def test_replay_wall_after_the_deal_with_kita(tmp_path: Path) -> None:
    log = load(str(ms_path(REC_3P)))
    text = render_round_wall(log, replay(log, resolve_rules(log, "auto")), 0)
    assert "3 players, 68 tiles (the wall after the deal)" in text
    assert "live wall: 50 draws, paishan[0] to paishan[49] (after 4 replacement draws)" in text
    assert "replacement 4 (drawn)" in text and "replacement 5\n" in text
    assert "MISMATCH" not in text


def test_replay_wall_shows_the_hash_mismatch(tmp_path: Path) -> None:
    doc = ms_doc(REC_4P)
    data = _new_round(doc, 0)
    _swap(data, 0, 1)
    path = tmp_path / "hash.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    log = load(str(path))
    text = render_round_wall(log, replay(log, resolve_rules(log, "auto")), 0)
    assert "hash: MISMATCH: committed md5 bf137eea0a282c7b2f4d6443e6b387be" in text
    assert "MISMATCH: E1-0: the wall does not match the md5" in text
    # The wall is still shown, as the record gives it.
    assert "live wall: 69 draws, paishan[0] to paishan[68]" in text
    assert "   1-10  paishan[  0]  4z 6s " in text
