"""Points: limits, payments and settlement of wins, noten and nagashi.

Tenhou (matrix §E): base = fu·2^(han+2), capped at 2000 (mangan); 6-7 han haneman
3000, 8-10 baiman 4000, 11-12 sanbaiman 6000, 13+ yakuman 8000 when kazoe applies
(else sanbaiman). A ron pays 4× the base (6× for the dealer); a tsumo costs the
dealer 2× and each non-dealer 1×, a dealer tsumo 2× from everyone; every payment
rounds up to 100. Kiriage (WRC, M.League) pays 4 han 30 fu and 3 han 60 fu as mangan.

Sanma: with tsumo-son (Tenhou 3p) the absent player's share is simply not paid; a
three-player ruleset without it splits that share between the two payers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Final

from mjaudit.events import Limit
from mjaudit.frozen import quick_builder
from mjaudit.hands import HandResult, Payments, WinContext
from mjaudit.rules import Ruleset
from mjaudit.yaku import Yaku

__all__ = [
    "base_points",
    "hand_payments",
    "nagashi_payments",
    "noten_payments",
    "round_up",
    "settle_win",
    "win_receipts",
    "with_ura_han",
]

MANGAN: Final = 2000
_BANDS: Final = (
    (13, 8000, Limit.YAKUMAN),
    (11, 6000, Limit.SANBAIMAN),
    (8, 4000, Limit.BAIMAN),
    (6, 3000, Limit.HANEMAN),
    (5, 2000, Limit.MANGAN),
)
_PAO_YAKU: Final = {
    "daisangen": Yaku.DAISANGEN,
    "daisuushii": Yaku.DAISUUSHII,
    "suukantsu": Yaku.SUUKANTSU,
}


# Members bound once: under Python 3.11 each ``Limit.X`` is a lookup through the
# enum's descriptor, several times the cost of a global's.
_NONE, _MANGAN, _YAKUMAN = Limit.NONE, Limit.MANGAN, Limit.YAKUMAN


# Payments(...), built without the constructor's __init__ (about half its cost;
# mjaudit.frozen.quick_builder).
_payments: Callable[..., Payments] = quick_builder(Payments, "_payments")


def round_up(points: int) -> int:
    """Round a payment up to the next 100."""
    return -(-points // 100) * 100


def base_points(han: int, fu: int, yakuman: int, rules: Ruleset) -> tuple[int, Limit]:
    """The base (basic points) and limit band of a hand."""
    if yakuman:
        return 8000 * yakuman, _YAKUMAN
    if han < 5:  # below every band: the base from han and fu
        base = fu * 2 ** (han + 2)
        if base >= MANGAN:
            return MANGAN, _MANGAN
        if rules.kiriage and base == 1920:
            # Kiriage mangan: 4 han 30 fu and 3 han 60 fu round up to 2000.
            return MANGAN, _MANGAN
        return base, _NONE
    for min_han, base, limit in _BANDS:
        if han >= min_han:
            if limit is _YAKUMAN and not rules.kazoe_yakuman:
                # WRC, M.League, EMA: 13 han or more is sanbaiman.
                return 6000, Limit.SANBAIMAN
            return base, limit
    raise AssertionError(f"{han} han: in no band")  # the last band starts at 5


def hand_payments(
    base: int, dealer: bool, tsumo: bool, players: int, rules: Ruleset
) -> tuple[Payments, int]:
    """What each payer owes (without honba and sticks) and the total received."""
    if not tsumo:
        ron = round_up(base * (6 if dealer else 4))
        return _payments(discarder=ron), ron
    split = players == 3 and not rules.tsumo_son
    if dealer:
        each = round_up(base * 3 if split else base * 2)
        return _payments(non_dealer=each), each * (players - 1)
    if split:
        # The absent non-dealer's 1× share is split between the two payers.
        from_dealer = round_up(base * 2 + base // 2)
        from_other = round_up(base + base // 2)
    else:
        from_dealer = round_up(base * 2)
        from_other = round_up(base)
    return (
        _payments(dealer=from_dealer, non_dealer=from_other),
        from_dealer + from_other * (players - 2),
    )


def _seats(players: int) -> range:
    return range(players)


def _pao_share(result: HandResult, rules: Ruleset) -> int:
    """The part of the hand the liable player covers, in points of ``result.total``."""
    if rules.pao_scope == "whole" or not result.yakuman:
        return result.total
    pao_yaku = {_PAO_YAKU[name] for name in rules.pao_yakuman if name in _PAO_YAKU}
    mult = sum(y.yakuman for y in result.yaku if y.yaku in pao_yaku)
    return result.total * min(mult, result.yakuman) // result.yakuman


def settle_win(
    result: HandResult,
    winner: int,
    from_seat: int,
    dealer: int,
    honba: int,
    riichi_sticks: int,
    rules: Ruleset,
    pao_seat: int | None = None,
    players: int = 4,
    takes_honba_and_sticks: bool = True,
) -> tuple[int, ...]:
    """Per-seat point deltas of one win (length 4; an empty sanma seat gets 0).

    ``from_seat == winner`` is a tsumo. Honba: ``rules.honba_ron`` each on a ron, paid
    by the discarder, ``rules.honba_tsumo_each`` from each payer on a tsumo. Sticks:
    1000 each to the winner. A double ron is settled one winner at a time; Tenhou gives
    honba and sticks only to the winner nearest the discarder
    (``takes_honba_and_sticks=False`` for the other); with
    ``rules.double_ron_honba_each`` (EMA RCR 2016 §3.4.9: each winner is paid in full,
    counters included) every winner takes the honba, the sticks still go to the first.
    Pao (Tenhou, matrix §E): on a tsumo the liable seat pays everything, honba
    included, and the others pay nothing (Tenhou manual "積み棒は包"; EMA RCR §3.3.9
    "the two remaining opponents pay nothing"); on a ron it pays half with the
    discarder, and the honba when ``rules.pao_pays_honba`` (EMA: "only the discarder
    pays for any counters").
    """
    deltas = [0, 0, 0, 0]
    if not takes_honba_and_sticks and not rules.double_ron_honba_each:
        honba = 0
    tsumo = from_seat == winner
    pao = pao_seat if pao_seat is not None and pao_seat != winner else None
    if not tsumo:
        amount = result.total
        honba_pts = rules.honba_ron * honba
        if pao is not None and pao != from_seat:
            liable = round_up(_pao_share(result, rules) // 2)
            deltas[pao] -= liable
            deltas[from_seat] -= amount - liable
            deltas[pao if rules.pao_pays_honba else from_seat] -= honba_pts
        else:
            deltas[from_seat] -= amount + honba_pts
        deltas[winner] += amount + honba_pts
    else:
        payers = [s for s in _seats(players) if s != winner]
        honba_each = rules.honba_tsumo_each * honba
        share = _pao_share(result, rules) if pao is not None else 0
        for s in payers:
            normal = _tsumo_share(result, s == dealer)
            if share and result.total:
                # The liable seat covers the pao share; the rest is a normal tsumo.
                normal = round_up(normal * (result.total - share) // result.total)
            deltas[s] -= normal + (honba_each if pao is None else 0)
        if pao is not None:
            deltas[pao] -= share + honba_each * len(payers)
        deltas[winner] -= sum(deltas)
    if takes_honba_and_sticks:
        deltas[winner] += 1000 * riichi_sticks
    return tuple(deltas)


def with_ura_han(result: HandResult, ura: int, ctx: WinContext, rules: Ruleset) -> HandResult:
    """``result`` with ``ura`` more ura han, given as a number rather than by indicators
    (a log that shows none, a case that gives the count): han, limit and payments anew."""
    han = result.han + ura
    base, limit = base_points(han, result.fu, 0, rules)
    payments, total = hand_payments(base, ctx.is_dealer, ctx.tsumo, ctx.players, rules)
    return replace(
        result, han=han, ura=result.ura + ura, base=base, limit=limit, total=total,
        payments=payments,
    )  # fmt: skip


def win_receipts(result: HandResult, ctx: WinContext, rules: Ruleset) -> tuple[Payments, int]:
    """What each payer hands over with ``ctx.honba`` honba, and what the winner receives
    with the honba and ``ctx.riichi_sticks`` sticks: the win settled as in an audit
    (:func:`settle_win`), the first dealer in seat 0 and the winner in its seat wind's seat.
    """
    players = ctx.players
    winner = ctx.seat_wind % players
    from_seat = winner if ctx.tsumo else (winner + 1) % players
    deltas = settle_win(
        result, winner, from_seat, 0, ctx.honba, ctx.riichi_sticks, rules, players=players
    )
    if not ctx.tsumo:
        return Payments(discarder=-deltas[from_seat]), deltas[winner]
    other = next(s for s in range(1, players) if s != winner)
    if ctx.is_dealer:
        return Payments(non_dealer=-deltas[other]), deltas[winner]
    return Payments(dealer=-deltas[0], non_dealer=-deltas[other]), deltas[winner]


def _tsumo_share(result: HandResult, payer_is_dealer: bool) -> int:
    p = result.payments
    if payer_is_dealer and p.dealer is not None:
        return p.dealer
    return p.non_dealer or 0


def noten_payments(tenpai_seats: Iterable[int], players: int, rules: Ruleset) -> tuple[int, ...]:
    """Exhaustive-draw payments: the noten seats pay ``rules.noten_pool`` to the tenpai.

    Tenhou 4p: 3000 (1000/1500/3000 each); Tenhou 3p: 2000 (matrix §7).
    """
    tenpai = set(tenpai_seats)
    deltas = [0, 0, 0, 0]
    if not tenpai or len(tenpai) >= players:
        return tuple(deltas)
    gain = rules.noten_pool // len(tenpai)
    loss = rules.noten_pool // (players - len(tenpai))
    for s in _seats(players):
        deltas[s] = gain if s in tenpai else -loss
    return tuple(deltas)


def nagashi_payments(
    seats: Iterable[int], dealer: int, players: int, rules: Ruleset
) -> tuple[int, ...]:
    """Nagashi mangan: a mangan tsumo for each such seat, no honba (Tenhou ``nm``)."""
    deltas = [0, 0, 0, 0]
    for winner in seats:
        payments, _ = hand_payments(MANGAN, winner == dealer, True, players, rules)
        for s in _seats(players):
            if s == winner:
                continue
            if s == dealer and payments.dealer is not None:
                pay = payments.dealer
            else:
                pay = payments.non_dealer or 0
            deltas[s] -= pay
            deltas[winner] += pay
    return tuple(deltas)
