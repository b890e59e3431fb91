"""Preset values read against their sources (issue 17): each test is one row of the
issue's table, and fails where the preset or the engine did not follow the source."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from analyzer.checks.audit import audit_log
from analyzer.hands.final import final_result
from analyzer.hands.points import settle_win
from analyzer.hands.scoring import NotAWin
from mjaudit.events import Limit
from mjaudit.rules import RulesError, Ruleset, override, preset
from mjaudit.yaku import Yaku
from tests.builders import GameBuilder, rules_hint
from tests.scoring_helpers import score, yaku_names

PINFU_TANYAO = "234m567p22345678s"  # won on 8s: pinfu + tanyao, 2 han 30 fu on a ron


# -- worldatplay-sanma (seed 004, sanma section) --------------------------------------


def test_worldatplay_sanma_tsumo_honba_is_100_from_each_payer() -> None:
    rules = preset("worldatplay-sanma")
    # Non-dealer (seat 1) mangan tsumo in sanma with tsumo-son: 4000 + 2000.
    result = score(
        "234p567p22345678s", win="8s", tsumo=True, riichi=True, rules=rules, dora=("4s",), players=3
    )
    assert result.limit is Limit.MANGAN
    deltas = settle_win(result, 1, 1, 0, honba=2, riichi_sticks=0, rules=rules, players=3)
    assert deltas == (-4200, 6400, -2200, 0)


def test_worldatplay_sanma_starts_on_35000_with_no_uma_or_oka() -> None:
    rules = preset("worldatplay-sanma")
    assert (rules.start_points, rules.return_points, rules.uma) == (35000, 35000, (0, 0, 0))
    hint = replace(rules_hint(), players=3, source="worldatplay")
    res = final_result((50000, 35000, 20000, 0), 0, 0, 3, rules, hint, "g")
    assert res.results == (15.0, 0.0, -15.0)


# -- mleague (riichi.wiki M.League page, "Notable rule variations") --------------------


def test_mleague_double_wind_pair_is_2_fu() -> None:
    # East seat in the East round, tanki on the East pair, closed 555s, tsumo:
    # 20 + 2 tsumo + 2 tanki + 4 triplet + the pair: 4 fu (Tenhou) -> 40, 2 fu -> 30.
    hand = "123m456p555s789s11z"
    tenhou = score(hand, win="1z", tsumo=True, seat="E", round="E")
    mleague = score(hand, win="1z", tsumo=True, seat="E", round="E", rules="mleague")
    assert tenhou.fu == 40 and mleague.fu == 30
    assert ("pair of double wind", 2) in [(p.reason, p.fu) for p in mleague.fu_parts]
    # JPML likewise (its common rules: 連風牌の対子も2符).
    assert score(hand, win="1z", tsumo=True, seat="E", round="E", rules="jpml").fu == 30


# -- renhou -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        pytest.param("tenhou", "none", id="tenhou-none"),
        pytest.param("tenhou-sanma", "none", id="tenhou-sanma-none"),
        pytest.param("mahjongsoul", "none", id="mahjongsoul-none"),
        pytest.param("worldatplay", "none", id="worldatplay-none"),
        pytest.param("ema", "mangan", id="ema-strict-mangan"),
        pytest.param("jpml", "mangan", id="jpml-mangan"),
        pytest.param("wrc", "cumulative", id="wrc-2014-cumulative"),
    ],
)
def test_renhou_value_per_preset(name: str, value: str) -> None:
    assert preset(name).renhou == value


def test_ema_renhou_is_a_strict_mangan() -> None:
    r = score(PINFU_TANYAO, win="8s", ron=True, renhou=True, rules="ema")
    assert (r.limit, r.total, yaku_names(r)) == (Limit.MANGAN, 8000, ["renhou"])


def _with_renhou(value: str) -> Ruleset:
    return override(preset("tenhou"), {"renhou": value})


def test_mangan_renhou_is_a_limit_not_a_stacking_yaku() -> None:
    mangan = _with_renhou("mangan")
    r = score(PINFU_TANYAO, win="8s", ron=True, renhou=True, rules=mangan)
    assert (r.han, r.total, r.limit) == (5, 8000, Limit.MANGAN)  # not 12,000
    # Dora do not lift a renhou without another yaku's worth: still a mangan.
    r = score(PINFU_TANYAO, win="8s", ron=True, renhou=True, rules=mangan, dora=("1m", "4p"))
    assert r.total == 8000
    # The hand's own value wins when it is more: pinfu tanyao + 4 dora = haneman.
    r = score(
        PINFU_TANYAO, win="8s", ron=True, renhou=True, rules=mangan, dora=("1m", "4p", "1s", "7s")
    )
    assert (r.total, r.limit) == (12000, Limit.HANEMAN) and "renhou" not in yaku_names(r)
    # Dealer-side payments of a non-dealer mangan tsumo are never renhou.
    r = score(PINFU_TANYAO, win="8s", tsumo=True, renhou=True, rules=mangan)
    assert "renhou" not in yaku_names(r)


def test_renhou_alone_is_a_win_where_the_rules_have_it() -> None:
    # A tanki on the East pair: no yaku but renhou.
    hand = "123m456p345s789s11z"
    with pytest.raises(NotAWin, match="no-yaku-win"):
        score(hand, win="1z", ron=True, renhou=True)
    assert score(hand, win="1z", ron=True, renhou=True, rules=_with_renhou("mangan")).total == 8000


def test_cumulative_renhou_stacks_and_yakuman_renhou_is_a_yakuman() -> None:
    r = score(PINFU_TANYAO, win="8s", ron=True, renhou=True, rules=_with_renhou("cumulative"))
    assert (r.han, r.total) == (7, 12000)
    r = score(PINFU_TANYAO, win="8s", ron=True, renhou=True, rules=_with_renhou("yakuman"))
    assert (r.yakuman, r.total) == (1, 32000)


def test_rules_file_accepts_every_renhou_value() -> None:
    for value in ("none", "mangan", "yakuman", "cumulative"):
        assert _with_renhou(value).renhou == value
    with pytest.raises(RulesError, match="renhou must be one of"):
        _with_renhou("baiman")


def _renhou_game(points: int, yaku: list[tuple[Yaku, int]], limit: Limit) -> GameBuilder:
    """South rons the dealer's first discard: renhou, where the rules have it."""
    b = GameBuilder(path="renhou.xml")
    b.start_round(
        ["13m19p19s1234567z", "234m567p2234567s", "666777888m999p1s", "666777888p99s22z"],
        dora="5z",
    )
    b.turn(0, "8s")
    b.ron(1, 0, fu=30, points=points, yaku=yaku, deltas=(-points, points, 0, 0), limit=limit)
    return b


_SCORE_CODES = {"han-mismatch", "points-mismatch", "yaku-mismatch", "payment-mismatch"}


def test_replay_sets_renhou_for_a_ron_before_the_first_draw() -> None:
    ema = preset("ema")
    log = _renhou_game(8000, [(Yaku.RENHOU, 5)], Limit.MANGAN).build()
    found = {f.code for f in audit_log(log, ema).findings}
    assert not found & _SCORE_CODES
    # Tenhou has no renhou: the same log's 8000 is a mismatch (it is 2000 there).
    tenhou = {f.code for f in audit_log(log, preset("tenhou")).findings}
    assert "points-mismatch" in tenhou
    # And a Tenhou-valued claim is right for Tenhou, wrong for EMA.
    plain = _renhou_game(2000, [(Yaku.PINFU, 1), (Yaku.TANYAO, 1)], Limit.NONE).build()
    assert not {f.code for f in audit_log(plain, preset("tenhou")).findings} & _SCORE_CODES
    assert "points-mismatch" in {f.code for f in audit_log(plain, ema).findings}


# -- EMA settlement (RCR 2016 §3.4.9, §3.3.9) -------------------------------------------


def test_ema_double_ron_pays_each_winner_its_honba() -> None:
    r = score(PINFU_TANYAO, win="8s", ron=True)  # 2000
    ema, tenhou = preset("ema"), preset("tenhou")
    # The second winner (seat 2) of a double ron on seat 0's discard, at 2 honba.
    second = settle_win(r, 2, 0, 0, 2, 1, ema, takes_honba_and_sticks=False)
    assert second == (-2600, 0, 2600, 0)  # honba, but the sticks went to the first
    assert settle_win(r, 2, 0, 0, 2, 1, tenhou, takes_honba_and_sticks=False) == (
        -2000,
        0,
        2000,
        0,
    )


def test_ema_pao_tsumo_the_other_two_pay_nothing() -> None:
    # Non-dealer daisangen tsumo (seat 1), seat 3 liable, 2 honba.
    r = score("555z666z777z123m22p", win="2p", tsumo=True, rules="ema")
    assert r.yakuman == 1
    deltas = settle_win(r, 1, 1, 0, 2, 0, preset("ema"), pao_seat=3)
    assert deltas == (0, 32600, 0, -32600)
    # Tenhou: the same, the liable seat pays the honba too.
    assert settle_win(r, 1, 1, 0, 2, 0, preset("tenhou"), pao_seat=3) == deltas


def test_ema_pao_ron_only_the_discarder_pays_the_honba() -> None:
    r = score("555z666z777z123m22p", win="2p", ron=True, rules="ema")
    assert settle_win(r, 1, 0, 0, 2, 0, preset("ema"), pao_seat=3) == (-16600, 32600, 0, -16000)


# -- JPML uma (MahjongPantheon jpmlA.php ComplexUma) -----------------------------------


@pytest.mark.parametrize(
    ("scores", "sticks", "results"),
    [
        pytest.param((51000, 29000, 25000, 15000), 0, (33.0, -2.0, -8.0, -23.0), id="one-up"),
        pytest.param((45000, 35000, 25000, 15000), 0, (23.0, 9.0, -9.0, -23.0), id="two-up"),
        pytest.param((35000, 32000, 30000, 23000), 0, (13.0, 5.0, 1.0, -19.0), id="three-up"),
        pytest.param((30000, 30000, 30000, 30000), 0, (8.0, 4.0, -4.0, -8.0), id="four-at-30000"),
        pytest.param((29500, 29500, 29000, 29000), 3, (7.5, 3.5, -5.0, -9.0), id="none-up"),
    ],
)
def test_jpml_uma_depends_on_players_at_or_above_30000(
    scores: tuple[int, ...], sticks: int, results: tuple[float, ...]
) -> None:
    hint = replace(rules_hint(), source="mjai")
    res = final_result(scores, sticks, 0, 4, preset("jpml"), hint, "g")
    assert res.results == results


def test_uma_by_floating_in_a_rules_file_is_checked() -> None:
    with pytest.raises(RulesError, match="uma_by_floating needs 5 rows"):
        override(preset("tenhou"), {"uma_by_floating": [[1, 2, 3, 4]]})
    rules = override(preset("tenhou"), {"uma_by_floating": [[5, 1, -1, -5]] * 5})
    assert rules.uma_by_floating[0] == (5, 1, -1, -5)


# -- every scoring and settlement setting changes an outcome ---------------------------


def _value(hand: str, win: str, rules: Ruleset, **situation: Any) -> object:
    """A hand's (han, fu, total), or the code of the reason it is no win."""
    try:
        r = score(hand, win=win, rules=rules, **situation)
    except NotAWin as exc:
        return exc.code
    return (r.han, r.fu, r.total, r.yakuman)


def _settled(rules: Ruleset, **kw: object) -> tuple[int, ...]:
    hand = "555z666z777z111z22z"  # daisangen + tsuuiisou (+ suuankou tanki on a ron)
    r = score(hand, win="2z", ron=not kw.get("tsumo"), tsumo=bool(kw.get("tsumo")), rules=rules)
    from_seat = 1 if kw.get("tsumo") else 0
    return settle_win(r, 1, from_seat, 0, 2, 1, rules, pao_seat=3)


def _final(rules: Ruleset, scores: tuple[int, ...] = (41500, 29000, 27000, 21500)) -> object:
    hint = replace(rules_hint(), source="mjai")
    res = final_result(scores, 1, 0, rules.players, rules, hint, "g")
    return (res.final_scores, res.results)


_LIVE: dict[str, tuple[object, Callable[[Ruleset], object]]] = {
    "aka": (False, lambda r: _value("234m067p22345678s", "8s", r, ron=True)),
    "ura_dora": (
        False,
        lambda r: _value(PINFU_TANYAO, "8s", r, ron=True, riichi=True, ura=("1s",)),
    ),
    "kiriage": (True, lambda r: _value(PINFU_TANYAO, "8s", r, ron=True, riichi=True, dora=("1m",))),
    "kazoe_yakuman": (
        False,
        lambda r: _value(PINFU_TANYAO, "8s", r, ron=True, riichi=True, dora=("1s",) * 5),
    ),
    "double_yakuman_patterns": (True, lambda r: _value("119m19p19s1234567z", "1m", r, ron=True)),
    "composite_yakuman": (False, lambda r: _value("555z666z777z111z22z", "2z", r, ron=True)),
    "double_wind_pair_fu": (
        2,
        lambda r: _value("123m456p555s789s11z", "1z", r, tsumo=True, seat="E"),
    ),
    "rinshan_tsumo_fu": (
        False,
        lambda r: _value(
            "333p456m678s55m", "4m", r, tsumo=True, rinshan=True, melds=("ankan:2222s",)
        ),
    ),
    "kuitan": (False, lambda r: _value("234m567p22s345s", "5s", r, ron=True, melds=("chi:678s",))),
    "ippatsu": (
        False,
        lambda r: _value(PINFU_TANYAO, "8s", r, ron=True, riichi=True, ippatsu=True),
    ),
    "renhou": ("mangan", lambda r: _value(PINFU_TANYAO, "8s", r, ron=True, renhou=True)),
    "honba_ron": (200, lambda r: _settled(r)),
    "honba_tsumo_each": (
        200,
        lambda r: settle_win(score(PINFU_TANYAO, win="8s", tsumo=True, rules=r), 1, 1, 0, 2, 0, r),
    ),
    "double_ron_honba_each": (
        True,
        lambda r: settle_win(
            score(PINFU_TANYAO, win="8s", ron=True, rules=r),
            2,
            0,
            0,
            2,
            1,
            r,
            takes_honba_and_sticks=False,
        ),
    ),
    "pao_scope": ("pao-share", lambda r: _settled(r, tsumo=True)),
    "pao_pays_honba": (False, lambda r: _settled(r)),
    # (The oka shows where the top does not take the rest.)
    "start_points": (30000, lambda r: _final(replace(r, leftover_sticks_to_top=False))),
    "return_points": (25000, _final),
    "uma": ((30, 10, -10, -30), _final),
    "uma_by_floating": (((5, 1, -1, -5),) * 5, _final),
    "leftover_sticks_to_top": (False, _final),
    "final_rounding": ("thousand-half-up", _final),
}


@pytest.mark.parametrize("name", sorted(_LIVE))
def test_scoring_setting_is_live(name: str) -> None:
    flipped, outcome = _LIVE[name]
    base = preset("tenhou")
    assert getattr(base, name) != flipped
    changes: dict[str, Any] = {name: flipped}
    assert outcome(base) != outcome(replace(base, **changes))


def test_sanma_settings_are_live() -> None:
    base = preset("tenhou-sanma")
    r = score("234p567p22345678s", win="8s", tsumo=True, rules=base, players=3)
    split = replace(base, tsumo_son=False)
    r_split = score("234p567p22345678s", win="8s", tsumo=True, rules=split, players=3)
    assert r.payments != r_split.payments
    from analyzer.hands.points import noten_payments

    assert noten_payments([0], 3, base) != noten_payments([0], 3, replace(base, noten_pool=3000))


# -- Japanese professional leagues (docs/rules.md, "Japanese professional leagues") -----
# Hands scored by hand; then each league's distinctive settings on real Tenhou logs, the
# log's own rules with the league's value for the one field.

LEAGUES = ("saikouisen", "mu", "rmu")


@pytest.mark.parametrize("name", LEAGUES)
def test_league_presets_are_four_player_and_never_tenhou_results(name: str) -> None:
    rules = preset(name)
    assert (rules.name, rules.players, rules.tenhou_lobby_results) == (name, 4, False)
    assert (rules.start_points, rules.return_points, rules.aka) == (30000, 30000, False)


def test_saikouisen_hand_has_ura_and_kiriage() -> None:
    # Riichi pinfu tanyao, one ura (indicator 1m: 2m): 4 han 30 fu. The Saikouisen has
    # ura dora and kiriage (West One Cup rules): a mangan, 8000.
    r = score(PINFU_TANYAO, win="8s", ron=True, riichi=True, ura=("1m",), rules="saikouisen")
    assert (r.han, r.fu, r.total, r.limit) == (4, 30, 8000, Limit.MANGAN)
    # JPML, its base, has no ura: 3 han 30 fu, 3900.
    r = score(PINFU_TANYAO, win="8s", ron=True, riichi=True, ura=("1m",), rules="jpml")
    assert (r.han, r.total) == (3, 3900)
    # Ippatsu counts (jan39.com summary; West One Cup rules).
    r = score(PINFU_TANYAO, win="8s", ron=True, riichi=True, ippatsu=True, rules="saikouisen")
    assert "ippatsu" in yaku_names(r)


def test_saikouisen_final_uma_30_10_no_oka_sticks_left_on_the_table() -> None:
    hint = replace(rules_hint(), source="mjai")
    # (score - 30000) / 1000 + uma (+30/+10/-10/-30); the one leftover stick goes to no one.
    res = final_result((45000, 35000, 25000, 15000), 1, 0, 4, preset("saikouisen"), hint, "g")
    assert res.final_scores == (45000, 35000, 25000, 15000)
    assert res.results == (45.0, 15.0, -15.0, -45.0)


def test_mu_hand_has_no_ippatsu_no_ura_and_no_honba() -> None:
    # Riichi pinfu tanyao with ippatsu and an ura: only 3 han 30 fu (mj-king.net rule 2).
    r = score(PINFU_TANYAO, win="8s", ron=True, riichi=True, ippatsu=True, ura=("1m",), rules="mu")
    assert (r.han, r.fu, r.total) == (3, 30, 3900)
    assert yaku_names(r) == ["pinfu", "riichi", "tanyao"]
    # At 2 honba with one riichi stick: the winner takes the stick and no counters
    # (mj-king.net rule 10); Tenhou would add 600.
    plain = score(PINFU_TANYAO, win="8s", ron=True, rules="mu")
    assert settle_win(plain, 1, 0, 0, 2, 1, preset("mu")) == (-2000, 3000, 0, 0)
    assert settle_win(plain, 1, 0, 0, 2, 1, preset("tenhou")) == (-2600, 3600, 0, 0)
    # A tsumo (pinfu tanyao tsumo, 700/1300): no counters either.
    tsumo = score(PINFU_TANYAO, win="8s", tsumo=True, rules="mu")
    assert settle_win(tsumo, 1, 1, 0, 2, 1, preset("mu")) == (-1300, 3700, -700, -700)


def test_mu_final_uma_12_4_fixed_and_shared_on_a_tie() -> None:
    hint = replace(rules_hint(), source="mjai")
    # Three players at or above 30000: JPML's uma would be +8/+3/+1/-12; mu's is the
    # fixed +12/+4/-4/-12 (mj-king.net rule 22), and the tie on 30000 shares +4 and -4
    # (rule 23).
    res = final_result((40000, 30000, 30000, 20000), 0, 0, 4, preset("mu"), hint, "g")
    assert res.results == (22.0, 0.0, 0.0, -22.0)
    res = final_result((40000, 30000, 30000, 20000), 0, 0, 4, preset("jpml"), hint, "g")
    assert res.results == (18.0, 3.0, 1.0, -22.0)


def test_mu_allows_kuikae() -> None:
    from tests.test_rules_live import _kuikae_game

    def calls(rules: Ruleset) -> set[str]:
        found = audit_log(_kuikae_game(), rules).findings
        return {f.code for f in found if f.code == "illegal-call"}

    # Chi 5m with 34m and discard 2m at once: allowed in mu (mj-king.net rule 3).
    tenhou = preset("tenhou")
    assert calls(replace(tenhou, kuikae_forbidden=preset("mu").kuikae_forbidden)) == set()
    assert calls(replace(tenhou, kuikae_forbidden=preset("saikouisen").kuikae_forbidden)) == {
        "illegal-call"
    }


def test_rmu_hand_composite_yakuman_and_ura() -> None:
    # Daisangen + tsuuiisou + suuankou (tanki ron on 2z): RMU adds yakuman up (a
    # summary of the RMU rules); WRC, its base, does not.
    hand = "555z666z777z111z22z"
    r = score(hand, win="2z", ron=True, rules="rmu")
    assert (r.yakuman, r.total) == (3, 96000)
    assert score(hand, win="2z", ron=True, rules="wrc").yakuman == 1
    # Ura dora on (rmu.jp/rule): riichi pinfu tanyao + one ura = 4 han 30 fu.
    r = score(PINFU_TANYAO, win="8s", ron=True, riichi=True, ura=("1m",), rules="rmu")
    assert (r.han, r.fu) == (4, 30)


def test_rmu_final_uma_15_5_shared_on_a_tie() -> None:
    hint = replace(rules_hint(), source="mjai")
    res = final_result((40000, 30000, 30000, 20000), 0, 0, 4, preset("rmu"), hint, "g")
    assert res.results == (25.0, 0.0, 0.0, -25.0)
    res = final_result((45000, 35000, 25000, 15000), 0, 0, 4, preset("rmu"), hint, "g")
    assert res.results == (30.0, 10.0, -10.0, -30.0)


def _league_field_codes(game: str, field_name: str, league: str) -> set[str]:
    """The error codes of a real Tenhou log audited under its own rules, with the one
    field set to the league preset's value."""
    from analyzer.checks.audit import resolve_rules
    from mjaudit.findings import Severity
    from tests.test_rules_live import _log

    log = _log(game)
    own = resolve_rules(log, "auto")
    rules = replace(own, **{field_name: getattr(preset(league), field_name)})
    return {
        f.code for f in audit_log(log, rules, review=False).findings if f.severity is Severity.ERROR
    }


ABORTIVE_GAME = "2010112714gm-00a9-0000-d497e395.xml"  # an abortive draw
BUST_GAME = "2009072918gm-0061-0000-e6e91672.xml"  # ends with a player below 0
PAO_GAME = "2010060416gm-0061-0000-2d91fbe3.xml"  # daisangen pao with honba


@pytest.mark.parametrize(
    ("league", "field_name", "game", "code"),
    [
        # No abortive draws (jan39.com; mj-king.net rules 4, 6; rmu.jp/rule).
        ("saikouisen", "abortive_draws", ABORTIVE_GAME, "draw-mismatch"),
        ("mu", "abortive_draws", ABORTIVE_GAME, "draw-mismatch"),
        ("rmu", "abortive_draws", ABORTIVE_GAME, "draw-mismatch"),
        # No busting: a game that ends on a bust stops early (rmu.jp/rule).
        ("rmu", "tobi", BUST_GAME, "game-end-mismatch"),
        # No liability payments (jan39.com; a summary of the RMU rules).
        ("saikouisen", "pao_yakuman", PAO_GAME, "pao-mismatch"),
        ("rmu", "pao_yakuman", PAO_GAME, "pao-mismatch"),
    ],
)
def test_league_setting_takes_effect_on_a_real_log(
    league: str, field_name: str, game: str, code: str
) -> None:
    assert code not in _league_field_codes(game, field_name, "tenhou")
    assert code in _league_field_codes(game, field_name, league)


def test_league_dealer_may_not_stop_at_all_last() -> None:
    from tests.test_rules_play import AGARI_YAME_GAME

    for league in LEAGUES:
        codes = _league_field_codes(AGARI_YAME_GAME, "agari_yame", league)
        assert "game-end-mismatch" in codes, league


def test_mu_keeps_liability_on_daisangen() -> None:
    # mj-king.net rule 16: liability on daisangen and daisuushii, as Tenhou.
    assert "pao-mismatch" not in _league_field_codes(PAO_GAME, "pao_yakuman", "mu")
