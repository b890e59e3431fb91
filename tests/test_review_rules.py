"""Missed wins under rules other than Tenhou's: who could have won on a tile depends
on the rules (rules-matrix §A, §E), and so does a missed-ron note."""

from __future__ import annotations

import json
from typing import Any

import pytest

from analyzer.checks.audit import audit_log
from mjaudit.rules import preset
from parsers import load_bytes

# Seat 0 deals a discard of 5p that seats 1, 2 and 3 all wait on, each with tanyao.
WAITING = [
    ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "5p"],
    ["2m", "3m", "4m", "6m", "7m", "8m", "2s", "3s", "4s", "6s", "6s", "4p", "6p"],
    ["3m", "4m", "5m", "5m", "6m", "7m", "3s", "4s", "5s", "8s", "8s", "4p", "6p"],
    ["4m", "5m", "6m", "6m", "7m", "8m", "5s", "6s", "7s", "7s", "7s", "4p", "6p"],
]


def _game(hands: list[list[str]], dora: str, play: list[dict[str, Any]]) -> bytes:
    start = {
        "type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0,
        "oya": 0, "dora_marker": dora, "scores": [25000] * 4, "tehais": hands,
    }  # fmt: skip
    events = [{"type": "start_game", "names": ["a", "b", "c", "d"], "aka_flag": False}, start]
    events += [*play, {"type": "end_kyoku"}, {"type": "end_game"}]
    return "".join(json.dumps(e) + "\n" for e in events).encode()


def _ron(seat: int, hand: list[str]) -> dict[str, Any]:
    delta = [-1300, 0, 0, 0]
    delta[seat] = 1300
    return {
        "type": "hora", "actor": seat, "target": 0, "pai": "5p", "uradora_markers": [],
        "hora_tehais": hand, "yakus": [["tanyaochu", 1]], "fu": 40, "fan": 1,
        "hora_points": 1300, "deltas": delta,
    }  # fmt: skip


def _missed(data: bytes, rules: str) -> list[int]:
    log = load_bytes(data, "game.jsonl")
    found = audit_log(log, preset(rules)).findings
    return sorted(f.seat for f in found if f.code == "missed-ron" and f.seat is not None)


_DISCARD = [{"type": "tsumo", "actor": 0, "pai": "C"}, {"type": "dahai", "actor": 0, "pai": "5p"}]


@pytest.mark.parametrize(("rules", "missed"), [("tenhou", []), ("mahjongsoul", [3])])
def test_a_seat_past_a_double_ron_where_a_triple_ron_is_scored(
    rules: str, missed: list[int]
) -> None:
    # Seats 1 and 2 ron; seat 3 passes. Tenhou aborts a triple ron: seat 3 could win
    # nothing. Mahjong Soul scores it: seat 3 let a win go (it was not noted).
    data = _game(WAITING, "E", [*_DISCARD, _ron(1, WAITING[1]), _ron(2, WAITING[2])])
    assert _missed(data, rules) == missed


@pytest.mark.parametrize(("rules", "missed"), [("tenhou", [1, 2]), ("wrc", [1, 2])])
def test_seats_nearer_than_a_head_bump_winner(rules: str, missed: list[int]) -> None:
    # Only seat 3 rons. With double ron (Tenhou) seats 1 and 2 could have won too;
    # under head bump (WRC) each is nearer the discarder than seat 3 and would have
    # won instead. Under WRC neither was noted.
    data = _game(WAITING, "E", [*_DISCARD, _ron(3, WAITING[3])])
    assert _missed(data, rules) == missed


def test_thirteen_orphans_passing_a_concealed_kan_where_it_may_rob_it() -> None:
    # Seat 1 waits on 7z alone with thirteen orphans; seat 3 makes a concealed kan of
    # 7z. Mahjong Soul and WRC let thirteen orphans rob it; Tenhou does not.
    hands = [
        ["2m", "3m", "5m", "6m", "2p", "3p", "4p", "6p", "7p", "2s", "4s", "6s", "8s"],
        ["1m", "1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F"],
        ["3m", "4m", "7m", "8m", "3p", "5p", "8p", "3s", "5s", "7s", "7s", "8s", "6m"],
        ["C", "C", "C", "2m", "4m", "6m", "8m", "4p", "6p", "8p", "3s", "5s", "7s"],
    ]
    turns = [
        (0, "8m"),
        (1, "2p"),
        (2, "3p"),
    ]
    play: list[dict[str, Any]] = []
    for seat, tile in turns:
        play += [
            {"type": "tsumo", "actor": seat, "pai": tile},
            {"type": "dahai", "actor": seat, "pai": tile},
        ]
    play += [
        {"type": "tsumo", "actor": 3, "pai": "C"},
        {"type": "ankan", "actor": 3, "consumed": ["C", "C", "C", "C"]},
        {"type": "dora", "dora_marker": "4s"},
        {"type": "tsumo", "actor": 3, "pai": "9m"},
        {"type": "dahai", "actor": 3, "pai": "9m"},
    ]  # fmt: skip
    data = _game(hands, "2s", play)
    assert _missed(data, "tenhou") == []
    assert _missed(data, "mahjongsoul") == [1]
    assert _missed(data, "wrc") == [1]
