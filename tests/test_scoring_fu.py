"""Fu breakdowns: each named part, and parts that always add up."""

from __future__ import annotations

from dataclasses import replace

import pytest

from analyzer.hands.scoring import NotAWin
from analyzer.hands.scoring import score as score_tiles
from mjaudit.rules import preset
from tests.scoring_generator import generate_wins
from tests.scoring_helpers import score


def _parts(**kw: object) -> list[tuple[str, int]]:
    r = score(**kw)  # type: ignore[arg-type]
    assert sum(p.fu for p in r.fu_parts) == r.fu
    return [(p.reason, p.fu) for p in r.fu_parts]


@pytest.mark.parametrize(
    ("kw", "expected"),
    [
        pytest.param(
            {"hand": "234m567p22345678s", "win": "8s", "tsumo": True},
            [("pinfu tsumo", 20)],
            id="pinfu-tsumo-20",
        ),
        pytest.param(
            {"hand": "234m567p22345678s", "win": "8s", "ron": True},
            [("base", 20), ("closed ron", 10)],
            id="pinfu-ron-30",
        ),
        pytest.param(
            {"hand": "234m567p22s678s", "win": "8s", "melds": ["chi:345s"], "ron": True},
            [("open pinfu shape", 30)],
            id="open-pinfu-shape-30",
        ),
        pytest.param(
            {"hand": "1122m3344p5566s77z", "win": "7z", "ron": True},
            [("chiitoitsu", 25)],
            id="chiitoitsu-25",
        ),
        pytest.param(
            {"hand": "123m456p789s555z11z", "win": "1z", "ron": True, "seat": "E"},
            [
                ("base", 20),
                ("closed ron", 10),
                ("tanki wait", 2),
                ("pair of double wind", 4),
                ("closed triplet 5z", 8),
                ("rounding up", 6),
            ],
            id="double-wind-pair-4-and-closed-honour-triplet-8",
        ),
        pytest.param(
            {"hand": "123m456p789s555z22z", "win": "3m", "tsumo": True, "seat": "S"},
            [
                ("base", 20),
                ("tsumo", 2),
                ("penchan wait", 2),
                ("pair of seat wind", 2),
                ("closed triplet 5z", 8),
                ("rounding up", 6),
            ],
            id="penchan-seat-wind-pair",
        ),
        pytest.param(
            {"hand": "123m456p789s22s555z", "win": "5z", "ron": True},
            [
                ("base", 20),
                ("closed ron", 10),
                ("open triplet 5z", 4),
                ("rounding up", 6),
            ],
            id="ron-completed-triplet-is-open",
        ),
    ],
)
def test_fu_parts(kw: dict[str, object], expected: list[tuple[str, int]]) -> None:
    assert _parts(**kw) == expected


def test_rinshan_tsumo_fu_per_rules() -> None:
    kw = {
        "hand": "234m567p22s678s",
        "win": "8s",
        "melds": ["ankan:2222m"],
        "tsumo": True,
        "rinshan": True,
    }
    assert ("tsumo", 2) in _parts(**kw)
    no_fu = replace(preset("tenhou"), rinshan_tsumo_fu=False)
    assert ("tsumo", 2) not in _parts(**kw, rules=no_fu)


def test_fu_parts_add_up_on_generated_hands() -> None:
    rules = preset("tenhou")
    for w in generate_wins(1500, seed=99):
        try:
            r = score_tiles(w.concealed, w.win_tile, w.melds, w.ctx, rules)
        except NotAWin:
            continue
        assert sum(p.fu for p in r.fu_parts) == r.fu, w.describe()
        assert r.fu % 10 == 0 or r.fu == 25
