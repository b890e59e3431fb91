"""Tile faces drawn by the project as SVG symbols, and tile groups that use them.

The faces are simple geometry written here (no art copied from other sets and no
Unicode mahjong glyphs, which most fonts lack): a numeral and a red brush mark for
characters, circles for dots, sticks for bamboo, letters for winds and a framed or
lettered face for dragons. Red fives draw their marks in red and carry a red corner.

A page inlines the sprite once (:func:`sprite`) and every tile is a small ``<svg>``
that ``<use>``s a symbol, so a tile costs about 80 bytes. Every group carries its
mpsz text (``aria-label`` and a hidden text copy) for copying and screen readers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from markupsafe import Markup, escape

from mjaudit.tiles import HONOR_NAMES, Tile, to_mpsz

__all__ = [
    "FACE_IDS",
    "TILE_H",
    "TILE_W",
    "face_id",
    "group_html",
    "sprite",
    "tile_html",
    "tile_name",
]

TILE_W, TILE_H = 30, 40
_INK = "#1d2a44"
_RED = "#d0202e"
_GREEN = "#17804a"
_BLUE = "#1f5fb0"

# Pip centres on the 30x40 face, by count (dots and bamboo share the layouts).
_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((15, 21),),
    2: ((15, 12), (15, 30)),
    3: ((8, 10), (15, 21), (22, 32)),
    4: ((9, 12), (21, 12), (9, 30), (21, 30)),
    5: ((9, 11), (21, 11), (15, 21), (9, 31), (21, 31)),
    6: ((9, 10), (21, 10), (9, 21), (21, 21), (9, 32), (21, 32)),
    7: ((7, 8), (15, 11), (23, 14), (9, 23), (21, 23), (9, 33), (21, 33)),
    8: ((9, 8), (21, 8), (9, 16.5), (21, 16.5), (9, 25), (21, 25), (9, 33.5), (21, 33.5)),
    9: ((7, 9), (15, 9), (23, 9), (7, 21), (15, 21), (23, 21), (7, 33), (15, 33), (23, 33)),
}


def face_id(tile: Tile | None) -> str:
    """The symbol id of a face: ``t5m``, ``t0p`` (red), ``t7z``; ``tback`` for None."""
    return "tback" if tile is None else f"t{tile}"


def tile_name(tile: Tile) -> str:
    """A spoken name for screen readers: ``5 dots red``, ``East``."""
    if tile.is_honor:
        return HONOR_NAMES[tile.kind - 27]
    suit = {"m": "characters", "p": "dots", "s": "bamboo"}[tile.suit]
    return f"{tile.number} {suit}{' red' if tile.red else ''}"


def _f(x: float) -> str:
    return f"{x:g}"


def _dots(n: int, red: bool) -> str:
    r = {1: 8.5, 2: 5.5, 3: 4.5, 4: 4.6, 5: 4.2, 6: 4.0}.get(n, 3.5)
    out = []
    for k, (x, y) in enumerate(_LAYOUT[n]):
        colour = _RED if red or (n == 1) else (_GREEN if (n in (4, 6, 8) and k < 2) else _BLUE)
        if n == 5 and k == 2 and not red:
            colour = _RED
        out.append(
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="none" '
            f'stroke="{colour}" stroke-width="1.8"/>'
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 0.35)}" fill="{colour}"/>'
        )
    return "".join(out)


def _sticks(n: int, red: bool) -> str:
    if n == 1:
        colour = _RED if red else _GREEN
        return (
            f'<rect x="12" y="7" width="6" height="28" rx="3" fill="{colour}"/>'
            '<path d="M12 21h6" stroke="#fff" stroke-width="1.2"/>'
            f'<circle cx="15" cy="7" r="3" fill="{_RED}"/>'
        )
    h = 11 if n <= 6 else 7.5
    out = []
    for k, (x, y) in enumerate(_LAYOUT[n]):
        colour = _RED if red or (n == 5 and k == 2) or (n == 9 and k % 3 == 1) else _GREEN
        out.append(
            f'<rect x="{_f(x - 2)}" y="{_f(y - h / 2)}" width="4" height="{_f(h)}" '
            f'rx="1.6" fill="{colour}"/>'
            f'<path d="M{_f(x - 2)} {_f(y)}h4" stroke="#fff" stroke-width=".8"/>'
        )
    return "".join(out)


def _characters(n: int, red: bool) -> str:
    ink = _RED if red else _INK
    return (
        f'<text x="15" y="20" text-anchor="middle" font-family="Georgia,serif" '
        f'font-weight="bold" font-size="17" fill="{ink}">{n}</text>'
        f'<path d="M7 29c3-3 6 2 9-1s5-2 7 0M9 34c4-2 8 1 12-1" fill="none" '
        f'stroke="{_RED}" stroke-width="2.4" stroke-linecap="round"/>'
    )


def _honor(number: int) -> str:
    if number <= 4:
        letter = "ESWN"[number - 1]
        return (
            f'<text x="15" y="28" text-anchor="middle" font-family="Georgia,serif" '
            f'font-weight="bold" font-size="20" fill="{_INK}">{letter}</text>'
        )
    if number == 5:  # white dragon: an empty framed face
        return (
            f'<rect x="7" y="8" width="16" height="24" rx="1.5" fill="none" '
            f'stroke="{_BLUE}" stroke-width="2.2"/>'
            f'<rect x="10" y="11" width="10" height="18" fill="none" '
            f'stroke="{_BLUE}" stroke-width=".8"/>'
        )
    colour, letter = (_GREEN, "G") if number == 6 else (_RED, "R")
    return (
        f'<path d="M15 5l10 16-10 15-10-15z" fill="none" stroke="{colour}" stroke-width="1.4"/>'
        f'<text x="15" y="27" text-anchor="middle" font-family="Georgia,serif" '
        f'font-weight="bold" font-size="16" fill="{colour}">{letter}</text>'
    )


def _face(tile: Tile | None) -> str:
    if tile is None:
        return (
            '<rect x=".75" y=".75" width="28.5" height="38.5" rx="3.5" fill="#e39b2f" '
            'stroke="#9a5e12" stroke-width="1.5"/>'
            '<rect x="4" y="4" width="22" height="32" rx="2" fill="none" '
            'stroke="#f6c77d" stroke-width="1"/>'
        )
    body = (
        '<rect x=".75" y=".75" width="28.5" height="38.5" rx="3.5" fill="#fbf8ef" '
        'stroke="#8d8a80" stroke-width="1.5"/>'
    )
    if tile.red:
        body += f'<path d="M22 1.5h4.5a2.5 2.5 0 0 1 2.5 2.5v4.5z" fill="{_RED}"/>'
    n = tile.number
    match tile.suit:
        case "m":
            body += _characters(n, tile.red)
        case "p":
            body += _dots(n, tile.red)
        case "s":
            body += _sticks(n, tile.red)
        case _:
            body += _honor(n)
    if tile.suit in "ps" and n > 1:
        ink = _RED if tile.red else _INK
        body += (
            f'<text x="2.6" y="7.4" font-family="Arial,sans-serif" font-size="6" '
            f'font-weight="bold" fill="{ink}">{n}</text>'
        )
    return body


ALL_TILES: tuple[Tile, ...] = (
    *(Tile(k) for k in range(34)),
    Tile("0m"),
    Tile("0p"),
    Tile("0s"),
)
FACE_IDS: tuple[str, ...] = (*(face_id(t) for t in ALL_TILES), "tback")


def sprite() -> Markup:
    """The hidden ``<svg>`` with one ``<symbol>`` per face (every face: the replay
    script may show any tile). Hidden without ``display:none``, which can stop the
    referenced symbols from rendering in some browsers."""
    symbols = [
        f'<symbol id="{face_id(t)}" viewBox="0 0 {TILE_W} {TILE_H}">{_face(t)}</symbol>'
        for t in (*ALL_TILES, None)
    ]
    return Markup(
        '<svg class="sprite" aria-hidden="true" '
        'style="position:absolute;width:0;height:0;overflow:hidden">' + "".join(symbols) + "</svg>"
    )


def tile_html(tile: Tile | None, css: str = "") -> Markup:
    """One tile: ``<svg class="tile"><use href="#t5m"/></svg>``; extra classes in ``css``."""
    return Markup(_tile_text(tile, css))


# A tile's markup by (face, classes): a few hundred at most, and a page has thousands
# of tiles.
_TILE_TEXT: dict[tuple[str, str], str] = {}


def _tile_text(tile: Tile | None, css: str) -> str:
    face = face_id(tile)
    found = _TILE_TEXT.get((face, css))
    if found is None:
        cls = f"tile {css}".strip()
        found = _TILE_TEXT[face, css] = (
            f'<svg class="{escape(cls)}" viewBox="0 0 {TILE_W} {TILE_H}" aria-hidden="true">'
            f'<use href="#{face}"/></svg>'
        )
    return found


def group_html(
    group: Iterable[Tile | None],
    text: str | None = None,
    css: Sequence[str] | None = None,
) -> Markup:
    """A row of tiles labelled with its mpsz text (given, or written from the tiles).

    ``css`` gives an extra class per tile (``"called"``, ``"side"``...).
    """
    items = list(group)
    if text is None:
        text = to_mpsz([t for t in items if t is not None], sort=False)
    parts = [_tile_text(t, css[k] if css is not None else "") for k, t in enumerate(items)]
    label = escape(text)
    return Markup(
        f'<span class="tiles" role="img" aria-label="{label}" title="{label}">'
        + "".join(parts)
        + f'<span class="mpsz">{label}</span></span>'
    )
