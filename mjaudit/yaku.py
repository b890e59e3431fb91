"""The yaku vocabulary shared by parsers, scorer and reports.

Values follow the numbering every Tenhou-derived tool uses (0 = menzen tsumo ...
54 = aka dora), so that a multiset of ``(Yaku, han)`` pairs can be compared across
formats. Names are the romaji of the glossary (docs/glossary.md).
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["BONUS_YAKU", "SINGLE_FORM", "YAKUMAN", "Yaku"]


class Yaku(IntEnum):
    MENZEN_TSUMO = 0
    RIICHI = 1
    IPPATSU = 2
    CHANKAN = 3
    RINSHAN = 4
    HAITEI = 5
    HOUTEI = 6
    PINFU = 7
    TANYAO = 8
    IIPEIKOU = 9
    SEAT_WIND_EAST = 10
    SEAT_WIND_SOUTH = 11
    SEAT_WIND_WEST = 12
    SEAT_WIND_NORTH = 13
    ROUND_WIND_EAST = 14
    ROUND_WIND_SOUTH = 15
    ROUND_WIND_WEST = 16
    ROUND_WIND_NORTH = 17
    HAKU = 18
    HATSU = 19
    CHUN = 20
    DOUBLE_RIICHI = 21
    CHIITOITSU = 22
    CHANTA = 23
    ITTSU = 24
    SANSHOKU = 25
    SANSHOKU_DOUKOU = 26
    SANKANTSU = 27
    TOITOI = 28
    SANANKOU = 29
    SHOUSANGEN = 30
    HONROUTOU = 31
    RYANPEIKOU = 32
    JUNCHAN = 33
    HONITSU = 34
    CHINITSU = 35
    RENHOU = 36
    TENHOU = 37
    CHIIHOU = 38
    DAISANGEN = 39
    SUUANKOU = 40
    SUUANKOU_TANKI = 41
    TSUUIISOU = 42
    RYUUIISOU = 43
    CHINROUTOU = 44
    CHUUREN = 45
    JUNSEI_CHUUREN = 46
    KOKUSHI = 47
    KOKUSHI_13 = 48
    DAISUUSHII = 49
    SHOUSUUSHII = 50
    SUUKANTSU = 51
    DORA = 52
    URA_DORA = 53
    AKA_DORA = 54

    @property
    def label(self) -> str:
        """Romaji name as players write it: ``pinfu``, ``seat wind E``, ``ura dora``."""
        name = self.name.lower()
        if name.startswith(("seat_wind_", "round_wind_")):
            head, _, wind = name.rpartition("_")
            return f"{head.replace('_', ' ')} {wind[0].upper()}"
        return name.replace("_", " ")


YAKUMAN: frozenset[Yaku] = frozenset(Yaku(i) for i in range(36, 52) if i != 36)
BONUS_YAKU: frozenset[Yaku] = frozenset({Yaku.DORA, Yaku.URA_DORA, Yaku.AKA_DORA})
#: Each yakuman's double form and its single one: a format with one name for both
#: (mjai's ``suanko``, ``chuuren``, ``kokushi``) names the single.
SINGLE_FORM: dict[Yaku, Yaku] = {
    Yaku.SUUANKOU_TANKI: Yaku.SUUANKOU,
    Yaku.JUNSEI_CHUUREN: Yaku.CHUUREN,
    Yaku.KOKUSHI_13: Yaku.KOKUSHI,
}
