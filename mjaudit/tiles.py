"""Tiles in mpsz notation.

A :class:`Tile` is an immutable, interned value: ``Tile('5m') is Tile('5m')``.
``kind`` numbers the 34 tile kinds 0..33 (1m..9m, 1p..9p, 1s..9s, E S W N, white,
green, red) and ``red`` marks a red five, written ``0m``/``0p``/``0s``.

>>> Tile('0p').kind, Tile('0p').red, Tile('9s').dora(), Tile('7z').dora()
(13, True, Tile('1s'), Tile('5z'))
>>> tiles('123m0p55z')
(Tile('1m'), Tile('2m'), Tile('3m'), Tile('0p'), Tile('5z'), Tile('5z'))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final

__all__ = [
    "HONOR_NAMES",
    "SUITS",
    "Tile",
    "kind_of",
    "tiles",
    "to_mpsz",
]

SUITS: Final = "mpsz"
HONOR_NAMES: Final = ("East", "South", "West", "North", "White", "Green", "Red")


def _check_kind(kind: int) -> None:
    if not 0 <= kind < 34:
        raise ValueError(f"tile kind must be 0..33, got {kind}")


class Tile:
    """One tile kind, optionally a red five. Immutable and interned."""

    __slots__ = ("kind", "red")
    kind: int
    red: bool

    _cache: ClassVar[dict[tuple[int, bool], Tile]] = {}
    _text_cache: ClassVar[dict[str, Tile]] = {}

    def __new__(cls, spec: str | int, red: bool = False) -> Tile:
        text = None
        if isinstance(spec, str):
            found = cls._text_cache.get(spec)
            if found is not None:
                return found
            kind, red = _parse_one(spec)
            text = spec
        else:
            kind = spec
        key = (kind, red)
        tile = cls._cache.get(key)
        if tile is None:
            _check_kind(kind)
            if red and kind not in (4, 13, 22):
                raise ValueError(f"only fives can be red, not kind {kind}")
            tile = object.__new__(cls)
            object.__setattr__(tile, "kind", kind)
            object.__setattr__(tile, "red", red)
            cls._cache[key] = tile
        if text is not None:  # a valid text: one of the 37 of _parse_one's form
            cls._text_cache[text] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, bool]]:
        return (Tile, (self.kind, self.red))

    # identity-based equality is exact because tiles are interned, but keep it
    # value-based so that unpickled copies compare equal too.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tile):
            return self.kind == other.kind and self.red == other.red
        return NotImplemented

    def __hash__(self) -> int:
        return self.kind * 2 + self.red

    def __lt__(self, other: Tile) -> bool:
        return (self.kind, self.red) < (other.kind, other.red)

    def __le__(self, other: Tile) -> bool:
        return (self.kind, self.red) <= (other.kind, other.red)

    def __gt__(self, other: Tile) -> bool:
        return (self.kind, self.red) > (other.kind, other.red)

    def __ge__(self, other: Tile) -> bool:
        return (self.kind, self.red) >= (other.kind, other.red)

    def __str__(self) -> str:
        if self.kind >= 27:
            return f"{self.kind - 26}z"
        return f"{0 if self.red else self.number}{SUITS[self.kind // 9]}"

    def __repr__(self) -> str:
        return f"Tile('{self}')"

    @property
    def suit(self) -> str:
        """``m``, ``p``, ``s`` or ``z``."""
        return SUITS[min(self.kind // 9, 3)]

    @property
    def number(self) -> int:
        """1..9 for suited tiles, 1..7 for honours (E S W N white green red)."""
        return self.kind % 9 + 1 if self.kind < 27 else self.kind - 26

    @property
    def is_honor(self) -> bool:
        return self.kind >= 27

    @property
    def is_terminal(self) -> bool:
        return self.kind < 27 and self.kind % 9 in (0, 8)

    @property
    def is_yaochu(self) -> bool:
        """Terminal or honour."""
        return self.kind >= 27 or self.kind % 9 in (0, 8)

    @property
    def is_wind(self) -> bool:
        return 27 <= self.kind <= 30

    @property
    def is_dragon(self) -> bool:
        return self.kind >= 31

    @property
    def plain(self) -> Tile:
        """The same kind without the red mark."""
        return Tile(self.kind) if self.red else self

    def dora(self, players: int = 4) -> Tile:
        """The dora this tile indicates: the next tile of its group, wrapping.

        9 wraps to 1, North to East, red dragon to white; in three-player games
        (which have no 2m..8m) 1m indicates 9m and 9m indicates 1m.
        """
        k = self.kind
        if players == 3 and k in (0, 8):
            return Tile(8 - k)
        if k < 27:
            return Tile(k - k % 9 + (k % 9 + 1) % 9)
        if k < 31:
            return Tile(27 + (k - 27 + 1) % 4)
        return Tile(31 + (k - 31 + 1) % 3)


_DIGITS = frozenset("0123456789")


def _parse_one(text: str) -> tuple[int, bool]:
    if len(text) != 2 or text[1] not in SUITS or text[0] not in _DIGITS:
        raise ValueError(f"not a tile in mpsz notation: {text!r}")
    return _kind_from(int(text[0]), text[1], text)


def _kind_from(digit: int, suit: str, text: str) -> tuple[int, bool]:
    if suit == "z":
        if not 1 <= digit <= 7:
            raise ValueError(f"honour tiles are 1z..7z, not {text!r}")
        return 26 + digit, False
    base = SUITS.index(suit) * 9
    if digit == 0:
        return base + 4, True
    return base + digit - 1, False


def tiles(text: str) -> tuple[Tile, ...]:
    """Parse an mpsz string such as ``123m0p55z`` into tiles, in the order written."""
    out: list[Tile] = []
    digits: list[int] = []
    for ch in text.strip():
        if ch in _DIGITS:  # ASCII only: str.isdigit() takes other scripts' digits
            digits.append(int(ch))
        elif ch in SUITS:
            if not digits:
                raise ValueError(f"suit letter {ch!r} with no digits in {text!r}")
            for d in digits:
                kind, red = _kind_from(d, ch, text)
                out.append(Tile(kind, red))
            digits = []
        elif ch in " ,":
            continue
        else:
            raise ValueError(f"unexpected {ch!r} in mpsz string {text!r}")
    if digits:
        raise ValueError(f"digits without a suit letter at the end of {text!r}")
    return tuple(out)


def to_mpsz(group: Iterable[Tile], sort: bool = True) -> str:
    """Write tiles in compact mpsz, e.g. ``123m0p55z``; red fives sort with the fives."""
    items = list(group)
    if sort:
        items.sort(key=lambda t: (t.kind, not t.red))
    out: list[str] = []
    run: list[str] = []
    suit = ""
    for t in items:
        s = t.suit
        if s != suit and run:
            out.append("".join(run) + suit)
            run = []
        suit = s
        run.append(str(t)[0])
    if run:
        out.append("".join(run) + suit)
    return "".join(out)


def kind_of(text: str) -> int:
    """The kind (0..33) of one mpsz tile."""
    return Tile(text).kind
