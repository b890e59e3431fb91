"""Tenhou JSON: tiles, the result entry (和了 / 流局 ...) and its score and yaku strings.

Layout: ../shared/reference/tenhou-format.md §2.1 (tile numbers) and §2.3 (result).
The wire strings (和了, 満貫, 立直(1飜) ...) are decoded here and never leave parsers/.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mjaudit.events import DrawClaims, DrawReason, Limit, WinClaims
from mjaudit.tiles import Tile
from mjaudit.yaku import Yaku
from parsers.json_text import short
from parsers.tenhou_json_names import (
    KITA_NAMES,
    MS_DRAW_NAMES,
    MS_LIMIT_WORDS,
    MS_YAKU_NAMES,
    ROUND_WIND_NAMES,
    SEAT_WIND_NAMES,
)

__all__ = [
    "DRAW_NAMES",
    "LIMIT_NAMES",
    "YAKU_NAMES",
    "AkaFlags",
    "JsonFail",
    "WinEntry",
    "parse_result",
    "parse_score",
    "parse_yaku",
    "tile_of",
    "tile_table",
    "tiles_of",
    "whole_numbers",
]

AkaFlags = tuple[bool, bool, bool]
"""Whether the red five of man, pin, sou is in play (rule.aka51, aka52, aka53)."""


class JsonFail(Exception):
    """A problem inside one kyoku; the caller adds the file and the position."""


# Every tile number but the red fives, looked up rather than worked out: a game has a
# thousand of them.
_PLAIN_TILES: dict[int, Tile] = {
    **{10 * (k // 9 + 1) + k % 9 + 1: Tile(k) for k in range(27)},
    **{41 + k: Tile(27 + k) for k in range(7)},
}


def tile_of(code: object, aka: AkaFlags) -> Tile:
    """Tenhou JSON tile number -> Tile (§2.1: 11-19 m, 21-29 p, 31-39 s, 41-47 z, 51-53 red).

    In a game without a suit's red five, 51-53 are read as plain fives: the server
    converter writes 51-53 for ids 16/52/88 even in aka-off games (§2.1, a pitfall).
    """
    if type(code) is not int:
        raise JsonFail(f"{short(code)} is not a tile number")
    plain = _PLAIN_TILES.get(code)
    if plain is not None:
        return plain
    suit, rank = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= rank <= 9:
        return Tile((suit - 1) * 9 + rank - 1)
    if suit == 4 and 1 <= rank <= 7:
        return Tile(26 + rank)
    if suit == 5 and 1 <= rank <= 3:
        return Tile((rank - 1) * 9 + 4, aka[rank - 1])
    raise JsonFail(f"{code} is not a tile number (11-19, 21-29, 31-39, 41-47, 51-53)")


_TABLES: dict[AkaFlags, dict[int, Tile]] = {}


def tile_table(aka: AkaFlags) -> dict[int, Tile]:
    """Every tile number's Tile under ``aka`` (at most eight tables, one per setting)."""
    table = _TABLES.get(aka)
    if table is None:
        codes = [*_PLAIN_TILES, 51, 52, 53]
        table = _TABLES[aka] = {code: tile_of(code, aka) for code in codes}
    return table


def tiles_of(codes: list[object], aka: AkaFlags) -> tuple[Tile, ...]:
    """The tiles of a list of tile numbers (a hand, the indicators), by table."""
    table = tile_table(aka)
    try:
        return tuple([table[c] if type(c) is int else tile_of(c, aka) for c in codes])
    except KeyError:  # a number that is no tile: tile_of says so
        return tuple(tile_of(c, aka) for c in codes)


# -- yaku ---------------------------------------------------------------------------
# The Japanese names of tenhou-format.md §1.12, which the JSON uses verbatim.
YAKU_NAMES: dict[str, Yaku] = {
    "門前清自摸和": Yaku.MENZEN_TSUMO,
    "立直": Yaku.RIICHI,
    "一発": Yaku.IPPATSU,
    "槍槓": Yaku.CHANKAN,
    "嶺上開花": Yaku.RINSHAN,
    "海底摸月": Yaku.HAITEI,
    "河底撈魚": Yaku.HOUTEI,
    "平和": Yaku.PINFU,
    "断幺九": Yaku.TANYAO,
    "一盃口": Yaku.IIPEIKOU,
    "自風 東": Yaku.SEAT_WIND_EAST,
    "自風 南": Yaku.SEAT_WIND_SOUTH,
    "自風 西": Yaku.SEAT_WIND_WEST,
    "自風 北": Yaku.SEAT_WIND_NORTH,
    "場風 東": Yaku.ROUND_WIND_EAST,
    "場風 南": Yaku.ROUND_WIND_SOUTH,
    "場風 西": Yaku.ROUND_WIND_WEST,
    "場風 北": Yaku.ROUND_WIND_NORTH,
    "役牌 白": Yaku.HAKU,
    "役牌 發": Yaku.HATSU,
    "役牌 中": Yaku.CHUN,
    "両立直": Yaku.DOUBLE_RIICHI,
    "七対子": Yaku.CHIITOITSU,
    "混全帯幺九": Yaku.CHANTA,
    "一気通貫": Yaku.ITTSU,
    "三色同順": Yaku.SANSHOKU,
    "三色同刻": Yaku.SANSHOKU_DOUKOU,
    "三槓子": Yaku.SANKANTSU,
    "対々和": Yaku.TOITOI,
    "三暗刻": Yaku.SANANKOU,
    "小三元": Yaku.SHOUSANGEN,
    "混老頭": Yaku.HONROUTOU,
    "二盃口": Yaku.RYANPEIKOU,
    "純全帯幺九": Yaku.JUNCHAN,
    "混一色": Yaku.HONITSU,
    "清一色": Yaku.CHINITSU,
    "人和": Yaku.RENHOU,
    "天和": Yaku.TENHOU,
    "地和": Yaku.CHIIHOU,
    "大三元": Yaku.DAISANGEN,
    "四暗刻": Yaku.SUUANKOU,
    "四暗刻単騎": Yaku.SUUANKOU_TANKI,
    "字一色": Yaku.TSUUIISOU,
    "緑一色": Yaku.RYUUIISOU,
    "清老頭": Yaku.CHINROUTOU,
    "九蓮宝燈": Yaku.CHUUREN,
    "純正九蓮宝燈": Yaku.JUNSEI_CHUUREN,
    "国士無双": Yaku.KOKUSHI,
    "国士無双１３面": Yaku.KOKUSHI_13,
    "国士無双13面": Yaku.KOKUSHI_13,
    "大四喜": Yaku.DAISUUSHII,
    "小四喜": Yaku.SHOUSUUSHII,
    "四槓子": Yaku.SUUKANTSU,
    "ドラ": Yaku.DORA,
    "裏ドラ": Yaku.URA_DORA,
    "赤ドラ": Yaku.AKA_DORA,
    # Sanma kita: the XML folds nuki dora into the dora count (§1.10), so do we.
    "抜きドラ": Yaku.DORA,
}
# Numbers are ASCII digits, a few of them: int() would take other scripts' digits and
# fail on thousands of them.
_YAKU_RE = re.compile(r"^(.+?)\((?:([0-9]{1,3})飜|(役満|ダブル役満))\)$")


_WINDS = "東南西北"


def parse_yaku(text: object, winds: tuple[int, int] | None = None) -> tuple[Yaku, int | None]:
    """``"立直(1飜)"`` -> (RIICHI, 1); ``"大三元(役満)"`` -> (DAISANGEN, None).

    Tenhou's names and Mahjong Soul converters' (Japanese or English, see
    :mod:`parsers.tenhou_json_names`). ``winds`` = (round wind, seat wind), 0..3 for
    E..N, names the wind of Mahjong Soul's ``役牌:場風牌`` / ``役牌:自風牌``; a kita
    entry (``抜きドラ``) reads as dora, which is how Tenhou counts it.
    """
    if not isinstance(text, str):
        raise JsonFail(f"yaku {short(text)} is not a string")
    m = _YAKU_RE.match(text.strip())
    if m is None:
        raise JsonFail(f"yaku {short(text)} is not '<name>(<n>飜)' or '<name>(役満)'")
    name = m.group(1).strip()
    han = int(m.group(2)) if m.group(2) is not None else None
    # (Not ``or``: MENZEN_TSUMO is 0, a false value.)
    yaku = YAKU_NAMES.get(name, MS_YAKU_NAMES.get(name))
    if yaku is None and name in KITA_NAMES:
        yaku = Yaku.DORA
    if yaku is None and winds is not None:
        if name in ROUND_WIND_NAMES:
            yaku = YAKU_NAMES[f"場風 {_WINDS[winds[0]]}"]
        elif name in SEAT_WIND_NAMES:
            yaku = YAKU_NAMES[f"自風 {_WINDS[winds[1]]}"]
    if yaku is None:
        raise JsonFail(f"unknown yaku name {short(name)} in {short(text)}")
    return yaku, han


# -- score strings --------------------------------------------------------------------
_LIMITS = {
    "満貫": Limit.MANGAN,
    "跳満": Limit.HANEMAN,
    "倍満": Limit.BAIMAN,
    "三倍満": Limit.SANBAIMAN,
    "役満": Limit.YAKUMAN,
    "数え役満": Limit.YAKUMAN,
}
LIMIT_NAMES = {
    Limit.MANGAN: "満貫",
    Limit.HANEMAN: "跳満",
    Limit.BAIMAN: "倍満",
    Limit.SANBAIMAN: "三倍満",
    Limit.YAKUMAN: "役満",
}
"""Limit -> the text the writer puts in a score string."""
_LIMITS.update(MS_LIMIT_WORDS)
# Fu and han as Tenhou writes them (符, 飜) or as English converters do (Fu, Han);
# the limit words of both, longest first so 三倍満 is not read as its tail.
_LIMIT_RE = "|".join(re.escape(w) for w in sorted(_LIMITS, key=len, reverse=True))
# A limit word may follow the fu and han: tensoul's SHOWFU ("always show fu/han for
# scoring - even for limit hands") writes 40符5飜満貫8000点.
_SCORE_RE = re.compile(
    r"^(?:(?P<fu>[0-9]{1,4})(?:符|Fu) ?(?P<han>[0-9]{1,4})(?:飜|Han) ?)?"
    rf"(?:(?P<limit>{_LIMIT_RE}) ?)?"
    r"(?P<a>[0-9]{1,9})(?:-(?P<b>[0-9]{1,9}))?(?:点|Points)(?P<all>∀)?$"
)


@dataclass(frozen=True, slots=True)
class Score:
    fu: int | None
    han: int | None
    limit: Limit
    points: int


def parse_score(text: object, tsumo: bool, players: int) -> Score:
    """The score string of one win (§2.3) -> fu, han, limit and the hand's value.

    ``points`` is the hand's value without honba and sticks: the ron payment, or the
    sum of the tsumo payments (``∀`` = each of the others pays the number;
    ``a-b`` = each non-dealer pays a and the dealer pays b).
    """
    if not isinstance(text, str):
        raise JsonFail(f"score {short(text)} is not a string")
    m = _SCORE_RE.match(text.strip())
    if m is None or (m.group("fu") is None and m.group("limit") is None):
        raise JsonFail(
            f"score string {short(text)} is not like '30符4飜7700点' or '満貫2000-4000点'"
        )
    a = int(m.group("a"))
    b = m.group("b")
    if b is not None:
        if not tsumo:
            raise JsonFail(f"score {short(text)} has two payments but the win is a ron")
        points = a * (players - 2) + int(b)
    elif m.group("all"):
        if not tsumo:
            raise JsonFail(f"score {short(text)} is paid by all (∀) but the win is a ron")
        points = a * (players - 1)
    else:
        if tsumo:
            raise JsonFail(f"score {short(text)} is a single payment but the win is a tsumo")
        points = a
    if m.group("limit"):
        # The fu and han a limit word follows are no claim, as where they are left out.
        return Score(None, None, _LIMITS[m.group("limit")], points)
    return Score(int(m.group("fu")), int(m.group("han")), Limit.NONE, points)


# -- the result entry -----------------------------------------------------------------
_DRAWS = {
    "流局": DrawReason.EXHAUSTIVE,
    "全員聴牌": DrawReason.EXHAUSTIVE,
    "全員不聴": DrawReason.EXHAUSTIVE,
    "流し満貫": DrawReason.NAGASHI_MANGAN,
    "九種九牌": DrawReason.KYUUSHU,
    "四家立直": DrawReason.SUUCHA_RIICHI,
    "三家和了": DrawReason.SANCHAHOU,
    "四槓散了": DrawReason.SUUKAIKAN,
    "四風連打": DrawReason.SUUFON_RENDA,
    **MS_DRAW_NAMES,
}


DRAW_NAMES = {
    DrawReason.EXHAUSTIVE: "流局",
    DrawReason.NAGASHI_MANGAN: "流し満貫",
    DrawReason.KYUUSHU: "九種九牌",
    DrawReason.SUUCHA_RIICHI: "四家立直",
    DrawReason.SANCHAHOU: "三家和了",
    DrawReason.SUUKAIKAN: "四槓散了",
    DrawReason.SUUFON_RENDA: "四風連打",
}
"""DrawReason -> the result kind the writer uses (an exhaustive draw may also be
全員聴牌 / 全員不聴)."""


@dataclass(frozen=True, slots=True)
class WinEntry:
    """One winner of a 和了 result; ``claims`` lack the ura list (set by the round)."""

    seat: int
    from_seat: int
    claims: WinClaims


def whole_numbers(raw: object, count: int) -> tuple[int, ...] | None:
    """``raw`` as ``count`` integers, or None. JSON has one kind of number (RFC 8259
    §6): ``16000.0`` is 16000, as Tenhou's viewer reads it, and a converter written in
    Python writes a computed payment so (a pao ron's ``0.5 * 32000``). A fraction, a
    bool or a string is no integer."""
    if not isinstance(raw, list) or len(raw) != count:
        return None
    out = []
    for x in raw:
        if type(x) is int:
            out.append(x)
        elif type(x) is float and x.is_integer():
            out.append(int(x))
        else:
            return None
    return tuple(out)


def _deltas(raw: object, what: str) -> tuple[int, ...]:
    deltas = whole_numbers(raw, 4)
    if deltas is None:
        raise JsonFail(f"{what} must be 4 integers, got {short(raw)}")
    return deltas


def _seat(raw: object, what: str, players: int) -> int:
    if type(raw) is not int or not 0 <= raw < players:
        raise JsonFail(f"{what} {short(raw)} is not a seat 0..{players - 1}")
    return raw


def _win(
    deltas: tuple[int, ...], info: object, players: int, k: int, winds: tuple[int, int] | None
) -> WinEntry:
    if not isinstance(info, list) or len(info) < 4:
        raise JsonFail(f"win #{k} info must be [who, fromWho, paoWho, score, yaku...]")
    who = _seat(info[0], f"win #{k} who", players)
    from_who = _seat(info[1], f"win #{k} fromWho", players)
    pao = _seat(info[2], f"win #{k} paoWho", players)
    score = parse_score(info[3], who == from_who, players)
    yaku: list[tuple[Yaku, int]] = []
    yakuman: list[Yaku] = []
    seat_winds = None if winds is None else (winds[0], (who - winds[1]) % players)
    for text in info[4:]:
        y, han = parse_yaku(text, seat_winds)
        if han is None:
            yakuman.append(y)
        else:
            yaku.append((y, han))
    dora = [h for y, h in yaku if y is Yaku.DORA]
    if len(dora) > 1:
        # Mahjong Soul lists kita (抜きドラ) apart from dora; Tenhou's logs fold it into
        # one dora entry (tenhou-format.md §1.10), and so does the recomputation.
        yaku = [(y, h) for y, h in yaku if y is not Yaku.DORA] + [(Yaku.DORA, sum(dora))]
    if not yaku and not yakuman:
        raise JsonFail(f"win #{k} lists no yaku")
    riichi = any(y in (Yaku.RIICHI, Yaku.DOUBLE_RIICHI) for y, _ in yaku)
    if riichi and all(y is not Yaku.URA_DORA for y, _ in yaku):
        # The JSON drops ura dora worth 0 han; the mjlog lists it as ``53,0`` for
        # every riichi winner (§1.10, §2.3). Restore it so both formats claim alike.
        yaku.append((Yaku.URA_DORA, 0))
    listed = sum(h for _, h in yaku) if yaku and not yakuman else None
    claims = WinClaims(
        # The score string's han where it gives one (30符2飜...): the log's own total,
        # compared apart from the yaku it lists.
        han=score.han if score.han is not None and listed is not None else listed,
        fu=score.fu,
        points=score.points,
        limit=score.limit,
        yaku=tuple(yaku) if yaku and not yakuman else None,
        yakuman=tuple(yakuman) if yakuman else None,
        deltas=deltas,
        pao_seat=pao if pao != who else None,
    )
    return WinEntry(who, from_who, claims)


def parse_result(
    result: object,
    players: int,
    winds: tuple[int, int] | None = None,
    silent_draw_all_tenpai: bool = False,
) -> tuple[list[WinEntry], DrawReason | None, DrawClaims | None]:
    """Entry 16 of a kyoku -> the winners, or the draw reason with its claims.

    Deltas are transcribed as written: they exclude this hand's riichi deposits
    (§2.3), which is exactly what the mjlog ``sc`` deltas hold too (there the
    deposits are already in the "before" half), so ``start - 1000 x accepted
    riichi + deltas`` gives the next hand's scores in both formats. Omitted
    deltas (全員聴牌, 九種九牌 ...) mean no payment: they become zeros.
    For an exhaustive draw the tenpai seats are read off the deltas (a tenpai
    seat receives, a noten seat pays; 全員聴牌 / 全員不聴 say it outright);
    for nagashi mangan the JSON does not say who was tenpai (``None``).
    ``winds`` = (round wind 0..3, dealer seat) names the winds of Mahjong Soul's
    wind yaku (``役牌:場風牌``), which leave them out.
    ``silent_draw_all_tenpai``: a ``流局`` with no payment (deltas left out or all
    0) is every seat tenpai, not nobody. Tenhou's converters write 全員聴牌 only
    where all four seats show a hand and 全員不聴 where none does (§2.3; mjlog2json's
    TenpaiEverybody / TenpaiNobody), and leave out deltas that are all 0: in
    three-player play, whose fourth seat never shows one, all three tenpai is
    ``["流局"]``. The caller says where that reading holds.
    """
    if not isinstance(result, list) or not result or not isinstance(result[0], str):
        raise JsonFail(f"result must be a list starting with its kind, got {short(result)}"[:200])
    kind = result[0]
    if kind == "和了":
        if len(result) < 3 or len(result) % 2 == 0:
            raise JsonFail("和了 result must be followed by (deltas, info) pairs")
        wins = [
            _win(
                _deltas(result[i], f"win #{i // 2 + 1} deltas"),
                result[i + 1],
                players,
                i // 2 + 1,
                winds,
            )
            for i in range(1, len(result), 2)
        ]
        return wins, None, None
    reason = _DRAWS.get(kind) if isinstance(kind, str) else None
    if reason is None:
        raise JsonFail(f"unknown result kind {short(kind)}")
    if len(result) > 2:
        raise JsonFail(
            f"{kind} result has {len(result) - 1} entries after its kind, expected 0 or 1"
        )
    deltas = _deltas(result[1], f"{kind} deltas") if len(result) == 2 else (0, 0, 0, 0)
    tenpai: tuple[int, ...] | None = None
    if kind == "全員聴牌":
        tenpai = tuple(range(players))
    elif kind == "全員不聴":
        tenpai = ()
    elif kind == "流局" and silent_draw_all_tenpai and not any(deltas):
        tenpai = tuple(range(players))
    elif reason is DrawReason.EXHAUSTIVE:  # 流局 and its English names
        tenpai = tuple(s for s in range(players) if deltas[s] > 0)
    return [], reason, DrawClaims(tenpai=tenpai, deltas=deltas)
