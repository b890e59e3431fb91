"""Three-player (sanma) corners: calls between three seats, and what a single hand or a
case may hold with three players and with four."""

from __future__ import annotations

import json

from analyzer.checks.audit import audit_log
from mjaudit.rules import override, preset
from parsers import load_bytes

# Seat 0 holds 4p 5p for a chi of 3p; the others hold nothing it needs.
_HANDS = [
    ["4p", "5p", "1s", "1s", "2s", "9s", "E", "E", "S", "W", "P", "P", "F"],
    ["1p", "1p", "2p", "6p", "7p", "3s", "4s", "7s", "8s", "S", "W", "C", "C"],
    ["3p", "9p", "9p", "5s", "6s", "6s", "7s", "8s", "N", "S", "W", "F", "1m"],
]


def _sanma(*events: dict[str, object]) -> bytes:
    kyoku = {
        "type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0,
        "oya": 0, "dora_marker": "9m", "scores": [35000, 35000, 35000], "tehais": _HANDS,
    }  # fmt: skip
    lines = [{"type": "start_game", "names": ["a", "b", "c"]}, kyoku, *events]
    return "\n".join(json.dumps(e) for e in lines).encode()


def _illegal_calls(data: bytes, chi_allowed: bool) -> list[str]:
    log = load_bytes(data, "sanma.jsonl")
    rules = override(preset("tenhou-sanma"), {"chi_allowed": chi_allowed}, "test")
    result = audit_log(log, rules)
    return [f.message for f in result.findings if f.code == "illegal-call"]


def _draw_discard(seat: int, tile: str) -> list[dict[str, object]]:
    return [
        {"type": "tsumo", "actor": seat, "pai": tile},
        {"type": "dahai", "actor": seat, "pai": tile, "tsumogiri": True},
    ]


def test_a_chi_off_the_seat_before_is_legal_where_three_players_may_chi() -> None:
    """Three players play 0, 1, 2, 0: seat 0 draws after seat 2, so seat 2's discard is
    the one a chi of seat 0 takes (a three-player ruleset with chi, e.g. a rules file
    on tenhou-sanma). It was judged as if seat 3 sat before seat 0."""
    data = _sanma(
        *_draw_discard(0, "1m"),
        *_draw_discard(1, "9m"),
        {"type": "tsumo", "actor": 2, "pai": "C"},
        {"type": "dahai", "actor": 2, "pai": "3p", "tsumogiri": False},
        {"type": "chi", "actor": 0, "target": 2, "pai": "3p", "consumed": ["4p", "5p"]},
        {"type": "dahai", "actor": 0, "pai": "F", "tsumogiri": False},
    )
    assert _illegal_calls(data, chi_allowed=True) == []
    # Where the rules have no chi (every three-player preset), it is one finding.
    assert _illegal_calls(data, chi_allowed=False) == [
        "E1-0: seat 0 calls chi, which these rules do not allow"
    ]


def test_a_chi_off_the_seat_after_is_illegal_with_three_players() -> None:
    data = _sanma(
        *_draw_discard(0, "1m"),
        {"type": "tsumo", "actor": 1, "pai": "9m"},
        {"type": "dahai", "actor": 1, "pai": "6p", "tsumogiri": False},
        {"type": "chi", "actor": 0, "target": 1, "pai": "6p", "consumed": ["4p", "5p"]},
        {"type": "dahai", "actor": 0, "pai": "F", "tsumogiri": False},
    )
    assert _illegal_calls(data, chi_allowed=True) == [
        "E1-0: seat 0 calls chi on seat 1's discard; chi is only allowed from the player "
        "on the left"
    ]
