"""Waits for the furiten tracker, from the per-part tables of :mod:`analyzer.hands.hand`.

A hand is kept as its four part keys (:func:`tile_parts`), which a draw or a discard
updates with one addition, and :func:`analyzer.hands.hand.parts_waits` answers from tables
filled once per distinct suit, so most discards cost a handful of dict lookups.
"""

from __future__ import annotations

from collections.abc import Iterable

from analyzer.hands.hand import NO_WAITS, PART_OF, PART_WEIGHT, parts_waits
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["kinds_text", "less_held", "seat_waits", "tile_parts"]


def seat_waits(hand: list[Tile], melds: list[Meld]) -> frozenset[int]:
    """The kinds that complete ``hand`` (3k+1 tiles), less those the seat holds all of.

    Hands that wait on nothing give :data:`analyzer.hands.hand.NO_WAITS` itself.
    """
    return less_held(parts_waits(tile_parts(hand)), hand, melds)


def tile_parts(tiles: Iterable[Tile]) -> list[int]:
    """The part keys of ``tiles`` (see :func:`analyzer.hands.hand.parts_waits`)."""
    parts = [0, 0, 0, 0]
    for t in tiles:
        k = t.kind
        parts[PART_OF[k]] += PART_WEIGHT[k]
    return parts


def less_held(found: frozenset[int], hand: list[Tile], melds: list[Meld]) -> frozenset[int]:
    """``found``, the waits of ``hand``, less the kinds the seat holds all four of.

    :func:`analyzer.hands.hand.parts_waits` already leaves out the ones all in the hand, so
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
