"""Regular yaku of the tiles: one family per function.

- tile families (:func:`tile_yaku`): tanyao, honitsu, chinitsu, honroutou; they depend
  only on which kinds the hand holds, so they are computed once per hand;
- sequence families (:func:`sequence_yaku`): pinfu, iipeikou, ryanpeikou, sanshoku,
  ittsu, chanta, junchan;
- set families (:func:`set_yaku`): yakuhai, toitoi, sanankou, sankantsu, sanshoku
  doukou, shousangen.

Han follow Tenhou (matrix §D "open reductions"): sanshoku, ittsu and chanta drop from
2 to 1 when open, junchan and honitsu from 3 to 2, chinitsu from 6 to 5.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import attrgetter
from typing import Final

from analyzer.hands.readings import Reading, Wait
from analyzer.hands.yaku_situational import entry
from mjaudit.hands import YakuHan
from mjaudit.rules import Ruleset
from mjaudit.yaku import Yaku

__all__ = [
    "YAOCHU_MASK",
    "counts_mask",
    "sequence_yaku",
    "set_yaku",
    "tile_yaku",
    "valued_kinds",
]

YAOCHU_MASK: Final = sum(1 << k for k in (0, 8, 9, 17, 18, 26, *range(27, 34)))
HONOR_MASK: Final = sum(1 << k for k in range(27, 34))
SUIT_MASKS: Final = (0x1FF, 0x1FF << 9, 0x1FF << 18)
_MAN, _PIN, _SOU = SUIT_MASKS
DRAGONS: Final = (31, 32, 33)
# Each yaku as its interned entry, made once, closed and open where the han differ
# (a Yaku member's lookup and the call to entry cost more than a global's).
_TANYAO = entry(Yaku.TANYAO, 1)
_HONITSU, _HONITSU_OPEN = entry(Yaku.HONITSU, 3), entry(Yaku.HONITSU, 2)
_CHINITSU, _CHINITSU_OPEN = entry(Yaku.CHINITSU, 6), entry(Yaku.CHINITSU, 5)
_HONROUTOU = entry(Yaku.HONROUTOU, 2)
_PINFU = entry(Yaku.PINFU, 1)
_RYANPEIKOU = entry(Yaku.RYANPEIKOU, 3)
_IIPEIKOU = entry(Yaku.IIPEIKOU, 1)
_SANSHOKU, _SANSHOKU_OPEN = entry(Yaku.SANSHOKU, 2), entry(Yaku.SANSHOKU, 1)
_ITTSU, _ITTSU_OPEN = entry(Yaku.ITTSU, 2), entry(Yaku.ITTSU, 1)
_CHANTA, _CHANTA_OPEN = entry(Yaku.CHANTA, 2), entry(Yaku.CHANTA, 1)
_JUNCHAN, _JUNCHAN_OPEN = entry(Yaku.JUNCHAN, 3), entry(Yaku.JUNCHAN, 2)
_DRAGON_YAKU: Final = {
    k: entry(y, 1) for k, y in ((31, Yaku.HAKU), (32, Yaku.HATSU), (33, Yaku.CHUN))
}
_SEAT_WIND: Final = tuple(entry(Yaku(Yaku.SEAT_WIND_EAST + w), 1) for w in range(4))
_ROUND_WIND: Final = tuple(entry(Yaku(Yaku.ROUND_WIND_EAST + w), 1) for w in range(4))
_TOITOI = entry(Yaku.TOITOI, 2)
_SANANKOU = entry(Yaku.SANANKOU, 2)
_SANKANTSU = entry(Yaku.SANKANTSU, 2)
_SANSHOKU_DOUKOU = entry(Yaku.SANSHOKU_DOUKOU, 2)
_SHOUSANGEN = entry(Yaku.SHOUSANGEN, 2)
_RYANMEN = Wait.RYANMEN
# Terminal and honour kinds; the starts of the runs that hold a terminal (123, 789).
_YAOCHU_KINDS: Final = frozenset(k for k in range(34) if k >= 27 or k % 9 in (0, 8))
_OUTER_RUNS: Final = frozenset(k for k in range(27) if k % 9 in (0, 6))
_KIND = attrgetter("kind")


# The bit of each kind in a kind mask, by kind.
_BITS: Final = tuple(1 << k for k in range(34))


def counts_mask(counts: Sequence[int]) -> int:
    """The kinds held: bit k set where ``counts[k]`` (34 counts, by kind) is not 0."""
    return sum(compress(_BITS, counts))


def valued_kinds(seat_wind: int, round_wind: int) -> frozenset[int]:
    """Kinds whose triplet is a yaku (and whose pair earns fu): dragons and own winds."""
    return _VALUED[seat_wind][round_wind]


# valued_kinds of each seat wind and round wind, made once.
_VALUED: Final = tuple(
    tuple(frozenset((31, 32, 33, 27 + seat, 27 + round_)) for round_ in range(4))
    for seat in range(4)
)


def tile_yaku(mask: int, opened: bool, rules: Ruleset) -> list[YakuHan]:
    """Yaku decided by the set of kinds present (``mask`` bit k = kind k is held)."""
    out: list[YakuHan] = []
    # Kuitan: an open tanyao counts only where the rules allow it.
    if not mask & YAOCHU_MASK and (not opened or rules.kuitan):
        out.append(_TANYAO)
    suits = (mask & _MAN != 0) + (mask & _PIN != 0) + (mask & _SOU != 0)
    honors = bool(mask & HONOR_MASK)
    if suits == 1:
        if honors:
            out.append(_HONITSU_OPEN if opened else _HONITSU)
        else:
            out.append(_CHINITSU_OPEN if opened else _CHINITSU)
    if not mask & ~YAOCHU_MASK:
        out.append(_HONROUTOU)
    return out


def sequence_yaku(r: Reading, valued: frozenset[int]) -> list[YakuHan]:
    seqs = r.sequences
    if not seqs:
        return []
    out: list[YakuHan] = []
    opened = r.opened
    present = set(seqs)
    if not opened:
        if len(seqs) == 4 and r.wait is _RYANMEN and r.pair not in valued:
            out.append(_PINFU)
        if len(present) < len(seqs):  # a sequence twice (or more)
            dupes = sum(seqs.count(s) // 2 for s in present)
            if dupes >= 2:
                out.append(_RYANPEIKOU)
            elif dupes == 1:
                out.append(_IIPEIKOU)
    if len(present) >= 3:
        if any(s + 9 in present and s + 18 in present for s in present if s < 7):
            out.append(_SANSHOKU_OPEN if opened else _SANSHOKU)
        if any(b in present and b + 3 in present and b + 6 in present for b in (0, 9, 18)):
            out.append(_ITTSU_OPEN if opened else _ITTSU)
    # Chanta/junchan: every group and the pair hold a terminal or honour; without a
    # sequence the hand is honroutou or chinroutou instead.
    if (
        r.pair in _YAOCHU_KINDS
        and all(map(_OUTER_RUNS.__contains__, seqs))
        and all(map(_YAOCHU_KINDS.__contains__, map(_KIND, r.sets)))
    ):
        honors = r.pair >= 27 or any(p.kind >= 27 for p in r.sets)
        if honors:
            out.append(_CHANTA_OPEN if opened else _CHANTA)
        else:
            out.append(_JUNCHAN_OPEN if opened else _JUNCHAN)
    return out


def set_yaku(r: Reading, seat_wind: int, round_wind: int) -> list[YakuHan]:
    sets = r.sets
    if not sets:
        return []
    out: list[YakuHan] = []
    kinds = [p.kind for p in sets]
    dragons = 0
    for k in kinds:
        if k >= 31:
            dragons += 1
            out.append(_DRAGON_YAKU[k])
        elif k >= 27:
            # A double wind triplet scores both yaku (Tenhou ids 10-13 and 14-17).
            if k == 27 + seat_wind:
                out.append(_SEAT_WIND[seat_wind])
            if k == 27 + round_wind:
                out.append(_ROUND_WIND[round_wind])
    if len(sets) == 4:
        out.append(_TOITOI)
    if r.concealed_sets == 3:
        out.append(_SANANKOU)
    if r.kans == 3:
        out.append(_SANKANTSU)
    if len(sets) >= 3:
        present = set(kinds)
        if any(k in present and k + 9 in present and k + 18 in present for k in range(9)):
            out.append(_SANSHOKU_DOUKOU)
    if dragons == 2 and r.pair >= 31:
        out.append(_SHOUSANGEN)
    return out
