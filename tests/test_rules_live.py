"""Every setting live: each field of ``Ruleset`` changes what the engine says.

``CASES`` holds, for every field, one or more cases: a hand scored through
``analyzer.hands.scoring.score``, a real corpus log audited, or a short built game, under
two values of that field and nothing else changed. The engine must give two
different answers, and the answers it gives are pinned in ``expect``. A field the
engine never reads gives the same answer twice: such a case is written anyway and
marked ``xfail(strict=True, raises=SettingIsDead)``, so the day the setting becomes
live the case passes, the strict mark turns that into a failure, and the mark must be
removed (with ``expect`` filled in). A wrong answer from a live setting is a plain
failure, never an expected one. ``test_every_field_has_a_case`` makes a new field
without a case fail the suite.

The bookkeeping fields (``_BOOKKEEPING``: ``name``, ``assumed``) are exempt from the
live requirement: ``name`` only names the ruleset, and
``test_the_name_changes_no_verdict`` checks that it changes nothing (every rule once
chosen by a preset's name is a field of its own: ``tobi_at_zero``, ``agari_yame``,
``west_extension``, ``uma_split_ties``, ``tenhou_lobby_results``). ``assumed`` has a
case all the same: it turns into ``rules-assumed`` warnings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path

import pytest

from analyzer.checks.audit import audit_log, resolve_rules
from analyzer.hands.final import final_candidates
from analyzer.hands.scoring import NotAWin
from analyzer.review.furiten import review_log
from mjaudit.events import GameLog, GameStart, Limit, Win
from mjaudit.findings import Severity
from mjaudit.rules import PRESETS, Ruleset, preset
from mjaudit.yaku import Yaku
from parsers import load
from parsers.tenhou_xml import parse_tenhou_xml
from tests.builders import GameBuilder, rules_hint
from tests.conftest import CORPUS, corpus_file, elements, rebuild
from tests.scoring_helpers import score
from tests.test_audit_tamper import EXACT_GAME, _shift_from_start
from tests.test_rules_play import AGARI_YAME_GAME, _drawn_game

TENHOU = preset("tenhou")


class SettingIsDead(AssertionError):
    """Both values of a setting give the same answer: the engine does not read it."""


@dataclass(frozen=True)
class Case:
    """``outcome(values[0])`` and ``outcome(values[1])`` differ, and are ``expect``."""

    what: str
    values: tuple[object, object]
    outcome: Callable[[object], object]
    expect: tuple[object, object] | None = None
    dead: str | None = None  # why the engine does not read the field yet (issue 17)


# -- outcomes: hands -----------------------------------------------------------------
def _hand(
    field: str, base: Ruleset, hand: str, win: str, *, melds: Sequence[str] = (), **ctx: object
) -> Callable[[object], object]:
    """(han, fu, yakuman, total) of one hand, or the code of the NotAWin it raises."""

    def run(value: object) -> object:
        rules = replace(base, **{field: value})  # type: ignore[arg-type]
        try:
            r = score(hand, win, melds=melds, rules=rules, **ctx)
        except NotAWin as exc:
            return exc.code
        return (r.han, r.fu, r.yakuman, r.total)

    return run


# -- outcomes: corpus logs -----------------------------------------------------------
def _corpus_path(name: str) -> Path:
    if "/" in name:
        path = CORPUS / name
        if not path.exists():
            pytest.skip(f"corpus not available: {path}")
        return path
    return corpus_file(name)


@cache
def _log(name: str) -> GameLog:
    return load(str(_corpus_path(name)))


def _codes(log: GameLog, rules: Ruleset, severity: Severity = Severity.ERROR) -> tuple[str, ...]:
    result = audit_log(log, rules, review=False)
    return tuple(sorted({f.code for f in result.findings if f.severity is severity}))


def _corpus(
    field: str, name: str, severity: Severity = Severity.ERROR, **fixed: object
) -> Callable[[object], object]:
    """The error codes (a sorted set) of a real log audited with ``field`` set (and
    the ``fixed`` fields, the same for both values)."""

    def run(value: object) -> object:
        log = _log(name)
        rules = replace(resolve_rules(log, "auto"), **fixed, **{field: value})  # type: ignore[arg-type]
        return _codes(log, rules, severity)

    return run


# Real logs that settle a setting (tests/conftest.py skips them where the corpus is absent).
KAN_GAME = "2009082713gm-00e1-0000-8820f355.xml"  # ankans and kakans with kan ura
OPEN_KAN_GAME = "2010112714gm-00a9-0000-d497e395.xml"  # element 426 kakan, 428 DORA
KIRIAGE_GAME = "2009082817gm-00ab-0000-997dbe26.xml"  # a 4-han 30-fu hand
KAZOE_GAME = "2018110809gm-00b9-0000-00a79b89.xml"  # sanma kazoe yakuman
DOUBLE_PATTERN_GAME = "2010112211gm-00a9-0000-56a320b2.xml"  # a double-yakuman pattern
COMPOSITE_GAME = "2019103023gm-00a9-0000-f90e0fe9.xml"  # two yakuman, one of them pao
WIND_PAIR_GAME = "2015011211gm-0029-0000-2dd7ec0f.xml"  # a double-wind pair
RINSHAN_GAME = "2020052700gm-00a9-0000-75a4695c.xml"  # a rinshan tsumo
PAO_GAME = "2010060416gm-0061-0000-2d91fbe3.xml"  # daisangen pao with honba
SANMA_GAME = "2014091101gm-00b9-0000-5ca6b487.xml"  # sanma tsumo wins
ABORTIVE_GAME = "2010112714gm-00a9-0000-d497e395.xml"  # an abortive draw
BUST_GAME = "2009072918gm-0061-0000-e6e91672.xml"  # ends with a player below 0
LONG_GAME = "2022060107gm-00a9-0000-a990aa36.xml"  # riichi, chi, honba, noten payments
DOUBLE_RON_GAME = "2022060100gm-00a9-0000-34c99cfa.xml"  # elements 720 and 721
TRIPLE_RON_GAME = "2010113000gm-0061-0000-ef7062e1.xml"  # RYUUKYOKU type="ron3"
NAGASHI_GAME = "2014051613gm-0041-0000-3366561a.xml"  # RYUUKYOKU type="nm"
TONPUU_GAME = "2009071823gm-0041-0000-ff3a2214.xml"  # ends after East 4
WEST_GAME = "2011020416gm-00a9-0000-025480d4.xml"  # went on to West after S4-0
ZERO_GAME = EXACT_GAME  # seat 0 on 7600 after E4-0: moved to 0 by _at_zero
# (AGARI_YAME_GAME: the all-last dealer, sole top, stops after S4-0.)
KITA_RINSHAN_GAME = "tenhou-json/full-game/2024010120gm-00b9-0000-ef5da89f.json"


# -- outcomes: built games -----------------------------------------------------------
FAR = ("2468m2468p2468s1z", "2468m2468p2468s2z", "2468m2468p2468s3z")
TENPAI = "123m456m789m45p11s"  # waits 3p 6p


def _built(field: str, base: Ruleset, build: Callable[[], GameLog]) -> Callable[[object], object]:
    """The error codes of one built hand, without the game-level ones (no owari)."""

    def run(value: object) -> object:
        result = audit_log(build(), replace(base, **{field: value}))  # type: ignore[arg-type]
        return tuple(
            sorted(
                {
                    f.code
                    for f in result.findings
                    if f.severity is Severity.ERROR and f.code not in _GAME_LEVEL
                }
            )
        )

    return run


_GAME_END = {"game-incomplete", "game-end-mismatch"}
_GAME_LEVEL = {*_GAME_END, "final-score-mismatch"}


def _kuikae_game() -> GameLog:
    """Seat 1 chis 5m with 34m and at once discards 2m, the other end of 345m."""
    b = GameBuilder(path="kuikae.xml")
    b.start_round(["1379m1379p1379s1z", "234m8p29s1234567z", FAR[1], FAR[2]], dora="9s")
    b.draw(0, "5m")
    b.discard(0, "5m")
    b.chi(1, "34m")
    b.discard(1, "2m")
    return b.build()


def _kokushi_ankan_game() -> GameLog:
    """Seat 1 (thirteen orphans waiting on 1z) rons seat 0's concealed kan of East."""
    b = GameBuilder(path="kokushi.xml")
    b.start_round(["111z2468m2468p99s", "19m19p19s234567z9m", FAR[1], FAR[2]], dora="9s")
    b.draw(0, "1z")
    b.ankan(0, "1z")
    # The builder robs only a kakan: point its kakan slot at the ankan's last tile.
    b.last_kakan = (0, b.melds[0][-1].tile_ids[-1])  # type: ignore[index]
    b.ron(1, 0, fu=0, points=32000, yaku=(), deltas=[-32000, 32000, 0, 0], limit=Limit.YAKUMAN)
    win = b.events[-1]
    assert isinstance(win, Win)
    claims = replace(win.claims, yaku=None, yakuman=(Yaku.KOKUSHI,))
    b.events[-1] = replace(win, claims=claims)
    return b.build()


def _renhou_game() -> GameLog:
    """Seat 1 rons the dealer's first discard, before its own first draw, no call."""
    b = GameBuilder(path="renhou.xml")
    b.start_round(["2468m2468p2468s1z", TENPAI, FAR[1], FAR[2]], dora="9s")
    b.draw(0, "3p")
    b.discard(0, "3p")
    # 123456789m 345p 11s: pinfu 1 + ittsu 2 + dora 2 (1s) = 5 han: mangan 8000.
    b.ron(
        1,
        0,
        fu=30,
        points=8000,
        yaku=[(Yaku.PINFU, 1), (Yaku.ITTSU, 2), (Yaku.DORA, 2)],
        deltas=[-8000, 8000, 0, 0],
        limit=Limit.MANGAN,
    )
    return b.build()


def _nagashi_after_a_chi_game() -> GameLog:
    """Seat 1 chis the dealer's first discard, then throws only terminals and honours
    to the end of the wall; the log records a plain exhaustive draw, nobody tenpai."""
    b = GameBuilder(path="nagashi.xml")
    b.start_round([FAR[0], "23m59m2468p2468s1z", FAR[1], FAR[2]], dora="9s")
    b.turn(0, "1m")
    b.chi(1, "23m")
    b.discard(1, "1z")
    honours = [f"{n}z" for n in range(1, 8)] + [f"{n}{s}" for s in "mps" for n in "19"]
    simples = [f"{n}{s}" for s in "mps" for n in "2345678"] + honours
    for k in range(69):  # the rest of the 70 live tiles, from seat 2 on
        seat = (2 + k) % 4
        order = honours if seat == 1 else simples
        b.turn(seat, next(t for t in order if b.remaining(t)))
    b.draw_game([0, 0, 0, 0])
    return b.build()


def _no_hanchan_in_hint(name: str) -> Callable[[object], object]:
    """A tonpuu log that ends after East 4, its lobby's length taken out of the log:
    the ruleset's ``hanchan`` is then all that says how long the game is. The game-end
    codes only: without its length the lobby's uma is unknown too (final-score-mismatch
    whatever ``hanchan`` says)."""

    def run(value: object) -> object:
        log = _log(name)
        start = log.events[0]
        assert isinstance(start, GameStart)
        hint = replace(start.rules_hint, hanchan=None, description="")
        events = (replace(start, rules_hint=hint), *log.events[1:])
        bare = replace(log, events=events)
        rules = replace(TENHOU, hanchan=value)  # type: ignore[arg-type]
        return tuple(c for c in _codes(bare, rules) if c in _GAME_END)

    return run


def _temp_furiten(value: object) -> object:
    """Seat 3 lets seat 0's 3p go by, then draws: is seat 3 still furiten at the draw?"""
    b = GameBuilder(path="furiten.xml")
    b.start_round(["2468m2468p2468s1z", FAR[0], FAR[1], TENPAI], dora="9s")
    b.turn(0, "3p")
    b.turn(1, "4z")
    b.turn(2, "4z")
    b.draw(3, "4z")  # event 8
    rules = replace(TENHOU, temp_furiten_lifted_by=value)  # type: ignore[arg-type]
    _, tracker = review_log(b.build(), rules)
    timeline = dict(tracker.timeline[0])
    last = max(k for k in timeline if k <= 8)
    return timeline[last][3].cause


def _final(
    field: str,
    base: Ruleset,
    scores: tuple[int, ...] = (41300, 30700, 27000, 19000),
    sticks: int = 2,
) -> Callable[[object], object]:
    """The final scores and results of a 4-player game under ``base`` with ``field`` set:
    by default scores 41300 30700 27000 19000 and two riichi sticks left on the table."""

    def run(value: object) -> object:
        rules = replace(base, **{field: value})  # type: ignore[arg-type]
        (first, *_) = final_candidates(scores, sticks, 0, 4, rules, rules_hint(hanchan=True), "x")
        return (first.final_scores, first.results)

    return run


MJS_RANKED_GAME = "mahjongsoul/tenhou-json/LiYounian_9tiles.json"  # Jade South, converter JSON


def _mjs_results(value: object) -> object:
    """A real Mahjong Soul ranked game audited under uma +20/+10/-10/-20, not its own:
    the codes of the findings on its result points, with ``results_assumed`` set."""
    log = _log(MJS_RANKED_GAME)
    rules = replace(preset("mahjongsoul"), uma=(20, 10, -10, -20), results_assumed=bool(value))
    audit = audit_log(log, rules, review=False)
    return tuple(
        sorted({(f.code, f.severity.value) for f in audit.findings if "result is" in f.message})
    )


def _at_zero(value: object) -> object:
    """A real game with every score moved so that seat 0 has exactly 0 after E4-0 and
    the game plays on: the game-level codes with ``tobi_at_zero`` set."""
    c = elements(corpus_file(ZERO_GAME))
    _shift_from_start(c, [-76, 76, 0, 0])
    log = parse_tenhou_xml(rebuild(c), ZERO_GAME)
    rules = replace(resolve_rules(log, "auto"), tobi_at_zero=value)  # type: ignore[arg-type]
    return _codes(log, rules)


def _assumed(value: object) -> object:
    log = _log(LONG_GAME)
    rules = replace(resolve_rules(log, "auto"), assumed=value)  # type: ignore[arg-type]
    return _codes(log, rules, Severity.WARNING)


def _players(value: object) -> object:
    log = _log(LONG_GAME)
    rules = replace(resolve_rules(log, "auto"), players=value)  # type: ignore[arg-type]
    return _codes(log, rules)


def _nagashi_as_plain_draw(field: str, value: object) -> object:
    """The corpus's nagashi mangan (seat 1, no call) with its type="nm" taken out."""
    c = elements(corpus_file(NAGASHI_GAME))
    (k,) = [k for k, e in enumerate(c) if e.tag == "RYUUKYOKU" and e.get("type") == "nm"]
    del c[k].attrib["type"]
    log = parse_tenhou_xml(rebuild(c), NAGASHI_GAME)
    rules = replace(resolve_rules(log, "auto"), **{field: value})  # type: ignore[arg-type]
    return _codes(log, rules)


# -- the table -----------------------------------------------------------------------
# JPML: 52000 29000 24000 15000 -> +22 -1 -6 -15, then uma 12/-1/-3/-8 (one at or
# above 30000: MahjongPantheon jpmlA.php) or the fixed 8/4/-4/-8.
RESULTS_BY_FLOATING = (
    ((52000, 29000, 24000, 15000), (34.0, -2.0, -9.0, -23.0)),
    ((52000, 29000, 24000, 15000), (30.0, 3.0, -10.0, -23.0)),
)
# WRC: 40000 30000 30000 20000 -> +10 0 0 -10; shared, the tied pair takes (5 - 5) / 2
# each; by seat order, +5 and -5.
RESULTS_TIED = (
    ((40000, 30000, 30000, 20000), (25.0, 0.0, 0.0, -25.0)),
    ((40000, 30000, 30000, 20000), (25.0, 5.0, -5.0, -25.0)),
)
_DEAD = "issue 17: {} is read nowhere yet ({})"

CASES: dict[str, tuple[Case, ...]] = {
    "players": (
        Case(
            "a 4-player log audited as 3-player",
            (4, 3),
            _players,
            # (the fourth seat's scores, which three players have not: score-chain)
            expect=((), ("inconsistent-log", "score-chain-mismatch", "wall-mismatch")),
        ),
    ),
    "aka": (
        Case(
            "riichi ron with a red 5p: one han more with aka",
            (True, False),
            _hand("aka", TENHOU, "123m406p789s234s55s", "5s", ron=True, riichi=True, seat="E"),
            expect=((2, 40, 0, 3900), (1, 40, 0, 2000)),
        ),
    ),
    "kan_dora": (
        Case(
            "a real game with kans and their indicators",
            (True, False),
            _corpus("kan_dora", KAN_GAME),
            expect=((), ("dora-indicator-mismatch", "dora-timing", "ura-indicator-mismatch")),
        ),
    ),
    "ura_dora": (
        Case(
            "riichi ron with the ura indicator 1m (ura 2m)",
            (True, False),
            _hand("ura_dora", TENHOU, "223344m567p22345s", "2s", ron=True, riichi=True, ura=["1m"]),
            expect=((5, 40, 0, 8000), (3, 40, 0, 5200)),
        ),
    ),
    "kan_ura": (
        Case(
            "a real riichi win after kans, with kan ura",
            (True, False),
            _corpus("kan_ura", KAN_GAME),
            expect=((), ("ura-indicator-mismatch",)),
        ),
    ),
    "ankan_dora_timing": (
        Case(
            "a real game with ankans",
            ("immediate", "after-discard"),
            _corpus("ankan_dora_timing", KAN_GAME),
            expect=((), ("dora-timing",)),
        ),
    ),
    "open_kan_dora_timing": (
        Case(
            "a real game with a kakan whose indicator is turned at the discard",
            ("after-discard", "immediate"),
            _corpus("open_kan_dora_timing", OPEN_KAN_GAME),
            expect=((), ("dora-timing",)),
        ),
    ),
    "kokushi_robs_ankan": (
        Case(
            "thirteen orphans rons a concealed kan of East",
            (True, False),
            _built("kokushi_robs_ankan", TENHOU, _kokushi_ankan_game),
            expect=((), ("illegal-call",)),
        ),
    ),
    "kiriage": (
        Case(
            "4 han 30 fu: 7700 or 8000",
            (False, True),
            _hand("kiriage", TENHOU, "234m567p22345678s", "8s", ron=True, riichi=True, dora=["1m"]),
            expect=((4, 30, 0, 7700), (4, 30, 0, 8000)),
        ),
        Case(
            "a real 4-han 30-fu hand",
            (False, True),
            _corpus("kiriage", KIRIAGE_GAME),
            expect=((), ("payment-mismatch", "points-mismatch")),
        ),
    ),
    "kazoe_yakuman": (
        Case(
            "13 han without a yakuman: yakuman or sanbaiman",
            (True, False),
            _hand("kazoe_yakuman", TENHOU, "223344m667788m55m", "2m", tsumo=True, riichi=True),
            expect=((13, 20, 0, 32000), (13, 20, 0, 24000)),
        ),
        Case(
            "a real sanma kazoe yakuman",
            (True, False),
            _corpus("kazoe_yakuman", KAZOE_GAME),
            expect=((), ("limit-mismatch", "payment-mismatch", "points-mismatch")),
        ),
    ),
    "double_yakuman_patterns": (
        Case(
            "thirteen orphans on the 13-sided wait",
            (False, True),
            _hand("double_yakuman_patterns", TENHOU, "119m19p19s1234567z", "1m", ron=True),
            expect=((13, 0, 1, 32000), (26, 0, 2, 64000)),
        ),
        Case(
            "a real pattern paid as a single yakuman",
            (False, True),
            _corpus("double_yakuman_patterns", DOUBLE_PATTERN_GAME),
            expect=((), ("payment-mismatch", "points-mismatch")),
        ),
    ),
    "composite_yakuman": (
        Case(
            "all honours and big three dragons",
            (True, False),
            _hand("composite_yakuman", TENHOU, "555666777z111z22z", "2z", tsumo=True),
            expect=((39, 60, 3, 96000), (13, 60, 1, 32000)),
        ),
        Case(
            "a real double yakuman",
            (True, False),
            _corpus("composite_yakuman", COMPOSITE_GAME),
            expect=((), ("payment-mismatch", "points-mismatch")),
        ),
    ),
    "double_wind_pair_fu": (
        Case(
            "an East pair for the East seat in the East round: 32 or 30 fu",
            (4, 2),
            _hand(
                "double_wind_pair_fu",
                TENHOU,
                "13m456s11z2m",
                "2m",
                ron=True,
                melds=["pon:777z", "pon:222p"],
                seat="E",
            ),
            expect=((1, 40, 0, 2000), (1, 30, 0, 1500)),
        ),
        Case(
            "a real hand with a double-wind pair",
            (4, 2),
            _corpus("double_wind_pair_fu", WIND_PAIR_GAME),
            expect=((), ("fu-mismatch", "payment-mismatch", "points-mismatch")),
        ),
    ),
    "rinshan_tsumo_fu": (
        Case(
            "a rinshan tsumo on a kanchan with a kan and a dragon pair: 42 or 40 fu",
            (True, False),
            _hand(
                "rinshan_tsumo_fu",
                TENHOU,
                "345p123s678s55z",
                "2s",
                tsumo=True,
                rinshan=True,
                melds=["ankan:2222m"],
            ),
            expect=((2, 50, 0, 3200), (2, 40, 0, 2700)),
        ),
        Case(
            "a real rinshan tsumo",
            (True, False),
            _corpus("rinshan_tsumo_fu", RINSHAN_GAME),
            expect=((), ("fu-mismatch",)),
        ),
    ),
    "kuitan": (
        Case(
            "open all simples",
            (True, False),
            _hand("kuitan", TENHOU, "567p345s678s22s", "8s", ron=True, melds=["chi:234m"]),
            expect=((1, 30, 0, 1000), "no-yaku-win"),
        ),
    ),
    "ippatsu": (
        Case(
            "riichi ron on the first go-around",
            (True, False),
            _hand(
                "ippatsu", TENHOU, "234m567p22345678s", "8s", ron=True, riichi=True, ippatsu=True
            ),
            expect=((4, 30, 0, 7700), (3, 30, 0, 3900)),
        ),
    ),
    "renhou": (
        Case(
            "a hand scored with the renhou flag",
            ("none", "yakuman"),
            _hand("renhou", TENHOU, "234m567p22345678s", "8s", ron=True, renhou=True),
            expect=((2, 30, 0, 2000), (13, 30, 1, 32000)),
        ),
        Case(
            "a non-dealer rons the first discard before their first draw: the replay "
            "must set the renhou flag",
            ("none", "yakuman"),
            _built("renhou", TENHOU, _renhou_game),
            expect=((), ("limit-mismatch", "payment-mismatch", "points-mismatch", "yaku-mismatch")),
        ),
    ),
    "kuikae_forbidden": (
        Case(
            "chi 5m with 34m, then discard 2m",
            (True, False),
            _built("kuikae_forbidden", TENHOU, _kuikae_game),
            expect=(("illegal-call",), ()),
        ),
    ),
    "chi_allowed": (
        Case(
            "a real game with chi",
            (True, False),
            _corpus("chi_allowed", LONG_GAME),
            expect=((), ("illegal-call",)),
        ),
    ),
    "kita_rinshan": (
        Case(
            "a real sanma tsumo on the replacement tile after a kita",
            (True, False),
            _corpus("kita_rinshan", KITA_RINSHAN_GAME),
            expect=((), ("yaku-mismatch",)),
        ),
    ),
    "honba_ron": (
        Case(
            "real rons with honba",
            (300, 200),
            _corpus("honba_ron", LONG_GAME),
            expect=((), ("payment-mismatch",)),
        ),
    ),
    "honba_tsumo_each": (
        Case(
            "real tsumo wins with honba",
            (100, 150),
            _corpus("honba_tsumo_each", KIRIAGE_GAME),
            expect=((), ("payment-mismatch",)),
        ),
    ),
    "double_ron": (
        Case(
            "a real double ron: under head-bump only the nearer winner may win",
            (True, False),
            _corpus("double_ron", DOUBLE_RON_GAME),
            expect=((), ("illegal-call",)),
        ),
    ),
    "double_ron_honba_each": (
        Case(
            "a real double ron at 4 honba: the second winner paid the honba too",
            (False, True),
            _corpus("double_ron_honba_each", DOUBLE_RON_GAME),
            expect=((), ("payment-mismatch",)),
        ),
    ),
    "triple_ron": (
        Case(
            "a real triple ron recorded as an abortive draw",
            ("abortive", "scored"),
            _corpus("triple_ron", TRIPLE_RON_GAME),
            expect=((), ("draw-mismatch",)),
        ),
    ),
    "pao_yakuman": (
        Case(
            "a real daisangen with a liable player",
            (frozenset({"daisangen", "daisuushii"}), frozenset()),
            _corpus("pao_yakuman", PAO_GAME),
            expect=((), ("pao-mismatch", "payment-mismatch")),
        ),
    ),
    "pao_scope": (
        Case(
            "a real double yakuman, one of them with a liable player",
            ("whole", "pao-share"),
            _corpus("pao_scope", COMPOSITE_GAME),
            expect=((), ("payment-mismatch",)),
        ),
    ),
    "pao_pays_honba": (
        Case(
            "a real pao win with honba",
            (True, False),
            _corpus("pao_pays_honba", PAO_GAME),
            expect=((), ("payment-mismatch",)),
        ),
    ),
    "tsumo_son": (
        Case(
            "real sanma tsumo wins",
            (True, False),
            _corpus("tsumo_son", SANMA_GAME),
            expect=((), ("payment-mismatch", "points-mismatch")),
        ),
    ),
    "noten_pool": (
        Case(
            "real exhaustive draws",
            (3000, 2000),
            _corpus("noten_pool", LONG_GAME),
            expect=((), ("payment-mismatch",)),
        ),
    ),
    "nagashi_mangan": (
        Case(
            "a real nagashi mangan recorded as a plain exhaustive draw",
            (True, False),
            lambda v: _nagashi_as_plain_draw("nagashi_mangan", v),
            expect=(("draw-mismatch", "payment-mismatch"), ("payment-mismatch",)),
        ),
        Case(
            "a real nagashi mangan, recorded as one",
            (True, False),
            _corpus("nagashi_mangan", NAGASHI_GAME),
            expect=((), ("draw-mismatch",)),
        ),
    ),
    "abortive_draws": (
        Case(
            "a real abortive draw",
            (TENHOU.abortive_draws, frozenset()),
            _corpus("abortive_draws", ABORTIVE_GAME),
            expect=((), ("draw-mismatch",)),
        ),
    ),
    "tobi": (
        Case(
            "a real game that ends on a bust",
            (True, False),
            _corpus("tobi", BUST_GAME),
            expect=((), ("game-end-mismatch",)),
        ),
    ),
    "tobi_at_zero": (
        Case(
            "a real game moved so that a player has exactly 0 after E4-0, and plays on",
            (False, True),
            _at_zero,
            # (its first hand is not dealt the rules' 25000 each: that, both times)
            expect=(("score-chain-mismatch",), ("game-end-mismatch", "score-chain-mismatch")),
        ),
    ),
    "agari_yame": (
        Case(
            "a real game whose all-last dealer, the sole top, stops after S4-0",
            (True, False),
            _corpus("agari_yame", AGARI_YAME_GAME),
            expect=((), ("game-end-mismatch",)),
        ),
    ),
    "west_extension": (
        Case(
            "a real game with nobody at the return points after S4, played on into West",
            (True, False),
            _corpus("west_extension", WEST_GAME),
            expect=((), ("game-end-mismatch",)),
        ),
    ),
    "hanchan": (
        Case(
            "a tonpuu game whose log does not say its length, ending after East 4",
            (False, True),
            _no_hanchan_in_hint(TONPUU_GAME),
            expect=((), ("game-end-mismatch",)),
        ),
    ),
    "one_hand_game": (
        Case(
            # A Mahjong Soul record's one-hand mode is the game's length whatever the
            # rules say (test_rules_applied): a Tenhou game has none.
            "a real Tenhou hanchan, played on past East 1",
            (False, True),
            _corpus("one_hand_game", KAN_GAME),
            expect=((), ("game-end-mismatch",)),
        ),
    ),
    "start_points": (
        Case(
            "the final results under EMA rules, leftover sticks not paid out",
            (30000, 25000),
            _final("start_points", replace(preset("ema"), leftover_sticks_to_top=False)),
            expect=(
                ((41300, 30700, 27000, 19000), (26.3, 5.7, -8.0, -26.0)),
                ((41300, 30700, 27000, 19000), (46.3, 5.7, -8.0, -26.0)),
            ),
        ),
    ),
    "return_points": (
        Case(
            "the final results under EMA rules",
            (30000, 25000),
            _final("return_points", preset("ema")),
            expect=(
                ((43300, 30700, 27000, 19000), (28.3, 5.7, -8.0, -26.0)),
                ((43300, 30700, 27000, 19000), (13.3, 10.7, -3.0, -21.0)),
            ),
        ),
    ),
    "settlement_points": (
        Case(
            "the final results under Mahjong Soul rules (start 25000, return 30000)",
            (25000, None),
            _final("settlement_points", preset("mahjongsoul")),
            # Each seat's own result from its score (the top's too: these scores add
            # up to 120000, not the 100000 the start makes, and none takes the rest:
            # without settlement points the top has the oka, 13.3 + 15 + 20).
            expect=(
                ((43300, 30700, 27000, 19000), (33.3, 10.7, -3.0, -21.0)),
                ((43300, 30700, 27000, 19000), (48.3, 5.7, -8.0, -26.0)),
            ),
        ),
    ),
    "uma": (
        Case(
            "the final results under EMA rules",
            ((15, 5, -5, -15), (30, 10, -10, -30)),
            _final("uma", preset("ema")),
            expect=(
                ((43300, 30700, 27000, 19000), (28.3, 5.7, -8.0, -26.0)),
                ((43300, 30700, 27000, 19000), (43.3, 10.7, -13.0, -41.0)),
            ),
        ),
    ),
    "leftover_sticks_to_top": (
        Case(
            "the final results under EMA rules, two sticks left",
            (True, False),
            _final("leftover_sticks_to_top", preset("ema")),
            expect=(
                ((43300, 30700, 27000, 19000), (28.3, 5.7, -8.0, -26.0)),
                ((41300, 30700, 27000, 19000), (26.3, 5.7, -8.0, -26.0)),
            ),
        ),
    ),
    "final_rounding": (
        Case(
            "the final results under EMA rules",
            ("exact", "thousand-half-up"),
            _final("final_rounding", preset("ema")),
            expect=(
                ((43300, 30700, 27000, 19000), (28.3, 5.7, -8.0, -26.0)),
                ((43300, 30700, 27000, 19000), (28.0, 6.0, -8.0, -26.0)),
            ),
        ),
    ),
    "uma_by_floating": (
        Case(
            "the final results under JPML rules, one player at or above 30000",
            (preset("jpml").uma_by_floating, ()),
            _final("uma_by_floating", preset("jpml"), (52000, 29000, 24000, 15000), 0),
            expect=RESULTS_BY_FLOATING,
        ),
    ),
    "uma_split_ties": (
        Case(
            "the final results under WRC rules, two players tied for second",
            (True, False),
            _final("uma_split_ties", preset("wrc"), (40000, 30000, 30000, 20000), 0),
            expect=RESULTS_TIED,
        ),
    ),
    "tenhou_lobby_results": (
        Case(
            "a real 2009 game, its results rounded to whole thousands by Tenhou's formula",
            (True, False),
            _corpus("tenhou_lobby_results", KIRIAGE_GAME),
            expect=((), ("final-score-mismatch",)),
        ),
    ),
    "results_assumed": (
        Case(
            "a real Mahjong Soul game audited under another uma than its own",
            (False, True),
            _mjs_results,
            expect=((("final-score-mismatch", "error"),), (("rules-assumed", "warning"),)),
        ),
    ),
    "riichi_min_points": (
        Case(
            "real riichi declarations, the point threshold raised past every score",
            (1000, 100000),
            _corpus("riichi_min_points", LONG_GAME),
            expect=((), ("illegal-riichi",)),
        ),
    ),
    "riichi_min_live_tiles": (
        Case(
            "real riichi declarations, the live-tile threshold raised past the wall",
            (4, 200),
            _corpus("riichi_min_live_tiles", LONG_GAME),
            expect=((), ("illegal-riichi",)),
        ),
    ),
    "temp_furiten_lifted_by": (
        Case(
            "a missed ron, then the player's own draw",
            ("discard", "draw"),
            _temp_furiten,
            expect=("temporary", None),
        ),
    ),
    "noten_declaration": (
        Case(
            "an exhaustive draw where a tenpai hand, not in riichi, is declared noten",
            (True, False),
            # (dealt 25000 each, as the built game is: WRC's rules with a field of
            # their own are the game's, and its start is judged)
            _built(
                "noten_declaration",
                replace(preset("wrc"), start_points=25000),
                lambda: _drawn_game(()),
            ),
            expect=((), ("payment-mismatch", "tenpai-hand-mismatch")),
        ),
    ),
    "nagashi_open_calls_allowed": (
        Case(
            "a pond of terminals and honours only, none called, after the player's own chi",
            (True, False),
            _built("nagashi_open_calls_allowed", TENHOU, _nagashi_after_a_chi_game),
            expect=(("draw-mismatch",), ()),
        ),
    ),
    "assumed": (
        Case(
            "a rules assumption",
            ((), ("club rules assumed",)),
            _assumed,
            expect=((), ("rules-assumed",)),
        ),
    ),
}


def _params() -> list[object]:
    out: list[object] = []
    for name, cases in CASES.items():
        for k, case in enumerate(cases):
            marks = (
                [
                    pytest.mark.xfail(
                        strict=True, raises=SettingIsDead, reason=_DEAD.format(name, case.dead)
                    )
                ]
                if case.dead
                else []
            )
            out.append(pytest.param(name, case, id=f"{name}-{k}", marks=marks))
    return out


@pytest.mark.parametrize(("field", "case"), _params())
def test_setting_is_live(field: str, case: Case) -> None:
    got = tuple(case.outcome(v) for v in case.values)
    if got[0] == got[1]:
        raise SettingIsDead(
            f"{field}: {case.values[0]!r} and {case.values[1]!r} both give {got[0]!r} ({case.what})"
        )
    if case.expect is not None:
        assert got == case.expect, case.what


def test_every_field_has_a_case() -> None:
    names = [f.name for f in fields(Ruleset)]
    assert sorted(set(CASES) | _BOOKKEEPING) == sorted(names)
    assert [n for n in names if n not in _BOOKKEEPING and not CASES[n]] == []


@pytest.mark.parametrize(
    "outcome",
    [
        _corpus("name", WEST_GAME),
        _corpus("name", BUST_GAME),
        _final("name", preset("wrc"), (40000, 30000, 30000, 20000), 0),
        _final("name", preset("tenhou")),
        # A real log that starts at 25000, under rules that start at 30000.
        _corpus("name", LONG_GAME, start_points=30000),
    ],
    ids=["west", "bust", "wrc-ties", "tenhou-final", "start-points"],
)
def test_the_name_changes_no_verdict(outcome: Callable[[object], object]) -> None:
    """The rules once chosen by a preset's name (Tenhou's end of the game and final
    results, the WRC and M.League tie sharing, whether the starting points are
    judged) follow the fields alone."""
    got = {repr(outcome(name)) for name in ("tenhou", "wrc", "mleague", "club")}
    assert len(got) == 1, got


def test_the_start_is_judged_under_rules_of_the_games_own() -> None:
    """A Tenhou game under another body's preset (WRC's 30000) is not judged on its
    start, whatever the preset is called; under rules of its own that start at 30000
    (a rules file, say), it is."""
    log = _log(LONG_GAME)

    def starts(rules: Ruleset) -> list[str | None]:
        found = audit_log(log, rules, review=False).findings
        return [f.round for f in found if f.code == "score-chain-mismatch"]

    assert starts(preset("wrc")) == starts(replace(preset("wrc"), name="tenhou")) == []
    own = replace(resolve_rules(log, "auto"), start_points=30000)
    assert starts(own) == starts(replace(own, name="wrc")) == ["E1-0"]


# -- docs/rules.md -------------------------------------------------------------------
RULES_DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
_BOOKKEEPING = {"name", "assumed"}  # one row for every preset (docs/rules.md §H)


# The ten core presets, in the column order of the per-family tables; the leagues'
# presets each have a table of their own (section "Japanese professional leagues").
_CORE = (
    "tenhou",
    "tenhou-sanma",
    "mahjongsoul",
    "mahjongsoul-sanma",
    "mleague",
    "wrc",
    "jpml",
    "ema",
    "worldatplay",
    "worldatplay-sanma",
)
_LEAGUES = ("saikouisen", "mu", "rmu")
_LEAGUE_SECTION = "## Japanese professional leagues"


def _table_rows(lines: list[str]) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for line in lines:
        if line.startswith("| `") and line.endswith(" |"):
            name, _, rest = line[3:].partition("` | ")
            rows[name] = [cell.strip() for cell in rest[:-2].split(" | ")]
    return rows


def _doc_rows() -> dict[str, list[str]]:
    """The rows of the per-family tables (everything before the leagues' section)."""
    text = RULES_DOC.read_text(encoding="utf-8")
    return _table_rows(text.partition(_LEAGUE_SECTION)[0].splitlines())


def _league_rows(name: str) -> dict[str, list[str]]:
    """The rows of the table under the heading that names the preset ``name``."""
    text = RULES_DOC.read_text(encoding="utf-8").partition(_LEAGUE_SECTION)[2]
    heading = next(h for h in text.split("\n### ")[1:] if h.splitlines()[0].endswith(f"`{name}`"))
    return _table_rows(heading.splitlines())


def _doc_value(value: object) -> str:
    """A field's value as the leagues' tables write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, frozenset):
        return ", ".join(sorted(value)) or "none"
    if isinstance(value, tuple):
        if not value:
            return "none"
        if isinstance(value[0], tuple):
            return "; ".join("/".join(f"{x:+d}" for x in row) for row in value)
        if isinstance(value[0], str):
            return ", ".join(value)
        return "/".join(f"{x:+d}" for x in value)
    return str(value)


def test_every_preset_is_a_core_column_or_a_league_table() -> None:
    assert sorted(PRESETS) == sorted(_CORE + _LEAGUES)


def test_the_rules_doc_has_every_field_with_a_source_in_every_cell() -> None:
    rows = _doc_rows()
    assert sorted(rows) == sorted(f.name for f in fields(Ruleset))
    text = RULES_DOC.read_text(encoding="utf-8")
    assert [p for p in PRESETS if f"`{p}`" not in text] == []
    presets = len(_CORE)
    for name, cells in rows.items():
        if name in _BOOKKEEPING:
            assert len(cells) == 1, name
            continue
        assert len(cells) == presets, f"{name}: {len(cells)} cells for {presets} presets"
        for column, cell in enumerate(cells):
            # "value — source", or "value — unverified: why", or a moot setting.
            assert " — " in cell or "moot" in cell, f"{name}, column {column + 1}: {cell!r}"


@pytest.mark.parametrize("name", _LEAGUES)
def test_each_league_preset_has_a_row_for_every_field(name: str) -> None:
    rules = preset(name)
    rows = _league_rows(name)
    assert list(rows) == [f.name for f in fields(Ruleset)]
    for field_name, cells in rows.items():
        assert len(cells) == 2, f"{name}.{field_name}: {cells!r}"
        value, source = cells
        expected = _doc_value(getattr(rules, field_name))
        assert value == expected, f"{name}.{field_name}: doc {value!r}, preset {expected!r}"
        # A source, "unverified: same as <base>", "moot: why", or bookkeeping.
        assert source and source != "—", f"{name}.{field_name}: no source"
        if "unverified" in source:
            assert "same as `" in source, f"{name}.{field_name}: {source!r}"
