"""Format-neutral events -> Tenhou JSON (tenhou.net/6, the inverse of ``parse_tenhou_json``).

Layout: ../shared/reference/tenhou-format.md §2. The output is one whole game in
the server converter's shape (``ref``, ``log``, ``rule``, ``name`` and, when the
events know them, ``dan``/``rate``/``sx``, ``sc`` and ``connection``). Final scores
without result points (an mjai source) go in mjaudit's own ``final_scores``, as
``sc`` holds both.

Each kyoku is the 17-entry array: per seat the tiles taken in (draws and call
strings, the marker letter placed by the source seat) and the tiles sent out
(``60`` for tsumogiri, ``r`` for the riichi discard, ankan/kakan/kita strings,
the ``0`` after a daiminkan), the dora list (the first indicator and every kan
indicator in the order turned) and one ura list. The parser rebuilds the order of
play and the kan dora times from these.

The result needs what Tenhou writes: per winner the deltas, the score string and
the yaku strings. A score string is written from the claimed limit, or, when the
source has no limit band (mjai), from the claimed han and fu by Tenhou's bands (a
hand under 5 han with no fu either is a mangan where its claimed points are one);
the split of a non-dealer tsumo (``a-b``) comes from the hand's base points and is
checked against the claimed points. A win whose source records no yaku or no
deltas (libriichi, akochan) cannot be written: ``ValueError`` names it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, assert_never

from mjaudit.events import (
    DeclareMeld,
    Discard,
    DoraReveal,
    DrawReason,
    DrawTile,
    Event,
    GameEnd,
    GameLog,
    GameStart,
    Limit,
    Presence,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    RulesHint,
    Win,
)
from mjaudit.melds import MeldKind
from mjaudit.tiles import Tile
from mjaudit.yaku import Yaku
from parsers.tenhou_json import DAN_TEXTS
from parsers.tenhou_json_names import mahjongsoul_keys
from parsers.tenhou_json_result import DRAW_NAMES, LIMIT_NAMES, YAKU_NAMES

__all__ = ["json_tile", "write_tenhou_json"]

_YAKU_TEXT = {y: name for name, y in YAKU_NAMES.items() if name not in ("抜きドラ", "国士無双13面")}
_ROOM_CHARS = {"ippan": "般", "joukyuu": "上", "tokujou": "特", "houou": "鳳"}
# Mahjong Soul's ranked rooms by their Japanese names, as its converters write them.
_MS_ROOMS = {
    "bronze": "銅の間",
    "silver": "銀の間",
    "gold": "金の間",
    "jade": "玉の間",
    "throne": "王座の間",
}
_LIMIT_BASE = {
    Limit.MANGAN: 2000,
    Limit.HANEMAN: 3000,
    Limit.BAIMAN: 4000,
    Limit.SANBAIMAN: 6000,
    Limit.YAKUMAN: 8000,
}
# The marker's position in a call string by the source seat relative to the caller
# (3 = kamicha, 2 = toimen, 1 = shimocha), tenhou-format.md §2.2.
_PON_AT = {3: 0, 2: 1, 1: 2}
_KAN_AT = {3: 0, 2: 1, 1: 3}


def json_tile(tile: Tile) -> int:
    """``Tile('3p')`` -> 23, ``Tile('0s')`` -> 53, ``Tile('7z')`` -> 47 (§2.1)."""
    if tile.red:
        return 51 + tile.kind // 9
    if tile.kind >= 27:
        return 41 + tile.kind - 27
    suit, rank = divmod(tile.kind, 9)
    return (suit + 1) * 10 + rank + 1


def _sort_key(tile: Tile) -> tuple[int, int]:
    return tile.kind, tile.red  # a plain five before the red one, as Tenhou sorts


def _codes(group: Sequence[Tile]) -> list[int]:
    return [json_tile(t) for t in sorted(group, key=_sort_key)]


def _string(codes: Sequence[int | str]) -> str:
    return "".join(str(c) for c in codes)


def _ceil100(x: float) -> int:
    return -(-int(x) // 100) * 100


def disp_of(hint: RulesHint) -> str:
    """``rule.disp`` for a rules hint: kept from a JSON source, built for an mjlog or a
    Mahjong Soul record."""
    kept = dict(hint.extras).get("disp")
    if kept is not None:
        return kept
    if hint.platform == "mahjongsoul":
        return _mahjongsoul_disp(hint)
    if not hint.source.startswith("tenhou") or hint.hanchan is None:
        return ""  # not a Tenhou room: the parser reads no rules from it
    return (
        ("三" if hint.players == 3 else "")
        + _ROOM_CHARS.get(hint.room or "ippan", "般")
        + ("南" if hint.hanchan else "東")
        + ("喰" if hint.kuitan is not False else "")
        + ("赤" if hint.aka is not False else "")
        + ("速" if hint.fast else "")
    )


def _mahjongsoul_disp(hint: RulesHint) -> str:
    """A Mahjong Soul room as the converters name it: ``玉の間南喰赤`` (ranked Jade South),
    ``三金の間東喰赤`` (3-player Gold East). A friendly room, and a game against the AI
    (played in one), is ``友人戦``, a tournament room ``大会戦``; a game whose room the
    record does not name writes none (the parser then reads no rules from it)."""
    if hint.category == "ranked" and hint.room in _MS_ROOMS:
        room = _MS_ROOMS[hint.room]
    elif hint.category in ("friendly", "ai"):
        room = "友人戦"
    elif hint.category == "tournament":
        room = "大会戦"
    else:
        return ""
    return (
        ("三" if hint.players == 3 else "")
        + room
        + {True: "南", False: "東", None: ""}[hint.hanchan]
        + ("喰" if hint.kuitan is not False else "")
        + ("赤" if hint.aka is not False else "")
    )


class _Kyoku:
    """One hand being collected: what each seat took in and sent out."""

    def __init__(self, ev: RoundStart, players: int) -> None:
        self.start = ev
        self.players = players
        self.dora = [json_tile(ev.dora_indicator)]
        self.ura: tuple[Tile, ...] = ()
        self.takes: list[list[int | str]] = [[] for _ in range(4)]
        self.outs: list[list[int | str]] = [[] for _ in range(4)]
        self.riichi_next: set[int] = set()
        self.steps = 0
        self.result: list[Any] = []
        self.pons: dict[tuple[int, int], int] = {}  # (seat, kind) -> relative source

    def array(self) -> list[Any]:
        ev = self.start
        out: list[Any] = [
            [ev.round_index, ev.honba, ev.riichi_sticks],
            list(ev.scores) + [0] * (4 - len(ev.scores)),
            self.dora,
            [json_tile(t) for t in self.ura],
        ]
        for s in range(4):
            if s >= self.players:
                out += [[], [], []]
                continue
            out += [_codes(ev.hands[s]), self.takes[s], self.outs[s]]
        if not self.result:
            raise ValueError(f"{ev.pos}: the hand {ev.label} has no result (a cut log)")
        return [*out, self.result]

    def discard(self, ev: Discard) -> None:
        # 60 says "the tile just drawn": never after a call, whatever the source says.
        drew = bool(self.takes[ev.seat]) and isinstance(self.takes[ev.seat][-1], int)
        code: int | str = 60 if ev.tsumogiri and drew else json_tile(ev.tile)
        if ev.seat in self.riichi_next:
            self.riichi_next.discard(ev.seat)
            code = f"r{code}"
        self.outs[ev.seat].append(code)

    def meld(self, ev: DeclareMeld) -> None:
        m, seat = ev.meld, ev.seat
        kind = m.kind
        if kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN):
            if m.called is None or m.from_seat is None:
                raise ValueError(f"{ev.pos}: {m} has no called tile or source seat")
            rel = (m.from_seat - seat) % 4
            own = list(m.tiles)
            own.remove(m.called)
            codes: list[int | str] = list(_codes(own))
            letter = {MeldKind.CHI: "c", MeldKind.PON: "p", MeldKind.DAIMINKAN: "m"}[kind]
            if (kind is MeldKind.CHI and rel != 3) or rel == 0:
                raise ValueError(f"{ev.pos}: {m} from seat {m.from_seat} has no call string")
            at = 0 if kind is MeldKind.CHI else (_PON_AT if kind is MeldKind.PON else _KAN_AT)[rel]
            codes[at:at] = [letter, json_tile(m.called)]
            self.takes[seat].append(_string(codes))
            if kind is MeldKind.PON:
                self.pons[(seat, m.kind34)] = rel
            if kind is MeldKind.DAIMINKAN:
                self.outs[seat].append(0)  # the kan takes a turn with no discard
        elif kind is MeldKind.KAKAN:
            if m.added is None:
                raise ValueError(f"{ev.pos}: {m} has no added tile")
            known = self.pons.get((seat, m.kind34))
            if known is None and m.from_seat is not None:
                known = (m.from_seat - seat) % 4
            if known is None or known not in _PON_AT:
                raise ValueError(f"{ev.pos}: {m} adds to a pon the hand does not show")
            rel = known
            pon = list(m.tiles)
            pon.remove(m.added)
            codes = list(_codes(pon))
            codes[_PON_AT[rel] : _PON_AT[rel]] = ["k", json_tile(m.added)]
            self.outs[seat].append(_string(codes))
        elif kind is MeldKind.ANKAN:
            codes = list(_codes(m.tiles))
            codes.insert(3, "a")  # the red five, if any, is last (§2.2)
            self.outs[seat].append(_string(codes))
        elif kind is MeldKind.KITA:
            self.outs[seat].append(f"f{json_tile(m.tiles[0])}")
        else:
            assert_never(kind)

    def win(self, ev: Win, players: int) -> None:
        c = ev.claims
        if c.deltas is None:
            raise ValueError(f"{ev.pos}: the win of seat {ev.seat} records no deltas")
        if c.yaku_unread is not None:
            raise ValueError(
                f"{ev.pos}: the win of seat {ev.seat} lists {c.yaku_unread}, which cannot "
                "be read (Tenhou JSON lists the yaku)"
            )
        if c.yaku is None and c.yakuman is None:
            raise ValueError(
                f"{ev.pos}: the win of seat {ev.seat} records no yaku (Tenhou JSON lists them)"
            )
        if c.ura_indicators and len(c.ura_indicators) > len(self.ura):
            self.ura = c.ura_indicators
        if not self.result:
            self.result = ["和了"]
        info: list[Any] = [ev.seat, ev.from_seat, ev.seat if c.pao_seat is None else c.pao_seat]
        info.append(_score_text(ev, self.start.dealer, players))
        if c.yakuman is not None:
            info += [f"{_yaku_text(y, ev)}(役満)" for y in c.yakuman]
        else:
            assert c.yaku is not None
            # Tenhou leaves out ura dora worth 0 han (§2.3).
            info += [f"{_yaku_text(y, ev)}({han}飜)" for y, han in c.yaku if han]
        self.result += [list(c.deltas[:4]), info]

    def draw(self, ev: RoundDraw, players: int) -> None:
        c = ev.claims
        if ev.reason is DrawReason.PENALTY:
            raise ValueError(
                f"{ev.pos}: the hand ends in a server's penalty (mjai.app's error draw), "
                "which Tenhou JSON has no result for"
            )
        deltas = list(c.deltas[:4]) if c.deltas is not None else [0, 0, 0, 0]
        name = DRAW_NAMES[ev.reason]
        if ev.reason is DrawReason.EXHAUSTIVE:
            if c.tenpai is not None and len(c.tenpai) == players:
                name = "全員聴牌"
            elif c.tenpai is not None and not c.tenpai:
                name = "全員不聴"
        self.result = [name, deltas] if any(deltas) or name in ("流局", "流し満貫") else [name]


def _yaku_text(yaku: Yaku, ev: Win) -> str:
    text = _YAKU_TEXT.get(yaku)
    if text is None:
        raise ValueError(f"{ev.pos}: yaku {yaku.name} has no Tenhou name")
    return text


def _limit(ev: Win) -> Limit:
    """The claimed limit band, or Tenhou's band for the claimed han and fu."""
    c = ev.claims
    if c.limit is not None:
        return c.limit
    if c.yakuman is not None:
        return Limit.YAKUMAN
    han, fu = c.han, c.fu
    if han is None:
        raise ValueError(f"{ev.pos}: the win of seat {ev.seat} records no han")
    for least, band in ((13, Limit.YAKUMAN), (11, Limit.SANBAIMAN), (8, Limit.BAIMAN)):
        if han >= least:
            return band
    if han >= 6:
        return Limit.HANEMAN
    if han >= 5 or (fu is not None and fu * 2 ** (han + 2) >= 2000):
        return Limit.MANGAN
    return Limit.NONE


def _score_text(ev: Win, dealer: int, players: int) -> str:
    c = ev.claims
    limit = _limit(ev)
    mangan = _payments(2000, ev.tsumo, ev.seat == dealer, players)[1]
    if limit is Limit.NONE and c.fu is None and c.han is not None and c.points == mangan:
        # No fu and no band (a limit hand of Tenhou JSON, which has no fu for it,
        # read back from mjai, which has no band): a mangan by its claimed points.
        limit = Limit.MANGAN
    if limit is Limit.NONE:
        if c.fu is None or c.han is None:
            raise ValueError(f"{ev.pos}: the win of seat {ev.seat} records no fu or han")
        if not 0 <= c.han < 5:  # 2 ** (han + 2) of a claim of 10**12 han never ends
            raise ValueError(
                f"{ev.pos}: the win of seat {ev.seat} claims {c.han} han with no limit; "
                "Tenhou's table has 1 to 4"
            )
        base = c.fu * 2 ** (c.han + 2)
        head = f"{c.fu}符{c.han}飜"
    else:
        base = _LIMIT_BASE[limit]
        if limit is Limit.YAKUMAN and c.yakuman is not None:
            # As many yakuman as the win is worth: a double pattern (suuankou tanki,
            # where the rules score it double) counts two; the claimed points say it,
            # else one a yakuman listed.
            one = _payments(base, ev.tsumo, ev.seat == dealer, players)[1]
            times = len(c.yakuman)
            if c.points is not None and c.points > 0 and c.points % one == 0:
                times = c.points // one
            base *= times
        head = LIMIT_NAMES[limit]
    pay, total = _payments(base, ev.tsumo, ev.seat == dealer, players)
    if c.points is not None and c.points != total and limit is Limit.NONE:
        # Rounded up to mangan (kiriage, some special lobbies): the text keeps the
        # fu and han and the payments say mangan.
        pay, total = _payments(2000, ev.tsumo, ev.seat == dealer, players)
    if c.points is not None and c.points != total:
        raise ValueError(
            f"{ev.pos}: the win of seat {ev.seat} claims {c.points} points, but "
            f"{head} is worth {total} on Tenhou's table"
        )
    return head + pay


def _payments(base: int, tsumo: bool, dealer: bool, players: int) -> tuple[str, int]:
    """The payment part of a score string, and what it adds up to."""
    if tsumo and dealer:
        each = _ceil100(2 * base)
        return f"{each}点∀", each * (players - 1)
    if tsumo:
        a, b = _ceil100(base), _ceil100(2 * base)
        return f"{a}-{b}点", a * (players - 2) + b
    total = _ceil100(base * (6 if dealer else 4))
    return f"{total}点", total


class _Writer:
    def __init__(self, log: GameLog) -> None:
        self.log = log
        self.players = log.players
        self.kyoku: list[_Kyoku] = []
        self.connections: list[dict[str, int]] = []
        self.doc: dict[str, Any] = {}

    def start(self, ev: GameStart) -> None:
        hint = ev.rules_hint
        self.doc["ver"] = 2.3
        self.doc["ref"] = ev.game_id
        rule: dict[str, Any] = {"disp": disp_of(hint)}
        red = 0 if hint.aka is False else 1
        rule.update({"aka53": red, "aka52": red, "aka51": red})
        if hint.platform == "mahjongsoul":
            # What rule.disp cannot say (the mode, a friendly room's stated rules), so
            # that the converted game is audited under the same rules as its record.
            rule["mahjongsoul"] = mahjongsoul_keys(hint)
        self.doc["rule"] = rule
        lobby = dict(hint.extras).get("lobby", "")
        if lobby.isdigit():
            # The mjlog's GO lobby (the server converter writes it as a number): with
            # ``ref`` (the log id, which dates the game) it settles the game-end rules.
            self.doc["lobby"] = int(lobby)
        players = ev.players
        if any(p.dan is not None for p in players):
            self.doc["dan"] = [DAN_TEXTS.get(p.dan or "", p.dan or "") for p in players]
        if any(p.rate is not None for p in players):
            self.doc["rate"] = [p.rate or 0 for p in players]
        if any(p.sex is not None for p in players):
            self.doc["sx"] = [p.sex or "" for p in players]
        self.doc["name"] = [p.name for p in players] + [""] * (4 - len(players))

    def add(self, ev: Event) -> None:
        k = self.kyoku[-1] if self.kyoku else None
        if k is not None and not isinstance(ev, RoundStart | GameStart | Presence | GameEnd):
            k.steps += 1
        match ev:
            case GameStart():
                self.start(ev)
            case RoundStart():
                if ev.dealer != ev.round_index % 4:
                    # The JSON has no dealer field: seat 0 deals the first hand (§2.2).
                    raise ValueError(
                        f"{ev.pos}: seat {ev.dealer} deals {ev.label}, but Tenhou JSON "
                        f"numbers the seats from the first dealer"
                    )
                self.kyoku.append(_Kyoku(ev, self.players))
            case DrawTile():
                k = self.need(k, ev)
                if not any(k.takes) and ev.seat != k.start.dealer:
                    # The JSON keeps no order of play; the parser starts it at the dealer.
                    raise ValueError(
                        f"{ev.pos}: seat {ev.seat} draws first in {k.start.label}, which seat "
                        f"{k.start.dealer} deals: Tenhou JSON cannot record that order"
                    )
                k.takes[ev.seat].append(json_tile(ev.tile))
            case Discard():
                self.need(k, ev).discard(ev)
            case DeclareMeld():
                self.need(k, ev).meld(ev)
            case DoraReveal():
                self.need(k, ev).dora.append(json_tile(ev.indicator))
            case RiichiDeclared():
                self.need(k, ev).riichi_next.add(ev.seat)
            case RiichiAccepted():
                pass  # the parser accepts a riichi whose discard is not ronned
            case Win():
                self.need(k, ev).win(ev, self.players)
            case RoundDraw():
                self.need(k, ev).draw(ev, self.players)
            case GameEnd():
                c = ev.claims
                if c.final_scores is not None and c.results is not None:
                    sc: list[float] = []
                    for final, result in zip(c.final_scores, c.results, strict=True):
                        sc += [final, result]
                    self.doc["sc"] = sc
                elif c.final_scores is not None:
                    # Final scores without result points (mjai's end_game): ``sc``
                    # pairs the two, so they go in mjaudit's own key, read back by
                    # the reader where there is no ``sc``.
                    self.doc["final_scores"] = list(c.final_scores)
            case Presence():
                # One before the first deal is written at step 0 of the first hand:
                # the JSON ties every connection entry to a kyoku.
                self.connections.append(
                    {
                        "what": 1 if ev.connected else 0,
                        "log": max(len(self.kyoku) - 1, 0),
                        "who": ev.seat,
                        "step": k.steps if k is not None else 0,
                    }
                )
            case _:
                assert_never(ev)

    @staticmethod
    def need(k: _Kyoku | None, ev: Event) -> _Kyoku:
        if k is None:
            raise ValueError(f"{ev.pos}: {type(ev).__name__} before the first hand")
        return k

    def document(self) -> dict[str, Any]:
        doc = dict(self.doc)
        names = doc.pop("name", [""] * 4)
        rule = doc.pop("rule", {"disp": ""})
        sc = doc.pop("sc", None)
        final_scores = doc.pop("final_scores", None)
        extra: dict[str, Any] = {k: doc.pop(k) for k in ("dan", "rate", "sx") if k in doc}
        out: dict[str, Any] = {**doc, "log": [k.array() for k in self.kyoku]}
        if self.connections:
            out["connection"] = self.connections
        out["rule"] = rule
        if "lobby" in doc:
            out["lobby"] = out.pop("lobby")
        out.update(extra)
        if sc is not None:
            out["sc"] = sc
        if final_scores is not None:
            out["final_scores"] = final_scores
        out["name"] = names
        return out


def write_tenhou_json(log: GameLog) -> bytes:
    """One game as a tenhou.net/6 JSON document (UTF-8, one line).

    ``parse_tenhou_json(write_tenhou_json(log), path)`` gives back the events of
    ``log`` apart from source positions and what the JSON cannot hold: tile ids,
    dice, the winning hand and tile, the fu of a limit hand, the hands shown at a
    draw, the scores on a riichi, and whether a game without a final ``sc`` was
    finished. A cut hand (no result) cannot be written (``ValueError``).
    """
    w = _Writer(log)
    for ev in log.events:
        w.add(ev)
    return json.dumps(w.document(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
