"""The scorer: a complete hand and its situation in, an explained :class:`HandResult` out.

>>> from mjaudit.tiles import Tile, tiles
>>> from mjaudit.hands import WinContext
>>> from mjaudit.rules import preset
>>> r = score(tiles("234m567p2234567s8s"), Tile("8s"), (), WinContext(tsumo=False,
...           riichi=True), preset("tenhou"))
>>> r.han, r.fu, r.total, [str(y) for y in r.yaku]
(3, 30, 3900, ['riichi 1', 'pinfu 1', 'tanyao 1'])

Every reading of the hand is evaluated (four sets and a pair with each way the winning
tile fits, seven pairs, thirteen orphans) and the best one kept, Tenhou's way (matrix
§C "choice among decompositions"): the most yakuman, then the most han, then the most
fu. Dora never make a hand winnable: a hand with no yaku raises
``NotAWin("no-yaku-win")``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

from analyzer.hands.fu import CHIITOITSU_FU, FuResult, reading_fu
from analyzer.hands.hand import decompose, is_chiitoitsu, is_kokushi
from analyzer.hands.points import MANGAN, base_points, hand_payments
from analyzer.hands.readings import meld_groups, readings
from analyzer.hands.yaku_shapes import (
    SUIT_MASKS,
    YAOCHU_MASK,
    counts_mask,
    sequence_yaku,
    set_yaku,
    tile_yaku,
    valued_kinds,
)
from analyzer.hands.yaku_situational import entry, situational_yaku, situational_yakuman
from analyzer.hands.yaku_yakuman import (
    TILE_YAKUMAN_KINDS,
    chuuren_yakuman,
    kokushi_yakuman,
    reading_yakuman,
    tile_yakuman,
)
from mjaudit.events import Limit
from mjaudit.frozen import quick_builder
from mjaudit.hands import HandResult, WinContext, YakuHan
from mjaudit.melds import Meld, MeldKind
from mjaudit.rules import Ruleset
from mjaudit.tiles import Tile, to_mpsz
from mjaudit.yaku import Yaku

__all__ = ["NotAWin", "score"]

_NORTH = 30
_YAKU = attrgetter("yaku")
_HAN = attrgetter("han")
_RED = attrgetter("red")
_KOKUSHI_FU: FuResult = (0, ())
# Members bound once: under Python 3.11 each ``MeldKind.KITA`` is a lookup through
# the enum's descriptor, several times the cost of a global's.
_KITA = MeldKind.KITA
_PINFU = Yaku.PINFU
_CHIITOITSU = entry(Yaku.CHIITOITSU, 2)


class NotAWin(Exception):
    """The tiles are not a legal win: ``code`` is ``no-yaku-win`` or ``not-a-winning-hand``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


# One way to score a reading (its yakuman, yaku, han and fu); the best one is kept.
# A plain tuple: most hands make one, and a tuple is the cheapest value to build.
_Candidate = tuple[tuple[YakuHan, ...], tuple[YakuHan, ...], int, FuResult]


def _key(candidate: _Candidate, composite: bool) -> tuple[int, int, int]:
    """What makes one candidate better: the most yakuman, then han, then fu."""
    yakuman, _, han, (fu, _) = candidate
    return (_multiplier(yakuman, composite), han, fu)


# HandResult(...), built without the constructor's __init__ (about half its cost;
# mjaudit.frozen.quick_builder).
_hand_result: Callable[..., HandResult] = quick_builder(HandResult, "_hand_result")


def _multiplier(yakuman: Sequence[YakuHan], composite: bool) -> int:
    if not yakuman:
        return 0
    if composite:
        return sum(y.yakuman for y in yakuman)
    # WRC, EMA: different yakuman do not stack; the largest one counts.
    return max(y.yakuman for y in yakuman)


def _describe(concealed: Sequence[Tile], melds: Sequence[Meld]) -> str:
    text = to_mpsz(concealed)
    if melds:
        text += " " + " ".join(str(m) for m in melds)
    return text


def score(
    concealed: Sequence[Tile],
    win_tile: Tile,
    melds: Sequence[Meld],
    ctx: WinContext,
    rules: Ruleset,
) -> HandResult:
    """Score a win. ``concealed`` includes the winning tile; melds hold calls and ankans.

    Yakuman hands report ``han = 13 × multiplier`` and no dora (Tenhou lists none);
    a kazoe yakuman keeps its real han and yaku, ``yakuman = 0`` and limit YAKUMAN.
    """
    counts = [0] * 34
    for tile in concealed:
        counts[tile.kind] += 1
    win = win_tile.kind
    sets_melds = [m for m in melds if m.kind is not _KITA] if melds else []
    if not counts[win]:
        raise NotAWin(
            "not-a-winning-hand",
            f"{_describe(concealed, melds)}: the winning tile {win_tile} is not in the hand",
        )
    if len(concealed) + 3 * len(sets_melds) != 14:
        raise NotAWin(
            "not-a-winning-hand",
            f"{_describe(concealed, melds)}: {len(concealed)} concealed tiles and "
            f"{len(sets_melds)} melds are not a hand of 14",
        )
    groups = meld_groups(sets_melds)
    all_counts = counts  # the same list unless melds add to it (neither changes later)
    if sets_melds:
        all_counts = counts[:]
        for meld in sets_melds:
            for tile in meld.tiles:
                all_counts[tile.kind] += 1
    mask = counts_mask(all_counts)
    closed = not groups.opened
    composite = rules.composite_yakuman

    situational = situational_yaku(ctx, rules, closed)
    # Rare yakuman: not looked for where what each needs first is missing.
    situ_ym = situational_yakuman(ctx, rules) if ctx.tenhou or ctx.chiihou or ctx.renhou else []
    tiles_ym = tile_yakuman(mask) if not mask & ~TILE_YAKUMAN_KINDS else []
    hand_wide = situational + tile_yaku(mask, groups.opened, rules)
    candidates: list[_Candidate] = []

    decompositions = decompose(counts)
    if decompositions:
        valued = valued_kinds(ctx.seat_wind, ctx.round_wind)
        one_suit = not sets_melds and mask in SUIT_MASKS  # what chuuren needs first
        extra_ym = chuuren_yakuman(counts, mask, win, rules) if one_suit else []
        hand_ym = situ_ym + tiles_ym + extra_ym
        tsumo, rinshan = ctx.tsumo, ctx.rinshan
        seat_wind, round_wind = ctx.seat_wind, ctx.round_wind
        for d in decompositions:
            for r in readings(d, groups, win, tsumo):
                # A reading's yakuman need three sets or more (reading_yakuman).
                ym = hand_ym + reading_yakuman(r, rules) if len(r.sets) >= 3 else hand_ym
                yaku = hand_wide + sequence_yaku(r, valued) + set_yaku(r, seat_wind, round_wind)
                pinfu = _PINFU in map(_YAKU, yaku)
                fu = reading_fu(r, pinfu, tsumo, rinshan, seat_wind, round_wind, rules)
                candidates.append((tuple(ym), tuple(yaku), sum(map(_HAN, yaku)), fu))
    if not sets_melds and counts.count(2) == 7 and is_chiitoitsu(counts):
        yaku = [*hand_wide, _CHIITOITSU]
        candidates.append(
            (tuple(situ_ym + tiles_ym), tuple(yaku), sum(map(_HAN, yaku)), CHIITOITSU_FU)
        )
    if not sets_melds and not mask & ~YAOCHU_MASK and is_kokushi(counts):
        ym = situ_ym + kokushi_yakuman(counts, win, rules)
        # Tenhou reports kokushi with 0 fu (ten="0,32000,5").
        candidates.append((tuple(ym), (), 0, _KOKUSHI_FU))
    if not candidates:
        raise NotAWin(
            "not-a-winning-hand",
            f"{_describe(concealed, melds)} with {win_tile}: not four sets and a pair, "
            "seven pairs or thirteen orphans",
        )
    if len(candidates) == 1:  # most hands read one way only
        best = candidates[0]
    else:
        best = max(candidates, key=lambda c: _key(c, composite))
    best_yakuman, _, best_han, _ = best
    mult = _multiplier(best_yakuman, composite) if best_yakuman else 0
    if ctx.renhou and not ctx.tsumo and rules.renhou == "mangan" and not mult:
        # A limit hand (EMA RCR 2016 "a strict mangan"; JPML 特役 満貫): a mangan, or
        # the hand's own value when its yaku and dora are worth more (riichi.wiki
        # "Rule variations", Renhou: "Mang."); dora alone never lift it.
        if best_han:
            own = _result(best, mult, all_counts, concealed, sets_melds, melds, ctx, rules)
            if own.base > MANGAN:
                return own
        return _renhou_mangan(best, ctx, rules)
    if not mult and not best_han:
        raise NotAWin(
            "no-yaku-win",
            f"{_describe(concealed, melds)} with {win_tile}: no yaku (dora do not count)",
        )
    return _result(best, mult, all_counts, concealed, sets_melds, melds, ctx, rules)


def _renhou_mangan(best: _Candidate, ctx: WinContext, rules: Ruleset) -> HandResult:
    """Renhou as a mangan limit hand: renhou alone, no dora counted."""
    fu, fu_parts = best[3]
    payments, total = hand_payments(MANGAN, ctx.is_dealer, False, ctx.players, rules)
    return HandResult(
        han=5,
        fu=fu,
        yakuman=0,
        limit=Limit.MANGAN,
        yaku=(entry(Yaku.RENHOU, 5),),
        dora=0,
        aka=0,
        ura=0,
        kita=0,
        fu_parts=fu_parts,
        base=MANGAN,
        total=total,
        payments=payments,
    )


# The dora kind each indicator kind points to, with four players and with three
# (Tile.dora, looked up rather than a Tile made per indicator).
_DORA_KINDS: dict[int, tuple[int, ...]] = {
    players: tuple(Tile(k).dora(players).kind for k in range(34)) for players in (3, 4)
}


def _count_dora(
    indicators: Sequence[Tile], all_counts: Sequence[int], kita: int, players: int
) -> int:
    n = 0
    dora_kinds = _DORA_KINDS[3 if players == 3 else 4]
    for ind in indicators:
        k = dora_kinds[ind.kind]
        n += all_counts[k]
        if k == _NORTH:
            # A North indicated as dora adds one more per extracted North (matrix §A).
            n += kita
    return n


def _result(
    best: _Candidate,
    mult: int,
    all_counts: Sequence[int],
    concealed: Sequence[Tile],
    sets_melds: Sequence[Meld],
    melds: Sequence[Meld],
    ctx: WinContext,
    rules: Ruleset,
) -> HandResult:
    best_yakuman, best_yaku, best_han, (fu, fu_parts) = best
    if mult:
        yaku = tuple(sorted(best_yakuman, key=_YAKU))
        han, dora, aka, ura, kita = 13 * mult, 0, 0, 0, 0
    else:
        # The kita melds (melds less the sets), else the count the situation gives.
        kita = len(melds) - len(sets_melds) or ctx.kita
        dora = _count_dora(ctx.dora_indicators, all_counts, kita, ctx.players)
        aka = 0
        if rules.aka:
            aka = sum(map(_RED, concealed))
            for meld in sets_melds:
                aka += sum(map(_RED, meld.tiles))
        ura = 0
        if (ctx.riichi or ctx.double_riichi) and rules.ura_dora:
            ura = _count_dora(ctx.ura_indicators, all_counts, kita, ctx.players)
        yaku = tuple(sorted(best_yaku, key=_YAKU))
        han = best_han + dora + aka + ura + kita
    base, limit = base_points(han, fu, mult, rules)
    payments, total = hand_payments(base, ctx.is_dealer, ctx.tsumo, ctx.players, rules)
    # Positional, in HandResult's order (mjaudit/hands.py): the quicker call.
    return _hand_result(
        han, fu, mult, limit, yaku, dora, aka, ura, kita, fu_parts, base, total, payments
    )
