"""The situation of one win and the scorer's explained result."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mjaudit.events import Limit
from mjaudit.frozen import quick_init
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile, to_mpsz
from mjaudit.yaku import Yaku

__all__ = ["FuPart", "HandResult", "Payments", "WinContext", "YakuHan", "check_tile_set"]


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
    no 2m..8m; a hand has 14 tiles, a kan counting as three, and at most four kans.
    """
    melds = tuple(melds)
    every = (*concealed, *[t for m in melds for t in m.tiles], *indicators)
    kinds = [t.kind for t in every]
    counts = [0] * 34
    for k in kinds:
        counts[k] += 1
    if max(counts) > 4:
        kind = next(k for k, n in enumerate(counts) if n > 4)
        raise ValueError(
            f"{counts[kind]} tiles of {Tile(kind)} (hand, melds and indicators): there are four"
        )
    red = [t.suit for t in every if t.red]
    if red:
        for suit in "mps":
            n = red.count(suit)
            if n and not aka:
                raise ValueError(f"a red 0{suit}, but these rules play without red fives")
            if n > 1:
                raise ValueError(f"{n} red fives 0{suit}: there is one")
    if players == 3 and any(1 <= k <= 7 for k in kinds):
        odd = next(t for t in every if 1 <= t.kind <= 7)
        raise ValueError(f"{odd} in a three-player game, which has no 2m..8m")
    kans = sum(1 for m in melds if m.kind.is_kan)
    if kans > 4:
        raise ValueError(f"{kans} kans: a hand has at most four")
    sets = sum(1 for m in melds if m.kind is not MeldKind.KITA)
    if len(concealed) + 3 * sets != 14:
        shown = " ".join((to_mpsz(concealed), *map(str, melds)))
        raise ValueError(
            f"{shown}: {len(concealed)} concealed tiles and {sets} melds are not a hand of "
            "14 tiles (a kan counts as three)"
        )


@quick_init
@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything about a win that is not the tiles themselves.

    Winds are 0..3 = East, South, West, North. The default winner is a non-dealer
    (South) in the East round.
    """

    tsumo: bool
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    seat_wind: int = 1
    round_wind: int = 0
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    kita: int = 0
    players: int = 4

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == 0


@dataclass(frozen=True, slots=True)
class YakuHan:
    """One yaku of a result and its han (``yakuman``: its multiple, for a yakuman)."""

    yaku: Yaku
    han: int
    yakuman: int = 0

    def __str__(self) -> str:
        if self.yakuman:
            return f"{self.yaku.label} (yakuman x{self.yakuman})"
        return f"{self.yaku.label} {self.han}"


@dataclass(frozen=True, slots=True)
class FuPart:
    """One part of a hand's fu and why it counts (``base``, ``closed ron``, ...)."""

    reason: str
    fu: int


@quick_init
@dataclass(frozen=True, slots=True)
class Payments:
    """What the hand costs its payers, without honba and sticks.

    A ron sets ``discarder``; a tsumo sets ``non_dealer`` (each non-dealer pays it)
    and, when the winner is not the dealer, ``dealer``.
    """

    discarder: int | None = None
    dealer: int | None = None
    non_dealer: int | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class HandResult:
    """A scored win: han, fu with its parts, yaku, dora counts, limit and payments."""

    han: int
    fu: int
    yakuman: int
    limit: Limit
    yaku: tuple[YakuHan, ...]
    dora: int
    aka: int
    ura: int
    kita: int
    fu_parts: tuple[FuPart, ...]
    base: int
    total: int
    payments: Payments
