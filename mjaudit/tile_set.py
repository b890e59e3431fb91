"""Whether a hand's tiles can be dealt at all: the tile set's own limits.

Apart from :mod:`mjaudit.hands` (which still offers :func:`check_tile_set`) because it
holds no class: the compiled build (setup.py) can take it.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter, eq

from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["check_tile_set"]

_RED = attrgetter("red")
# Members bound once (under Python 3.11 ``MeldKind.KITA`` is a descriptor call).
_KITA = MeldKind.KITA


def check_tile_set(
    concealed: tuple[Tile, ...],
    melds: Iterable[Meld],
    indicators: Iterable[Tile] = (),
    players: int = 4,
    aka: bool = True,
) -> None:
    """Raise ValueError when no game can deal these tiles to one hand.

    ``concealed`` holds the winning tile; the tiles of the melds and the indicators
    shown are counted too. A set has four tiles of each kind, one of each five red
    when the rules play with red fives (none otherwise), and in three-player games
    no 2m..8m (with four, no kita); a hand has 14 tiles, a kan counting as three, and
    at most four kans.
    """
    melds = tuple(melds)
    if melds:  # most hands have none
        every = (*concealed, *[t for m in melds for t in m.tiles], *indicators)
    else:
        every = (*concealed, *indicators)
    kinds = [t.kind for t in every]
    # Five of a kind, if any, are five equal kinds in a row once sorted.
    kinds.sort()
    if any(map(eq, kinds, kinds[4:])):
        counts = [0] * 34
        for k in kinds:
            counts[k] += 1
        kind = next(k for k, n in enumerate(counts) if n > 4)
        raise ValueError(
            f"{counts[kind]} tiles of {Tile(kind)} (hand, melds and indicators): there are four"
        )
    if any(map(_RED, every)):
        red = [t.suit for t in every if t.red]
        for suit in "mps":
            n = red.count(suit)
            if n and not aka:
                raise ValueError(f"a red 0{suit}, but these rules play without red fives")
            if n > 1:
                raise ValueError(f"{n} red fives 0{suit}: there is one")
    if players == 3 and any(1 <= k <= 7 for k in kinds):
        odd = next(t for t in every if 1 <= t.kind <= 7)
        raise ValueError(f"{odd} in a three-player game, which has no 2m..8m")
    sets = 0
    if melds:
        kans = kita = 0
        for meld in melds:
            meld_kind = meld.kind
            if meld_kind is _KITA:
                kita += 1
            elif meld_kind.is_kan:
                kans += 1
        if kita and players == 4:
            raise ValueError("kita: a North is set aside in three-player games only")
        if kans > 4:
            raise ValueError(f"{kans} kans: a hand has at most four")
        sets = len(melds) - kita
    if len(concealed) + 3 * sets != 14:
        shown = " ".join((to_mpsz(concealed), *map(str, melds)))
        raise ValueError(
            f"{shown}: {len(concealed)} concealed tiles and {sets} melds are not a hand of "
            "14 tiles (a kan counts as three)"
        )
