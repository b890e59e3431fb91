"""Calls and concealed kans."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mjaudit.tiles import Tile, to_mpsz

__all__ = ["Meld", "MeldKind"]


class MeldKind(Enum):
    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    KAKAN = "kakan"
    ANKAN = "ankan"
    KITA = "kita"

    @property
    def is_kan(self) -> bool:
        return self in (MeldKind.DAIMINKAN, MeldKind.KAKAN, MeldKind.ANKAN)

    @property
    def is_open(self) -> bool:
        """Whether the meld opens the hand (ankan and kita keep it closed)."""
        return self in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN, MeldKind.KAKAN)


@dataclass(frozen=True, slots=True)
class Meld:
    """A call or a concealed kan.

    ``tiles`` are all tiles of the meld (3 for chi/pon, 4 for kans, 1 for kita).
    ``called`` is the tile taken from ``from_seat`` (None for ankan and kita); for a
    kakan it is the tile of the original pon and ``added`` is the tile added to it.
    ``tile_ids`` are physical ids (Tenhou 0..135) when the log has them, in the same
    order as ``tiles``.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    from_seat: int | None = None
    added: Tile | None = None
    tile_ids: tuple[int, ...] | None = None
    called_id: int | None = None
    added_id: int | None = None

    @property
    def kind34(self) -> int:
        """The kind of the lowest tile (the meld's identity for pons and kans)."""
        return min(t.kind for t in self.tiles)

    @property
    def is_kan(self) -> bool:
        return self.kind.is_kan

    @property
    def is_open(self) -> bool:
        return self.kind.is_open

    def __str__(self) -> str:
        return f"{self.kind.value}:{to_mpsz(self.tiles)}"
