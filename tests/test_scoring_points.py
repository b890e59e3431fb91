"""Settlement of wins (ron, tsumo, dealer, honba, sticks, pao, sanma), noten and nagashi."""

from __future__ import annotations

import pytest

from analyzer.hands.points import nagashi_payments, noten_payments, settle_win
from mjaudit.hands import HandResult
from mjaudit.rules import preset
from tests.scoring_helpers import score

TENHOU = preset("tenhou")
SANMA = preset("tenhou-sanma")
PINFU = "234m567p22345678s"


def _hand(seat: str = "S", tsumo: bool = False, players: int = 4) -> HandResult:
    # Riichi pinfu tanyao: 3 han 30 fu ron (3900 / 5800), 4 han 20 fu tsumo.
    return score(
        PINFU, win="8s", ron=not tsumo, tsumo=tsumo, riichi=True, seat=seat, players=players
    )


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        pytest.param({}, (0, 3900, 0, -3900), id="ron"),
        pytest.param({"honba": 2}, (0, 4500, 0, -4500), id="ron-honba"),
        pytest.param({"riichi_sticks": 2}, (0, 5900, 0, -3900), id="ron-sticks"),
        pytest.param(
            {"honba": 1, "riichi_sticks": 1, "takes_honba_and_sticks": False},
            (0, 3900, 0, -3900),
            id="double-ron-second-winner",
        ),
    ],
)
def test_settle_ron(kwargs: dict[str, int], expected: tuple[int, ...]) -> None:
    base = {"honba": 0, "riichi_sticks": 0}
    base.update(kwargs)
    deltas = settle_win(_hand(), 1, 3, 0, rules=TENHOU, **base)  # type: ignore[arg-type]
    assert deltas == expected


def test_settle_dealer_ron() -> None:
    assert settle_win(_hand("E"), 0, 2, 0, 0, 0, TENHOU) == (5800, 0, -5800, 0)


def test_settle_non_dealer_tsumo_with_honba_and_sticks() -> None:
    r = _hand(tsumo=True)  # 4 han 20 fu: 1300 / 2600
    assert (r.payments.non_dealer, r.payments.dealer, r.total) == (1300, 2600, 5200)
    deltas = settle_win(r, 1, 1, 0, 1, 1, TENHOU)
    assert deltas == (-2700, 5200 + 300 + 1000, -1400, -1400)


def test_settle_dealer_tsumo() -> None:
    r = _hand("E", tsumo=True)
    assert r.payments.non_dealer == 2600 and r.total == 7800
    assert settle_win(r, 0, 0, 0, 0, 0, TENHOU) == (7800, -2600, -2600, -2600)


def _daisangen(tsumo: bool, seat: str = "S") -> HandResult:
    return score(
        "123m44p",
        win="4p",
        melds=["pon:555z", "pon:666z", "pon:777z"],
        ron=not tsumo,
        tsumo=tsumo,
        seat=seat,
    )


def test_pao_tsumo_liable_pays_everything_and_the_honba() -> None:
    deltas = settle_win(_daisangen(True), 1, 1, 0, 1, 0, TENHOU, pao_seat=2)
    assert deltas == (0, 32300, -32300, 0)


def test_pao_ron_split_with_the_discarder() -> None:
    deltas = settle_win(_daisangen(False), 1, 3, 0, 1, 0, TENHOU, pao_seat=2)
    assert deltas == (0, 32300, -16300, -16000)


def test_pao_ron_by_the_liable_seat_itself() -> None:
    assert settle_win(_daisangen(False), 1, 2, 0, 0, 0, TENHOU, pao_seat=2) == (0, 32000, -32000, 0)


def test_pao_honba_by_the_discarder_under_ema() -> None:
    deltas = settle_win(_daisangen(False), 1, 3, 0, 1, 0, preset("ema"), pao_seat=2)
    assert deltas == (0, 32300, -16000, -16300)


def test_sanma_tsumo_son_and_honba() -> None:
    # Matrix §7: a non-dealer mangan tsumo with 3 honba: dealer -4300, other -2300.
    r = score(
        "111m999m345p789p55p",
        win="5p",
        tsumo=True,
        riichi=True,
        dora=["9m"],
        players=3,
        rules=SANMA,
        seat="S",
    )
    assert r.total == 6000 and (r.payments.dealer, r.payments.non_dealer) == (4000, 2000)
    assert settle_win(r, 1, 1, 0, 3, 0, SANMA, players=3) == (-4300, 6600, -2300, 0)


def test_sanma_ron_honba_is_200() -> None:
    r = score("555666777z11p", win="1p", melds=["pon:999m"], ron=True, players=3, rules=SANMA)
    assert settle_win(r, 1, 0, 0, 2, 0, SANMA, players=3) == (-32400, 32400, 0, 0)


def test_sanma_dealer_tsumo_haneman() -> None:
    r = score(
        "111m999m340p789p55p",
        win="5p",
        tsumo=True,
        riichi=True,
        dora=["9m"],
        players=3,
        rules=SANMA,
        seat="E",
    )
    assert r.total == 12000
    assert settle_win(r, 0, 0, 0, 0, 0, SANMA, players=3) == (12000, -6000, -6000, 0)


@pytest.mark.parametrize(
    ("tenpai", "players", "rules", "expected"),
    [
        pytest.param([], 4, TENHOU, (0, 0, 0, 0), id="all-noten"),
        pytest.param([0, 1, 2, 3], 4, TENHOU, (0, 0, 0, 0), id="all-tenpai"),
        pytest.param([2], 4, TENHOU, (-1000, -1000, 3000, -1000), id="one-tenpai"),
        pytest.param([0, 3], 4, TENHOU, (1500, -1500, -1500, 1500), id="two-tenpai"),
        pytest.param([0, 1, 3], 4, TENHOU, (1000, 1000, -3000, 1000), id="three-tenpai"),
        pytest.param([1], 3, SANMA, (-1000, 2000, -1000, 0), id="sanma-one-tenpai"),
        pytest.param([0, 2], 3, SANMA, (1000, -2000, 1000, 0), id="sanma-two-tenpai"),
    ],
)
def test_noten_payments(
    tenpai: list[int], players: int, rules: object, expected: tuple[int, ...]
) -> None:
    assert noten_payments(tenpai, players, rules) == expected  # type: ignore[arg-type]


def test_nagashi_payments() -> None:
    assert nagashi_payments([2], 0, 4, TENHOU) == (-4000, -2000, 8000, -2000)
    assert nagashi_payments([0], 0, 4, TENHOU) == (12000, -4000, -4000, -4000)
    assert nagashi_payments([1], 0, 3, SANMA) == (-4000, 6000, -2000, 0)
    assert nagashi_payments([0], 0, 3, SANMA) == (8000, -4000, -4000, 0)
    assert nagashi_payments([1, 2], 0, 4, TENHOU) == (-8000, 6000, 6000, -4000)


def test_pao_share_only_covers_the_pao_yakuman_under_mahjongsoul() -> None:
    # Daisangen (pao) + tsuuiisou tsumo: the liable seat pays the daisangen 32000 and
    # its normal share of the rest (matrix §E pao row, note 2).
    r = score("555z666z777z22z", win="2z", melds=["pon:111z"], tsumo=True)
    assert r.yakuman == 2
    mjs = preset("mahjongsoul")
    assert settle_win(r, 1, 1, 0, 0, 0, mjs, pao_seat=2) == (-16000, 64000, -40000, -8000)
    assert settle_win(r, 1, 1, 0, 0, 0, TENHOU, pao_seat=2) == (0, 64000, -64000, 0)
    ron = score("555z666z777z22z", win="2z", melds=["pon:111z"], ron=True)
    assert settle_win(ron, 1, 3, 0, 0, 0, mjs, pao_seat=2) == (0, 64000, -16000, -48000)
