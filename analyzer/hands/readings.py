"""Readings: one way to see a complete hand, melds included, with its winning group.

A hand such as ``111222333m`` can be three triplets or three identical sequences,
and a winning 3m can complete a sequence on either side or a triplet. Yaku and fu
depend on all of that, so the scorer evaluates every :class:`Reading` and keeps the
best (Tenhou: the highest han, then the highest fu).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from analyzer.hands.hand import SEQ, Decomposition
from mjaudit.frozen import quick_init
from mjaudit.melds import Meld, MeldKind

__all__ = ["MeldGroups", "Reading", "Wait", "meld_groups", "readings"]


class Wait(Enum):
    RYANMEN = "ryanmen"
    KANCHAN = "kanchan"
    PENCHAN = "penchan"
    SHANPON = "shanpon"
    TANKI = "tanki"


@quick_init
@dataclass(frozen=True, slots=True)
class SetPart:
    """A triplet or kan for fu and concealment: kind, kan or not, concealed or not."""

    kind: int
    kan: bool
    concealed: bool


@quick_init
@dataclass(frozen=True, slots=True)
class MeldGroups:
    """The melds of a hand, as groups (kita left out)."""

    sequences: tuple[int, ...]
    sets: tuple[SetPart, ...]
    opened: bool
    kans: int


def meld_groups(melds: Sequence[Meld]) -> MeldGroups:
    seqs: list[int] = []
    sets: list[SetPart] = []
    opened = False
    kans = 0
    for meld in melds:
        match meld.kind:
            case MeldKind.CHI:
                seqs.append(meld.kind34)
                opened = True
            case MeldKind.PON:
                sets.append(SetPart(meld.kind34, False, False))
                opened = True
            case MeldKind.DAIMINKAN | MeldKind.KAKAN:
                sets.append(SetPart(meld.kind34, True, False))
                opened = True
                kans += 1
            case MeldKind.ANKAN:
                sets.append(SetPart(meld.kind34, True, True))
                kans += 1
            case MeldKind.KITA:
                pass
    return MeldGroups(tuple(seqs), tuple(sets), opened, kans)


@quick_init
@dataclass(frozen=True, slots=True)
class Reading:
    """Four sets and a pair, melds included, and the group the winning tile completed.

    ``sequences`` are start kinds (concealed and called); ``sets`` are all triplets
    and kans. A triplet completed by ron counts as open (Tenhou, and every ruleset in
    the matrix §C: "ron-completed triplet counts as an open triplet").
    """

    pair: int
    sequences: tuple[int, ...]
    sets: tuple[SetPart, ...]
    wait: Wait
    opened: bool
    kans: int

    @property
    def concealed_sets(self) -> int:
        return sum(1 for s in self.sets if s.concealed)

    @property
    def set_kinds(self) -> tuple[int, ...]:
        return tuple(s.kind for s in self.sets)


def _seq_wait(start: int, win: int) -> Wait:
    pos = win - start
    if pos == 1:
        return Wait.KANCHAN
    # 12 waiting on 3 and 89 waiting on 7 are edge waits.
    if (pos == 2 and start % 9 == 0) or (pos == 0 and start % 9 == 6):
        return Wait.PENCHAN
    return Wait.RYANMEN


def readings(
    decomposition: Decomposition, melds: MeldGroups, win: int, tsumo: bool
) -> list[Reading]:
    """Every reading of one decomposition: one per distinct way the win tile fits."""
    seqs = tuple(g - SEQ for g in decomposition.groups if g >= SEQ)
    trips = tuple(g for g in decomposition.groups if g < SEQ)
    all_seqs = seqs + melds.sequences
    out: list[Reading] = []
    closed_sets = tuple(SetPart(k, False, True) for k in trips)
    base_sets = closed_sets + melds.sets
    if decomposition.pair == win:
        out.append(
            Reading(decomposition.pair, all_seqs, base_sets, Wait.TANKI, melds.opened, melds.kans)
        )
    if win in trips:
        # A ron completes this triplet from a discard, so it is open for fu and ankou.
        idx = trips.index(win)
        sets = list(closed_sets)
        sets[idx] = SetPart(win, False, tsumo)
        out.append(
            Reading(
                decomposition.pair,
                all_seqs,
                tuple(sets) + melds.sets,
                Wait.SHANPON,
                melds.opened,
                melds.kans,
            )
        )
    seen: set[Wait] = set()
    for start in set(seqs):
        if start <= win <= start + 2:
            wait = _seq_wait(start, win)
            if wait in seen:
                continue
            seen.add(wait)
            out.append(
                Reading(decomposition.pair, all_seqs, base_sets, wait, melds.opened, melds.kans)
            )
    return out
