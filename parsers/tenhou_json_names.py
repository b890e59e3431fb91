"""Tenhou JSON written from Mahjong Soul games: the names its converters use.

The community converters (tensoul and its descendants) write tenhou.net/6 JSON
from a Mahjong Soul record. What differs from Tenhou's own JSON is the text:

- yaku: Mahjong Soul's own names for its fan ids (the game's ``fan`` table,
  ``name_jp`` or ``name_en``), always followed by ``(<n>飜)`` or ``(役満)``:
  ``役牌:場風牌(1飜)``, ``All Simples(1飜)``. The wind yaku say "seat wind" or
  "round wind" without the wind: which wind follows from the round and the seat.
  Kita is listed apart from dora (``抜きドラ`` / ``Kita``).
- score strings in English or romaji (``30Fu2Han2000点``, ``Mangan 2000-4000点``)
  and draw names in English or romaji (``Exhaustive Draw``, ``Ryuukyoku``).
- ``rule.disp``: a Mahjong Soul room (the game's ``matchmode`` room name) or
  友人戦 / 大会戦, then 東喰 / 南喰 and 赤 in Japanese (``玉の間南喰赤``), or
  `` East`` / `` South`` in English (``Jade Room South``); sanma may be prefixed
  三, 3 or ``3-Player ``.

Names only: what a name means for the rules is the analyzer's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from mjaudit.events import DrawReason, Limit, RulesHint
from mjaudit.yaku import Yaku

__all__ = [
    "KITA_NAMES",
    "MS_DRAW_NAMES",
    "MS_LIMIT_WORDS",
    "MS_YAKU_NAMES",
    "ROUND_WIND_NAMES",
    "SEAT_WIND_NAMES",
    "MsRoom",
    "mahjongsoul_hint",
    "mahjongsoul_keys",
    "mahjongsoul_room",
    "with_mahjongsoul",
]

# Mahjong Soul's fan table (fan ids 1..50 of the 4- and 3-player rules), Japanese
# names where they differ from Tenhou's, and every English name.
MS_YAKU_NAMES: dict[str, Yaku] = {
    # Japanese, where Mahjong Soul's name is not Tenhou's
    "ダブル立直": Yaku.DOUBLE_RIICHI,
    "国士無双十三面待ち": Yaku.KOKUSHI_13,
    "国士無双十三面": Yaku.KOKUSHI_13,
    # English
    "Fully Concealed Hand": Yaku.MENZEN_TSUMO,
    "Riichi": Yaku.RIICHI,
    "Ippatsu": Yaku.IPPATSU,
    "Robbing a Kan": Yaku.CHANKAN,
    "After a Kan": Yaku.RINSHAN,
    "Under the Sea": Yaku.HAITEI,
    "Under the River": Yaku.HOUTEI,
    "Pinfu": Yaku.PINFU,
    "All Simples": Yaku.TANYAO,
    "Pure Double Sequence": Yaku.IIPEIKOU,
    "White Dragon": Yaku.HAKU,
    "Green Dragon": Yaku.HATSU,
    "Red Dragon": Yaku.CHUN,
    "Double Riichi": Yaku.DOUBLE_RIICHI,
    "Seven Pairs": Yaku.CHIITOITSU,
    "Half Outside Hand": Yaku.CHANTA,
    "Pure Straight": Yaku.ITTSU,
    "Mixed Triple Sequence": Yaku.SANSHOKU,
    "Triple Triplets": Yaku.SANSHOKU_DOUKOU,
    "Three Quads": Yaku.SANKANTSU,
    "All Triplets": Yaku.TOITOI,
    "Three Concealed Triplets": Yaku.SANANKOU,
    "Little Three Dragons": Yaku.SHOUSANGEN,
    "All Terminals and Honors": Yaku.HONROUTOU,
    "Twice Pure Double Sequence": Yaku.RYANPEIKOU,
    "Fully Outside Hand": Yaku.JUNCHAN,
    "Half Flush": Yaku.HONITSU,
    "Full Flush": Yaku.CHINITSU,
    "Hand of Man": Yaku.RENHOU,
    "Blessing of Heaven": Yaku.TENHOU,
    "Blessing of Earth": Yaku.CHIIHOU,
    "Big Three Dragons": Yaku.DAISANGEN,
    "Four Concealed Triplets": Yaku.SUUANKOU,
    "Single-wait Four Concealed Triplets": Yaku.SUUANKOU_TANKI,
    "All Honors": Yaku.TSUUIISOU,
    "All Green": Yaku.RYUUIISOU,
    "All Terminals": Yaku.CHINROUTOU,
    "Nine Gates": Yaku.CHUUREN,
    "True Nine Gates": Yaku.JUNSEI_CHUUREN,
    "Thirteen Orphans": Yaku.KOKUSHI,
    "Thirteen-wait Thirteen Orphans": Yaku.KOKUSHI_13,
    "Four Big Winds": Yaku.DAISUUSHII,
    "Four Little Winds": Yaku.SHOUSUUSHII,
    "Four Quads": Yaku.SUUKANTSU,
    "Dora": Yaku.DORA,
    "Ura Dora": Yaku.URA_DORA,
    "Red Five": Yaku.AKA_DORA,
}
SEAT_WIND_NAMES = frozenset({"役牌:自風牌", "Seat Wind"})
ROUND_WIND_NAMES = frozenset({"役牌:場風牌", "Prevalent Wind"})
# Kita (nuki dora): Tenhou folds it into the dora count (tenhou-format.md §1.10),
# Mahjong Soul lists it apart; the reader folds it in as Tenhou does.
KITA_NAMES = frozenset({"抜きドラ", "Kita"})

# Score-string heads in English ("Mangan ") and romaji; the Japanese ones are
# Tenhou's. A rounded-up (kiriage) mangan is a mangan.
MS_LIMIT_WORDS: dict[str, Limit] = {
    "切り上げ満貫": Limit.MANGAN,
    "Mangan": Limit.MANGAN,
    "Kiriage Mangan": Limit.MANGAN,
    "Rounded Mangan": Limit.MANGAN,
    "Haneman": Limit.HANEMAN,
    "Baiman": Limit.BAIMAN,
    "Sanbaiman": Limit.SANBAIMAN,
    "Yakuman": Limit.YAKUMAN,
    "Kazoe Yakuman": Limit.YAKUMAN,
    "Counted Yakuman": Limit.YAKUMAN,
}

# Draw names in romaji and English, and the converters' Japanese spellings of
# four kans (四開槓) and triple ron (三家和) that Tenhou spells otherwise.
MS_DRAW_NAMES: dict[str, DrawReason] = {
    "Ryuukyoku": DrawReason.EXHAUSTIVE,
    "Exhaustive Draw": DrawReason.EXHAUSTIVE,
    "Nagashi Mangan": DrawReason.NAGASHI_MANGAN,
    "Mangan at Draw": DrawReason.NAGASHI_MANGAN,
    "四開槓": DrawReason.SUUKAIKAN,
    "Suukaikan": DrawReason.SUUKAIKAN,
    "Four Kan Abortion": DrawReason.SUUKAIKAN,
    "三家和": DrawReason.SANCHAHOU,
    "Sanchahou": DrawReason.SANCHAHOU,
    "Three Ron Abortion": DrawReason.SANCHAHOU,
    "Kyuushu Kyuuhai": DrawReason.KYUUSHU,
    "Nine Terminal Abortion": DrawReason.KYUUSHU,
    "Suufon Renda": DrawReason.SUUFON_RENDA,
    "Four Wind Abortion": DrawReason.SUUFON_RENDA,
    "Suucha Riichi": DrawReason.SUUCHA_RIICHI,
    "Four Riichi Abortion": DrawReason.SUUCHA_RIICHI,
}


# -- rooms ------------------------------------------------------------------------
# Mahjong Soul's matchmode rooms (Japanese and English names, the same for 3- and
# 4-player rooms) -> (room, category). Ranked rooms are Bronze to Throne; the
# Casual Match room plays the ranked rules without rank points.
_ROOMS: dict[str, tuple[str, str]] = {
    "銅の間": ("bronze", "ranked"),
    "銀の間": ("silver", "ranked"),
    "金の間": ("gold", "ranked"),
    "玉の間": ("jade", "ranked"),
    "王座の間": ("throne", "ranked"),
    "交流の間": ("casual", "casual"),
    "友人戦": ("friendly", "friendly"),
    "大会戦": ("tournament", "tournament"),
    "Bronze Room": ("bronze", "ranked"),
    "Silver Room": ("silver", "ranked"),
    "Gold Room": ("gold", "ranked"),
    "Jade Room": ("jade", "ranked"),
    "Throne Room": ("throne", "ranked"),
    "Casual Match": ("casual", "casual"),
    "Friendly": ("friendly", "friendly"),
    "Tournament": ("tournament", "tournament"),
    "Tounament": ("tournament", "tournament"),  # sic: a converter's romaji spelling
}
_ROOM_NAMES = {
    "bronze": "Bronze Room",
    "silver": "Silver Room",
    "gold": "Gold Room",
    "jade": "Jade Room",
    "throne": "Throne Room",
    "casual": "Casual Match",
    "friendly": "friendly room",
    "tournament": "tournament room",
}
_SANMA_PREFIXES = ("3-Player ", "三人", "三", "3")
# What may follow the room: 東喰 / 南喰 and 赤 (Japanese), " East" / " South" and
# the red-five words (English, romaji). Nothing else.
_JA_TAIL = re.compile(r"^(?P<wind>[東南])?(?P<kui>喰)?(?P<aka>赤)?$")
_EN_TAIL = re.compile(
    r"^(?: (?P<wind>East|South))?(?: (?P<aka>Red Fives|Red|No Red Fives|Aka Nashi))?$"
)


@dataclass(frozen=True, slots=True)
class MsRoom:
    """A ``rule.disp`` read as a Mahjong Soul room."""

    room: str
    category: str
    sanma: bool
    hanchan: bool | None
    kuitan: bool | None
    aka: bool | None


def mahjongsoul_room(disp: str) -> MsRoom | None:
    """``rule.disp`` as a Mahjong Soul room, or None when it names none."""
    text = disp.strip()
    sanma = False
    for prefix in _SANMA_PREFIXES:
        if text.startswith(prefix) and any(text[len(prefix) :].startswith(r) for r in _ROOMS):
            text, sanma = text[len(prefix) :], True
            break
    for name, (room, category) in _ROOMS.items():
        if not text.startswith(name):
            continue
        tail = text[len(name) :]
        ja = _JA_TAIL.match(tail) if not name.isascii() else None
        en = _EN_TAIL.match(tail) if ja is None else None
        found = ja or en
        if found is None:
            return None
        wind = found.group("wind")
        hanchan = None if wind is None else wind in ("南", "South")
        aka_word = found.group("aka")
        aka: bool | None = None
        if aka_word is not None:
            aka = aka_word in ("赤", "Red Fives", "Red")
        # Kuitan is on in every ranked room; the 喰 a converter writes for a friendly
        # or tournament room is its constant, not the room's setting.
        kuitan = True if category in ("ranked", "casual") else None
        return MsRoom(room, category, sanma, hanchan, kuitan, aka)
    return None


def mahjongsoul_hint(disp: str, aka: bool | None, players: int) -> RulesHint | None:
    """The rules hint of a ``rule.disp`` naming a Mahjong Soul room, else None.

    ``aka`` is what the file's ``rule.aka51..53`` say (None: not stated); it wins
    over the room's words, which converters write from the same setting.
    """
    found = mahjongsoul_room(disp)
    if found is None:
        return None
    if found.sanma:
        players = 3
    if aka is None:
        aka = found.aka
    if aka is None and found.category in ("ranked", "casual"):
        aka = True  # every ranked room plays with red fives
    length = {None: "", True: " South", False: " East"}[found.hanchan]
    what = f"{_ROOM_NAMES[found.room]}{length}"
    desc = f"{players}p Mahjong Soul {what} (converter JSON, rule.disp {disp!r})"
    return RulesHint(
        source="tenhou-json",
        players=players,
        aka=aka,
        kuitan=found.kuitan,
        hanchan=found.hanchan,
        room=found.room,
        special_lobby=False,
        description=desc,
        extras=(("disp", disp),),
        platform="mahjongsoul",
        category=found.category,
    )


def mahjongsoul_keys(hint: RulesHint) -> dict[str, Any]:
    """What a Mahjong Soul game's hint holds beyond a Tenhou ``rule.disp`` (the kind of
    room, the room, the length, open tanyao, the description, the mode and room ids,
    the stated rules), as mjaudit writes it in a converted game: Tenhou JSON's
    ``rule.mahjongsoul``, mjai's ``start_game.mahjongsoul``. Read back by
    :func:`with_mahjongsoul`, so the converted game is audited under its record's rules."""
    return {
        "category": hint.category,
        "room": hint.room,
        "hanchan": hint.hanchan,
        "kuitan": hint.kuitan,
        "description": hint.description,
        "extras": {k: v for k, v in hint.extras if k not in ("disp", "lobby")},
        "detail_rule": dict(hint.stated_rules),
    }


def with_mahjongsoul(hint: RulesHint, raw: dict[str, Any]) -> RulesHint:
    """``hint`` with what a converted game's Mahjong Soul keys add (mahjongsoul_keys);
    a value of the wrong type is left out."""

    def text(key: str) -> str | None:
        value = raw.get(key)
        return value if isinstance(value, str) and value else None

    def flag(key: str, default: bool | None) -> bool | None:
        value = raw.get(key)
        return value if isinstance(value, bool) else default

    def pairs(key: str) -> tuple[tuple[str, str], ...]:
        value = raw.get(key)
        if not isinstance(value, dict):
            return ()
        return tuple(sorted((str(k), str(v)) for k, v in value.items() if isinstance(v, str | int)))

    extras = dict(hint.extras)
    extras.update(pairs("extras"))
    return replace(
        hint,
        platform="mahjongsoul",
        category=text("category") or hint.category,
        room=text("room") or hint.room,
        hanchan=flag("hanchan", hint.hanchan),
        kuitan=flag("kuitan", hint.kuitan),
        special_lobby=False,
        description=text("description") or hint.description,
        extras=tuple(sorted(extras.items())),
        stated_rules=pairs("detail_rule") or hint.stated_rules,
    )
