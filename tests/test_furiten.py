"""Furiten and play review on small built games: each kind of furiten and each finding.

The waiting seat is given ``123456789m45p11s``: tenpai on 3p and 6p, worth ittsu, pinfu
and two dora (the indicator is 9s). The other seats hold hands far from tenpai and
throw honours, so only the moves a test makes can matter.
"""

from __future__ import annotations

from dataclasses import replace

from analyzer.review.furiten import FuritenTracker, SeatView, review_log
from mjaudit.findings import Finding, Severity
from mjaudit.rules import Ruleset, preset
from tests.builders import GameBuilder

TENPAI = "123m456m789m45p11s"
FAR = ("2468m2468p2468s1z", "2468m2468p2468s2z", "2468m2468p2468s3z")
P36 = frozenset({11, 14})  # 3p, 6p
FURITEN = "123m456m789m45p1s7z"  # after 3p out and 1s in: TENPAI, with 3p in the pond
TENHOU = preset("tenhou")


def _deal(waiting: int, hand: str = TENPAI) -> GameBuilder:
    b = GameBuilder(path="furiten.xml")
    far = iter(FAR)
    b.start_round([hand if s == waiting else next(far) for s in range(4)], dora="9s")
    return b


def _ron(b: GameBuilder, seat: int, from_seat: int) -> None:
    deltas = [0] * 4
    deltas[seat], deltas[from_seat] = 8000, -8000
    b.ron(seat, from_seat, fu=30, points=8000, yaku=(), deltas=deltas)


def _review(b: GameBuilder, rules: Ruleset = TENHOU) -> FuritenTracker:
    _, tracker = review_log(b.build(), rules)
    return tracker


def _found(tracker: FuritenTracker, code: str) -> list[Finding]:
    return [f for f in tracker.findings if f.code == code]


def _errors(tracker: FuritenTracker) -> list[Finding]:
    return [f for f in tracker.findings if f.severity is Severity.ERROR]


def _furiten_seat_1(b: GameBuilder) -> None:
    """Seat 1, dealt ``FURITEN``, throws 3p (event 5), then draws 1s (event 12)."""
    b.turn(0, "4z")  # 2, 3
    b.turn(1, "3p")  # 4, 5: not tenpai yet
    b.turn(2, "4z")  # 6, 7
    b.turn(3, "4z")  # 8, 9
    b.turn(0, "4z")  # 10, 11
    b.draw(1, "1s")  # 12


def test_ron_in_discard_furiten() -> None:
    b = _deal(1, FURITEN)
    _furiten_seat_1(b)
    b.discard(1, "7z")  # 13: tenpai on 3p6p, with 3p in the pond
    b.turn(2, "5z", "6p")  # 14, 15
    _ron(b, 1, 2)  # 16
    tracker = _review(b)
    assert _errors(tracker) == [
        Finding(
            "ron-while-furiten",
            Severity.ERROR,
            "E1-0: seat 1 rons 6p but has been furiten since event 13 (3p in own discards)",
            "furiten.xml",
            "E1-0",
            16,
            1,
            {"furiten": "discard", "since_event": 13, "hand": "123456789m45p11s", "waits": "36p"},
            "ron 6p",
        )
    ]
    notes = _found(tracker, "discard-into-furiten")
    assert [(f.event, f.seat, f.message, f.actual) for f in notes] == [
        (
            13,
            1,
            "E1-0: seat 1 discards 7z and is tenpai but furiten (3p in own discards); "
            "hand 123456789m45p11s, waits 36p",
            "discard 7z",
        )
    ]
    assert tracker.counts["rons_checked"] == 1


def test_missed_ron_then_temporary_furiten() -> None:
    b = _deal(3)
    b.turn(0, "3p")  # 2, 3: seat 3 could ron and lets it go by
    b.turn(1, "4z", "6p")  # 4, 5: before seat 3 has discarded again
    _ron(b, 3, 1)  # 6
    tracker = _review(b)
    missed = _found(tracker, "missed-ron")
    assert [(f.severity, f.event, f.seat, f.actual) for f in missed] == [
        (Severity.INFO, 3, 3, "pass")
    ]
    assert missed[0].message == (
        "E1-0: seat 3 lets seat 0's discard of 3p go by (event 3), a ron worth 8000 "
        "(5 han 30 fu: pinfu 1, ittsu 2, dora 2); hand 123456789m45p11s, waits 36p"
    )
    assert missed[0].expected == {
        "hand": "123456789m45p11s",
        "waits": "36p",
        "tile": "3p",
        "value": 8000,
        "han": 5,
        "fu": 30,
        "yaku": ["pinfu 1", "ittsu 2"],
    }
    assert [f.message for f in _errors(tracker)] == [
        "E1-0: seat 3 rons 6p but has been furiten since event 3 (passed 3p at event 3)"
    ]
    # The timeline: seat 3 tenpai from the deal, furiten from the event after the pass.
    timeline = tracker.timeline[0]
    noten = SeatView(False, frozenset(), False, None, None)
    assert timeline[0] == (1, (noten, noten, noten, SeatView(True, P36, False, None, None)))
    assert dict(timeline)[4][3] == SeatView(True, P36, True, "temporary", 3)


def test_ron_after_temporary_furiten_lifted() -> None:
    b = _deal(3)
    b.turn(0, "3p")  # 2, 3
    b.turn(1, "4z")
    b.turn(2, "4z")
    b.turn(3, "4z")  # 8, 9: seat 3's own discard lifts it (Tenhou)
    b.turn(0, "4z", "6p")  # 10, 11
    _ron(b, 3, 0)  # 12
    tracker = _review(b)
    assert _errors(tracker) == []
    assert dict(tracker.timeline[0])[9][3] == SeatView(True, P36, False, None, None)


def test_temporary_furiten_lifted_by_draw_per_preset() -> None:
    b = _deal(3)
    b.turn(0, "3p")
    b.turn(1, "4z")
    b.turn(2, "4z")
    b.draw(3, "4z")  # 8: lifts it under "draw" rules
    timeline = dict(_review(b, replace(TENHOU, temp_furiten_lifted_by="draw")).timeline[0])
    assert timeline[8][3] == SeatView(True, P36, False, None, None)
    assert dict(_review(b).timeline[0])[4][3].cause == "temporary"
    assert 8 not in dict(_review(b).timeline[0])  # on Tenhou the draw changes nothing


def test_ron_in_riichi_furiten() -> None:
    b = _deal(3)
    b.turn(0, "4z")
    b.turn(1, "4z")
    b.turn(2, "4z")
    b.draw(3, "7z")  # 8
    b.riichi(3, "7z")  # 9 declared, 10 discard, 11 accepted
    b.turn(0, "3p")  # 12, 13: passed after riichi
    b.turn(1, "5z")
    b.turn(2, "5z")
    b.turn(3, "5z")  # 18, 19: a discard does not lift riichi furiten
    b.turn(0, "4z", "6p")  # 20, 21
    _ron(b, 3, 0)  # 22
    tracker = _review(b)
    assert [(f.code, f.event, f.seat, f.message) for f in _errors(tracker)] == [
        (
            "ron-while-furiten",
            22,
            3,
            "E1-0: seat 3 rons 6p but has been furiten since event 13 "
            "(passed 3p at event 13 after riichi)",
        )
    ]
    assert _errors(tracker)[0].expected == {
        "furiten": "riichi",
        "since_event": 13,
        "hand": "123456789m45p11s",
        "waits": "36p",
    }


def test_tsumo_while_furiten_is_legal() -> None:
    b = _deal(1, FURITEN)
    _furiten_seat_1(b)
    b.discard(1, "7z")  # 13
    b.turn(2, "5z")
    b.turn(3, "5z")
    b.turn(0, "5z")
    b.draw(1, "6p")  # 20
    b.tsumo(1, fu=20, points=12000, yaku=(), deltas=[-6000, 12000, -3000, -3000])
    tracker = _review(b)
    assert _errors(tracker) == []
    assert _found(tracker, "missed-tsumo") == []
    assert tracker.counts["tsumo_while_furiten"] == 1
    assert tracker.counts["tsumo_wins_checked"] == 1


def test_missed_tsumo() -> None:
    b = _deal(3)
    b.turn(0, "4z")
    b.turn(1, "4z")
    b.turn(2, "4z")
    b.turn(3, "5z")  # 8, 9
    b.turn(0, "5z")
    b.turn(1, "5z")
    b.turn(2, "6z")  # 14, 15
    b.turn(3, "6p")  # 16, 17: draws a winner and throws it
    tracker = _review(b)
    missed = _found(tracker, "missed-tsumo")
    assert [(f.event, f.seat, f.actual) for f in missed] == [(16, 3, "discard 6p")]
    assert missed[0].message == (
        "E1-0: seat 3 draws 6p (event 16) and does not win, a tsumo worth 12000 "
        "(6 han 20 fu: menzen tsumo 1, pinfu 1, ittsu 2, dora 2); "
        "hand 123456789m45p11s, waits 36p"
    )
    assert [f.event for f in _found(tracker, "discard-into-furiten")] == [17]


def test_riichi_while_furiten() -> None:
    b = _deal(1, FURITEN)
    _furiten_seat_1(b)
    b.riichi(1, "7z")  # 13 declared, 14 discard, 15 accepted
    tracker = _review(b)
    assert [(f.code, f.event, f.seat, f.message, f.actual) for f in tracker.findings] == [
        (
            "riichi-while-furiten",
            14,
            1,
            "E1-0: seat 1 declares riichi discarding 7z while furiten (3p in own discards); "
            "hand 123456789m45p11s, waits 36p",
            "riichi 7z",
        )
    ]


def test_called_away_wait_is_still_furiten() -> None:
    b = GameBuilder(path="furiten.xml")
    hands = [FAR[0], FURITEN, "33p2468m268p2468s", FAR[2]]
    b.start_round(hands, dora="9s")
    b.turn(0, "4z")  # 2, 3
    b.turn(1, "3p")  # 4, 5
    b.pon(2, "33p")  # 6: the 3p leaves seat 1's pond
    b.discard(2, "2m")  # 7
    b.turn(3, "4z")
    b.turn(0, "4z")
    b.turn(1, "1s", "7z")  # 12, 13: tenpai on 3p6p; the called 3p still counts
    b.turn(2, "4z", "6p")  # 14, 15
    _ron(b, 1, 2)  # 16
    tracker = _review(b)
    assert [(f.event, f.message) for f in _errors(tracker)] == [
        (16, "E1-0: seat 1 rons 6p but has been furiten since event 13 (3p in own discards)")
    ]
    assert dict(tracker.timeline[0])[13][1] == SeatView(True, P36, True, "discard", 13)


def test_yakuless_pass_is_no_missed_ron_but_furiten() -> None:
    b = _deal(3, "123m456m78s45p11s9p")
    b.turn(0, "4z")
    b.turn(1, "4z")
    b.turn(2, "4z", "6s")  # 6, 7
    b.chi(3, "78s")  # 8: open, and no yaku left
    b.discard(3, "9p")  # 9: tenpai on 3p6p
    b.turn(0, "3p")  # 10, 11: a winning tile, but without a yaku
    b.turn(1, "5z", "6p")  # 12, 13
    _ron(b, 3, 1)  # 14
    tracker = _review(b)
    assert _found(tracker, "missed-ron") == []
    assert tracker.counts["yakuless_passes"] == 1
    assert [f.message for f in _errors(tracker)] == [
        "E1-0: seat 3 rons 6p but has been furiten since event 11 (passed 3p at event 11)"
    ]


def test_double_ron_checks_both_winners() -> None:
    hands = [FAR[0], TENPAI, FAR[1], "123m456m789p45p11s"]
    b = GameBuilder(path="furiten.xml")
    b.start_round(hands, dora="9s")
    b.turn(0, "4z", "6p")  # 2, 3: both seats may ron
    _ron(b, 1, 0)  # 4
    _ron(b, 3, 0)  # 5
    tracker = _review(b)
    assert tracker.findings == []
    assert tracker.counts["rons_checked"] == 2


def test_no_review_keeps_errors_only() -> None:
    b = _deal(3)
    b.turn(0, "3p")
    b.turn(1, "4z", "6p")
    _ron(b, 3, 1)
    _, tracker = review_log(b.build(), TENHOU, review=False)
    assert [f.code for f in tracker.findings] == ["ron-while-furiten"]
