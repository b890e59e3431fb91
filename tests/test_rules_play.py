"""The rules of play and of the game's end, preset by preset (issue 17).

Each test builds a short game (or reads a real one) where the setting under test
decides the verdict, and audits it under the preset that has the rule and under a
ruleset without it, so a setting the engine does not read fails here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from analyzer.checks.audit import FileAudit, audit_log
from analyzer.review.furiten import review_log
from mjaudit.events import DrawReason, GameLog, Limit, Win
from mjaudit.findings import Finding, Severity
from mjaudit.rules import Ruleset, preset
from mjaudit.tiles import Tile, tiles
from mjaudit.yaku import Yaku
from parsers.tenhou_xml import parse_tenhou_xml
from tests.builders import GameBuilder
from tests.conftest import corpus_file

TENHOU = preset("tenhou")
WRC = preset("wrc")


def _audit(log: GameLog, rules: Ruleset) -> FileAudit:
    return audit_log(log, rules)


def _codes(result: FileAudit, *codes: str) -> list[str]:
    """The error codes of ``result`` (only ``codes`` where given)."""
    return [
        f.code
        for f in result.findings
        if f.severity is Severity.ERROR and (not codes or f.code in codes)
    ]


def _hand_errors(result: FileAudit) -> list[str]:
    """The error codes of a built one-hand game, which has no end (game-incomplete)."""
    return [c for c in _codes(result) if c != "game-incomplete"]


def _round_findings(log: GameLog, rules: Ruleset, code: str) -> list[Finding]:
    return [f for f in _audit(log, rules).findings if f.code == code]


def _free_tiles(b: GameBuilder, keep: str = "") -> list[str]:
    """Every tile not dealt yet, in kind order, leaving out the kinds in ``keep``."""
    kept = {t.kind for t in tiles(keep)}
    out = []
    for kind in range(34):
        if kind in kept:
            continue
        text = str(Tile(kind))
        out.extend([text] * b.remaining(text))
    return out


def _play_out(b: GameBuilder, free: list[str], draws: int, first: int = 0) -> int:
    """``draws`` turns of draw and tsumogiri from seat ``first`` on; the next seat."""
    seat = first
    for _ in range(draws):
        b.turn(seat, free.pop())
        seat = (seat + 1) % 4
    return seat


# -- riichi thresholds (WRC 2025 §8.9 through seed 004) ---------------------------------
TENPAI = "123m456m789m45p11s"  # waits 3p 6p
FAR = ("2468m2468p2468s1z", "2468m2468p2468s2z", "2468m2468p2468s3z")


def _deal(waiting: int, hand: str = TENPAI, others: tuple[str, ...] = FAR) -> GameBuilder:
    b = GameBuilder(path="play.xml", aka=False)
    far = iter(others)
    b.start_round([hand if s == waiting else next(far) for s in range(4)], dora="9s")
    return b


def test_wrc_riichi_below_1000_points_is_legal() -> None:
    b = GameBuilder(path="play.xml", aka=False)
    b.scores = [25000, 500, 25000, 49500]
    b.start_round([FAR[0], TENPAI, FAR[1], FAR[2]], dora="9s")
    b.turn(0, "4z")
    b.draw(1, "5z")
    b.riichi(1, "5z")
    log = b.build()
    found = _round_findings(log, TENHOU, "illegal-riichi")
    assert [f.message for f in found] == [
        "E1-0: seat 1 declares riichi with 500 points (at least 1000)"
    ]
    assert _round_findings(log, WRC, "illegal-riichi") == []


def test_wrc_riichi_on_the_last_draw_is_legal() -> None:
    b = _deal(1)
    free = _free_tiles(b, keep="3p6p")
    seat = _play_out(b, free, 69)  # 70 live tiles: the 70th is seat 1's last draw
    assert seat == 1
    last = free.pop()
    b.draw(1, last)
    b.riichi(1, last)
    log = b.build()
    found = _round_findings(log, TENHOU, "illegal-riichi")
    assert [f.message for f in found] == [
        "E1-0: seat 1 declares riichi with 0 tiles left in the wall (at least 4)"
    ]
    assert _round_findings(log, WRC, "illegal-riichi") == []
    # JPML-R: "ツモ番がなくてもリーチをかけることができる".
    assert _round_findings(log, preset("jpml"), "illegal-riichi") == []


# -- temporary furiten lifted by a call (seed 004, furiten section) -----------------------
def test_wrc_a_call_lifts_temporary_furiten() -> None:
    hand = "123m456m45p11s789s"  # waits 3p 6p
    b = _deal(3, hand)
    b.turn(0, "3p")  # seat 3 lets 3p go by: temporarily furiten
    b.turn(1, "5z")
    b.turn(2, "9s")
    b.chi(3, "78s")  # a call: lifts it under WRC, not where only a draw does
    b.discard(3, "9s")
    b.turn(0, "5z", "6p")
    b.ron(3, 0, fu=30, points=1000, yaku=(), deltas=(-1000, 0, 0, 1000))
    log = b.build()

    def furiten(rules: Ruleset) -> list[str]:
        _, tracker = review_log(log, rules)
        return [f.code for f in tracker.findings if f.severity is Severity.ERROR]

    assert WRC.temp_furiten_lifted_by == "draw-or-call"
    assert furiten(WRC) == []
    assert furiten(replace(WRC, temp_furiten_lifted_by="draw")) == ["ron-while-furiten"]
    assert furiten(preset("worldatplay")) == ["ron-while-furiten"]


# -- declaring noten at a draw (WRC 2015 §5.7.2; seed 004) --------------------------------
def _drawn_game(tenpai_claimed: tuple[int, ...], riichi: bool = False) -> GameLog:
    """Seat 1 tenpai on 3p6p (in riichi if ``riichi``), the wall played out."""
    b = _deal(1)
    free = _free_tiles(b, keep="3p6p")
    if riichi:
        b.turn(0, free.pop())
        drawn = free.pop()
        b.draw(1, drawn)
        b.riichi(1, drawn)
        _play_out(b, free, 68, first=2)
    else:
        _play_out(b, free, 70)
    deltas = [0, 0, 0, 0]
    for s in range(4):
        if tenpai_claimed:
            deltas[s] = (
                3000 // len(tenpai_claimed)
                if s in tenpai_claimed
                else -3000 // (4 - len(tenpai_claimed))
            )
    b.draw_game(deltas, tenpai=tenpai_claimed)
    return b.build()


# The draw's verdicts (the game has no end: its game-incomplete is not asked for).
DRAW = ("draw-mismatch", "tenpai-hand-mismatch", "payment-mismatch")
NOTEN_SHOWN = "E1-0: the log shows the hands of seats [] tenpai, the hands make seats [1] tenpai"


def test_wrc_a_tenpai_hand_may_be_declared_noten() -> None:
    log = _drawn_game(())
    assert _codes(_audit(log, WRC), *DRAW) == []
    for rules in (TENHOU, replace(WRC, noten_declaration=False)):
        # (WRC's rules with a field of their own are the game's: its 25000 start is a
        # finding of its own, before the draw's)
        draw = [f for f in _audit(log, rules).findings if f.code in DRAW]
        assert draw[0].code == "tenpai-hand-mismatch"
        assert draw[0].message == NOTEN_SHOWN


def test_wrc_a_riichi_hand_may_not_be_declared_noten() -> None:
    log = _drawn_game((), riichi=True)
    result = _audit(log, WRC)
    assert _codes(result, *DRAW)[0] == "tenpai-hand-mismatch"
    assert result.findings[0].message == NOTEN_SHOWN


def test_wrc_a_noten_hand_claimed_tenpai_is_still_an_error() -> None:
    result = _audit(_drawn_game((1, 2)), WRC)
    assert _codes(result, *DRAW)[0] == "tenpai-hand-mismatch"
    assert result.findings[0].message == (
        "E1-0: the log shows the hands of seats [1, 2] tenpai, the hands make seats [1] tenpai"
    )
    assert _codes(_audit(_drawn_game((1,)), WRC), *DRAW) == []


# -- kokushi robbing a concealed kan (Mahjong Soul; WRC 2022 Optional Rules preface) ------
KOKUSHI_1M = "9m19p19s1234567z7z"  # Thirteen Orphans waiting on 1m alone


def _ankan_robbed(hand: str = KOKUSHI_1M) -> GameLog:
    """The dealer draws the fourth 1m and declares a concealed kan; seat 1 rons it."""
    b = GameBuilder(path="ankan.xml", aka=False)
    b.start_round(
        ["111m2468p2468s56z", hand, "23455m3457p3457s", FAR[2]],
        dora="8m",
    )
    b.draw(0, "1m")
    b.ankan(0, "1m")
    robbed = next(i for i in b.melds[0][-1].tile_ids or () if i // 4 == 0)
    b.last_kakan = (0, robbed)
    b.ron(1, 0, fu=0, points=32000, yaku=(), deltas=(-32000, 32000, 0, 0), limit=Limit.YAKUMAN)
    _as_yakuman(b, Yaku.KOKUSHI)
    return b.build()


def _as_yakuman(b: GameBuilder, yaku: Yaku, pao_seat: int | None = None) -> None:
    """The last win claims ``yaku`` as its yakuman (and ``pao_seat`` liable)."""
    win = b.events[-1]
    assert isinstance(win, Win)
    claims = replace(win.claims, yaku=None, yakuman=(yaku,), pao_seat=pao_seat)
    b.events[-1] = replace(win, claims=claims)


def test_kokushi_robs_a_concealed_kan_where_the_rules_allow_it() -> None:
    log = _ankan_robbed()
    for name in ("mahjongsoul", "wrc", "jpml"):
        rules = preset(name)
        assert rules.kokushi_robs_ankan
        result = _audit(log, rules)
        assert _hand_errors(result) == []
        assert dict(result.checks)["wins_scored"] == 1


def test_kokushi_robbing_a_concealed_kan_is_an_illegal_call_where_it_is_not_allowed() -> None:
    result = _audit(_ankan_robbed(), TENHOU)
    assert _hand_errors(result) == ["illegal-call"]
    found = [f for f in result.findings if f.code == "illegal-call"]
    assert [(f.seat, f.message) for f in found] == [
        (
            1,
            "E1-0: seat 1 rons 1m from seat 0's concealed kan: these rules do not let "
            "Thirteen Orphans rob a concealed kan",
        )
    ]
    assert dict(result.checks)["wins_scored"] == 1  # still replayed and scored


def test_only_kokushi_may_rob_a_concealed_kan() -> None:
    log = _ankan_robbed("23m456789p23456s")  # 1m4m wait, not Thirteen Orphans
    found = [f for f in _audit(log, WRC).findings if f.code == "illegal-call"]
    assert [f.message for f in found] == [
        "E1-0: seat 1 rons 1m from seat 0's concealed kan: only Thirteen Orphans may "
        "rob a concealed kan"
    ]


# -- four-kong liability (M.League, JPML, WRC 2025 §9.1.1) --------------------------------
def _four_kongs(last: str) -> GameLog:
    """Seat 1 makes three concealed kans, then a fourth on seat 3's 9s (``last`` =
    "daiminkan") or adds 9s to a pon of seat 3's (``"kakan"``), and wins on the
    replacement tile: suukantsu."""
    b = GameBuilder(path="kongs.xml", aka=False)
    seat1 = "111m222m333m999s5z" if last == "daiminkan" else "111m222m333m99s5z6z"
    b.start_round(["4456m5678p5678s6z", seat1, "7789m4467p4467s7z", "5699m1239p1239s6z"], dora="1z")
    b.turn(0, "2z")
    if last == "kakan":
        b.turn(1, "2z")
        b.turn(2, "2z")
        b.draw(3, "3z")
        b.discard(3, "9s")
        b.pon(1)
        b.discard(1, "6z")
        b.turn(2, "3z")
        b.turn(3, "3z")
        b.turn(0, "4z")
    for kind, indicator in (("1m", "8m"), ("2m", "8p"), ("3m", "8s")):
        b.draw(1, kind)
        b.ankan(1, kind)
        b.dora(indicator)
    if last == "daiminkan":
        b.draw(1, "4z")
        b.discard(1, "4z")
        b.turn(2, "4z")
        b.draw(3, "4z")
        b.discard(3, "9s")
        b.daiminkan(1)
    else:
        b.draw(1, "9s")
        b.kakan(1, "9s")
    b.dora("2s")
    b.draw(1, "5z")
    deltas = (0, 32000, 0, -32000) if last == "daiminkan" else (-16000, 32000, -8000, -8000)
    b.tsumo(1, fu=110, points=32000, yaku=(), deltas=deltas, limit=Limit.YAKUMAN)
    _as_yakuman(b, Yaku.SUUKANTSU, 3 if last == "daiminkan" else None)
    return b.build()


PAYMENTS = ("pao-mismatch", "payment-mismatch")


@pytest.mark.parametrize("name", ["mleague", "jpml", "wrc"])
def test_four_kongs_liability_falls_on_the_fourth_kans_discarder(name: str) -> None:
    # (dealt 25000 each, as the built game is: rules of their own are judged on it)
    rules = replace(
        preset(name), kan_dora=True, open_kan_dora_timing="immediate", start_points=25000
    )
    assert "suukantsu" in rules.pao_yakuman
    assert _hand_errors(_audit(_four_kongs("daiminkan"), rules)) == []
    without = replace(rules, pao_yakuman=frozenset({"daisangen", "daisuushii"}))
    assert _codes(_audit(_four_kongs("daiminkan"), without), *PAYMENTS)[0] == "pao-mismatch"


def test_a_fourth_kan_added_to_a_pon_makes_no_one_liable() -> None:
    rules = replace(preset("mleague"), open_kan_dora_timing="immediate")
    assert _hand_errors(_audit(_four_kongs("kakan"), rules)) == []


# -- multiple ron: head-bump, triple ron (JPML: Pantheon jpmlA.php setWithAtamahane) -------
WAIT_3P = ("123m456m789m45p11s", "123m456m789m45p22s", "123m456m789m45p33s")


def _multiple_ron(winners: int, *, draw: bool = False, farthest_first: bool = False) -> GameLog:
    """Seat 0 discards 3p; ``winners`` seats win on it (or the hand is a triple-ron
    draw), listed nearest first, or farthest first."""
    b = GameBuilder(path="ron.xml", aka=False)
    b.start_round(["2468m2468p2468s1z", *WAIT_3P], dora="9s")
    b.turn(0, "3p")
    if draw:
        b.draw_game((0, 0, 0, 0), reason=DrawReason.SANCHAHOU)
        return b.build()
    seats = range(1, winners + 1)
    for seat in reversed(seats) if farthest_first else seats:
        deltas = [0, 0, 0, 0]
        deltas[0], deltas[seat] = -8000, 8000
        b.ron(seat, 0, fu=30, points=8000, yaku=(), deltas=deltas)
    return b.build()


def test_jpml_settles_a_triple_ron_by_head_bump_not_an_abortive_draw() -> None:
    jpml = preset("jpml")
    assert "sanchahou" not in jpml.abortive_draws
    found = _round_findings(_multiple_ron(3, draw=True), jpml, "draw-mismatch")
    assert [f.message for f in found] == [
        "E1-0: the log ends the hand in a sanchahou draw, which these rules do not have"
    ]
    # A ruleset that lists the abortive draw but settles a triple ron otherwise.
    scored = replace(preset("tenhou"), triple_ron="atamahane")
    found = _round_findings(_multiple_ron(3, draw=True), scored, "draw-mismatch")
    assert [f.message for f in found] == [
        "E1-0: the log ends the hand in a triple-ron draw; these rules settle it by head-bump"
    ]
    assert _round_findings(_multiple_ron(3, draw=True), TENHOU, "draw-mismatch") == []


def test_a_second_ron_under_head_bump_is_an_illegal_call() -> None:
    found = _round_findings(_multiple_ron(2), preset("jpml"), "illegal-call")
    assert [(f.seat, f.message) for f in found] == [
        (
            2,
            "E1-0: 2 players ron seat 0's tile: these rules let only the winner nearest the "
            "discarder win (head-bump)",
        )
    ]
    assert _round_findings(_multiple_ron(2), TENHOU, "illegal-call") == []


def test_head_bump_names_the_farther_winner_whichever_the_log_lists_first() -> None:
    """Seats 1 and 2 ron seat 0's tile, seat 2's win listed first: seat 1, nearer the
    discarder, wins by head-bump; seat 2's win is the one the rules do not allow."""
    found = _round_findings(_multiple_ron(2, farthest_first=True), preset("jpml"), "illegal-call")
    assert [f.seat for f in found] == [2]


def test_three_rons_where_a_triple_ron_is_an_abortive_draw() -> None:
    found = _round_findings(_multiple_ron(3), TENHOU, "illegal-call")
    assert [(f.seat, f.message, f.expected, f.actual) for f in found] == [
        (
            1,
            "E1-0: 3 players ron seat 0's tile: these rules make a triple ron an abortive "
            "draw, with no winner",
            0,  # no winner (was 1, the head-bump's number)
            3,
        )
    ]
    assert _round_findings(_multiple_ron(3), preset("mahjongsoul"), "illegal-call") == []


# -- the game's end per preset (real Tenhou games, one rule flipped) -------------------------
BUST_GAME = "2022060100gm-00a9-0000-210acdc3.xml"  # seat 0 ends on -6100 after S1-0
AGARI_YAME_GAME = "2022060100gm-00a9-0000-6db179be.xml"  # S4-0: the dealer, sole top, stops
WEST_GAME = "2011020416gm-00a9-0000-025480d4.xml"  # nobody at 30000 after S4: W1 is played


def _real(name: str) -> GameLog:
    return parse_tenhou_xml(corpus_file(name).read_bytes(), name)


def _game_end(log: GameLog, rules: Ruleset) -> list[Finding]:
    return [f for f in _audit(log, rules).findings if f.code == "game-end-mismatch"]


def test_a_game_that_ends_by_busting_is_clean_where_the_rules_bust() -> None:
    log = _real(BUST_GAME)
    assert _game_end(log, TENHOU) == []
    for rules in (replace(TENHOU, tobi=False), WRC, preset("mleague")):
        found = _game_end(log, rules)
        assert [f.message for f in found] == [
            "the log records the game's result after S1-0, but the game goes on: the last "
            "hand is S4 (these rules have no busting)"
        ], rules.name


def test_the_all_last_dealer_stops_only_with_agari_yame() -> None:
    log = _real(AGARI_YAME_GAME)
    assert _game_end(log, TENHOU) == []
    found = _game_end(log, replace(TENHOU, agari_yame=False))
    assert [f.message for f in found] == [
        "the log records the game's result after S4-0, but the game goes on: the dealer "
        "keeps the seat, and these rules have no agari-yame"
    ]


def test_a_game_goes_into_west_only_with_the_extension() -> None:
    log = _real(WEST_GAME)
    assert _game_end(log, TENHOU) == []
    found = _game_end(log, replace(TENHOU, west_extension=False))
    assert [(f.round, f.message) for f in found] == [
        ("W1-0", "the game ends after S4-0 (S4 is the last hand), but the log plays on into W1-0")
    ]


@pytest.mark.parametrize(
    "name", sorted(["tenhou", "mahjongsoul", "mleague", "wrc", "jpml", "ema", "worldatplay"])
)
def test_every_four_player_preset_reads_its_end_rules(name: str) -> None:
    rules = preset(name)
    expected = {
        "tenhou": (True, True, True),
        "mahjongsoul": (True, True, True),
        "mleague": (False, False, False),
        "wrc": (False, False, False),
        "jpml": (False, False, False),
        "ema": (False, False, False),
        "worldatplay": (True, False, False),
    }[name]
    assert (rules.tobi, rules.agari_yame, rules.west_extension) == expected
    assert not rules.tobi_at_zero


def test_the_game_length_comes_from_the_rules_where_the_log_does_not_say_it() -> None:
    # EXACT_GAME (a hanchan) with its length taken out of the log: seat 1 has 35700
    # after E4-0, which ends an east-only game.
    log = _real("2022060100gm-00a9-0000-01481d95.xml")
    start = log.start
    unsaid = replace(start, rules_hint=replace(start.rules_hint, hanchan=None))
    log = replace(log, events=(unsaid, *log.events[1:]))
    assert log.start.rules_hint.hanchan is None
    assert _game_end(log, TENHOU) == []
    found = _game_end(log, replace(TENHOU, hanchan=False))
    assert [(f.round, f.message) for f in found] == [
        (
            "S1-0",
            "the game ends after E4-0 (seat 1 has 35700 (at least 30000) after E4), but the "
            "log plays on into S1-0",
        )
    ]


# -- abortive draws the rules make due (rules-matrix §E) ---------------------------------


def _four_winds() -> GameLog:
    """Four East first discards, no call; the hand plays on to a ron."""
    b = GameBuilder(path="fourwinds.xml")
    b.start_round(
        ["2468m2468p2468s1z", "123m456m789m45p1s1z", "2468m2468p2468s1z", "2468m2468p2468s1z"],
        dora="9s",
    )
    b.turn(0, "3z", "1z")
    b.turn(1, "1s", "1z")
    b.turn(2, "9m", "1z")
    b.turn(3, "9m", "1z")
    b.turn(0, "3p", "3p")
    b.ron(
        1, 0, fu=30, points=8000, yaku=[(Yaku.PINFU, 1), (Yaku.ITTSU, 2), (Yaku.DORA, 2)],
        deltas=[-8000, 8000, 0, 0], limit=Limit.MANGAN,
    )  # fmt: skip
    return b.build()


def _four_riichi() -> GameLog:
    """Four riichi accepted; the hand plays on to a tsumo."""
    b = GameBuilder(path="fourriichi.xml")
    b.start_round(
        ["123m456m789m45p11s", "123p456p789p45s22m", "123s456s789s34m33p", "111z222z333z44z55z"],
        dora="9s",
    )
    for seat, tile in ((0, "7z"), (1, "7z"), (2, "7z"), (3, "6z")):
        b.draw(seat, tile)
        b.riichi(seat, tile)
    b.turn(0, "6z", "6z")
    b.draw(1, "6s")
    b.tsumo(
        1, fu=20, points=12000,
        yaku=[(Yaku.MENZEN_TSUMO, 1), (Yaku.DOUBLE_RIICHI, 2), (Yaku.IPPATSU, 1),
              (Yaku.PINFU, 1), (Yaku.ITTSU, 2), (Yaku.URA_DORA, 0)],
        deltas=[-6000, 16000, -3000, -3000], limit=Limit.HANEMAN, ura="8s",
    )  # fmt: skip
    return b.build()


@pytest.mark.parametrize(
    ("build", "draw", "why"),
    [
        (_four_winds, "suufon-renda", "the four first discards are 1z at element 12 <G111/>"),
        (_four_riichi, "suucha-riichi", "the fourth riichi at element 20 <REACH/>"),
    ],
)
def test_a_hand_that_plays_past_a_due_abortive_draw(
    build: Callable[[], GameLog], draw: str, why: str
) -> None:
    """Under rules that have the draw, the hand ends there (libriichi writes it after
    the next seat's draw, so the finding is at the event after that draw); under
    rules without it, the hand goes on."""
    log = build()
    found = _round_findings(log, TENHOU, "draw-mismatch")
    assert [f.message for f in found] == [
        f"E1-0: these rules end the hand in a {draw} draw after {why}, but the log plays on"
    ]
    without = replace(TENHOU, abortive_draws=frozenset())
    assert _round_findings(log, without, "draw-mismatch") == []
