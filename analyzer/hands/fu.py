"""Fu, with a breakdown whose parts add up to the rounded total.

Tenhou (matrix §C): 20 base; +10 for a closed ron; +2 for a tsumo except pinfu
(which stays 20), a rinshan tsumo included where ``rules.rinshan_tsumo_fu``; +2 for a
kanchan, penchan or tanki wait; pair of a dragon, seat wind or round wind +2 each, a
double wind pair ``rules.double_wind_pair_fu``; triplets 2/4 (simple open/closed),
4/8 (terminal or honour), kans four times that; a triplet completed by ron is open.
An open hand that adds nothing (open pinfu shape) is 30; the sum rounds up to 10.
Seven pairs are 25 and never rounded.
"""

from __future__ import annotations

from functools import cache
from operator import attrgetter
from typing import Final

from analyzer.hands.readings import Reading, Wait
from mjaudit.hands import FuPart
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile

__all__ = ["CHIITOITSU_FU", "FuResult", "reading_fu"]

FuResult = tuple[int, tuple[FuPart, ...]]

_FU = attrgetter("fu")

CHIITOITSU_FU: Final[FuResult] = (25, (FuPart("chiitoitsu", 25),))
_BASE: Final = FuPart("base", 20)
_CLOSED_RON: Final = FuPart("closed ron", 10)
_TSUMO: Final = FuPart("tsumo", 2)
# By wait, compared by identity: a dict would hash the Wait, a Python call.
_WAIT_PARTS: Final = (
    (Wait.KANCHAN, FuPart("kanchan wait", 2)),
    (Wait.PENCHAN, FuPart("penchan wait", 2)),
    (Wait.TANKI, FuPart("tanki wait", 2)),
)
_PINFU_TSUMO: Final[FuResult] = (20, (FuPart("pinfu tsumo", 20),))
_OPEN_PINFU: Final[FuResult] = (30, (FuPart("open pinfu shape", 30),))


def _make_set_part(kind: int, kan: bool, concealed: bool) -> FuPart:
    yaochu = kind >= 27 or kind % 9 in (0, 8)
    fu = (4 if yaochu else 2) * (2 if concealed else 1) * (4 if kan else 1)
    what = "kan" if kan else "triplet"
    state = "closed" if concealed else "open"
    return FuPart(f"{state} {what} {Tile(kind)}", fu)


# The part of every triplet and kan, at 4 * kind + 2 * kan + concealed: a list index,
# not a hash of the SetPart (a dataclass's, in Python) for each set of each reading.
_SET_PARTS: Final = tuple(
    _make_set_part(kind, kan, concealed)
    for kind in range(34)
    for kan in (False, True)
    for concealed in (False, True)
)


@cache
def _pair_part(pair: int, seat_wind: int, round_wind: int, double_fu: int) -> FuPart | None:
    if pair >= 31:
        return FuPart("pair of dragon", 2)
    seat = pair == 27 + seat_wind
    rnd = pair == 27 + round_wind
    if seat and rnd:
        # Tenhou: a pair of the double wind is 4 fu (連風牌は4符).
        return FuPart("pair of double wind", double_fu)
    if seat:
        return FuPart("pair of seat wind", 2)
    if rnd:
        return FuPart("pair of round wind", 2)
    return None


@cache
def _rounding(raw: int) -> FuPart:
    return FuPart("rounding up", -raw % 10)


def reading_fu(
    r: Reading,
    pinfu: bool,
    tsumo: bool,
    rinshan: bool,
    seat_wind: int,
    round_wind: int,
    rules: Ruleset,
) -> FuResult:
    """The fu of one reading and its breakdown."""
    if pinfu:
        # Pinfu: a tsumo stays 20 (no tsumo fu); a ron is 20 + 10 closed ron.
        if tsumo:
            return _PINFU_TSUMO
        return 30, (_BASE, _CLOSED_RON)
    parts = [_BASE]
    if not r.opened and not tsumo:
        parts.append(_CLOSED_RON)
    if tsumo and (not rinshan or rules.rinshan_tsumo_fu):
        parts.append(_TSUMO)
    for wait, wait_part in _WAIT_PARTS:
        if r.wait is wait:
            parts.append(wait_part)
            break
    pair = _pair_part(r.pair, seat_wind, round_wind, rules.double_wind_pair_fu)
    if pair is not None:
        parts.append(pair)
    for part in r.sets:
        parts.append(_SET_PARTS[4 * part.kind + 2 * part.kan + part.concealed])
    raw = sum(map(_FU, parts))
    if raw == 20 and r.opened:
        # An open hand with nothing to add is 30 fu (Tenhou; 1 han 20 fu cannot occur).
        return _OPEN_PINFU
    if raw % 10:
        parts.append(_rounding(raw))
        raw += parts[-1].fu
    return raw, tuple(parts)
