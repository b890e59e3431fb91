"""Yakuman patterns.

Tenhou numbers the double-yakuman shapes separately (41 suuankou tanki, 46 junsei
chuuren, 48 kokushi 13-sided, 49 daisuushii) but scores all of them as single
yakuman (matrix §B); ``Ruleset.double_yakuman_patterns`` makes them double
(Mahjong Soul, the seed-004 site). Whether different yakuman stack is decided by the
scorer from ``Ruleset.composite_yakuman``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from analyzer.hands.readings import Reading, Wait
from analyzer.hands.yaku_shapes import HONOR_MASK, SUIT_MASKS
from analyzer.hands.yaku_situational import entry
from mjaudit.hands import YakuHan
from mjaudit.rules import Ruleset
from mjaudit.yaku import Yaku

__all__ = [
    "TILE_YAKUMAN_KINDS",
    "chuuren_yakuman",
    "kokushi_yakuman",
    "reading_yakuman",
    "tile_yakuman",
]

TERMINAL_MASK: Final = sum(1 << k for k in (0, 8, 9, 17, 18, 26))
# 2s 3s 4s 6s 8s and the green dragon.
GREEN_MASK: Final = sum(1 << k for k in (19, 20, 21, 23, 25, 32))
#: The kinds a hand of tile_yakuman holds all its tiles among (a hand holding any
#: other kind has none of them).
TILE_YAKUMAN_KINDS: Final = HONOR_MASK | TERMINAL_MASK | GREEN_MASK
_CHUUREN: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _double(yaku: Yaku, rules: Ruleset) -> YakuHan:
    n = 2 if rules.double_yakuman_patterns else 1
    return entry(yaku, 13 * n, n)


def _single(yaku: Yaku) -> YakuHan:
    return entry(yaku, 13, 1)


def tile_yakuman(mask: int) -> list[YakuHan]:
    """Tsuuiisou, chinroutou, ryuuiisou: decided by the kinds present."""
    out: list[YakuHan] = []
    if not mask & ~HONOR_MASK:
        out.append(_single(Yaku.TSUUIISOU))
    if not mask & ~TERMINAL_MASK:
        out.append(_single(Yaku.CHINROUTOU))
    # Tenhou: ryuuiisou does not need the green dragon.
    if not mask & ~GREEN_MASK:
        out.append(_single(Yaku.RYUUIISOU))
    return out


def reading_yakuman(r: Reading, rules: Ruleset) -> list[YakuHan]:
    """Suuankou, daisangen, shousuushii, daisuushii, suukantsu for one reading."""
    out: list[YakuHan] = []
    sets = r.sets
    if len(sets) < 3:
        return out
    if r.concealed_sets == 4:
        if r.wait is Wait.TANKI:
            out.append(_double(Yaku.SUUANKOU_TANKI, rules))
        else:
            out.append(_single(Yaku.SUUANKOU))
    kinds = [p.kind for p in sets]
    if sum(1 for k in kinds if k >= 31) == 3:
        out.append(_single(Yaku.DAISANGEN))
    winds = sum(1 for k in kinds if 27 <= k <= 30)
    if winds == 4:
        out.append(_double(Yaku.DAISUUSHII, rules))
    elif winds == 3 and 27 <= r.pair <= 30:
        out.append(_single(Yaku.SHOUSUUSHII))
    if r.kans == 4:
        out.append(_single(Yaku.SUUKANTSU))
    return out


def chuuren_yakuman(counts: Sequence[int], mask: int, win: int, rules: Ruleset) -> list[YakuHan]:
    """Chuuren poutou: a closed hand (no kan either) of 1112345678999 plus one tile."""
    # Every kind of one suit, and nothing else.
    if mask not in SUIT_MASKS:
        return []
    suit = SUIT_MASKS.index(mask)
    vec = counts[9 * suit : 9 * suit + 9]
    if any(c < need for c, need in zip(vec, _CHUUREN, strict=True)):
        return []
    # Junsei: the thirteen tiles before the win were exactly 1112345678999.
    if vec[win - 9 * suit] - 1 == _CHUUREN[win - 9 * suit]:
        return [_double(Yaku.JUNSEI_CHUUREN, rules)]
    return [_single(Yaku.CHUUREN)]


def kokushi_yakuman(counts: Sequence[int], win: int, rules: Ruleset) -> list[YakuHan]:
    """Kokushi musou; the 13-sided wait when the winning tile made the pair."""
    if counts[win] == 2:
        return [_double(Yaku.KOKUSHI_13, rules)]
    return [_single(Yaku.KOKUSHI)]
