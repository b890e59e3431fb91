"""Calls and concealed kans."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from mjaudit.frozen import quick_init
from mjaudit.tiles import Tile, to_mpsz

__all__ = ["Meld", "MeldKind", "parse_meld", "shape_problem"]


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


@quick_init
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


_SPEC_SIZES = {
    MeldKind.CHI: 3,
    MeldKind.PON: 3,
    MeldKind.DAIMINKAN: 4,
    MeldKind.KAKAN: 4,
    MeldKind.ANKAN: 4,
    MeldKind.KITA: 1,
}


def shape_problem(kind: MeldKind, group: tuple[Tile, ...]) -> str | None:
    """What makes ``group`` no meld of ``kind`` (its size, a chi that is not a run of
    three in one suit, a pon or kan of different tiles, a kita that is not a North);
    None for a meld of that shape."""
    size = _SPEC_SIZES[kind]
    if len(group) != size:
        return f"a {kind.value} has {size} tiles, not {len(group)}"
    if kind is MeldKind.CHI:
        a, b, c = sorted(t.kind for t in group)
        if a >= 27 or b != a + 1 or c != a + 2 or a // 9 != c // 9:
            return "a chi is a run of three in one suit"
        return None
    first = group[0].kind
    if any(t.kind != first for t in group):
        return f"all tiles of a {kind.value} are the same"
    if kind is MeldKind.KITA and first != 30:
        return "kita is a North (4z)"
    return None


def parse_meld(spec: str) -> Meld:
    """A meld from its text form ``KIND:TILES``: ``chi:234m``, ``pon:777p``, ``kakan:2222p``.

    The first tile is taken as the called one (for a kakan, the last is the added one).
    """
    from mjaudit.tiles import tiles as parse_tiles

    kind_text, sep, tile_text = spec.partition(":")
    try:
        kind = MeldKind(kind_text.strip().lower())
    except ValueError:
        known = ", ".join(k.value for k in MeldKind)
        raise ValueError(f"unknown meld kind {kind_text!r} in {spec!r} (known: {known})") from None
    if not sep:
        raise ValueError(f"a meld is KIND:TILES, e.g. pon:777p, not {spec!r}")
    group = parse_tiles(tile_text)
    if len(group) != _SPEC_SIZES[kind]:
        raise ValueError(f"{kind.value} takes {_SPEC_SIZES[kind]} tiles, {spec!r} has {len(group)}")
    problem = shape_problem(kind, group)
    if problem is not None:
        raise ValueError(f"{spec!r}: {problem}")
    if kind in (MeldKind.ANKAN, MeldKind.KITA):
        return Meld(kind, group)
    if kind is MeldKind.KAKAN:
        return Meld(kind, group, group[0], None, group[-1])
    return Meld(kind, group, group[0])
