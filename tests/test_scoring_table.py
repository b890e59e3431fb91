"""The seed-004 scoring table and worked examples, dora wraps, and each preset's limits.

Seed 004 is ../shared/seeds/004_16cf5bcb846ae025.txt ("this site": no kiriage, kazoe
yakuman, four double-yakuman patterns); seed 000 is the dora guide.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from analyzer.hands.points import base_points, hand_payments
from mjaudit.events import Limit
from mjaudit.rules import PRESETS, preset
from tests.scoring_helpers import score, yaku_names

TENHOU = preset("tenhou")
WAP = preset("worldatplay")


def _ron(han: int, fu: int, dealer: bool, kiriage: bool = False) -> int:
    rules = replace(WAP, kiriage=kiriage)
    base, _ = base_points(han, fu, 0, rules)
    return hand_payments(base, dealer, False, 4, rules)[1]


@pytest.mark.parametrize(
    ("han", "fu", "non_dealer", "dealer"),
    [
        pytest.param(1, 30, 1000, 1500, id="1h30"),
        pytest.param(1, 40, 1300, 2000, id="1h40"),
        pytest.param(2, 25, 1600, 2400, id="2h25-chiitoitsu"),
        pytest.param(2, 30, 2000, 2900, id="2h30"),
        pytest.param(3, 30, 3900, 5800, id="3h30"),
        pytest.param(3, 60, 7700, 11600, id="3h60-no-kiriage"),
        pytest.param(4, 30, 7700, 11600, id="4h30-no-kiriage"),
        pytest.param(4, 40, 8000, 12000, id="4h40-mangan"),
        pytest.param(1, 110, 3600, 5300, id="1h110"),
        pytest.param(5, 30, 8000, 12000, id="mangan"),
        pytest.param(6, 30, 12000, 18000, id="haneman-6"),
        pytest.param(7, 30, 12000, 18000, id="haneman-7"),
        pytest.param(8, 30, 16000, 24000, id="baiman-8"),
        pytest.param(10, 30, 16000, 24000, id="baiman-10"),
        pytest.param(11, 30, 24000, 36000, id="sanbaiman-11"),
        pytest.param(12, 30, 24000, 36000, id="sanbaiman-12"),
        pytest.param(13, 30, 32000, 48000, id="kazoe-yakuman"),
    ],
)
def test_seed004_ron_table(han: int, fu: int, non_dealer: int, dealer: int) -> None:
    assert _ron(han, fu, False) == non_dealer
    assert _ron(han, fu, True) == dealer


@pytest.mark.parametrize(
    ("han", "fu", "payments"),
    [
        pytest.param(1, 30, (300, 500), id="1h30-tsumo"),
        pytest.param(2, 20, (400, 700), id="2h20-pinfu-tsumo"),
        pytest.param(4, 30, (2000, 3900), id="4h30-tsumo-tenhou-ten-7900"),
        pytest.param(5, 30, (2000, 4000), id="mangan-tsumo"),
    ],
)
def test_seed004_tsumo_table(han: int, fu: int, payments: tuple[int, int]) -> None:
    base, _ = base_points(han, fu, 0, WAP)
    pay, total = hand_payments(base, False, True, 4, WAP)
    assert (pay.non_dealer, pay.dealer) == payments
    assert total == 2 * payments[0] + payments[1]


@pytest.mark.parametrize(
    ("han", "fu", "dealer", "expected"),
    [
        pytest.param(4, 30, False, 8000, id="4h30-non-dealer"),
        pytest.param(4, 30, True, 12000, id="4h30-dealer"),
        pytest.param(3, 60, False, 8000, id="3h60-non-dealer"),
        pytest.param(3, 60, True, 12000, id="3h60-dealer"),
        pytest.param(3, 50, False, 6400, id="3h50-unchanged"),
    ],
)
def test_kiriage_mangan(han: int, fu: int, dealer: bool, expected: int) -> None:
    assert _ron(han, fu, dealer, kiriage=True) == expected


def test_seed004_worked_example_closed_ron_at_40_fu() -> None:
    # Riichi, middle wait on 5s, 5s is dora (indicator 4s), 9s rule out tanyao.
    r = score("234m456p22p456789s", win="5s", ron=True, riichi=True, dora=["4s"], rules=WAP)
    assert (r.han, r.fu, r.total) == (2, 40, 2600)
    assert [(p.reason, p.fu) for p in r.fu_parts] == [
        ("base", 20),
        ("closed ron", 10),
        ("kanchan wait", 2),
        ("rounding up", 8),
    ]
    assert yaku_names(r) == ["riichi"] and r.dora == 1


def test_seed004_worked_example_concealed_kan_tsumo_60_fu() -> None:
    r = score("234p678p55m234s", win="2s", melds=["ankan:1111m"], tsumo=True, riichi=True)
    assert (r.han, r.fu) == (2, 60)
    assert (r.payments.non_dealer, r.payments.dealer) == (1000, 2000)
    assert sum(p.fu for p in r.fu_parts) == 60


def test_seed004_worked_example_concealed_kan_ron_70_fu_2300() -> None:
    r = score("234p678p55m234s", win="2s", melds=["ankan:1111m"], ron=True, riichi=True)
    assert (r.han, r.fu, r.total) == (1, 70, 2300)
    assert [p.fu for p in r.fu_parts] == [20, 10, 32, 8]


def test_table_through_real_hands() -> None:
    # 1 han 30 fu: open tanyao with an open simple triplet.
    r = score("234m567p234s55s", win="5s", melds=["pon:666s"], ron=True)
    assert (r.han, r.fu, r.total) == (1, 30, 1000)
    r = score("234m567p234s55s", win="5s", melds=["pon:666s"], ron=True, seat="E")
    assert r.total == 1500
    # 4 han 30 fu: riichi pinfu tanyao dora 1.
    hand = "234m567p22345678s"
    assert score(hand, win="8s", ron=True, riichi=True, dora=["1m"]).total == 7700
    assert score(hand, win="8s", ron=True, riichi=True, dora=["1m"], seat="E").total == 11600
    r = score(hand, win="8s", ron=True, riichi=True, dora=["1m"], rules="mleague")
    assert (r.total, r.limit) == (8000, Limit.MANGAN)
    # Yakuman.
    assert score("555666777z123m44p", win="4p", ron=True).total == 32000
    assert score("555666777z123m44p", win="4p", ron=True, seat="E").total == 48000


@pytest.mark.parametrize(
    ("indicator", "hand", "win", "players"),
    [
        pytest.param("9p", "111p234m567s555z99s", "9s", 4, id="seed000-9p-indicates-1p"),
        pytest.param("4z", "111z234m567s555z99s", "9s", 4, id="seed000-north-indicates-east"),
        pytest.param("7z", "555z234m567s789s11p", "1p", 4, id="seed000-red-indicates-white"),
        pytest.param("1m", "999m555z567s789s11p", "1p", 3, id="seed000-sanma-1m-indicates-9m"),
        pytest.param("9m", "111m555z567s789s11p", "1p", 3, id="seed004-sanma-9m-indicates-1m"),
        pytest.param("9s", "111s555z234m789p11p", "1p", 4, id="seed004-9-wraps-to-1"),
    ],
)
def test_dora_wraps(indicator: str, hand: str, win: str, players: int) -> None:
    r = score(hand, win=win, ron=True, dora=[indicator], players=players, seat="S")
    assert r.dora == 3


def test_sanma_1m_indicator_is_not_2m_dora() -> None:
    r = score("222m555z567s789s11p", win="1p", ron=True, dora=["1m"], players=3)
    assert r.dora == 0


def test_red_five_that_is_dora_counts_twice() -> None:
    r = score("234m406p22345678s", win="8s", ron=True, riichi=True, dora=["4p"])
    assert (r.dora, r.aka) == (1, 1)
    assert r.han == 3 + 2
    assert score("234m406p22345678s", win="8s", ron=True, riichi=True, rules="wrc").aka == 0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_double_yakuman_and_kiriage(name: str) -> None:
    rules = PRESETS[name]
    # Suuankou tanki: double only where the preset has double-yakuman patterns.
    r = score("111m333p555s777z22p", win="2p", tsumo=True, rules=rules)
    assert r.yakuman == (2 if rules.double_yakuman_patterns else 1)
    assert r.total == 32000 * r.yakuman
    # 4 han 30 fu: mangan only with kiriage.
    hand = "234m567p22345678s"
    r = score(hand, win="8s", ron=True, riichi=True, dora=["1m"], rules=rules)
    assert r.total == (8000 if rules.kiriage else 7700)
    # 13 han of regular yaku: kazoe yakuman or sanbaiman.
    r = score("11223344556677s", win="7s", tsumo=True, riichi=True, dora=["1s"], rules=rules)
    assert r.han >= 13 and r.yakuman == 0
    assert r.limit is (Limit.YAKUMAN if rules.kazoe_yakuman else Limit.SANBAIMAN)


@pytest.mark.parametrize(
    ("hand", "win", "melds", "yaku"),
    [
        pytest.param("19m19p19s12345677z", "7z", [], "kokushi_13", id="kokushi-13-sided"),
        pytest.param("111m333p555s777z22p", "2p", [], "suuankou_tanki", id="suuankou-tanki"),
        pytest.param("11123455678999p", "5p", [], "junsei_chuuren", id="junsei-chuuren"),
        pytest.param("222z333z444z77p", "7p", ["pon:111z"], "daisuushii", id="daisuushii"),
    ],
)
def test_double_yakuman_patterns(hand: str, win: str, melds: list[str], yaku: str) -> None:
    for rules, mult in ((TENHOU, 1), (WAP, 2), (preset("mahjongsoul"), 2), (preset("wrc"), 1)):
        r = score(hand, win=win, melds=melds, tsumo=True, rules=rules)
        assert yaku in yaku_names(r)
        assert r.yakuman == mult


def test_composite_yakuman_stack_only_where_allowed() -> None:
    # Daisangen + tsuuiisou (Tenhou: 64000, matrix §B composite row).
    hand, pon = "555z666z777z22z", ["pon:111z"]
    assert score(hand, win="2z", melds=pon, ron=True).total == 64000
    assert score(hand, win="2z", melds=pon, ron=True, rules="wrc").total == 32000
    assert score(hand, win="2z", melds=pon, ron=True, rules="ema").yakuman == 1
    # Tenhou log: daisuushii + suuankou tanki + tsuuiisou, dealer ron = 144000.
    r = score("111z222z333z444z55z", win="5z", ron=True, seat="E")
    assert (r.yakuman, r.total) == (3, 144000)
