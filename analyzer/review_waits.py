"""Waits for the furiten tracker, from the per-part tables of :mod:`analyzer.hand`.

A hand becomes one int key in one pass over its tiles; :func:`analyzer.hand.key_waits`
answers from tables filled once per distinct suit, so most discards cost a handful of
dict lookups.
"""

from __future__ import annotations

from analyzer.hand import KIND_WEIGHT, NO_WAITS, key_waits
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["kinds_text", "seat_waits"]


def seat_waits(hand: list[Tile], melds: list[Meld]) -> frozenset[int]:
    """The kinds that complete ``hand`` (3k+1 tiles), less those the seat holds all of.

    Hands that wait on nothing give :data:`analyzer.hand.NO_WAITS` itself.
    """
    key = 0
    for t in hand:
        key += KIND_WEIGHT[t.kind]
    found = key_waits(key)
    if found and melds:
        counts = [0] * 34
        for t in hand:
            counts[t.kind] += 1
        for m in melds:
            if m.kind is not MeldKind.KITA:
                for t in m.tiles:
                    counts[t.kind] += 1
        if any(counts[k] >= 4 for k in found):
            found = frozenset(k for k in found if counts[k] < 4) or NO_WAITS
    return found


def kinds_text(kinds: frozenset[int] | set[int]) -> str:
    """Tile kinds in mpsz, e.g. ``36p``; ``-`` for none."""
    return to_mpsz(Tile(k) for k in sorted(kinds)) if kinds else "-"
