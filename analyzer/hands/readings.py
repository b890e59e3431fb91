"""Readings: one way to see a complete hand, melds included, with its winning group.

A hand such as ``111222333m`` can be three triplets or three identical sequences,
and a winning 3m can complete a sequence on either side or a triplet. Yaku and fu
depend on all of that, so the scorer evaluates every :class:`Reading` and keeps the
best (Tenhou: the highest han, then the highest fu).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import attrgetter
from typing import Final

from analyzer.hands.hand import Decomposition
from mjaudit.frozen import quick_builder, quick_init
from mjaudit.melds import Meld, MeldKind

__all__ = ["MeldGroups", "Reading", "Wait", "meld_groups", "readings"]


_CONCEALED = attrgetter("concealed")


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


# Every SetPart, at 4 * kind + 2 * kan + concealed: made once, not for each reading.
_SET_PARTS: Final = tuple(
    SetPart(kind, kan, concealed)
    for kind in range(34)
    for kan in (False, True)
    for concealed in (False, True)
)
# Members bound once: under Python 3.11 each ``MeldKind.CHI`` is a lookup through the
# enum's descriptor, several times the cost of a global's.
_CHI, _PON, _ANKAN, _KITA = MeldKind.CHI, MeldKind.PON, MeldKind.ANKAN, MeldKind.KITA
# The closed triplet of each kind (no kan, concealed), by kind.
_CLOSED_TRIPLETS: Final = _SET_PARTS[1::4]
_NO_MELDS: Final = MeldGroups((), (), False, 0)


def meld_groups(melds: Sequence[Meld]) -> MeldGroups:
    if not melds:
        return _NO_MELDS
    seqs: list[int] = []
    sets: list[SetPart] = []
    opened = False
    kans = 0
    for meld in melds:
        kind = meld.kind
        if kind is _KITA:
            continue
        if kind is _CHI:
            seqs.append(meld.kind34)
            opened = True
        elif kind is _PON:
            sets.append(_SET_PARTS[4 * meld.kind34])
            opened = True
        elif kind is _ANKAN:
            sets.append(_SET_PARTS[4 * meld.kind34 + 3])
            kans += 1
        else:  # a daiminkan or a kakan
            sets.append(_SET_PARTS[4 * meld.kind34 + 2])
            opened = True
            kans += 1
    return _meld_groups(tuple(seqs), tuple(sets), opened, kans)


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
        return sum(map(_CONCEALED, self.sets))

    @property
    def set_kinds(self) -> tuple[int, ...]:
        return tuple(s.kind for s in self.sets)


_RYANMEN, _KANCHAN, _PENCHAN = Wait.RYANMEN, Wait.KANCHAN, Wait.PENCHAN
_SHANPON, _TANKI = Wait.SHANPON, Wait.TANKI


# Reading(...) and MeldGroups(...), built without the constructors' __init__ (about
# half their cost; mjaudit.frozen.quick_builder).
_reading: Callable[[int, tuple[int, ...], tuple[SetPart, ...], Wait, bool, int], Reading] = (
    quick_builder(Reading, "_reading")
)
_meld_groups: Callable[[tuple[int, ...], tuple[SetPart, ...], bool, int], MeldGroups] = (
    quick_builder(MeldGroups, "_meld_groups")
)


def _seq_wait(start: int, win: int) -> Wait:
    pos = win - start
    if pos == 1:
        return _KANCHAN
    # 12 waiting on 3 and 89 waiting on 7 are edge waits.
    if (pos == 2 and start % 9 == 0) or (pos == 0 and start % 9 == 6):
        return _PENCHAN
    return _RYANMEN


def readings(
    decomposition: Decomposition, melds: MeldGroups, win: int, tsumo: bool
) -> list[Reading]:
    """Every reading of one decomposition: one per distinct way the win tile fits."""
    trips = decomposition.triplets
    seqs = decomposition.sequences
    all_seqs = seqs + melds.sequences
    out: list[Reading] = []
    closed_sets = tuple(map(_CLOSED_TRIPLETS.__getitem__, trips))
    base_sets = closed_sets + melds.sets
    if decomposition.pair == win:
        out.append(
            _reading(decomposition.pair, all_seqs, base_sets, _TANKI, melds.opened, melds.kans)
        )
    if win in trips:
        # A ron completes this triplet from a discard, so it is open for fu and ankou.
        idx = trips.index(win)
        sets = list(closed_sets)
        sets[idx] = _SET_PARTS[4 * win + tsumo]
        out.append(
            _reading(
                decomposition.pair,
                all_seqs,
                tuple(sets) + melds.sets,
                _SHANPON,
                melds.opened,
                melds.kans,
            )
        )
    seen: list[Wait] = []  # a list: an Enum's hash is a Python call
    for start in set(seqs):
        if start <= win <= start + 2:
            wait = _seq_wait(start, win)
            if wait in seen:
                continue
            seen.append(wait)
            out.append(
                _reading(decomposition.pair, all_seqs, base_sets, wait, melds.opened, melds.kans)
            )
    return out
