"""mjai tiles and yaku names -> the shared vocabulary.

Tiles: ../shared/reference/mjai-format.md §1 ("1m".."9s", "5mr" red, "E S W N P F C").
Yaku: §3 (gimite's names, and the names its Tenhou converter maps Tenhou ids to).
"""

from __future__ import annotations

from mjaudit.tiles import Tile
from mjaudit.yaku import Yaku
from parsers.json_text import short

__all__ = ["DRAGONS", "TILES", "WIND_YAKU", "YAKUMAN_FAN", "YAKU_NAMES", "MjaiFail", "tile_of"]


class MjaiFail(Exception):
    """A problem in one line; the caller adds the file and the line."""


_HONOURS = {c: Tile(27 + i) for i, c in enumerate("ESWNPFC")}
#: Every mjai tile by its text (tile_of, without its checks, for a reader's hot path:
#: look a ``str`` up, and call tile_of for what is not found, for its message).
TILES: dict[str, Tile] = dict(_HONOURS)
for _suit_index, _suit in enumerate("mps"):
    for _n in range(1, 10):
        TILES[f"{_n}{_suit}"] = Tile(_suit_index * 9 + _n - 1)
    TILES[f"5{_suit}r"] = Tile(_suit_index * 9 + 4, True)


def tile_of(text: object) -> Tile:
    """One mjai tile string; ``?`` (a hidden tile) is refused: logs must show every tile."""
    tile = TILES.get(text) if isinstance(text, str) else None
    if tile is None:
        if text == "?":
            raise MjaiFail("hidden tile '?': this is one player's view of the game, not a full log")
        raise MjaiFail(f"{short(text)} is not an mjai tile (1m..9s, 5mr, E S W N P F C)")
    return tile


YAKUMAN_FAN = 100  # gimite writes a yakuman as fan 100 (mjai-format.md §2.8)

# The names with one fixed yaku. bakaze/jikaze and sangenpai depend on the hand and
# are resolved by the parser (WIND_YAKU, DRAGONS).
YAKU_NAMES: dict[str, Yaku] = {
    "menzenchin_tsumoho": Yaku.MENZEN_TSUMO,
    "reach": Yaku.RIICHI,
    "ippatsu": Yaku.IPPATSU,
    "chankan": Yaku.CHANKAN,
    "rinshankaiho": Yaku.RINSHAN,
    "haiteiraoyue": Yaku.HAITEI,
    "hoteiraoyui": Yaku.HOUTEI,
    "pinfu": Yaku.PINFU,
    "tanyaochu": Yaku.TANYAO,
    "ipeko": Yaku.IIPEIKOU,
    "double_reach": Yaku.DOUBLE_RIICHI,
    "chitoitsu": Yaku.CHIITOITSU,
    "honchantaiyao": Yaku.CHANTA,
    "ikkitsukan": Yaku.ITTSU,
    "sanshokudojun": Yaku.SANSHOKU,
    "sanshokudoko": Yaku.SANSHOKU_DOUKOU,
    "sankantsu": Yaku.SANKANTSU,
    "toitoiho": Yaku.TOITOI,
    "sananko": Yaku.SANANKOU,
    "shosangen": Yaku.SHOUSANGEN,
    "honroto": Yaku.HONROUTOU,
    "ryanpeko": Yaku.RYANPEIKOU,
    "junchantaiyao": Yaku.JUNCHAN,
    "honiso": Yaku.HONITSU,
    "chiniso": Yaku.CHINITSU,
    "renho": Yaku.RENHOU,
    "tenho": Yaku.TENHOU,
    "chiho": Yaku.CHIIHOU,
    "daisangen": Yaku.DAISANGEN,
    # gimite has one name each for the single and double forms (§3): the plain one.
    "suanko": Yaku.SUUANKOU,
    "tsuiso": Yaku.TSUUIISOU,
    "ryuiso": Yaku.RYUUIISOU,
    "chinroto": Yaku.CHINROUTOU,
    "churenpoton": Yaku.CHUUREN,
    "kokushimuso": Yaku.KOKUSHI,
    "daisushi": Yaku.DAISUUSHII,
    "shosushi": Yaku.SHOUSUUSHII,
    "sukantsu": Yaku.SUUKANTSU,
    "dora": Yaku.DORA,
    "uradora": Yaku.URA_DORA,
    "akadora": Yaku.AKA_DORA,
}

WIND_YAKU = {
    "bakaze": (
        Yaku.ROUND_WIND_EAST,
        Yaku.ROUND_WIND_SOUTH,
        Yaku.ROUND_WIND_WEST,
        Yaku.ROUND_WIND_NORTH,
    ),
    "jikaze": (
        Yaku.SEAT_WIND_EAST,
        Yaku.SEAT_WIND_SOUTH,
        Yaku.SEAT_WIND_WEST,
        Yaku.SEAT_WIND_NORTH,
    ),
}
DRAGONS = (Yaku.HAKU, Yaku.HATSU, Yaku.CHUN)
