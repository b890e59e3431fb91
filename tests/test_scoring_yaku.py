"""Every yaku at least once, the choice between readings, and the no-yaku rule."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from analyzer.hands.scoring import NotAWin
from mjaudit.rules import preset
from mjaudit.yaku import Yaku
from tests.scoring_helpers import score, yaku_names

PINFU_HAND = "234m567p22345678s"


def _case(
    name: str, hand: str, win: str, yaku: set[Yaku], melds: tuple[str, ...] = (), **kw: Any
) -> Any:
    return pytest.param(hand, win, melds, kw, yaku, id=name)


CASES = [
    _case("menzen-tsumo", PINFU_HAND, "8s", {Yaku.MENZEN_TSUMO, Yaku.PINFU}, tsumo=True),
    _case("riichi", PINFU_HAND, "8s", {Yaku.RIICHI}, ron=True, riichi=True),
    _case("ippatsu", PINFU_HAND, "8s", {Yaku.IPPATSU}, ron=True, riichi=True, ippatsu=True),
    _case("double-riichi", PINFU_HAND, "8s", {Yaku.DOUBLE_RIICHI}, ron=True, double_riichi=True),
    _case("chankan", PINFU_HAND, "8s", {Yaku.CHANKAN}, ron=True, chankan=True),
    _case(
        "rinshan",
        "234m567p22678s",
        "8s",
        {Yaku.RINSHAN, Yaku.HAKU},
        ("ankan:5555z",),
        tsumo=True,
        rinshan=True,
    ),
    _case("haitei", PINFU_HAND, "8s", {Yaku.HAITEI}, tsumo=True, haitei=True),
    _case("houtei", PINFU_HAND, "8s", {Yaku.HOUTEI}, ron=True, houtei=True),
    _case("pinfu-tanyao", PINFU_HAND, "8s", {Yaku.PINFU, Yaku.TANYAO}, ron=True, riichi=True),
    _case("iipeikou", "223344m567p789s11s", "4m", {Yaku.IIPEIKOU, Yaku.PINFU}, ron=True),
    _case("ryanpeikou", "223344m223344p55s", "5s", {Yaku.RYANPEIKOU}, ron=True),
    _case("kuitan", "234m567p234s55s", "5s", {Yaku.TANYAO}, ("pon:666s",), ron=True),
    _case(
        "seat-east",
        "123m456p789s22s",
        "2s",
        {Yaku.SEAT_WIND_EAST},
        ("pon:111z",),
        ron=True,
        seat="E",
        round="S",
    ),
    _case(
        "seat-south",
        "123m456p789s22s",
        "2s",
        {Yaku.SEAT_WIND_SOUTH},
        ("pon:222z",),
        ron=True,
        seat="S",
    ),
    _case(
        "seat-west",
        "123m456p789s22s",
        "2s",
        {Yaku.SEAT_WIND_WEST},
        ("pon:333z",),
        ron=True,
        seat="W",
    ),
    _case(
        "seat-north",
        "123m456p789s22s",
        "2s",
        {Yaku.SEAT_WIND_NORTH},
        ("pon:444z",),
        ron=True,
        seat="N",
    ),
    _case(
        "round-east-and-seat-east",
        "123m456p789s22s",
        "2s",
        {Yaku.ROUND_WIND_EAST, Yaku.SEAT_WIND_EAST},
        ("pon:111z",),
        ron=True,
        seat="E",
    ),
    _case(
        "round-south",
        "123m456p789s22s",
        "2s",
        {Yaku.ROUND_WIND_SOUTH},
        ("pon:222z",),
        ron=True,
        seat="E",
        round="S",
    ),
    _case(
        "round-west",
        "123m456p789s22s",
        "2s",
        {Yaku.ROUND_WIND_WEST},
        ("pon:333z",),
        ron=True,
        round="W",
    ),
    _case(
        "round-north",
        "123m456p789s22s",
        "2s",
        {Yaku.ROUND_WIND_NORTH},
        ("pon:444z",),
        ron=True,
        round="N",
    ),
    _case("haku", "123m456p789s22s", "2s", {Yaku.HAKU}, ("pon:555z",), ron=True),
    _case("hatsu", "123m456p789s22s", "2s", {Yaku.HATSU}, ("pon:666z",), ron=True),
    _case("chun", "123m456p789s22s", "2s", {Yaku.CHUN}, ("pon:777z",), ron=True),
    _case("chiitoitsu", "1122m3344p5566s77z", "7z", {Yaku.CHIITOITSU}, ron=True),
    _case("chanta", "123m789p789s111z99s", "9s", {Yaku.CHANTA}, ron=True),
    _case("junchan", "123m789m123p999s11s", "3m", {Yaku.JUNCHAN}, ron=True),
    _case("ittsu", "123456789m456p11s", "9m", {Yaku.ITTSU}, ron=True),
    _case("sanshoku", "123m123p123s456m11z", "6m", {Yaku.SANSHOKU}, ron=True),
    _case(
        "sanshoku-doukou",
        "222m222p222s456m99s",
        "9s",
        {Yaku.SANSHOKU_DOUKOU, Yaku.SANANKOU},
        ron=True,
    ),
    _case(
        "sankantsu",
        "456m77p",
        "7p",
        {Yaku.SANKANTSU},
        ("ankan:1111m", "daiminkan:2222p", "kakan:3333s"),
        ron=True,
    ),
    _case("toitoi", "222m99s", "9s", {Yaku.TOITOI}, ("pon:333p", "pon:444s", "pon:666m"), ron=True),
    _case("sanankou", "111m222p333s456m88s", "4m", {Yaku.SANANKOU}, ron=True),
    _case(
        "shousangen",
        "555z666z77z123m456p",
        "3m",
        {Yaku.SHOUSANGEN, Yaku.HAKU, Yaku.HATSU},
        ron=True,
    ),
    _case(
        "honroutou",
        "999s111z22z",
        "2z",
        {Yaku.HONROUTOU, Yaku.TOITOI},
        ("pon:111m", "pon:999p"),
        ron=True,
    ),
    _case("honitsu", "123456m789m111z22z", "2z", {Yaku.HONITSU}, ron=True),
    _case("chinitsu", "22334455667788s", "8s", {Yaku.CHINITSU}, ron=True),
    # Yakuman.
    _case("tenhou", PINFU_HAND, "8s", {Yaku.TENHOU}, tsumo=True, tenhou=True, seat="E"),
    _case("chiihou", PINFU_HAND, "8s", {Yaku.CHIIHOU}, tsumo=True, chiihou=True),
    _case("daisangen", "555666777z123m44p", "4p", {Yaku.DAISANGEN}, ron=True),
    _case("suuankou", "111m333p555s777z22p", "7z", {Yaku.SUUANKOU}, tsumo=True),
    _case("suuankou-tanki", "111m333p555s777z22p", "2p", {Yaku.SUUANKOU_TANKI}, ron=True),
    _case("tsuuiisou", "111z222z333z55566z", "6z", {Yaku.TSUUIISOU}, ron=True),
    _case("tsuuiisou-seven-pairs", "11223344556677z", "7z", {Yaku.TSUUIISOU}, ron=True),
    _case("ryuuiisou", "22334466888s666z", "6z", {Yaku.RYUUIISOU}, ron=True),
    _case("chinroutou", "111m999m111p999p11s", "1s", {Yaku.CHINROUTOU}, ron=True),
    _case("chuuren", "11123456789999m", "1m", {Yaku.CHUUREN}, ron=True),
    _case("junsei-chuuren", "11123456789999m", "9m", {Yaku.JUNSEI_CHUUREN}, ron=True),
    _case("kokushi", "19m19p19s11234567z", "7z", {Yaku.KOKUSHI}, ron=True),
    _case("kokushi-13", "19m19p19s11234567z", "1z", {Yaku.KOKUSHI_13}, ron=True),
    _case("daisuushii", "222z333z444z77p", "7p", {Yaku.DAISUUSHII}, ("pon:111z",), ron=True),
    _case("shousuushii", "222z333z44z789p", "7p", {Yaku.SHOUSUUSHII}, ("pon:111z",), ron=True),
    _case(
        "suukantsu",
        "77p",
        "7p",
        {Yaku.SUUKANTSU},
        ("ankan:1111m", "daiminkan:2222p", "kakan:3333s", "daiminkan:4444s"),
        ron=True,
    ),
]


@pytest.mark.parametrize(("hand", "win", "melds", "situation", "expected"), CASES)
def test_yaku(
    hand: str, win: str, melds: tuple[str, ...], situation: dict[str, Any], expected: set[Yaku]
) -> None:
    r = score(hand, win=win, melds=melds, **situation)
    found = {y.yaku for y in r.yaku}
    assert expected <= found, f"{sorted(y.name for y in found)}"
    if any(y.yakuman for y in r.yaku):
        assert r.han == 13 * r.yakuman and r.dora == 0


def test_every_yaku_is_covered() -> None:
    covered = set().union(*(p.values[4] for p in CASES))
    missing = set(Yaku) - covered - {Yaku.RENHOU, Yaku.DORA, Yaku.URA_DORA, Yaku.AKA_DORA}
    assert not missing


def test_renhou_per_rules() -> None:
    hand = PINFU_HAND
    assert "renhou" not in yaku_names(score(hand, win="8s", ron=True, renhou=True))
    mangan = replace(preset("tenhou"), renhou="mangan")
    r = score(hand, win="8s", ron=True, renhou=True, rules=mangan)
    assert "renhou" in yaku_names(r) and r.total >= 8000
    yakuman = replace(preset("tenhou"), renhou="yakuman")
    r = score(hand, win="8s", ron=True, renhou=True, rules=yakuman)
    assert r.yakuman == 1 and r.total == 32000


def test_open_reductions() -> None:
    r = score("123456m11z", win="1z", melds=["chi:789m", "chi:123p"], ron=True)
    assert {(y.yaku, y.han) for y in r.yaku} == {(Yaku.ITTSU, 1)}
    r = score("234567m99m", win="9m", melds=["chi:111m", "pon:888m"], ron=True)
    assert (Yaku.CHINITSU, 5) in {(y.yaku, y.han) for y in r.yaku}


def test_no_kuitan_where_the_rules_forbid_it() -> None:
    no_kuitan = replace(preset("tenhou"), kuitan=False)
    with pytest.raises(NotAWin) as err:
        score("234m567p234s55s", win="5s", melds=["pon:666s"], ron=True, rules=no_kuitan)
    assert err.value.code == "no-yaku-win"


def test_dora_do_not_make_a_yaku() -> None:
    with pytest.raises(NotAWin) as err:
        score("123m456p789s11z", win="1z", melds=["chi:789p"], ron=True, dora=["9s", "9m"])
    assert err.value.code == "no-yaku-win"


def test_not_a_winning_hand() -> None:
    with pytest.raises(NotAWin) as err:
        score("123m456p789s1234z", win="1z", ron=True)
    assert err.value.code == "not-a-winning-hand"


def test_ryanpeikou_beats_chiitoitsu() -> None:
    r = score("223344m223344p55s", win="5s", ron=True)
    assert "chiitoitsu" not in yaku_names(r) and r.han >= 4


def test_sanankou_beats_pinfu_iipeikou_on_tsumo() -> None:
    # The Tenhou log case of matrix §C: 111222333m789m44m tsumo is sanankou, 40 fu.
    r = score("11122233378944m", win="3m", tsumo=True)
    assert "sanankou" in yaku_names(r) and r.fu == 40


def test_ura_only_with_riichi_and_kita_in_sanma() -> None:
    r = score(PINFU_HAND, win="8s", ron=True, ura=["1m"])
    assert r.ura == 0
    r = score(PINFU_HAND, win="8s", ron=True, riichi=True, ura=["1m"])
    assert r.ura == 1
    # Two kita, and a West indicator makes North the dora: 2 kita han + 2 dora.
    r = score(
        "111m999m234p55s",
        win="5s",
        melds=["pon:777z", "kita:4z", "kita:4z"],
        ron=True,
        dora=["3z"],
        players=3,
        rules="tenhou-sanma",
    )
    assert (r.kita, r.dora) == (2, 2)
    assert r.han == 1 + 2 + 2
