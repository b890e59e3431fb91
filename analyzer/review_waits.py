"""Waits for the furiten tracker: cached, and skipped for hands that cannot be tenpai.

The waits themselves come from :func:`analyzer.hand.waits`; this module only avoids
asking for them when a cheap look at each suit already rules tenpai out.
"""

from __future__ import annotations

from analyzer.hand import suit_paired, suit_sets, waits
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["kinds_text", "may_wait", "seat_waits"]

_CACHE_LIMIT = 100_000
_WAITS: dict[tuple[int, ...], frozenset[int]] = {}
_PART_OK: dict[tuple[int, ...], bool] = {}


def _part_ok(vec: tuple[int, ...]) -> bool:
    """Whether a suit (9 counts) or the honours (7) are sets, or sets and one pair."""
    if len(vec) == 9:
        return bool(suit_sets(vec) or suit_paired(vec))
    pairs = 0
    for c in vec:
        if c == 2:
            pairs += 1
        elif c not in (0, 3):
            return False
    return pairs <= 1


def may_wait(counts: list[int]) -> bool:
    """A cheap test that rules out most hands that cannot be tenpai.

    A 3k+1 hand that one tile completes as sets and a pair has at most one part (a suit
    or the honours) that is not already sets, or sets and a pair; otherwise only seven
    pairs or thirteen orphans can be near. Most discards leave such a hand, and this
    costs a fraction of :func:`analyzer.hand.waits`, which decides the rest.
    """
    broken = 0
    for part in (counts[0:9], counts[9:18], counts[18:27], counts[27:34]):
        key = tuple(part)
        ok = _PART_OK.get(key)
        if ok is None:
            ok = _PART_OK[key] = _part_ok(key)
        if not ok:
            broken += 1
    if broken <= 1:
        return True
    if sum(counts) != 13:
        return False
    # Seven pairs: six pairs and a single; thirteen orphans: nothing but 1s, 9s, honours.
    simples = sum(counts[1:8]) + sum(counts[10:17]) + sum(counts[19:26])
    return counts.count(2) == 6 or simples == 0


def seat_waits(hand: list[Tile], melds: list[Meld]) -> frozenset[int]:
    """The kinds that complete ``hand`` (3k+1 tiles), less those the seat holds all of."""
    counts = [0] * 34
    for t in hand:
        counts[t.kind] += 1
    if not may_wait(counts):
        return frozenset()
    key = tuple(counts)
    found = _WAITS.get(key)
    if found is None:
        if len(_WAITS) >= _CACHE_LIMIT:
            _WAITS.clear()
            _PART_OK.clear()
        found = _WAITS[key] = waits(counts)
    if found and melds:
        for m in melds:
            if m.kind is not MeldKind.KITA:
                for t in m.tiles:
                    counts[t.kind] += 1
        if any(counts[k] >= 4 for k in found):
            found = frozenset(k for k in found if counts[k] < 4)
    return found


def kinds_text(kinds: frozenset[int] | set[int]) -> str:
    """Tile kinds in mpsz, e.g. ``36p``; ``-`` for none."""
    return to_mpsz(Tile(k) for k in sorted(kinds)) if kinds else "-"
