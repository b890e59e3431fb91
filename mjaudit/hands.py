"""The situation of one win and the scorer's explained result."""

from __future__ import annotations

from dataclasses import dataclass

from mjaudit.events import Limit
from mjaudit.frozen import quick_init
from mjaudit.tile_set import check_tile_set
from mjaudit.tiles import Tile
from mjaudit.yaku import Yaku

__all__ = ["FuPart", "HandResult", "Payments", "WinContext", "YakuHan", "check_tile_set"]


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
