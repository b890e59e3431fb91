"""Waits as the furiten tracker reads them: a seat's waits less what it holds all of.

The waits themselves come from :class:`analyzer.hands.hand.KeyedHand`, which answers
from tables filled once per distinct suit.
"""

from __future__ import annotations

from analyzer.hands.hand import NO_WAITS
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["kinds_text", "less_held"]


def less_held(found: frozenset[int], hand: list[Tile], melds: list[Meld]) -> frozenset[int]:
    """``found``, the waits of ``hand``, less the kinds the seat holds all four of.

    :class:`analyzer.hands.hand.KeyedHand` already leaves out the ones all in the hand, so
    only a seat with melds needs counting; empty waits give ``NO_WAITS`` itself.
    """
    if not found or not melds:
        return found
    counts = [0] * 34
    for t in hand:
        counts[t.kind] += 1
    for m in melds:
        if m.kind is not MeldKind.KITA:
            for t in m.tiles:
                counts[t.kind] += 1
    if any(counts[k] >= 4 for k in found):
        return frozenset(k for k in found if counts[k] < 4) or NO_WAITS
    return found


def kinds_text(kinds: frozenset[int] | set[int]) -> str:
    """Tile kinds in mpsz, e.g. ``36p``; ``-`` for none."""
    return to_mpsz(Tile(k) for k in sorted(kinds)) if kinds else "-"
