"""Mahjong Soul's own numbers and names: yaku ids, room ids, ranks, draw kinds.

Read from the records themselves (../shared/corpus/mahjongsoul/SOURCES.md) and from
Mahjong Soul's published game data (the ``fan`` table of the client's resources, as
quoted by the riichi.wiki "Mahjong Soul" page and the protobuf field names of
``liqi.proto``). Each table says where a value was settled by the corpus.
"""

from __future__ import annotations

from mjaudit.yaku import Yaku

__all__ = [
    "ACTION_KINDS",
    "FAN_IDS",
    "KITA_FAN",
    "LIUJU_KINDS",
    "MODE_NAMES",
    "RANKED_ROOMS",
    "RANK_NAMES",
    "ROUND_WIND_FAN",
    "SEAT_WIND_FAN",
    "rank_text",
]

# The ``id`` of a ``fans`` entry of RecordHule -> the yaku. The seat and round wind
# ids (10, 11) name no wind: the parser reads it from the seat and the round. 34 is
# kita (抜きドラ), counted with dora as Tenhou does. Ids of local yaku that no preset
# scores (46 paarenchan, 51-58, 60-...) are not listed: a record that claims one is
# read, and the claim is reported as a yaku the engine does not know.
FAN_IDS: dict[int, Yaku] = {
    1: Yaku.MENZEN_TSUMO,
    2: Yaku.RIICHI,
    3: Yaku.CHANKAN,
    4: Yaku.RINSHAN,
    5: Yaku.HAITEI,
    6: Yaku.HOUTEI,
    7: Yaku.HAKU,
    8: Yaku.HATSU,
    9: Yaku.CHUN,
    12: Yaku.TANYAO,
    13: Yaku.IIPEIKOU,
    14: Yaku.PINFU,
    15: Yaku.CHANTA,
    16: Yaku.ITTSU,
    17: Yaku.SANSHOKU,
    18: Yaku.DOUBLE_RIICHI,
    19: Yaku.SANSHOKU_DOUKOU,
    20: Yaku.SANKANTSU,
    21: Yaku.TOITOI,
    22: Yaku.SANANKOU,
    23: Yaku.SHOUSANGEN,
    24: Yaku.HONROUTOU,
    25: Yaku.CHIITOITSU,
    26: Yaku.JUNCHAN,
    27: Yaku.HONITSU,
    28: Yaku.RYANPEIKOU,
    29: Yaku.CHINITSU,
    30: Yaku.IPPATSU,
    31: Yaku.DORA,
    32: Yaku.AKA_DORA,
    33: Yaku.URA_DORA,
    35: Yaku.TENHOU,
    36: Yaku.CHIIHOU,
    37: Yaku.DAISANGEN,
    38: Yaku.SUUANKOU,
    39: Yaku.TSUUIISOU,
    40: Yaku.RYUUIISOU,
    41: Yaku.CHINROUTOU,
    42: Yaku.KOKUSHI,
    43: Yaku.SHOUSUUSHII,
    44: Yaku.SUUKANTSU,
    45: Yaku.CHUUREN,
    47: Yaku.JUNSEI_CHUUREN,
    48: Yaku.SUUANKOU_TANKI,
    49: Yaku.KOKUSHI_13,
    50: Yaku.DAISUUSHII,
    59: Yaku.RENHOU,
}
SEAT_WIND_FAN = 10
ROUND_WIND_FAN = 11
KITA_FAN = 34

# RecordLiuJu ``type``: the abortive draws. 1 (nine terminals) is the only kind in
# the corpus (2 records); 2 is four winds by every reader of the format. Above 2 the
# readers disagree, so the reader tells four riichi from four kans by what the hand
# shows (four sticks accepted, four kans made) and uses this table only when the
# hand shows neither (liqi.proto leaves the field without an enum).
LIUJU_KINDS = {
    1: "kyuushu",
    2: "suufon-renda",
    3: "suukaikan",
    4: "suucha-riichi",
    5: "sanchahou",
}

# ``config.mode.mode``: the game length and the number of players (SOURCES.md).
MODE_NAMES: dict[int, tuple[int, str]] = {
    1: (4, "East"),
    2: (4, "South"),
    3: (4, "one hand"),
    4: (4, "one round"),
    11: (3, "East"),
    12: (3, "South"),
    13: (3, "one hand"),
    14: (3, "one round"),
}

# ``meta.mode_id`` of a ranked game -> its room (Mahjong Soul's ranked match ids;
# 12 = Jade South is the id of the corpus's ranked games).
RANKED_ROOMS: dict[int, tuple[str, int, str]] = {
    2: ("bronze", 4, "East"),
    3: ("bronze", 4, "South"),
    5: ("silver", 4, "East"),
    6: ("silver", 4, "South"),
    8: ("gold", 4, "East"),
    9: ("gold", 4, "South"),
    11: ("jade", 4, "East"),
    12: ("jade", 4, "South"),
    15: ("throne", 4, "East"),
    16: ("throne", 4, "South"),
    17: ("bronze", 3, "East"),
    18: ("bronze", 3, "South"),
    19: ("silver", 3, "East"),
    20: ("silver", 3, "South"),
    21: ("gold", 3, "East"),
    22: ("gold", 3, "South"),
    23: ("jade", 3, "East"),
    24: ("jade", 3, "South"),
    25: ("throne", 3, "East"),
    26: ("throne", 3, "South"),
}

# The middle digits of a rank id (``level.id`` 10403 = 4-player, Expert, 3 stars).
RANK_NAMES = {
    1: "Novice",
    2: "Adept",
    3: "Expert",
    4: "Master",
    5: "Saint",
    6: "Celestial",
    7: "Celestial",
}

# RecordNewRound-free action kinds of a GameDetailRecords ``actions`` entry.
ACTION_KINDS = {1: "record", 2: "user input", 3: "user event", 4: "game event"}


def rank_text(level_id: int) -> str | None:
    """``Master 3`` for 10403 (or 20403 in 3-player); None for an id of no rank."""
    tier, stars = divmod(level_id % 10000, 100)
    name = RANK_NAMES.get(tier)
    if name is None or level_id // 10000 not in (1, 2):
        return None
    return f"{name} {stars}" if stars else name
