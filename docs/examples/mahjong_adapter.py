"""Answer mjaudit's conformance cases with the ``mahjong`` library (docs/cases.md).

    python docs/examples/mahjong_adapter.py cases.jsonl > answers.jsonl
    mjaudit cases check cases.jsonl answers.jsonl

It reads each case (``mjaudit.cases/1``), scores it with
``mahjong.hand_calculating.hand.HandCalculator`` and writes one answer line. It uses
nothing of mjaudit: only the schema, as a scorer in another language would. What the
library has no option for (pao, a sanma ruleset without tsumo-son, ...) is left as
the library does it; docs/cases.md lists what then disagrees.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.yaku_config import YakuConfig
from mahjong.meld import Meld

# The library's yaku (by their YakuConfig attribute names) under the schema's names.
YAKU_NAMES = {
    "tsumo": "menzen_tsumo", "daburu_riichi": "double_riichi", "iipeiko": "iipeikou",
    "chantai": "chanta", "honroto": "honroutou", "sanshoku_douko": "sanshoku_doukou",
    "shosangen": "shousangen", "ryanpeiko": "ryanpeikou", "chuuren_poutou": "chuuren",
    "shosuushi": "shousuushii", "ryuisou": "ryuuiisou", "tsuisou": "tsuuiisou",
    "chinroto": "chinroutou", "daisuushi": "daisuushii", "daburu_kokushi": "kokushi_13",
    "daburu_chuuren_poutou": "junsei_chuuren", "renhou_yakuman": "renhou",
}  # fmt: skip
BONUS = {"dora": "dora", "aka_dora": "aka", "ura_dora": "ura"}
LIMITS = {
    "": "none", "mangan": "mangan", "kiriage mangan": "mangan", "haneman": "haneman",
    "baiman": "baiman", "sanbaiman": "sanbaiman", "kazoe sanbaiman": "sanbaiman",
    "kazoe yakuman": "yakuman",
}  # fmt: skip
MELD_TYPES = {
    "chi": (Meld.CHI, True), "pon": (Meld.PON, True), "daiminkan": (Meld.KAN, True),
    "kakan": (Meld.SHOUMINKAN, True), "ankan": (Meld.KAN, False),
}  # fmt: skip
SUITS = "mpsz"


class TileIds:
    """Gives each tile of a hand its own 136-format id: a red five copy 0 of its kind
    (the library's aka ids 16, 52 and 88), other tiles the next copy not yet given."""

    def __init__(self) -> None:
        self.given: set[int] = set()

    def take(self, digit: str, suit: str) -> int:
        n = int(digit)
        kind = SUITS.index(suit) * 9 + (4 if n == 0 else n - 1)
        if n == 0:
            self.given.add(kind * 4)
            return kind * 4
        for copy in (1, 2, 3, 0):
            tile_id = kind * 4 + copy
            if tile_id not in self.given:
                self.given.add(tile_id)
                return tile_id
        raise ValueError(f"a fifth {digit}{suit}")

    def many(self, mpsz: str) -> list[int]:
        out: list[int] = []
        digits = ""
        for ch in mpsz:
            if ch.isdigit():
                digits += ch
            else:
                out.extend(self.take(d, ch) for d in digits)
                digits = ""
        return out


# Each of the library's yaku classes by its YakuConfig attribute name.
YAKU_KEYS = {type(v): k for k, v in vars(YakuConfig()).items()}


def answer(case: dict[str, Any]) -> dict[str, Any]:
    """One case scored by the library, as an answer line."""
    rules, hand, s = case["rules"], case["hand"], case["situation"]
    players = rules["players"]
    ids = TileIds()
    concealed = ids.many(hand["concealed"])
    melds: list[Meld] = []
    every = list(concealed)
    for m in hand["melds"]:
        if m["kind"] == "kita":  # counted by situation.kita
            continue
        kind, opened = MELD_TYPES[m["kind"]]
        tiles = ids.many(m["tiles"])
        every.extend(tiles)
        melds.append(Meld(kind, tiles, opened, who=s["seat"], from_who=m.get("from_seat")))
    win = hand["win_tile"]
    red = win[0] == "0"
    kind = SUITS.index(win[1]) * 9 + (4 if red else int(win[0]) - 1)
    # The winning tile is one of the concealed tiles of its kind, red or not as it is.
    win_id = next(t for t in concealed if t // 4 == kind and (t % 4 == 0 and kind in (4, 13, 22)
                  and rules["aka"]) == red)  # fmt: skip
    indicators = TileIds()
    dora = [indicators.take(t[0], t[1]) for t in s["dora_indicators"]]
    ura = [indicators.take(t[0], t[1]) for t in s["ura_indicators"] or []]
    takes = s.get("takes_counters", True)
    options = OptionalRules(
        has_open_tanyao=rules["kuitan"],
        has_aka_dora=rules["aka"],
        has_double_yakuman=rules["double_yakuman_patterns"],
        kazoe_limit=HandConstants.KAZOE_LIMITED
        if rules["kazoe_yakuman"]
        else HandConstants.KAZOE_SANBAIMAN,
        kiriage=rules["kiriage"],
        renhou_as_yakuman=rules["renhou"] == "yakuman",
        is_three_player=players == 3,
    )
    config = HandConfig(
        is_tsumo=s["tsumo"],
        is_riichi=s["riichi"] and not s["double_riichi"],
        is_daburu_riichi=s["double_riichi"],
        is_ippatsu=s["ippatsu"],
        is_rinshan=s["rinshan"],
        is_chankan=s["chankan"],
        is_haitei=s["haitei"],
        is_houtei=s["houtei"],
        is_tenhou=s["tenhou"],
        is_chiihou=s["chiihou"],
        # The library scores renhou whenever it is asked (as a mangan, or a yakuman):
        # ask only where the rules have it.
        is_renhou=s["renhou"] and rules["renhou"] != "none",
        player_wind=EAST + "ESWN".index(s["seat_wind"]),
        round_wind=EAST + "ESWN".index(s["round_wind"]),
        kyoutaku_number=s["riichi_sticks"] if takes else 0,
        tsumi_number=s["honba"] if takes else 0,
        options=options,
        num_nuki_dora=s.get("kita", 0),
    )
    r = HandCalculator.estimate_hand_value(
        every, win_id, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if r.error:
        return {"id": case["id"], "error": str(r.error)}
    yaku: list[dict[str, Any]] = []
    counts = {"dora": 0, "aka": 0, "ura": 0}
    mult = 0
    for y in r.yaku or []:
        key = YAKU_KEYS[type(y)]
        han = y.han_closed if not r.is_open_hand else y.han_open
        if key in BONUS:
            counts[BONUS[key]] += han
        elif y.is_yakuman:
            mult += han // 13
            yaku.append({"name": YAKU_NAMES.get(key, key), "han": han, "yakuman": han // 13})
        else:
            yaku.append({"name": YAKU_NAMES.get(key, key), "han": han})
    cost = r.cost
    tsumo, dealer = s["tsumo"], s["seat_wind"] == "E"
    main, extra = cost["main"], cost["additional"]
    if not tsumo:
        points, payments = main, {"discarder": main}
    elif dealer:
        points, payments = main * (players - 1), {"non_dealer": main}
    else:
        points = main + extra * (players - 2)
        payments = {"dealer": main, "non_dealer": extra}
    level = cost["yaku_level"]
    result: dict[str, Any] = {
        "han": r.han,
        "fu": r.fu,
        "yaku": yaku,
        **counts,
        "yakuman": mult,
        "limit": "yakuman" if "yakuman" in level else LIMITS.get(level, level),
        "points": points,
        "payments": payments,
        "deltas": deltas(s, players, cost),
    }
    return {"id": case["id"], "result": result}


def deltas(s: dict[str, Any], players: int, cost: Any) -> list[int]:
    """Every seat's change, from the library's cost (it knows no liability, pao)."""
    out = [0, 0, 0, 0]
    winner = s["seat"]
    if not s["tsumo"]:
        paid = cost["main"] + cost["main_bonus"]
        out[s["from_seat"]] -= paid
    else:
        for seat in range(players):
            if seat == winner:
                continue
            if seat == s["dealer"]:
                out[seat] -= cost["main"] + cost["main_bonus"]
            else:
                out[seat] -= cost["additional"] + cost["additional_bonus"]
    out[winner] = -sum(out) + cost["kyoutaku_bonus"]
    return out


def lines(stream: Any) -> Iterator[dict[str, Any]]:
    for line in stream:
        if line.strip():
            yield json.loads(line)


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") if len(argv) > 1 else sys.stdin as stream:
        for case in lines(stream):
            sys.stdout.write(json.dumps(answer(case)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
