"""Format-neutral events -> mjai JSON lines (the inverse of ``parse_mjai``).

The output is the fullest dialect of ../shared/reference/mjai-format.md: gimite's
``hora`` fields (``pai``, ``hora_tehais``, ``yakus``, ``fu``, ``fan``,
``hora_points``, ``uradora_markers``, ``deltas``, ``pao``) and ``ryukyoku`` fields
(``reason``, ``tenpais``, ``tehais``, ``deltas``), plus the ``scores`` and
``kyotaku`` of ``start_kyoku`` that libriichi requires. Each field is written only
when the events carry the claim; nothing is completed or judged here. One thing
is read off the events themselves: gimite names every dragon yakuhai
``sangenpai``, and which dragon it is, only the winner's hand says (§3), as it says
whether a yakuman is the double form (one name for both); when the source has no
hand (Tenhou JSON), the winner's concealed tiles as the events leave them and the
winning tile (the last discard, kakan or draw) are written for such a win.

What mjai cannot hold is left out: tile ids, dice, the wall seed, disconnections
(:class:`Presence`), the limit band of a win (its ``fan`` and ``hora_points`` say
it), whether a yakuman is the double form (gimite has one name for both, §3; the
points say it) and the uma of the final result. Kita is written as RiichiEnv's
``kita`` event (§2.11).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
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
    Presence,
    RiichiAccepted,
    RiichiDeclared,
    RoundDraw,
    RoundStart,
    Win,
)
from mjaudit.melds import Meld, MeldKind
from mjaudit.tiles import Tile
from mjaudit.yaku import Yaku
from parsers.mjai_names import DRAGONS, WIND_YAKU, YAKU_NAMES, YAKUMAN_FAN
from parsers.tenhou_json_names import mahjongsoul_keys

__all__ = ["mjai_tile", "write_mjai"]

_REASON_NAMES = {
    DrawReason.EXHAUSTIVE: "fanpai",
    DrawReason.NAGASHI_MANGAN: "nagashimangan",
    DrawReason.KYUUSHU: "kyushukyuhai",
    DrawReason.SUUCHA_RIICHI: "suchareach",
    DrawReason.SANCHAHOU: "sanchaho",
    DrawReason.SUUKAIKAN: "sukaikan",
    DrawReason.SUUFON_RENDA: "sufonrenta",
    # mjai.app's penalty for a bot's invalid move (mjai-format.md §6.2), as it writes it.
    DrawReason.PENALTY: "error",
}
# The double yakuman forms have no name of their own in gimite (§3).
_DOUBLE_FORMS = {
    Yaku.SUUANKOU_TANKI: Yaku.SUUANKOU,
    Yaku.JUNSEI_CHUUREN: Yaku.CHUUREN,
    Yaku.KOKUSHI_13: Yaku.KOKUSHI,
}
_NAME_OF: dict[Yaku, str] = {y: name for name, y in YAKU_NAMES.items()}
for _name, _winds in WIND_YAKU.items():
    _NAME_OF.update({y: _name for y in _winds})
_NAME_OF.update({y: "sangenpai" for y in DRAGONS})
_TENHOU_ID = re.compile(r"^\d{10}gm-[0-9a-f]{4}-\d{4}-[0-9a-f]{8}$")


def mjai_tile(tile: Tile) -> str:
    """``Tile('0p')`` -> ``"5pr"``, ``Tile('5z')`` -> ``"P"`` (mjai-format.md §1)."""
    if tile.kind >= 27:
        return "ESWNPFC"[tile.kind - 27]
    suit, rank = divmod(tile.kind, 9)
    return f"{rank + 1}{'mps'[suit]}{'r' if tile.red else ''}"


def _tiles(group: tuple[Tile, ...] | list[Tile]) -> list[str]:
    return [mjai_tile(t) for t in group]


def _yaku_name(yaku: Yaku, ev: Win) -> str:
    name = _NAME_OF.get(_DOUBLE_FORMS.get(yaku, yaku))
    if name is None:
        raise ValueError(f"{ev.pos}: yaku {yaku.name} has no mjai name")
    return name


def _without(group: tuple[Tile, ...], tile: Tile) -> list[Tile]:
    rest = list(group)
    rest.remove(tile)
    return rest


class _Writer:
    def __init__(self, players: int) -> None:
        self.players = players
        self.lines: list[dict[str, Any]] = []
        self.in_round = False
        self.concealed: list[list[Tile]] = [[] for _ in range(4)]
        self.last_tile: Tile | None = None

    def seats(self, values: tuple[int, ...]) -> list[int]:
        return list(values[:4])

    def start(self, ev: GameStart) -> None:
        line: dict[str, Any] = {"type": "start_game"}
        hint = ev.rules_hint
        if _TENHOU_ID.match(ev.game_id):
            line["uri"] = f"http://tenhou.net/0/?log={ev.game_id}"
        line["names"] = [p.name for p in ev.players[: self.players]]
        if hint.aka is not None:
            line["aka_flag"] = hint.aka
        if hint.hanchan is not None:
            line["kyoku_first"] = 0 if hint.hanchan else 4
        if hint.platform == "mahjongsoul":
            # mjaudit's own key, as in Tenhou JSON's rule.mahjongsoul: the room, its
            # length (one hand, one round) and its stated rules, which mjai cannot say,
            # so that the game is audited under its record's rules.
            line["mahjongsoul"] = mahjongsoul_keys(hint)
        self.lines.append(line)

    def round_start(self, ev: RoundStart) -> None:
        self.end_round()
        self.in_round = True
        self.concealed = [list(h) for h in ev.hands] + [[] for _ in range(4 - len(ev.hands))]
        if not 0 <= ev.round_index < 16:
            raise ValueError(f"{ev.pos}: round {ev.round_index} has no mjai bakaze")
        self.lines.append(
            {
                "type": "start_kyoku",
                "bakaze": "ESWN"[ev.round_index // 4],
                "kyoku": ev.round_index % 4 + 1,
                "honba": ev.honba,
                "kyotaku": ev.riichi_sticks,
                "oya": ev.dealer,
                "dora_marker": mjai_tile(ev.dora_indicator),
                "scores": list(ev.scores),
                "tehais": [_tiles(h) for h in ev.hands[: self.players]],
            }
        )

    def end_round(self) -> None:
        if self.in_round and self.lines[-1]["type"] in ("hora", "ryukyoku"):
            self.lines.append({"type": "end_kyoku"})
        self.in_round = False

    def take(self, seat: int, group: list[Tile]) -> None:
        for t in group:
            if t in self.concealed[seat]:
                self.concealed[seat].remove(t)

    def meld(self, ev: DeclareMeld) -> None:
        m: Meld = ev.meld
        kind = m.kind
        if m.added is not None:
            self.take(ev.seat, [m.added])
            self.last_tile = m.added
        elif m.called is not None:
            self.take(ev.seat, _without(m.tiles, m.called))
        else:
            self.take(ev.seat, list(m.tiles))
            if kind is MeldKind.KITA:
                self.last_tile = m.tiles[0]  # a ron next robs it
        line: dict[str, Any] = {"type": kind.value, "actor": ev.seat}
        if kind in (MeldKind.CHI, MeldKind.PON, MeldKind.DAIMINKAN):
            if m.called is None or m.from_seat is None:
                raise ValueError(f"{ev.pos}: {m} has no called tile or source seat")
            line["target"] = m.from_seat
            line["pai"] = mjai_tile(m.called)
            line["consumed"] = _tiles(_without(m.tiles, m.called))
        elif kind is MeldKind.KAKAN:
            if m.added is None:
                raise ValueError(f"{ev.pos}: {m} has no added tile")
            line["pai"] = mjai_tile(m.added)
            line["consumed"] = _tiles(_without(m.tiles, m.added))
        elif kind is MeldKind.ANKAN:
            line["consumed"] = _tiles(m.tiles)
        elif kind is MeldKind.KITA:
            line["pai"] = mjai_tile(m.tiles[0])
        else:
            assert_never(kind)
        self.lines.append(line)

    def win(self, ev: Win) -> None:
        c = ev.claims
        if c.yaku_unread is not None:
            # Written without them, the win would claim no yaku at all.
            raise ValueError(
                f"{ev.pos}: the win of seat {ev.seat} lists {c.yaku_unread}, which cannot "
                "be read, so its yaku cannot be written as the log has them"
            )
        line: dict[str, Any] = {"type": "hora", "actor": ev.seat, "target": ev.from_seat}
        win_tile, full_hand = c.win_tile, c.hand
        dragons = c.yaku is not None and any(y in DRAGONS for y, _ in c.yaku)
        # A double form (suuankou tanki, ...) has the single form's name (§3): only
        # the hand tells them apart.
        double = c.yakuman is not None and any(y in _DOUBLE_FORMS for y in c.yakuman)
        if full_hand is None and (dragons or double) and self.last_tile is not None:
            win_tile = self.last_tile
            extra = [] if ev.tsumo else [win_tile]
            full_hand = (*self.concealed[ev.seat], *extra)
        if win_tile is not None:
            line["pai"] = mjai_tile(win_tile)
        if c.ura_indicators is not None:
            line["uradora_markers"] = _tiles(c.ura_indicators)
        if full_hand is not None:
            hand = list(full_hand)
            # Like gimite's converter: the winning tile is never in hora_tehais.
            if win_tile is not None and win_tile in hand:
                hand = _without(full_hand, win_tile)
            line["hora_tehais"] = _tiles(hand)
        if c.yakuman is not None:
            line["yakus"] = [[_yaku_name(y, ev), YAKUMAN_FAN] for y in c.yakuman]
            line["fan"] = YAKUMAN_FAN * len(c.yakuman)
        elif c.yaku is not None:
            # gimite lists no yaku worth 0 (ura dora 0 is restored by the parser).
            line["yakus"] = [[_yaku_name(y, ev), han] for y, han in c.yaku if han]
        if c.fu is not None:
            line["fu"] = c.fu
        if c.han is not None:
            line["fan"] = c.han
        if c.points is not None:
            line["hora_points"] = c.points
        if c.deltas is not None:
            line["deltas"] = self.seats(c.deltas)
        if c.pao_seat is not None:
            line["pao"] = c.pao_seat
        self.lines.append(line)

    def draw(self, ev: RoundDraw) -> None:
        c = ev.claims
        line: dict[str, Any] = {"type": "ryukyoku", "reason": _REASON_NAMES[ev.reason]}
        shown = dict(c.hands)
        if c.tenpai is not None or shown:
            line["tehais"] = [
                _tiles(shown[s]) if s in shown else ["?"] * 13 for s in range(self.players)
            ]
        if c.tenpai is not None:
            line["tenpais"] = [s in c.tenpai for s in range(self.players)]
        if c.deltas is not None:
            line["deltas"] = self.seats(c.deltas)
        self.lines.append(line)

    def add(self, ev: Event) -> None:
        match ev:
            case GameStart():
                self.start(ev)
            case RoundStart():
                self.round_start(ev)
            case DrawTile():
                self.concealed[ev.seat].append(ev.tile)
                self.last_tile = ev.tile
                self.lines.append({"type": "tsumo", "actor": ev.seat, "pai": mjai_tile(ev.tile)})
            case Discard():
                self.take(ev.seat, [ev.tile])
                self.last_tile = ev.tile
                self.lines.append(
                    {
                        "type": "dahai",
                        "actor": ev.seat,
                        "pai": mjai_tile(ev.tile),
                        "tsumogiri": ev.tsumogiri,
                    }
                )
            case DeclareMeld():
                self.meld(ev)
            case DoraReveal():
                self.lines.append({"type": "dora", "dora_marker": mjai_tile(ev.indicator)})
            case RiichiDeclared():
                self.lines.append({"type": "reach", "actor": ev.seat})
            case RiichiAccepted():
                line: dict[str, Any] = {"type": "reach_accepted", "actor": ev.seat}
                if ev.scores is not None:
                    line["scores"] = list(ev.scores)
                self.lines.append(line)
            case Win():
                self.win(ev)
            case RoundDraw():
                self.draw(ev)
            case GameEnd():
                self.end_round()
                end: dict[str, Any] = {"type": "end_game"}
                if ev.claims.final_scores is not None:
                    end["scores"] = list(ev.claims.final_scores)
                self.lines.append(end)
            case Presence():
                pass  # mjai records no disconnections
            case _:
                assert_never(ev)


def _lines(log: GameLog) -> Iterator[str]:
    w = _Writer(log.players)
    for ev in log.events:
        w.add(ev)
    w.end_round()
    for line in w.lines:
        text = json.dumps(line, ensure_ascii=False, separators=(",", ":"))
        # Characters Python counts as line breaks must not split an event's line.
        for ch in "\x85\u2028\u2029":
            text = text.replace(ch, f"\\u{ord(ch):04x}")
        yield text


def write_mjai(log: GameLog) -> bytes:
    """One game as mjai JSON lines (UTF-8, one event per line, a newline at the end).

    ``parse_mjai(write_mjai(log), path)`` gives back the events of ``log`` apart
    from their source positions and what mjai cannot hold (see the module doc).
    A claim mjai has no field for is never an error; a win with a yaku mjai has no
    name for is (``ValueError``, naming the event).
    """
    return ("\n".join(_lines(log)) + "\n").encode("utf-8")
